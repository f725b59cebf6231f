package bnn

import (
	"math"

	"gonum.org/v1/gonum/integrate/quad"
)

// The expectations of the activation g(a) = erf(a/√2) = 2Φ(a) − 1 and of
// its square under a ~ N(μ, σ²), which the diagonal-Gaussian q(w) of
// Lawrence's section 5.4.2 needs (Appendix C, eqs. C.30-C.34).
//
// The mean is eq. C.32 (identity C.31): ⟨g(a)⟩ = g(μ/√(1+σ²)).
//
// The square the text approximates by 1 − exp(−c a²/2), c ≈ 1.24 (eq. C.34,
// Fig. C.1). We use the exact value instead. With Z₁, Z₂ independent
// standard normals, Φ(a)² = P(Z₁ ≤ a, Z₂ ≤ a), so ⟨Φ(a)²⟩ is the
// bivariate normal orthant probability Φ₂(h, h; ρ) with h = μ/√(1+σ²) and
// ρ = σ²/(1+σ²), and Owen's (1956) identity Φ₂(h, h; ρ) = Φ(h) −
// 2T(h, √((1−ρ)/(1+ρ))) gives
//
//	⟨g(a)²⟩ = 4⟨Φ²⟩ − 4⟨Φ⟩ + 1 = 1 − 8 T(h, 1/√(1+2σ²)),
//
// with Owen's T function T(h, a) = (1/2π) ∫₀ᵃ exp(−h²(1+x²)/2)/(1+x²) dx.
// Its derivatives are closed forms (∂T/∂h = −φ(h)(Φ(ah) − ½),
// ∂T/∂a = exp(−h²(1+a²)/2)/(2π(1+a²))), so the gradient of the bound is
// exact and only T's value is a quadrature, of stated error (owenT).

// owenNodes is the size of the Gauss-Legendre rule of owenT.
const owenNodes = 24

// owenCut bounds the integration range of owenT: beyond x = owenCut/|h| the
// factor exp(−h²x²/2) is below exp(−owenCut²/2) ≈ 2·10⁻¹⁶.
const owenCut = 8.5

var owenX, owenW = func() ([]float64, []float64) {
	x, w := make([]float64, owenNodes), make([]float64, owenNodes)
	quad.Legendre{}.FixedLocations(x, w, 0, 1)
	return x, w
}()

// owenT returns Owen's T function T(h, a) for 0 ≤ a ≤ 1, by a 24-point
// Gauss-Legendre rule on [0, min(a, 8.5/|h|)], where the rest of the range
// adds less than 2·10⁻¹⁶·T(h, a)/a. Against an adaptive Gauss-Kronrod
// integral (tolerance 10⁻¹⁵) its absolute error is below 2·10⁻¹⁶ over
// |h| ≤ 40, a ∈ (0, 1] (TestOwenT), so ⟨g²⟩ = 1 − 8T is exact to about
// 2·10⁻¹⁵.
func owenT(h, a float64) float64 {
	h = math.Abs(h)
	if a <= 0 || h > 40 {
		return 0
	}
	l := a
	if h*l > owenCut {
		l = owenCut / h
	}
	h2 := h * h / 2
	var s float64
	for i, t := range owenX {
		x := l * t
		y := 1 + x*x
		s += owenW[i] * math.Exp(-h2*y) / y
	}
	return s * l / (2 * math.Pi)
}

// gMoments returns e1 = ⟨g(a)⟩ and e2 = ⟨g(a)²⟩ for a ~ N(mu, v) (v = σ²),
// and when d is not nil their derivatives d = [∂e1/∂μ, ∂e1/∂v, ∂e2/∂μ,
// ∂e2/∂v].
func gMoments(mu, v float64, d *[4]float64) (e1, e2 float64) {
	s1 := math.Sqrt(1 + v)
	h := mu / s1
	e1 = G(h)
	s2 := math.Sqrt(1 + 2*v)
	a := 1 / s2
	e2 = 1 - 8*owenT(h, a)
	if d == nil {
		return
	}
	dh := 1 / s1                             // ∂h/∂μ
	dhv := -0.5 * h / (1 + v)                // ∂h/∂v
	dav := -a / (1 + 2*v)                    // ∂a/∂v
	gp := GPrime(h)                          // G'(h)
	phi := gp / 2                            // φ(h) = G'(h)/2
	phiA := 0.5 * math.Erfc(-a*h/math.Sqrt2) // Φ(ah)
	tH := -phi * (phiA - 0.5)                // ∂T/∂h
	tA := math.Exp(-h*h*(1+a*a)/2) / (2 * math.Pi * (1 + a*a))
	d[0] = gp * dh
	d[1] = gp * dhv
	d[2] = -8 * tH * dh
	d[3] = -8 * (tH*dhv + tA*dav)
	return
}
