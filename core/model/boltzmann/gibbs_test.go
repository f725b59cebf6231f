package boltzmann_test

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/model/boltzmann"
	"github.com/vbworkbench/vbw/core/rng"
)

// TestGibbsMoments: the Gibbs averages of a 5-unit machine match the exact
// moments within 5 Monte Carlo standard errors (each |s_i s_j| ≤ 1, so
// the standard error is at most √(τ/n) with τ the integrated
// autocorrelation time, taken ≤ 10 for these weak weights).
func TestGibbsMoments(t *testing.T) {
	r := rng.New(1, "boltzmann", "gibbs")
	m := boltzmann.NewRandom(5, 0.5, r)
	ex, err := m.Exact(nil)
	if err != nil {
		t.Fatal(err)
	}
	const sweeps = 200000
	g := boltzmann.Gibbs{M: m}
	s := []float64{1, 1, 1, 1, 1}
	mo := boltzmann.Moments{Pair: make([]float64, 25)}
	for it := 0; it < sweeps+1000; it++ {
		g.Sweep(s, 1, r)
		if it < 1000 {
			continue
		}
		for i := 0; i < 5; i++ {
			for j := 0; j < 5; j++ {
				mo.Pair[i*5+j] += s[i] * s[j] / sweeps
			}
		}
	}
	tol := 5 * math.Sqrt(10.0/sweeps)
	for i := range mo.Pair {
		if d := math.Abs(mo.Pair[i] - ex.Pair[i]); d > tol {
			t.Errorf("pair %d: Gibbs %g, exact %g (tolerance %g)", i, mo.Pair[i], ex.Pair[i], tol)
		}
	}
}
