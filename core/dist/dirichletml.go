package dist

import (
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// DirichletFromMeanLogTo writes into dst the α of the Dirichlet whose
// expected logs are m,
//
//	ψ(α_k) − ψ(α₀) = m_k   for every k,
//
// and reports whether it found one. That Dirichlet is the projection
// argmin_α KL(p ‖ Dir(α)) of any density p on the simplex with
// E_p[ln π_k] = m_k, the moment matching of expectation propagation with
// Dirichlet sites (Minka & Lafferty 2002), and the maximum-likelihood
// Dirichlet of data with mean log m (Minka 2000, "Estimating a Dirichlet
// distribution", §1). The objective
//
//	L(α) = ln Γ(α₀) − Σ_k ln Γ(α_k) + Σ_k (α_k − 1) m_k
//
// is concave; its maximiser is found by Newton's method with the
// diagonal-plus-rank-one Hessian diag(−ψ′(α_k)) + ψ′(α₀)11ᵀ inverted by
// Sherman–Morrison (Minka 2000, eqs. (15)–(18)), each step halved until
// every α_k stays positive and L does not fall by more than its rounding
// (10⁻¹³ of the magnitude of its terms). The start is init when it
// is non-nil (positive), else the Stirling approximation of Minka (2000)
// eq. (23), α₀ ≈ (K − 1)/(2 Σ_k p̄_k (ln p̄_k − m_k)) with p̄ ∝ exp(m).
//
// A solution exists iff Σ_k exp(m_k) < 1 (Jensen's inequality, strict for
// a non-degenerate p); for other m, or when Newton does not converge to
// a relative gradient of 1e-12 within 100 steps (1e-8 where no step can
// raise L beyond its rounding), it returns false and dst holds the last
// iterate. dst must have the length of m; it does not
// allocate.
func DirichletFromMeanLogTo(dst, m, init []float64) bool {
	k := len(m)
	if len(dst) != k || (init != nil && len(init) != k) {
		panic(badDim)
	}
	if k == 1 {
		return false
	}
	var se float64
	for _, v := range m {
		if math.IsNaN(v) || v > 0 {
			return false
		}
		se += math.Exp(v)
	}
	if !(se < 1) {
		return false
	}
	if init != nil {
		copy(dst, init)
	} else {
		var s float64
		for _, v := range m {
			p := math.Exp(v) / se
			s += p * (math.Log(p) - v)
		}
		a0 := float64(k-1) / (2 * s)
		if !(a0 > 0) || math.IsInf(a0, 0) {
			a0 = float64(k)
		}
		for j, v := range m {
			dst[j] = a0 * math.Exp(v) / se
		}
	}
	for _, a := range dst {
		if !(a > 0) || math.IsInf(a, 0) {
			return false
		}
	}
	// size is the magnitude of L's terms at α, the scale of its rounding
	// error: a step is accepted unless L falls by more than that.
	size := func(alpha []float64) float64 {
		var a0, s float64
		for j, a := range alpha {
			a0 += a
			s += math.Abs((a-1)*m[j]) + math.Abs(numeric.LogGamma(a))
		}
		return s + math.Abs(numeric.LogGamma(a0))
	}
	for range 100 {
		var a0 float64
		for _, a := range dst {
			a0 += a
		}
		pa0, z := numeric.Digamma(a0), numeric.Trigamma(a0)
		// b = Σ g_k/q_k / (1/z + Σ 1/q_k), q_k = −ψ′(α_k) (Minka eq. (18)).
		var num, den, gmax, scale float64
		for j, a := range dst {
			g := pa0 - numeric.Digamma(a) + m[j]
			q := -numeric.Trigamma(a)
			num += g / q
			den += 1 / q
			gmax = math.Max(gmax, math.Abs(g))
			scale = math.Max(scale, math.Abs(m[j]))
		}
		if gmax <= 1e-12*(1+scale) {
			return true
		}
		b := num / (1/z + den)
		tol := 1e-13 * (1 + size(dst))
		step := 1.0
		accepted := false
		for range 60 {
			ok := true
			for j, a := range dst {
				g := pa0 - numeric.Digamma(a) + m[j]
				q := -numeric.Trigamma(a)
				if a-step*(g-b)/q <= 0 {
					ok = false
					break
				}
			}
			if ok {
				// L(trial) − L(α), without a buffer for the trial point.
				var dl float64
				var t0 float64
				for j, a := range dst {
					g := pa0 - numeric.Digamma(a) + m[j]
					q := -numeric.Trigamma(a)
					an := a - step*(g-b)/q
					dl += (an-a)*m[j] - numeric.LogGamma(an) + numeric.LogGamma(a)
					t0 += an
				}
				dl += numeric.LogGamma(t0) - numeric.LogGamma(a0)
				if dl >= -tol {
					for j, a := range dst {
						g := pa0 - numeric.Digamma(a) + m[j]
						q := -numeric.Trigamma(a)
						dst[j] = a - step*(g-b)/q
					}
					accepted = true
					break
				}
			}
			step /= 2
		}
		if !accepted {
			// No step raises L beyond its rounding: α is the maximiser to
			// the precision of L unless the gradient says otherwise.
			return gmax <= 1e-8*(1+scale)
		}
	}
	return false
}
