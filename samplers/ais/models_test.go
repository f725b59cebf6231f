package ais

import (
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// gaussModel is the conjugate model θ ~ N(0, σ0²I_d), y_i | θ ~ N(θ, σ²I_d),
// i = 1…n, through its sufficient statistics.
type gaussModel struct {
	d, n        int
	sigma0, sig float64
	sum         []float64 // Σ_i y_i
	sumSq       float64   // Σ_i ‖y_i‖²
}

func newGaussModel(d, n int, sigma0, sig float64, rnd *rand.Rand) *gaussModel {
	m := &gaussModel{d: d, n: n, sigma0: sigma0, sig: sig, sum: make([]float64, d)}
	for j := 0; j < d; j++ {
		theta := sigma0 * rnd.NormFloat64()
		for i := 0; i < n; i++ {
			y := theta + sig*rnd.NormFloat64()
			m.sum[j] += y
			m.sumSq += y * y
		}
	}
	return m
}

func (m *gaussModel) LogPrior(x []float64) float64 {
	s := -0.5 * float64(m.d) * math.Log(2*math.Pi*m.sigma0*m.sigma0)
	for _, v := range x {
		s -= v * v / (2 * m.sigma0 * m.sigma0)
	}
	return s
}

func (m *gaussModel) LogLik(x []float64) float64 {
	// Σ_i ‖y_i − θ‖² = Σ‖y_i‖² − 2θ·Σy_i + n‖θ‖².
	q := m.sumSq
	for j, v := range x {
		q += -2*v*m.sum[j] + float64(m.n)*v*v
	}
	return -0.5*float64(m.n*m.d)*math.Log(2*math.Pi*m.sig*m.sig) - q/(2*m.sig*m.sig)
}

func (m *gaussModel) SamplePrior(dst []float64, rnd *rand.Rand) []float64 {
	if cap(dst) < m.d {
		dst = make([]float64, m.d)
	}
	dst = dst[:m.d]
	for j := range dst {
		dst[j] = m.sigma0 * rnd.NormFloat64()
	}
	return dst
}

// logZ is the closed-form evidence: per coordinate the data are
// N(0, σ²I + σ0²11ᵀ), with |C| = σ^{2n}(1 + nσ0²/σ²) and
// yᵀC⁻¹y = (Σy² − σ0²(Σy)²/(σ² + nσ0²))/σ².
func (m *gaussModel) logZ() float64 {
	n := float64(m.n)
	s2, s02 := m.sig*m.sig, m.sigma0*m.sigma0
	var sq float64
	for _, s := range m.sum {
		sq += s * s
	}
	quad := (m.sumSq - s02*sq/(s2+n*s02)) / s2
	return -0.5*n*float64(m.d)*math.Log(2*math.Pi*s2) - 0.5*float64(m.d)*math.Log1p(n*s02/s2) - 0.5*quad
}

// sdAt is the posterior standard deviation of each coordinate under f_β.
func (m *gaussModel) sdAt(beta float64) float64 {
	return 1 / math.Sqrt(1/(m.sigma0*m.sigma0)+beta*float64(m.n)/(m.sig*m.sig))
}

// scaledKernel is a model-supplied kernel: random-walk MH whose step is a
// fixed multiple of the f_β posterior width (set from β in advance, never
// from the state), repeated steps times.
type scaledKernel struct {
	m     *gaussModel
	mh    mcmc.MH[[]float64]
	rw    mcmc.RandomWalk
	steps int
}

func newScaledKernel(m *gaussModel, steps int) *scaledKernel {
	k := &scaledKernel{m: m, steps: steps}
	k.mh.Target = m
	k.mh.Proposal = &k.rw
	return k
}

func (k *scaledKernel) Step(p *mcmc.Point[[]float64], beta float64, rnd *rand.Rand) mcmc.Stats {
	k.rw.Sigma = 1.7 * k.m.sdAt(beta)
	var st mcmc.Stats
	for i := 0; i < k.steps; i++ {
		st.Add(k.mh.Step(p, beta, rnd))
	}
	return st
}

// mixState is the state of the binomial mixture: parameters and hidden
// component labels.
type mixState struct {
	theta []float64 // π (weight of component 1), a, b (success probabilities)
	s     []int
}

// mixModel: π, a, b ~ U(0,1); s_i | π ~ Bern(π); r_i | s_i ~ Bin(m, a or b).
// The base density is p(θ)p(s|θ), the tempered factor p(r|s,θ), so that the
// AIS state holds hidden variables as in chapter 6.
type mixModel struct {
	trials int
	r      []int
	lnC    float64 // Σ_i ln C(m, r_i)
}

func newMixModel(trials int, r []int) *mixModel {
	m := &mixModel{trials: trials, r: r}
	for _, ri := range r {
		m.lnC += lnChoose(trials, ri)
	}
	return m
}

func lnChoose(n, k int) float64 {
	return numeric.LogGamma(float64(n+1)) - numeric.LogGamma(float64(k+1)) - numeric.LogGamma(float64(n-k+1))
}

func lnBeta(a, b float64) float64 {
	return numeric.LogGamma(a) + numeric.LogGamma(b) - numeric.LogGamma(a+b)
}

func inUnit(theta []float64) bool {
	for _, v := range theta {
		if !(v > 0 && v < 1) {
			return false
		}
	}
	return true
}

// logPriorGiven is ln p(θ) + ln p(s|π).
func (m *mixModel) logPriorGiven(theta []float64, s []int) float64 {
	if !inUnit(theta) {
		return math.Inf(-1)
	}
	var lp float64
	for _, si := range s {
		if si == 1 {
			lp += math.Log(theta[0])
		} else {
			lp += math.Log1p(-theta[0])
		}
	}
	return lp
}

func (m *mixModel) logBinom(ri int, c float64) float64 {
	return float64(ri)*math.Log(c) + float64(m.trials-ri)*math.Log1p(-c)
}

// logLikGiven is ln p(r|s,θ).
func (m *mixModel) logLikGiven(theta []float64, s []int) float64 {
	if !inUnit(theta) {
		return math.Inf(-1)
	}
	ll := m.lnC
	for i, ri := range m.r {
		ll += m.logBinom(ri, theta[1+s[i]])
	}
	return ll
}

func (m *mixModel) LogPrior(x *mixState) float64 { return m.logPriorGiven(x.theta, x.s) }
func (m *mixModel) LogLik(x *mixState) float64   { return m.logLikGiven(x.theta, x.s) }

func (m *mixModel) SamplePrior(dst *mixState, rnd *rand.Rand) *mixState {
	if dst == nil {
		dst = &mixState{theta: make([]float64, 3), s: make([]int, len(m.r))}
	}
	for j := range dst.theta {
		dst.theta[j] = rnd.Float64()
	}
	for i := range dst.s {
		dst.s[i] = 0
		if rnd.Float64() < dst.theta[0] {
			dst.s[i] = 1
		}
	}
	return dst
}

// logZ enumerates the 2^n label vectors; for each, the three uniform
// integrals are Beta functions.
func (m *mixModel) logZ() float64 {
	n := len(m.r)
	terms := make([]float64, 0, 1<<n)
	for code := 0; code < 1<<n; code++ {
		var h, cnt [2]int
		for i, ri := range m.r {
			c := (code >> i) & 1
			cnt[c]++
			h[c] += ri
		}
		t := lnBeta(float64(1+cnt[1]), float64(1+cnt[0]))
		for c := 0; c < 2; c++ {
			t += lnBeta(float64(1+h[c]), float64(1+cnt[c]*m.trials-h[c]))
		}
		terms = append(terms, t)
	}
	return m.lnC + numeric.LogSumExp(terms)
}

// mixCond is the parameter target given the labels, for the MH part of
// mixKernel: the same split as mixModel with s held fixed.
type mixCond struct {
	m *mixModel
	s []int
}

func (c *mixCond) LogPrior(theta []float64) float64 { return c.m.logPriorGiven(theta, c.s) }
func (c *mixCond) LogLik(theta []float64) float64   { return c.m.logLikGiven(theta, c.s) }

// mixKernel is a model-supplied kernel: a Gibbs sweep over the labels at
// inverse temperature β, then a random-walk MH step on the parameters given
// the labels. Each part leaves f_β(θ, s) = p(θ)p(s|θ)p(r|s,θ)^β invariant.
type mixKernel struct {
	m    *mixModel
	cond mixCond
	mh   mcmc.MH[[]float64]
}

func newMixKernel(m *mixModel, sigma float64) *mixKernel {
	k := &mixKernel{m: m, cond: mixCond{m: m}}
	k.mh.Target = &k.cond
	k.mh.Proposal = mcmc.RandomWalk{Sigma: sigma}
	return k
}

func (k *mixKernel) Step(p *mcmc.Point[*mixState], beta float64, rnd *rand.Rand) mcmc.Stats {
	x := p.X
	pi, a, b := x.theta[0], x.theta[1], x.theta[2]
	for i, ri := range k.m.r {
		l0 := math.Log1p(-pi) + beta*k.m.logBinom(ri, a)
		l1 := math.Log(pi) + beta*k.m.logBinom(ri, b)
		x.s[i] = 0
		if rnd.Float64()*(1+math.Exp(l0-l1)) < 1 { // P(s_i = 1) = 1/(1 + e^{l0−l1})
			x.s[i] = 1
		}
	}
	k.cond.s = x.s
	inner := mcmc.NewPoint[[]float64](&k.cond, x.theta)
	st := k.mh.Step(&inner, beta, rnd)
	x.theta = inner.X
	p.LogPrior, p.LogLik = inner.LogPrior, inner.LogLik
	return st
}

// discModel is a purely discrete model on {0,…,15}: p(x) ∝ 1 + x,
// ln L(x) = −(x − 11)²/4 − 3.
type discModel struct{ lp [16]float64 }

func newDiscModel() *discModel {
	d := &discModel{}
	var z float64
	for x := range d.lp {
		z += float64(1 + x)
	}
	for x := range d.lp {
		d.lp[x] = math.Log(float64(1+x) / z)
	}
	return d
}

func (d *discModel) LogPrior(x int) float64 {
	if x < 0 || x >= len(d.lp) {
		return math.Inf(-1)
	}
	return d.lp[x]
}

func (d *discModel) LogLik(x int) float64 {
	v := float64(x - 11)
	return -v*v/4 - 3
}

func (d *discModel) SamplePrior(_ int, rnd *rand.Rand) int {
	u := math.Log(rnd.Float64())
	acc := math.Inf(-1)
	for x, lp := range d.lp {
		acc = numeric.LogAddExp(acc, lp)
		if u < acc {
			return x
		}
	}
	return len(d.lp) - 1
}

func (d *discModel) logZ() float64 {
	t := make([]float64, len(d.lp))
	for x := range t {
		t[x] = d.lp[x] + d.LogLik(x)
	}
	return numeric.LogSumExp(t)
}

// step proposes x ± 1 with equal probability (symmetric; states outside
// the support are rejected by LogPrior).
type step struct{}

func (step) Propose(_, x int, rnd *rand.Rand) (int, float64) {
	if rnd.IntN(2) == 0 {
		return x - 1, 0
	}
	return x + 1, 0
}

// exactKernel draws a fresh state from f_β itself (Gaussian for this
// model), independently of the current one: a perfectly mixing kernel, under
// which every ratio R_k is estimated from an independent draw of f_{k−1}.
type exactKernel struct{ m *gaussModel }

func (k exactKernel) Step(p *mcmc.Point[[]float64], beta float64, rnd *rand.Rand) mcmc.Stats {
	s2 := k.m.sig * k.m.sig
	prec := 1/(k.m.sigma0*k.m.sigma0) + beta*float64(k.m.n)/s2
	for j := range p.X {
		p.X[j] = beta*k.m.sum[j]/s2/prec + rnd.NormFloat64()/math.Sqrt(prec)
	}
	p.LogPrior, p.LogLik = k.m.LogPrior(p.X), k.m.LogLik(p.X)
	return mcmc.Stats{}
}
