package vembias

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/vb"
)

// Factor is the motivating example of T&S §1.2.1 (eqs. 1.13-1.15): x ~
// N(0, 1), y | x ~ N(x, σ_y²), one observation y, and the one parameter
// σ_y² learnt by EM (QVar = 0: q(x) is the exact posterior, eq. 1.14) or
// by vEM with q(x) = N(μ_q, σ_q²) of fixed variance σ_q² = QVar (eq. 1.15).
// It implements vb.Model: E sets q and returns the free energy, M sets
// σ_y² = (y − μ_q)² + σ_q² (L86). Build it with NewFactor.
type Factor struct {
	Y    float64 // the observation
	QVar float64 // σ_q² of vEM; 0 for exact EM
	S2   float64 // the current σ_y²
	Mu   float64 // the current μ_q
	V    float64 // the current variance of q
}

// NewFactor returns EM (qVar = 0) or vEM (qVar > 0) on the observation y
// from σ_y² = s2.
func NewFactor(y, s2, qVar float64) (*Factor, error) {
	if !(s2 > 0) || qVar < 0 || math.IsNaN(y) || math.IsInf(y, 0) {
		return nil, fmt.Errorf("vembias: factor model: want σ_y² > 0, σ_q² ≥ 0 and a finite y, got %v, %v, %v", s2, qVar, y)
	}
	return &Factor{Y: y, QVar: qVar, S2: s2}, nil
}

// FactorLogLik returns ln p(y | σ_y²) = ln N(y; 0, 1 + σ_y²) (L82).
func FactorLogLik(y, s2 float64) float64 {
	v := 1 + s2
	return -0.5*(ln2Pi+math.Log(v)) - y*y/(2*v)
}

// FactorML returns the maximum-likelihood σ_y² = max(y² − 1, 0) (targets
// Appendix A: the boundary 0 when y² < 1).
func FactorML(y float64) float64 { return math.Max(y*y-1, 0) }

// FactorFree returns the free energy F(q, σ_y²) of q(x) = N(μ, v) (eq.
// 1.2): ⟨ln N(y; x, σ_y²)⟩ + ⟨ln N(x; 0, 1)⟩ + ½ ln(2πe v).
func FactorFree(y, mu, v, s2 float64) float64 {
	lik := -0.5*(ln2Pi+math.Log(s2)) - ((y-mu)*(y-mu)+v)/(2*s2)
	prior := -0.5*ln2Pi - (mu*mu+v)/2
	return lik + prior + 0.5*(ln2Pi+1+math.Log(v))
}

// FactorPosterior returns the exact posterior mean and variance,
// y/(1+σ_y²) and σ_y²/(1+σ_y²) (eq. 1.14).
func FactorPosterior(y, s2 float64) (mu, v float64) { return y / (1 + s2), s2 / (1 + s2) }

// FactorVEMFixedPoint returns the vEM fixed point of σ_y² with q's
// variance qVar: the root of σ² = (yσ²/(1+σ²))² + qVar (L86 with eq. 1.15;
// targets §1.2: 0.4137 for y = 0.4, σ_q² = 0.4), found by bisection on
// [qVar, qVar + y²].
func FactorVEMFixedPoint(y, qVar float64) float64 {
	g := func(s float64) float64 { r := y * s / (1 + s); return r*r + qVar - s }
	lo, hi := qVar, qVar+y*y+1e-12
	for i := 0; i < 200; i++ {
		mid := 0.5 * (lo + hi)
		if g(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return 0.5 * (lo + hi)
}

// E sets μ_q to the posterior mean and the variance to the exact one (EM)
// or to σ_q² (vEM), and returns F(q, σ_y²).
func (f *Factor) E() (vb.Bound, error) {
	f.Mu, f.V = FactorPosterior(f.Y, f.S2)
	if f.QVar > 0 {
		f.V = f.QVar
	}
	F := FactorFree(f.Y, f.Mu, f.V, f.S2)
	return vb.Bound{F: F, Terms: []vb.Term{{Name: "F", Value: F}}}, nil
}

// M sets σ_y² = (y − μ_q)² + v, the maximiser of F with q fixed (L86).
func (f *Factor) M() { f.S2 = (f.Y-f.Mu)*(f.Y-f.Mu) + f.V }
