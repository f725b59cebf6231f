package boltzmann

import (
	"math"
	"math/rand/v2"
)

// Gibbs is the machine as a target of samplers/mcmc by its method set
// (core never imports samplers): an mcmc.Tempered[[]float64] whose
// tempered density f_β(s) ∝ exp(β φ(s)/T) is the machine at temperature T/β,
// and an mcmc.Sweeper[[]float64] that redraws each free unit in turn from
// P(s_k = +1 | rest) = σ(2β(Σ_j w_kj s_j + b_k)/T), the sampler of the
// original learning algorithm (section 4.3, L1569).
type Gibbs struct {
	M *Machine
	C Clamp
}

// LogPrior is 0: the machine has no prior factor.
func (g Gibbs) LogPrior([]float64) float64 { return 0 }

// LogLik returns φ(s)/T, the unnormalised log-density.
func (g Gibbs) LogLik(s []float64) float64 { return g.M.Phi(s) / g.M.T }

// Sweep redraws every free unit of s in place, in order, and returns s.
func (g Gibbs) Sweep(s []float64, beta float64, r *rand.Rand) []float64 {
	for k := 0; k < g.M.N; k++ {
		if !g.C.free(k) {
			s[k] = g.C[k]
			continue
		}
		a := 2 * beta * g.M.Field(k, s) / g.M.T
		if r.Float64()*(1+math.Exp(-a)) < 1 {
			s[k] = 1
		} else {
			s[k] = -1
		}
	}
	return s
}
