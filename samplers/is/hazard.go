package is

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// GaussianWeightMoment returns the k-th moment E_q[ω^k] of the importance
// weight ω = p(θ)/q(θ) under q, for the target p = N(0, 1/ν_p) and proposal
// q = N(0, 1/ν_q) with equal means (Beal (2003) eqs. (4.117)–(4.121)):
//
//	E_q[ω^k] = ∫ p^k q^(1−k) dθ = ν_p^(k/2) ν_q^((1−k)/2) (k ν_p − (k−1) ν_q)^(−1/2)
//
// when k ν_p > (k−1) ν_q, and +Inf otherwise. k = 2 gives the second moment
// behind eq. (4.121); k = 4 decides whether a Monte Carlo estimate of the
// weight variance has finite variance itself. It panics unless k ≥ 1 and
// both precisions are positive and finite.
func GaussianWeightMoment(k, nuP, nuQ float64) float64 {
	checkPrec(nuP, nuQ)
	if !(k >= 1) || math.IsInf(k, 1) {
		panic(badParam)
	}
	c := k*nuP - (k-1)*nuQ
	if !(c > 0) {
		return math.Inf(1)
	}
	return math.Exp(k/2*math.Log(nuP) + (1-k)/2*math.Log(nuQ) - 0.5*math.Log(c))
}

// GaussianWeightVariance returns the variance of the importance weights for
// the target N(0, 1/ν_p) and proposal N(0, 1/ν_q), Beal (2003) eq. (4.121)
// (../shared/seeds/000_055f6e591db3cc60.txt lines 3070–3087):
//
//	var(ω) = ν_p ν_q^(−1/2) (2ν_p − ν_q)^(−1/2) − 1   for 2ν_p > ν_q,
//	var(ω) = +Inf                                    for 2ν_p ≤ ν_q.
//
// It depends on the precisions only through ν_q/ν_p: a proposal more than
// twice as precise as the target (lighter tails) gives infinite variance. It
// panics unless both precisions are positive and finite.
func GaussianWeightVariance(nuP, nuQ float64) float64 {
	return GaussianWeightMoment(2, nuP, nuQ) - 1
}

func checkPrec(nuP, nuQ float64) {
	if !(nuP > 0) || !(nuQ > 0) || math.IsInf(nuP, 1) || math.IsInf(nuQ, 1) {
		panic(badParam)
	}
}

// GaussianWeightVarianceMC returns the unbiased sample variance of n
// importance weights ω = p(θ)/q(θ), θ ~ q, for the normalised target
// p = N(0, 1/ν_p) and the proposal q = N(0, 1/ν_q), drawn with the Gaussian
// proposal of this package: the Monte Carlo counterpart of
// GaussianWeightVariance. Where eq. (4.121) is infinite the estimate is
// finite but does not converge as n grows. It panics if n < 2.
func GaussianWeightVarianceMC(nuP, nuQ float64, n int, rnd *rand.Rand) float64 {
	checkPrec(nuP, nuQ)
	if n < 2 {
		panic(noSamples)
	}
	q := univariate(nuQ)
	p := univariate(nuP)
	theta := make([]float64, 1)
	// Welford's running mean and sum of squared deviations.
	var mean, ss float64
	for i := 1; i <= n; i++ {
		w := math.Exp(LogWeight(theta, q, p, rnd))
		d := w - mean
		mean += d / float64(i)
		ss += d * (w - mean)
	}
	return ss / float64(n-1)
}

// univariate returns N(0, 1/nu) as a Gaussian proposal.
func univariate(nu float64) *Gaussian {
	var c mat.Cholesky
	if !c.Factorize(mat.NewSymDense(1, []float64{1 / nu})) {
		panic(badParam)
	}
	return NewGaussian([]float64{0}, &c)
}

// HazardCurve returns the data of the extra figure of the chapter 4 spec
// (§3.10): for each ratio ν_q/ν_p in ratios (with ν_p = 1), the closed-form
// weight variance of eq. (4.121) (+Inf for ratios ≥ 2) and a Monte Carlo
// estimate from n draws (GaussianWeightVarianceMC), the ratios taken in
// order from the one stream rnd. It panics if a ratio is not positive and
// finite or n < 2.
func HazardCurve(ratios []float64, n int, rnd *rand.Rand) (exact, mc []float64) {
	exact = make([]float64, len(ratios))
	mc = make([]float64, len(ratios))
	for i, r := range ratios {
		exact[i] = GaussianWeightVariance(1, r)
		mc[i] = GaussianWeightVarianceMC(1, r, n, rnd)
	}
	return exact, mc
}
