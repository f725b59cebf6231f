package score

import (
	"math"

	"github.com/vbworkbench/vbw/core/dist"
)

// BIC returns ln p(y|θ̂) − (d/2) ln N, for d free parameters and N data
// (eq. 1.49).
func BIC(logLik float64, d int, n float64) float64 {
	return logLik - 0.5*float64(d)*math.Log(n)
}

// CSRow returns one Dirichlet row's contribution to the Cheeseman-Stutz
// score (eq. 2.133 with Dirichlet priors):
//
//	ln ∫ Dir(θ|u) Π_j θ_j^{N̂_j} dθ − Σ_j N̂_j ln θ̂_j,
//
// i.e. the Dirichlet-multinomial evidence of the expected counts N̂ minus
// their complete-data log-likelihood at θ̂, with 0·ln 0 = 0 (an ML entry
// that is exactly 0 carries no expected count). The full score is
// ln p(y|θ̂) plus the sum of CSRow over every row of every parameter.
func CSRow(u, counts, theta []float64) float64 {
	s := dist.DirichletLogMarginalCounts(u, counts)
	for j, n := range counts {
		if n != 0 {
			s -= n * math.Log(theta[j])
		}
	}
	return s
}

// BICp returns the BIC score with the log prior density at θ̂ added,
// ln p(y|θ̂) + ln p(θ̂) − (d/2) ln N, the "BICp" of Beal (2003) chapter 6
// (seed text line 4718: BIC "with the prior term included", cf. line 4388).
func BICp(logLik, logPrior float64, d int, n float64) float64 {
	return BIC(logLik, d, n) + logPrior
}

// CSDagger returns the Cheeseman-Stutz score without the assumption d = d′
// of the complete- and incomplete-data dimensionalities: the two BIC-type
// terms of eq. 6.30, −(d/2) ln N + (d′/2) ln N, no longer cancel, and
//
//	ln p_CS† = ln p_CS + (d′ − d)/2 · ln N
//
// (section 6.5.2, seed text lines 4985-4986).
func CSDagger(cs, dPrimeMinusD, n float64) float64 {
	return cs + 0.5*dPrimeMinusD*math.Log(n)
}
