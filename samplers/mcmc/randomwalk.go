package mcmc

import "math/rand/v2"

// RandomWalk is the symmetric Gaussian random-walk proposal
// x′_i = x_i + Sigma·ε_i, ε_i ~ N(0, 1) independently, on real vectors.
// Its proposal density ratio is 0 (the "Metropolis" case of Beal (2003)
// eq. (1.62), g(x, x′) = g(x′, x)).
//
// Sigma may be changed between steps (for example as a function of the
// inverse temperature, chosen in advance and not from the sampled states),
// which keeps each step's transition reversible.
type RandomWalk struct {
	Sigma float64
}

// Propose implements Proposal.
func (r RandomWalk) Propose(dst, x []float64, rnd *rand.Rand) ([]float64, float64) {
	if cap(dst) < len(x) {
		dst = make([]float64, len(x))
	}
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = v + r.Sigma*rnd.NormFloat64()
	}
	return dst, 0
}
