package backfit_test

import (
	"testing"

	"github.com/vbworkbench/vbw/core/model/backfit"
)

// BenchmarkVBIteration times one iteration (E and M) of Bayesian
// backfitting with ARD at N = 5000, d = 105, the size of the high-
// dimensional regression of Fig 3.15 (L1019-1032). With N ≥ 2d the
// residuals come from FᵀF (built once, before the timer), 2d² = 2.2·10⁴
// flops over an 88 kB matrix; BenchmarkVBIterationPass times the pass over
// the design that N < 2d takes, 4Nd flops (here at N = 200, d = 105).
func BenchmarkVBIteration(b *testing.B) { benchIteration(b, 5000, 2*105*105) }

// BenchmarkVBIterationPass: as BenchmarkVBIteration, at N = 200 < 2d.
func BenchmarkVBIterationPass(b *testing.B) { benchIteration(b, 200, 4*200*105) }

func benchIteration(b *testing.B, n int, flops float64) {
	p := synth(b, n, 105, 5, 0.1, 1)
	m, err := backfit.NewVB(p, backfit.Prior{A: 1e-4, B: 1e-4}, backfit.Settings{ARD: true})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := m.E(); err != nil { // builds FᵀF where N ≥ 2d
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.E(); err != nil {
			b.Fatal(err)
		}
		m.M()
	}
	b.ReportMetric(flops/float64(b.Elapsed().Nanoseconds())*float64(b.N), "flop/ns")
}
