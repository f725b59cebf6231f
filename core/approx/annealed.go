package approx

import (
	"math"
	"math/rand/v2"
)

// The samplers' targets of the approximations' models: ln p(θ, D) split
// into a normalised prior that can be sampled and a likelihood, with
// gradients, so that a value is a tempered target of annealed importance
// sampling (samplers/ais.Model, p(θ) p(D | θ)^β of Beal (2003) eq. (6.50))
// for Hamiltonian Monte Carlo (samplers/mcmc.GradTempered), and its
// LogProb an importance sampler's target (samplers/is.Target). core does
// not import the samplers: the types only have their method sets. A target
// keeps no scratch and is safe for concurrent use.

// LogisticTarget is ln p(t, w) of Bayesian logistic regression with the
// prior w ~ N(0, α⁻¹I) and the likelihood Π_n σ(s_n φ_nᵀw), s_n = 2t_n − 1
// (PRML eqs. (4.142), (10.147) with S₀ = α⁻¹I).
type LogisticTarget struct {
	Phi   [][]float64 // the rows φ_n
	Sign  []float64   // s_n = 2t_n − 1
	Alpha float64     // α
}

// NewLogisticTarget returns the target of targets t ∈ {0, 1} on the rows
// of phi (kept, not copied).
func NewLogisticTarget(phi [][]float64, t []int, alpha float64) *LogisticTarget {
	s := make([]float64, len(t))
	for n := range t {
		s[n] = 2*float64(t[n]) - 1
	}
	return &LogisticTarget{Phi: phi, Sign: s, Alpha: alpha}
}

// LogPrior returns ln N(w | 0, α⁻¹I).
func (l *LogisticTarget) LogPrior(w []float64) float64 {
	var s float64
	for _, v := range w {
		s += v * v
	}
	return 0.5*float64(len(w))*math.Log(l.Alpha/(2*math.Pi)) - 0.5*l.Alpha*s
}

func (l *LogisticTarget) act(n int, w []float64) float64 {
	var a float64
	for i, v := range l.Phi[n] {
		a += v * w[i]
	}
	return l.Sign[n] * a
}

// LogLik returns Σ_n ln σ(s_n φ_nᵀw).
func (l *LogisticTarget) LogLik(w []float64) float64 {
	var s float64
	for n := range l.Phi {
		s += LogSigmoid(l.act(n, w))
	}
	return s
}

// LogProb returns ln p(t, w).
func (l *LogisticTarget) LogProb(w []float64) float64 { return l.LogPrior(w) + l.LogLik(w) }

// GradLogPrior writes −αw into dst.
func (l *LogisticTarget) GradLogPrior(dst, w []float64) {
	for i, v := range w {
		dst[i] = -l.Alpha * v
	}
}

// GradLogLik writes Σ_n s_n (1 − σ(s_n φ_nᵀw)) φ_n into dst (PRML eq.
// (4.96) with the signs folded in).
func (l *LogisticTarget) GradLogLik(dst, w []float64) {
	clear(dst)
	for n, f := range l.Phi {
		r := l.Sign[n] * (1 - Sigmoid(l.act(n, w)))
		for i, v := range f {
			dst[i] += r * v
		}
	}
}

// SamplePrior draws w ~ N(0, α⁻¹I) into dst (allocated when its length is
// not the number of features).
func (l *LogisticTarget) SamplePrior(dst []float64, rnd *rand.Rand) []float64 {
	if len(dst) != len(l.Phi[0]) {
		dst = make([]float64, len(l.Phi[0]))
	}
	for i := range dst {
		dst[i] = rnd.NormFloat64() / math.Sqrt(l.Alpha)
	}
	return dst
}

// ClutterTarget is ln p(θ, D) of a clutter problem (PRML eq. (10.210))
// split into the prior N(θ | 0, bI) and the likelihood Π_n f_n(θ) of eq.
// (10.209), with gradients ∇ ln f_n = ρ_n (x_n − θ), ρ_n the posterior
// probability that x_n is signal at θ. Build it with
// ClutterProblem.Target.
type ClutterTarget struct {
	p  ClutterProblem
	lc []float64
}

// Target returns the problem's target (the clutter terms computed once).
func (p ClutterProblem) Target() (*ClutterTarget, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	return &ClutterTarget{p: p, lc: p.logClutter()}, nil
}

// LogPrior returns ln N(θ | 0, bI).
func (t *ClutterTarget) LogPrior(theta []float64) float64 {
	return -0.5*float64(len(theta))*math.Log(2*math.Pi*t.p.B) - 0.5*dot(theta, theta)/t.p.B
}

// LogLik returns Σ_n ln f_n(θ).
func (t *ClutterTarget) LogLik(theta []float64) float64 {
	d := len(theta)
	var s float64
	for n, x := range t.p.X {
		var r2 float64
		for i := range d {
			r2 += (x[i] - theta[i]) * (x[i] - theta[i])
		}
		s += logAddExp(logSignal(t.p.W, r2, 0, d), t.lc[n])
	}
	return s
}

// LogProb returns ln p(θ, D) (ClutterProblem.LogJoint).
func (t *ClutterTarget) LogProb(theta []float64) float64 { return t.LogPrior(theta) + t.LogLik(theta) }

// GradLogPrior writes −θ/b into dst.
func (t *ClutterTarget) GradLogPrior(dst, theta []float64) {
	for i, v := range theta {
		dst[i] = -v / t.p.B
	}
}

// GradLogLik writes Σ_n ρ_n (x_n − θ) into dst.
func (t *ClutterTarget) GradLogLik(dst, theta []float64) {
	d := len(theta)
	clear(dst)
	for n, x := range t.p.X {
		var r2 float64
		for i := range d {
			r2 += (x[i] - theta[i]) * (x[i] - theta[i])
		}
		ls := logSignal(t.p.W, r2, 0, d)
		rho := math.Exp(ls - logAddExp(ls, t.lc[n]))
		for i := range d {
			dst[i] += rho * (x[i] - theta[i])
		}
	}
}

// SamplePrior draws θ ~ N(0, bI) into dst (allocated when its length is
// not D).
func (t *ClutterTarget) SamplePrior(dst []float64, rnd *rand.Rand) []float64 {
	if len(dst) != t.p.Dim() {
		dst = make([]float64, t.p.Dim())
	}
	for i := range dst {
		dst[i] = math.Sqrt(t.p.B) * rnd.NormFloat64()
	}
	return dst
}

// Flops returns the operations of one evaluation of ln p(θ, D), counted as
// ClutterLaplace counts them, with its gradient when derivs is set (the
// gradient counted as the Hessian's formula's: an upper bound).
func (t *ClutterTarget) Flops(derivs bool) float64 { return jointFlops(len(t.p.X), t.p.Dim(), derivs) }
