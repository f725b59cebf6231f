package dist

import (
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// WishartMeanLogDetChol returns E[ln|Λ|] = Σ_{i=1..D} ψ((ν+1−i)/2) + D ln 2
// + ln|S| of W(Λ | ν, S) (Wishart.MeanLogDet; PRML (10.65)), with S⁻¹ =
// LLᵀ held through its lower Cholesky factor l (NormalWishartChol's
// convention), so that ln|S| = −ln|LLᵀ|.
func WishartMeanLogDetChol(nu float64, l []float64, d int) float64 {
	return numeric.MultiDigamma(nu/2, d) + float64(d)*math.Ln2 - numeric.CholLogDet(l, d)
}

// NormalWishartUpdate is the conjugate update of a Normal-Wishart q(μ, Λ)
// from weighted statistics of its points (PRML (10.60)–(10.63); the input
// density of D'Souza's mixture of experts, L756): with N the weight of the
// points, x̄ their mean and NS their scatter about x̄,
//
//	β = β₀ + N,  m = (β₀m₀ + N x̄)/β,  ν = ν₀ + N,
//	W⁻¹ = W₀⁻¹ + NS + β₀N/β (x̄ − m₀)(x̄ − m₀)ᵀ,
//
// the prior p given by its Beta (β₀), Nu (ν₀) and Mean (m₀). The statistics
// are taken about a shift c close to x̄ (the component's mean of the last
// update), so that NS = Σ_n r_n (x_n − c)(x_n − c)ᵀ − N(x̄ − c)(x̄ − c)ᵀ
// does not cancel. On entry mean holds c, s1 holds Σ_n r_n (x_n − c) and
// the lower triangle of winv (D×D) holds W₀⁻¹ + Σ_n r_n (x_n − c)(x_n −
// c)ᵀ; with N = 0, x̄ is taken as m₀. On return mean holds m, winv the
// whole W⁻¹, l its lower Cholesky factor (W⁻¹ = LLᵀ) and linv L⁻¹ (lower
// triangular), unless ok is false: W⁻¹ is then not positive definite and
// l, linv are not set. s1 is overwritten; work is scratch of at least D
// elements. It does not allocate.
func NormalWishartUpdate(d int, p NormalWishartChol, nk float64, s1, mean, winv, l, linv, work []float64) (beta, nu float64, ok bool) {
	s1, dx := s1[:d], work[:d]
	// s1 becomes x̄ − c, dx the prior's deviation x̄ − m₀.
	if nk > 0 {
		for a := range s1 {
			s1[a] /= nk
		}
	} else {
		for a := range s1 {
			s1[a] = p.Mean[a] - mean[a]
		}
	}
	beta = p.Beta + nk
	f := p.Beta * nk / beta
	for a := range dx {
		dx[a] = mean[a] + s1[a] - p.Mean[a]
	}
	for a := 0; a < d; a++ {
		for b := 0; b <= a; b++ {
			winv[a*d+b] += f*dx[a]*dx[b] - nk*s1[a]*s1[b]
		}
	}
	for a := 0; a < d; a++ {
		mean[a] = (p.Beta*p.Mean[a] + nk*(mean[a]+s1[a])) / beta
		for b := 0; b < a; b++ {
			winv[b*d+a] = winv[a*d+b]
		}
	}
	nu = p.Nu + nk
	copy(l, winv)
	if !numeric.CholFactor(l, d) {
		return beta, nu, false
	}
	clear(linv)
	for j := 0; j < d; j++ {
		clear(s1)
		s1[j] = 1
		numeric.CholSolveVec(l, d, s1)
		for a := j; a < d; a++ {
			linv[a*d+j] = s1[a]
		}
	}
	return beta, nu, true
}
