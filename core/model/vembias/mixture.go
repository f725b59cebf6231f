package vembias

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

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

// quadTol is the tolerance of the mixture's integrals (Entropy, KLGauss):
// each within max(10⁻¹³, 10⁻¹²·|value|) by its error estimate.
var quadTol = numeric.QuadTol{Abs: 1e-13, Rel: 1e-12, MaxIntervals: 4000}

// breaks returns the sorted breaks of an integral against the mixture over
// [lo, hi]: the ends, each component's mean and the points 1 and 3 of its
// standard deviations either side, the points where two weighted
// components are equal (where ln p turns from one component's parabola to
// the other's: the bends of ln p and the troughs of p between modes), and
// the extra points (a q's mean and width), those inside (lo, hi) only.
func (m Mixture) breaks(lo, hi float64, extra ...float64) []float64 {
	pts := append([]float64{lo, hi}, extra...)
	for k := range m.Pi {
		s := math.Sqrt(m.Var[k])
		pts = append(pts, m.Mu[k], m.Mu[k]-s, m.Mu[k]+s, m.Mu[k]-3*s, m.Mu[k]+3*s)
		for j := k + 1; j < len(m.Pi); j++ {
			pts = append(pts, m.crossings(j, k)...)
		}
	}
	slices.Sort(pts)
	out := pts[:0]
	for _, x := range pts {
		if x >= lo && x <= hi && (len(out) == 0 || x > out[len(out)-1]) {
			out = append(out, x)
		}
	}
	return out
}

// crossings returns the x at which π_j N(x; μ_j, σ_j²) = π_k N(x; μ_k,
// σ_k²): the real roots of the quadratic that equates their logarithms.
func (m Mixture) crossings(j, k int) []float64 {
	// a x² + b x + c = 0 with the difference of the two log terms.
	vj, vk := m.Var[j], m.Var[k]
	a := 1/(2*vk) - 1/(2*vj)
	b := m.Mu[j]/vj - m.Mu[k]/vk
	c := m.Mu[k]*m.Mu[k]/(2*vk) - m.Mu[j]*m.Mu[j]/(2*vj) + math.Log(m.Pi[j]/m.Pi[k]) - 0.5*math.Log(vj/vk)
	if math.Abs(a) < 1e-14*(1/vj+1/vk) {
		if b == 0 {
			return nil
		}
		return []float64{-c / b}
	}
	disc := b*b - 4*a*c
	if disc < 0 {
		return nil
	}
	r := math.Sqrt(disc)
	return []float64{(-b - r) / (2 * a), (-b + r) / (2 * a)}
}

// Entropy returns H[p] = −∫ p ln p over the span of the mixture by
// adaptive Gauss–Kronrod quadrature started at the breaks (numeric.
// IntegrateVecBreaks), with its error estimate; err is non-nil if the
// tolerance quadTol was not met.
func (m Mixture) Entropy() (h, errEst float64, err error) {
	lo, hi := m.span()
	v, e, err := numeric.IntegrateVecBreaks(nil, 1, func(x float64, out []float64) {
		lp := m.LogDensity(x)
		out[0] = -math.Exp(lp) * lp
	}, m.breaks(lo, hi), quadTol)
	if v == nil {
		return math.NaN(), math.Inf(1), err
	}
	if err != nil {
		err = fmt.Errorf("vembias: entropy of the mixture: %w", err)
	}
	return v[0], e[0], err
}

// GaussFit is a Gaussian q = N(Mean, Var) fitted by minimising KL(q‖p).
type GaussFit struct {
	Mean, Var float64
	KL        float64
	// KLErr is the quadrature's error estimate of KL.
	KLErr float64
	// Entropy is H[q] = ½ ln(2πe σ_q²).
	Entropy float64
}

// KLGauss returns KL(N(μ, v) ‖ p) = −H[q] − ⟨ln p⟩_q and its derivatives
// with respect to μ and s = ln σ_q, −⟨d ln p/dx⟩_q and −1 − ⟨(x − μ) d ln
// p/dx⟩_q, the three expectations in one pass of adaptive Gauss–Kronrod
// quadrature (numeric.IntegrateVecBreaks) over q's ±20σ_q and p's span,
// with breaks at q's mean and μ ± 1, 3, 8σ_q and at the mixture's (breaks),
// so that a wide q over separated modes resolves ln p's bends between
// them. errEst is the error estimate of kl; err is non-nil if the
// tolerance quadTol was not met.
func (m Mixture) KLGauss(mu, v float64) (kl, dmu, ds, errEst float64, err error) {
	sd := math.Sqrt(v)
	lo, hi := m.span()
	lo, hi = math.Min(lo, mu-20*sd), math.Max(hi, mu+20*sd)
	br := m.breaks(lo, hi, mu, mu-sd, mu+sd, mu-3*sd, mu+3*sd, mu-8*sd, mu+8*sd)
	lq := -0.5 * (ln2Pi + math.Log(v))
	e, ee, err := numeric.IntegrateVecBreaks(nil, 3, func(x float64, out []float64) {
		d := x - mu
		q := math.Exp(lq - d*d/(2*v))
		if q == 0 {
			out[0], out[1], out[2] = 0, 0, 0
			return
		}
		lp, g := m.logDensity(x)
		out[0], out[1], out[2] = q*lp, q*g, q*g*d
	}, br, quadTol)
	if e == nil {
		return math.NaN(), math.NaN(), math.NaN(), math.Inf(1), err
	}
	if err != nil {
		err = fmt.Errorf("vembias: KL(q‖p) at q = N(%g, %g): %w", mu, v, err)
	}
	h := 0.5 * (ln2Pi + 1 + math.Log(v))
	return -h - e[0], -e[1], -1 - e[2], ee[0], err
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
	var qerr error
	prob := optimize.Problem{
		Func: func(u []float64) float64 {
			kl, _, _, _, err := m.KLGauss(u[0], math.Exp(2*u[1]))
			qerr = cmp.Or(qerr, err)
			return kl
		},
		Grad: func(g, u []float64) {
			var err error
			_, g[0], g[1], _, err = m.KLGauss(u[0], math.Exp(2*u[1]))
			qerr = cmp.Or(qerr, err)
		},
	}
	var fits []GaussFit
	for _, s := range starts {
		res, err := optimize.Minimize(prob, []float64{s.mu, 0.5 * math.Log(s.v)}, &optimize.Settings{GradientThreshold: 1e-10}, &optimize.BFGS{})
		if res == nil {
			return GaussFit{}, nil, fmt.Errorf("vembias: FitGaussian: %w", err)
		}
		if qerr != nil {
			return GaussFit{}, nil, fmt.Errorf("vembias: FitGaussian: %w", qerr)
		}
		v := math.Exp(2 * res.X[1])
		kl, _, _, klErr, err := m.KLGauss(res.X[0], v)
		if err != nil {
			return GaussFit{}, nil, fmt.Errorf("vembias: FitGaussian: %w", err)
		}
		f := GaussFit{Mean: res.X[0], Var: v, KL: kl, KLErr: klErr, Entropy: 0.5 * (ln2Pi + 1 + math.Log(v))}
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
