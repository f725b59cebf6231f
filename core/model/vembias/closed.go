package vembias

import "math"

// KLClosed returns the printed closed forms of the optimal KL divergences
// for two observed dimensions, eqs. (1.36)-(1.39) (L246-L254): with
// a_k = σ_y² + |w_k|²σ_x², Δ = φ₁ − φ₂ and
//
//	γ = ((|w₁|²+|w₂|²)σ_x²σ_y² + σ_x⁴|w₁|²|w₂|² sin²Δ + (1+λ²)σ_y⁴)² − (λσ_y²σ_x²(|w₁|²+|w₂|²) + 2λσ_y⁴)²,
//
// KL_MF = ½ ln a₁²a₂²/γ, KL_FC = ½ ln (a₁² − λ²σ_y⁴)(a₂² − λ²σ_y⁴)/γ and
// KL_FT = ½ ln (σ_x⁴|w₁|²|w₂|² sin²Δ + (|w₁|²+|w₂|²)σ_x²σ_y² + σ_y⁴)²/γ.
// SSM.KL computes the same quantities from the corrected eq. (1.35); the
// tests compare the two. NaN for ML and MAP.
func KLClosed(th Params, q Approx) float64 {
	lam, sx, sy := th[Lambda], th[SigmaX2], th[SigmaY2]
	n1, n2 := th[Norm1]*th[Norm1], th[Norm2]*th[Norm2]
	sin := math.Sin(th[Phi1] - th[Phi2])
	e := sx * sx * n1 * n2 * sin * sin
	g1 := (n1+n2)*sx*sy + e + (1+lam*lam)*sy*sy
	g2 := lam*sy*sx*(n1+n2) + 2*lam*sy*sy
	gamma := g1*g1 - g2*g2
	a1, a2 := sy+n1*sx, sy+n2*sx
	switch q {
	case MF:
		return 0.5 * math.Log(a1*a1*a2*a2/gamma)
	case FC:
		l2 := lam * lam * sy * sy
		return 0.5 * math.Log((a1*a1-l2)*(a2*a2-l2)/gamma)
	case FT:
		f := e + (n1+n2)*sx*sy + sy*sy
		return 0.5 * math.Log(f*f/gamma)
	}
	return math.NaN()
}
