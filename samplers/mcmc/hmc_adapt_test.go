package mcmc

import (
	"math/rand/v2"
	"testing"
)

// Dual averaging from a step ten times too large or too small drives the
// mean acceptance probability of the adapting transitions to the target
// (what its update guarantees: the running mean of δ − a_t tends to 0),
// and the averaged step ε̄ accepts at least about as often (it is the
// geometric mean of the iterates, a little below the noisy ε_t).
func TestDualAveraging(t *testing.T) {
	g := gauss2{r: 0.9}
	for _, eps0 := range []float64{3, 0.03} {
		for _, target := range []float64{0.65, 0.8, 0.9} {
			rnd := rand.New(rand.NewPCG(2, uint64(100*target)))
			da := NewDualAveraging(eps0, target)
			eps := eps0
			h := &HMC{Target: g, Steps: 10, StepSize: func(float64) float64 { return eps }}
			pt := NewPoint[[]float64](g, []float64{1, 1})
			var late float64
			for i := range 2000 {
				h.Step(&pt, 1, rnd)
				eps = da.Update(h.LastAcceptProb)
				if i >= 1000 {
					late += h.LastAcceptProb / 1000
				}
			}
			if late < target-0.03 || late > target+0.03 {
				t.Errorf("ε₀ = %g, target %g: mean acceptance probability %.3f while adapting", eps0, target, late)
			}
			eps = da.Final()
			h.SumAcceptProb, h.Stats = 0, Stats{}
			for range 4000 {
				h.Step(&pt, 1, rnd)
			}
			if m := h.SumAcceptProb / float64(h.Stats.Proposed); m < target-0.05 || m > 0.99 {
				t.Errorf("ε₀ = %g, target %g: mean acceptance probability %.3f with ε̄ = %.3f, want in [target − 0.05, 0.99]", eps0, target, m, eps)
			}
		}
	}
}
