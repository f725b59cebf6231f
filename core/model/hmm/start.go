package hmm

import (
	"fmt"
	"math/rand/v2"
)

// DefaultStartIterations is the number of Baum-Welch iterations RandomStart
// is meant to run: enough for the states to specialise, too few for them
// to settle into a maximum-likelihood solution (see RandomStart).
const DefaultStartIterations = 20

// RandomStart returns a random initial q(θ) for VBEM with prior u and k
// hidden states: θ is drawn as the thesis draws its ML initialisations
// (RandomParams: uniform components, normalised; Beal 2003 L2129), then
// improved by iterations Baum-Welch iterations (each an E and an M step,
// eqs. 3.16-3.35), and q(θ) is the VBM step from the exact E step at the
// result, w = u + N̂ (eqs. 3.55, 3.57, 3.59): the Cheeseman-Stutz point of
// that θ (PosteriorFromCounts, Corollary 2.5). With iterations = 0 the
// first q(s) is the exact posterior at the random θ itself. The draws use
// rnd only, so a seed fixes the result.
//
// Why a few Baum-Welch iterations: VBEM started from a random q(θ) prunes
// states before they have specialised (its E step discounts weakly used
// states through ψ(w), eqs. 3.66-3.71), while Baum-Welch run to
// convergence commits all k states to one maximum-likelihood solution that
// VB then cannot leave. On the thesis's 21 strings (k = 12, priors of
// strength 1, 200 restarts) DefaultStartIterations makes 14% of the
// restarts reach the best F found (−251.02) and two thirds recover the
// structure of Figure 3.3; from random means with strength 10 none reach
// it and a sixth recover the structure, from converged Baum-Welch 0.5% and
// 29%. The measurement is TestRandomStarts in experiments/chapter3. On
// data from a random unstructured HMM the short ML phase does not help
// (its median best of 5 is then 8 nats below that of random means; same
// test).
//
// It returns an error if u does not have k and d.P entries, if iterations
// is negative, or if a sequence becomes impossible (ErrImpossible; the
// random θ has no zeros, so only underflow can cause it).
func RandomStart(d Data, u Prior, k, iterations int, rnd *rand.Rand) (Posterior, error) {
	if err := u.Validate(k, d.P); err != nil {
		return Posterior{}, err
	}
	if iterations < 0 {
		return Posterior{}, fmt.Errorf("hmm: RandomStart with %d Baum-Welch iterations, want ≥ 0", iterations)
	}
	em := NewEM(d, RandomParams(k, d.P, rnd), nil)
	for i := 0; ; i++ {
		if _, err := em.E(); err != nil {
			return Posterior{}, err
		}
		if i == iterations {
			break
		}
		em.M()
	}
	return PosteriorFromCounts(u, em.Counts()), nil
}
