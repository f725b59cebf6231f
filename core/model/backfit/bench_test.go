package backfit_test

import (
	"testing"

	"github.com/vbworkbench/vbw/core/model/backfit"
)

// BenchmarkVBIteration times one iteration (E and M) of Bayesian
// backfitting with ARD at N = 5000, d = 105, the size of the high-
// dimensional regression of Fig 3.15 (L1019-1032): two length-d vector
// kernels per point, 4Nd = 2.1·10⁶ flops over a 4.2 MB design.
func BenchmarkVBIteration(b *testing.B) {
	p := synth(b, 5000, 105, 5, 0.1, 1)
	m, err := backfit.NewVB(p, backfit.Prior{A: 1e-4, B: 1e-4}, backfit.Settings{ARD: true})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.E(); err != nil {
			b.Fatal(err)
		}
		m.M()
	}
	b.ReportMetric(4*5000*105/float64(b.Elapsed().Nanoseconds())*float64(b.N), "flop/ns")
}
