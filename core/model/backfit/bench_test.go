package backfit_test

import (
	"testing"

	"github.com/vbworkbench/vbw/core/model/backfit"
)

// BenchmarkVBIteration times one iteration (E and M) of Bayesian
// backfitting with ARD at N = 5000, d = 105, the size of the high-
// dimensional regression of Fig 3.15 (L1019-1032). After its first few
// dozen passes over the design a fit's residuals come from FᵀF (built once,
// before the timer), 2d² = 2.2·10⁴ flops over an 88 kB matrix;
// BenchmarkVBIterationPass times the pass that 2N ≤ d keeps, 4Nd flops (at
// N = 50, d = 105).
func BenchmarkVBIteration(b *testing.B) { benchIteration(b, 5000, 2*105*105) }

// BenchmarkVBIterationPass: as BenchmarkVBIteration, at N = 50 < d/2.
func BenchmarkVBIterationPass(b *testing.B) { benchIteration(b, 50, 4*50*105) }

func benchIteration(b *testing.B, n int, flops float64) {
	p := synth(b, n, 105, 5, 0.1, 1)
	m, err := backfit.NewVB(p, backfit.Prior{A: 1e-4, B: 1e-4}, backfit.Settings{ARD: true})
	if err != nil {
		b.Fatal(err)
	}
	for range 100 { // past the passes before FᵀF where 2N > d
		if _, err := m.E(); err != nil {
			b.Fatal(err)
		}
		m.M()
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
