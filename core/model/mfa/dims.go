package mfa

import "math"

// FactorDOF returns d(k) = kp + p − k(k−1)/2, the degrees of freedom of a
// factor analyser with k factors in p dimensions: the loadings and the
// noise, less the rotations Λ → ΛU that leave ΛΛᵀ + Ψ unchanged (Beal
// (2003) eq. (4.5), line 2232).
func FactorDOF(k, p int) int { return k*p + p - k*(k-1)/2 }

// MaxFactors returns the smallest k with d(k) ≥ p(p+1)/2, the number of
// degrees of freedom of a full covariance, k = ⌈p + (1 − √(1+8p))/2⌉ (eqs.
// (4.9)–(4.10), lines 2247–2252; the bracket of the seed is a ceiling,
// targets ch4-mfa.md §1.1). The thesis conjectures that p−1 factors are
// needed once every ψ_q must be positive (line 2256).
func MaxFactors(p int) int {
	k := int(math.Ceil(float64(p) + (1-math.Sqrt(1+8*float64(p)))/2))
	// Guard against rounding of the square root at perfect squares.
	for k > 0 && FactorDOF(k-1, p) >= p*(p+1)/2 {
		k--
	}
	for FactorDOF(k, p) < p*(p+1)/2 {
		k++
	}
	return k
}
