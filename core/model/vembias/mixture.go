package vembias

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/optimize"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Mixture is a one-dimensional mixture of Gaussians Σ_k π_k N(μ_k, σ_k²)
// (eq. 1.16).
type Mixture struct {
	Pi, Mu, Var []float64
}

// Check returns an error unless the weights are positive and sum to 1 and
// the variances are positive.
func (m Mixture) Check() error {
	if len(m.Pi) == 0 || len(m.Mu) != len(m.Pi) || len(m.Var) != len(m.Pi) {
		return errors.New("vembias: a mixture needs as many means and variances as weights, at least one")
	}
	var s float64
	for k, p := range m.Pi {
		if !(p > 0) || !(m.Var[k] > 0) || math.IsInf(m.Mu[k], 0) || math.IsNaN(m.Mu[k]) {
			return fmt.Errorf("vembias: mixture component %d: π = %v, μ = %v, σ² = %v", k, p, m.Mu[k], m.Var[k])
		}
		s += p
	}
	if math.Abs(s-1) > 1e-12 {
		return fmt.Errorf("vembias: mixture weights sum to %v, not 1", s)
	}
	return nil
}

// logDensity returns ln p(x) and d ln p/dx.
func (m Mixture) logDensity(x float64) (float64, float64) {
	var lw [8]float64
	l := lw[:0]
	for k, p := range m.Pi {
		d := x - m.Mu[k]
		l = append(l, math.Log(p)-0.5*(ln2Pi+math.Log(m.Var[k]))-d*d/(2*m.Var[k]))
	}
	lp := numeric.LogSumExp(l)
	var g float64
	for k := range m.Pi {
		g += math.Exp(l[k]-lp) * (m.Mu[k] - x) / m.Var[k]
	}
	return lp, g
}

// LogDensity returns ln p(x).
func (m Mixture) LogDensity(x float64) float64 { lp, _ := m.logDensity(x); return lp }

// span returns an interval that holds all but a negligible part of the
// mixture's mass: 15 of the widest standard deviations beyond its means.
func (m Mixture) span() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for k := range m.Pi {
		s := 15 * math.Sqrt(m.Var[k])
		lo, hi = math.Min(lo, m.Mu[k]-s), math.Max(hi, m.Mu[k]+s)
	}
	return lo, hi
}

// Entropy returns H[p] = −∫ p ln p by the trapezoid rule on 20001 points
// over the span of the mixture (its integrand is smooth and decays like a
// Gaussian, so the rule converges geometrically).
func (m Mixture) Entropy() float64 {
	lo, hi := m.span()
	const n = 20001
	h := (hi - lo) / (n - 1)
	var s float64
	for i := 0; i < n; i++ {
		lp := m.LogDensity(lo + float64(i)*h)
		v := -math.Exp(lp) * lp
		if i == 0 || i == n-1 {
			v /= 2
		}
		s += v
	}
	return s * h
}

// GaussFit is a Gaussian q = N(Mean, Var) fitted by minimising KL(q‖p).
type GaussFit struct {
	Mean, Var float64
	KL        float64
	// Entropy is H[q] = ½ ln(2πe σ_q²).
	Entropy float64
}

// hermite holds the Gauss–Hermite rule of ghNodes nodes (weight e^{−z²}).
const ghNodes = 96

var ghX, ghW = func() ([]float64, []float64) {
	x, w := make([]float64, ghNodes), make([]float64, ghNodes)
	quad.Hermite{}.FixedLocations(x, w, math.Inf(-1), math.Inf(1))
	return x, w
}()

// KLGauss returns KL(N(μ, v) ‖ p) = −H[q] − ⟨ln p⟩_q, the expectation by
// 96-node Gauss–Hermite quadrature, and its derivatives with respect to μ
// and s = ln σ_q.
func (m Mixture) KLGauss(mu, v float64) (kl, dmu, ds float64) {
	sd := math.Sqrt(v)
	var e, gm, gs float64
	for i, z := range ghX {
		x := mu + math.Sqrt2*sd*z
		lp, g := m.logDensity(x)
		w := ghW[i] / math.SqrtPi
		e += w * lp
		gm += w * g
		gs += w * g * math.Sqrt2 * sd * z
	}
	h := 0.5 * (ln2Pi + 1 + math.Log(v))
	return -h - e, -gm, -1 - gs
}

// FitGaussian minimises KL(q‖p) over Gaussians q (T&S §1.3.1, Fig 1.2) by
// BFGS in (μ_q, ln σ_q) from several starts: each component, and the
// moment-matched Gaussian, since the objective has local optima when the
// modes separate (targets §1.2). It returns the best fit and every
// distinct local optimum found (means more than 1e-4 apart), best first.
func FitGaussian(m Mixture) (GaussFit, []GaussFit, error) {
	if err := m.Check(); err != nil {
		return GaussFit{}, nil, err
	}
	var mean, second float64
	for k, p := range m.Pi {
		mean += p * m.Mu[k]
		second += p * (m.Var[k] + m.Mu[k]*m.Mu[k])
	}
	type start struct{ mu, v float64 }
	starts := []start{{mean, second - mean*mean}}
	for k := range m.Pi {
		starts = append(starts, start{m.Mu[k], m.Var[k]})
	}
	prob := optimize.Problem{
		Func: func(u []float64) float64 { kl, _, _ := m.KLGauss(u[0], math.Exp(2*u[1])); return kl },
		Grad: func(g, u []float64) { _, g[0], g[1] = m.KLGauss(u[0], math.Exp(2*u[1])) },
	}
	var fits []GaussFit
	for _, s := range starts {
		res, err := optimize.Minimize(prob, []float64{s.mu, 0.5 * math.Log(s.v)}, &optimize.Settings{GradientThreshold: 1e-10}, &optimize.BFGS{})
		if res == nil {
			return GaussFit{}, nil, fmt.Errorf("vembias: FitGaussian: %w", err)
		}
		v := math.Exp(2 * res.X[1])
		f := GaussFit{Mean: res.X[0], Var: v, KL: res.F, Entropy: 0.5 * (ln2Pi + 1 + math.Log(v))}
		dup := false
		for i, g := range fits {
			if math.Abs(g.Mean-f.Mean) < 1e-4 {
				dup = true
				if f.KL < g.KL {
					fits[i] = f
				}
			}
		}
		if !dup {
			fits = append(fits, f)
		}
	}
	for i := 1; i < len(fits); i++ {
		for j := i; j > 0 && fits[j].KL < fits[j-1].KL; j-- {
			fits[j], fits[j-1] = fits[j-1], fits[j]
		}
	}
	return fits[0], fits, nil
}
