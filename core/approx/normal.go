package approx

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Normal is the Gaussian N(Mean, Cov) in d = len(Mean) dimensions, Cov a
// flat row-major d×d matrix. It is the form of every approximation of this
// package: Laplace's (PRML §4.4), the minimiser of KL(q‖p) (PRML eq.
// (10.3)), the minimiser of KL(p‖q) (moment matching, PRML eqs.
// (10.17)–(10.19)) and EP's q (PRML eq. (10.184)).
type Normal struct {
	Mean []float64
	Cov  []float64
}

// Dim returns d.
func (n Normal) Dim() int { return len(n.Mean) }

// Var returns Cov_ii.
func (n Normal) Var(i int) float64 { return n.Cov[i*len(n.Mean)+i] }

// chol returns the Cholesky factor of Cov, or false if Cov is not positive
// definite.
func (n Normal) chol() ([]float64, bool) {
	d := n.Dim()
	if len(n.Cov) != d*d {
		return nil, false
	}
	l := append([]float64(nil), n.Cov...)
	return l, numeric.CholFactor(l, d)
}

// Valid reports whether Cov is a positive-definite d×d matrix and the mean
// finite: whether n is a proper density.
func (n Normal) Valid() bool {
	for _, v := range n.Mean {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	_, ok := n.chol()
	return ok
}

// LogDensity returns x ↦ ln N(x | Mean, Cov) with the factorisation done
// once, or an error if Cov is not positive definite.
func (n Normal) LogDensity() (func(x []float64) float64, error) {
	d := n.Dim()
	l, ok := n.chol()
	if !ok {
		return nil, fmt.Errorf("approx: covariance %v is not positive definite", n.Cov)
	}
	c := -0.5*numeric.CholLogDet(l, d) - 0.5*float64(d)*math.Log(2*math.Pi)
	mean := append([]float64(nil), n.Mean...)
	v := make([]float64, d)
	return func(x []float64) float64 {
		for i := range v {
			v[i] = x[i] - mean[i]
		}
		numeric.CholSolveVec(l, d, v)
		var q float64
		for _, e := range v {
			q += e * e
		}
		return c - 0.5*q
	}, nil
}

// Entropy returns H[N] = ½ ln|2πeΣ| (PRML eq. (1.104) in d dimensions), or
// NaN if Cov is not positive definite.
func (n Normal) Entropy() float64 {
	l, ok := n.chol()
	if !ok {
		return math.NaN()
	}
	return 0.5*numeric.CholLogDet(l, n.Dim()) + 0.5*float64(n.Dim())*(1+math.Log(2*math.Pi))
}

// Box returns the box Mean_i ± sd·√Cov_ii, which holds all but a negligible
// part of the mass for sd ≳ 10.
func (n Normal) Box(sd float64) (lo, hi []float64) {
	d := n.Dim()
	lo, hi = make([]float64, d), make([]float64, d)
	for i := range d {
		s := sd * math.Sqrt(n.Var(i))
		lo[i], hi[i] = n.Mean[i]-s, n.Mean[i]+s
	}
	return lo, hi
}

// KLNormal returns KL(q‖p) = ½[tr(Σ_p⁻¹Σ_q) + (μ_p−μ_q)ᵀΣ_p⁻¹(μ_p−μ_q) − d +
// ln|Σ_p| − ln|Σ_q|] (PRML eq. (B.52)'s counterpart for two Gaussians), or
// NaN if either covariance is not positive definite.
func KLNormal(q, p Normal) float64 {
	d := q.Dim()
	lq, okq := q.chol()
	lp, okp := p.chol()
	if !okq || !okp || p.Dim() != d {
		return math.NaN()
	}
	// tr(Σ_p⁻¹Σ_q) = ‖L_p⁻¹L_q‖²_F.
	b := make([]float64, d*d)
	for i := range d {
		for j := 0; j <= i; j++ {
			b[i*d+j] = lq[i*d+j]
		}
	}
	numeric.CholSolve(lp, d, b, d)
	var tr float64
	for _, v := range b {
		tr += v * v
	}
	v := make([]float64, d)
	for i := range v {
		v[i] = p.Mean[i] - q.Mean[i]
	}
	numeric.CholSolveVec(lp, d, v)
	var m float64
	for _, e := range v {
		m += e * e
	}
	return 0.5 * (tr + m - float64(d) + numeric.CholLogDet(lp, d) - numeric.CholLogDet(lq, d))
}
