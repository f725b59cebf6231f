package vembias

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// MeanFieldVariances returns the variances of the mean-field approximation
// Π_i q(x_i) to a Gaussian of precision prec (n×n, row-major): 1/(Σ⁻¹)_ii,
// the fixed point of eq. (1.12) (T&S L137: "variational approximations
// between two Gaussians match precisions").
func MeanFieldVariances(prec []float64, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1 / prec[i*n+i]
	}
	return v
}

// MeanFieldMeans runs sweeps of the mean-field updates of eq. (1.12) for a
// Gaussian with precision prec and linear term h (density ∝ exp(−½xᵀΛx +
// hᵀx)) from the means start, in place: m_i = (h_i − Σ_{j≠i} Λ_ij m_j)/Λ_ii.
// The fixed point is the exact mean Λ⁻¹h.
func MeanFieldMeans(prec, h []float64, n int, start []float64, sweeps int) []float64 {
	m := start
	for s := 0; s < sweeps; s++ {
		for i := 0; i < n; i++ {
			r := h[i]
			for j := 0; j < n; j++ {
				if j != i {
					r -= prec[i*n+j] * m[j]
				}
			}
			m[i] = r / prec[i*n+i]
		}
	}
	return m
}

// CorrelatedCov returns Σ = σ₁² e₁e₁ᵀ + σ₂² e₂e₂ᵀ with e₁ = [1, 1]/√2,
// e₂ = [1, −1]/√2 (eq. 1.17 with the erratum of targets §1.4: the second
// term is e₂e₂ᵀ), row-major.
func CorrelatedCov(s1, s2 float64) [4]float64 {
	a, b := (s1+s2)/2, (s1-s2)/2
	return [4]float64{a, b, b, a}
}

// CorrelatedMFVariance returns the mean-field variance of each coordinate
// of eq. (1.17)'s Gaussian, 2σ₁²σ₂²/(σ₁²+σ₂²): eq. (1.18) corrected as in
// targets §1.4 (the printed ½ should be 2), tending to 2σ₂² when σ₁² ≫ σ₂².
func CorrelatedMFVariance(s1, s2 float64) float64 { return 2 * s1 * s2 / (s1 + s2) }

// AR1Precision returns the T×T precision of a stationary AR(1) chain x_t =
// λx_{t−1} + N(0, σ²) with x_1 ~ N(0, σ²/(1−λ²)) (eq. 1.19): tridiagonal
// with diagonal [1, 1+λ², …, 1+λ², 1]/σ² and off-diagonal −λ/σ².
func AR1Precision(lambda, s2 float64, T int) []float64 {
	p := make([]float64, T*T)
	for t := 0; t < T; t++ {
		d := 1 + lambda*lambda
		if t == 0 || t == T-1 {
			d = 1
		}
		if T == 1 {
			d = 1 - lambda*lambda
		}
		p[t*T+t] = d / s2
		if t+1 < T {
			p[t*T+t+1], p[(t+1)*T+t] = -lambda/s2, -lambda/s2
		}
	}
	return p
}

// AR1PriorPredictive returns the mean and variance of the variational
// prior-predictive q_prior(x_t) of eq. (1.21) at an interior step: mean
// λ/(1+λ²)(⟨x_{t−1}⟩ + ⟨x_{t+1}⟩), variance σ²/(1+λ²), whatever the
// uncertainty of the neighbours (L170).
func AR1PriorPredictive(lambda, s2, prev, next float64) (mean, v float64) {
	return lambda / (1 + lambda*lambda) * (prev + next), s2 / (1 + lambda*lambda)
}

// AR1InteriorMFVariance returns the mean-field variance of an interior
// step of a chain with unit marginal variance (σ² = 1 − λ²),
// (1−λ²)/(1+λ²) (Fig 1.3 caption, L181; targets §1.4: a two-step chain
// gives 1 − λ²).
func AR1InteriorMFVariance(lambda float64) float64 {
	return (1 - lambda*lambda) / (1 + lambda*lambda)
}

// GaussianKL returns KL(N(m0, S0) ‖ N(m1, S1)) for n-dimensional Gaussians
// (row-major covariances), used to check the closed forms by Monte Carlo.
func GaussianKL(m0, s0, m1, s1 []float64, n int) (float64, error) {
	l0, l1 := append([]float64(nil), s0...), append([]float64(nil), s1...)
	if !numeric.CholFactor(l0, n) || !numeric.CholFactor(l1, n) {
		return math.NaN(), fmt.Errorf("vembias: GaussianKL: covariance not positive definite")
	}
	inv := make([]float64, n*n)
	numeric.CholInverse(inv, l1, n, make([]float64, n*n))
	var tr, maha float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			tr += inv[i*n+j] * s0[j*n+i]
			maha += (m1[i] - m0[i]) * inv[i*n+j] * (m1[j] - m0[j])
		}
	}
	return 0.5 * (tr + maha - float64(n) + numeric.CholLogDet(l1, n) - numeric.CholLogDet(l0, n)), nil
}
