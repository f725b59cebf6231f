package bnn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// VBSettings controls FitVB. The zero value of every field means its
// documented default; the defaults are the toy's schedule (L2134-2142).
type VBSettings struct {
	// Components is M of eq. 5.25: 1 (the default) is the diagonal
	// Gaussian of Hinton and van Camp, M > 1 the mixture of M diagonal
	// Gaussians with diagonal smoothing distributions (eqs. 5.25-5.30).
	Components int
	// Hyper is the gamma hyperprior of the precisions; zero means
	// DefaultHyper (L2181).
	Hyper Hyper
	// FixHyper holds α and β at InitAlpha and InitBeta instead of fitting
	// q(α), q(β) (eqs. 5.36-5.47); the bound is then one on
	// ln p(D|α, β). The toy does this with the evidence procedure's values
	// (L2136).
	FixHyper bool
	// InitAlpha is the starting (or, under FixHyper, the fixed) precision
	// of every precision variable of the prior (PrecisionNodes), or one
	// value for all of them; nil means 0.1 (L2134). Under NRD a weight's
	// precision is the product of two node precisions, each started at
	// √InitAlpha, so the product starts at InitAlpha.
	InitAlpha []float64
	// InitBeta is the starting (fixed under FixHyper) noise precision;
	// 0 means 50 (L2134).
	InitBeta float64
	// Mean is the starting mean of q(w) (length NumWeights), the mode of
	// the Laplace approximation in the text (L2136). nil means a MAP fit
	// at InitAlpha, InitBeta by L-BFGS (StartIterations iterations) from
	// weights drawn from N(0, 1) (ours).
	Mean []float64
	// InitVariance is the starting variance of every weight under q(w);
	// 0 means 10⁻⁶ (L2136).
	InitVariance float64
	// StartIterations caps the MAP fit that starts q(w) when Mean is nil;
	// 0 means 500 (L2134).
	StartIterations int
	// Rounds is the number of rounds (vb.Run iterations, each an M step):
	// the optimisation of q(w) by WeightIterations L-BFGS iterations, for
	// a mixture preceded by SmoothIterations on the smoothing
	// distributions and followed by the fixed-point update of the mixing
	// coefficients, and then (unless FixHyper) the updates of q(α) and
	// q(β). 0 means 10 (L2140, L2195).
	Rounds int
	// WeightIterations caps the L-BFGS iterations on q(w) per round; 0
	// means 50 (L2140), so the diagonal toy's 10 rounds are the text's
	// 500 iterations (L2136).
	WeightIterations int
	// SmoothIterations caps the L-BFGS iterations on the smoothing
	// distributions r(w|m) and λ_m per round of a mixture; 0 means 50
	// (L2140).
	SmoothIterations int
	// Jitter is the standard deviation, relative to |mean|, of the noise
	// added to the diagonal fit's mean to start each mixture component;
	// 0 means 0.01 (L2138).
	Jitter float64
	// From, if not nil, is a fitted diagonal (M = 1) VB of the same
	// problem and prior from which a mixture starts (L2138); nil means a
	// diagonal fit with these settings first.
	From *VB
	// Prune removes hidden units by node relevance determination after
	// every round (L2658-2665, Fig. 6.17): the unit of least effective
	// number of parameters is removed when that raises the bound.
	Prune bool
	// PruneInputs, with Prune, also tries to remove the input of least
	// effective number of parameters after every round (L2665, L2675:
	// Tables 6.1, 6.2). Predict still takes inputs of the original length.
	PruneInputs bool
}

func (s VBSettings) withDefaults() VBSettings {
	if s.Components <= 0 {
		s.Components = 1
	}
	if s.Hyper == (Hyper{}) {
		s.Hyper = DefaultHyper()
	}
	if s.InitAlpha == nil {
		s.InitAlpha = []float64{0.1}
	}
	if s.InitBeta == 0 {
		s.InitBeta = 50
	}
	if s.InitVariance == 0 {
		s.InitVariance = 1e-6
	}
	if s.StartIterations <= 0 {
		s.StartIterations = 500
	}
	if s.Rounds <= 0 {
		s.Rounds = 10
	}
	if s.WeightIterations <= 0 {
		s.WeightIterations = 50
	}
	if s.SmoothIterations <= 0 {
		s.SmoothIterations = 50
	}
	if s.Jitter == 0 {
		s.Jitter = 0.01
	}
	return s
}

// VB is the variational posterior of section 5.4: q(w) a diagonal Gaussian
// or a mixture of M diagonal Gaussians (eq. 5.25), with gamma q(α) per
// precision variable (eqs. 5.45-5.47; eqs. 6.41-6.49 under NRD) and gamma
// q(β) (eqs. 5.36-5.38), or α and β held fixed (VBSettings.FixHyper). It
// implements vb.Model (E returns the bound, M runs one round of the
// schedule) and Predictive.
type VB struct {
	// p is the problem of the current network; orig the one FitVB was
	// given (they differ after node removal).
	p, orig *Problem
	arch    Arch
	prior   Prior
	s       VBSettings

	// q(w): Q(m), and per component the means and log standard
	// deviations of every weight.
	q          []float64
	mean, logs [][]float64
	// The smoothing distributions r(w|m) ∝ N(rmean_m, diag exp(2 rlogs_m))
	// (unnormalised, L2842) and ln λ_m; nil for M = 1.
	rmean, rlogs [][]float64
	loglam       []float64

	// The precision variables: the weights' nodes (PrecisionNodes), their
	// expectations ⟨α⟩, ⟨ln α⟩, and their q's (unless FixHyper).
	first, second []int
	count         []int
	ea, ela       []float64
	qa            []dist.Gamma
	qb            dist.Gamma
	eb, elb       float64

	// Caches of the last evaluation.
	ed    []float64 // ⟨E_D⟩ under component m
	bound vb.Bound
	fresh bool

	// Work space of the optimisation.
	sc         *vbScratch
	gfull      []float64
	xw, xr     []float64
	ow, or     numeric.LBFGS
	objW, objR numeric.Objective
	lnB        [][]float64
	w2, cbuf   []float64
	// Node removal: the units and inputs removed, and the original
	// indices of the inputs kept (nil: all).
	pruned, prunedIn int
	inputs           []int
}

// FitVB fits the variational posterior of prior p's network to problem p by
// the schedule of s (vb.Run with VBSettings.Rounds fixed iterations, which
// checks that the bound never falls) and returns it.
func FitVB(p *Problem, prior Prior, s VBSettings, r *rand.Rand) (*VB, error) {
	s = s.withDefaults()
	if s.Components > 1 {
		return fitMixture(p, prior, s, r)
	}
	v, err := NewVB(p, prior, s, r)
	if err != nil {
		return nil, err
	}
	return v, v.run()
}

func fitMixture(p *Problem, prior Prior, s VBSettings, r *rand.Rand) (*VB, error) {
	d := s.From
	if d == nil {
		ds := s
		ds.Components = 1
		var err error
		if d, err = FitVB(p, prior, ds, r); err != nil {
			return nil, err
		}
	}
	if len(d.q) != 1 || d.prior != prior || d.orig != p {
		return nil, errors.New("bnn: VBSettings.From is not a diagonal fit of this problem and prior")
	}
	v := d.spread(s, r)
	return v, v.run()
}

func (v *VB) run() error {
	// Run's MaxIterations counts E steps: Rounds M steps take Rounds + 1.
	res := vb.Run(v, vb.Settings{MaxIterations: v.s.Rounds + 1, Converger: vb.FixedIterations{}})
	if err := res.Error(); err != nil {
		return fmt.Errorf("bnn: FitVB: %w", err)
	}
	return nil
}

// NewVB returns the diagonal-Gaussian posterior (M = 1) at the start of
// s's schedule: the mean s.Mean (or a MAP fit), variances s.InitVariance,
// q(α) and q(β) with the means InitAlpha and InitBeta.
func NewVB(p *Problem, prior Prior, s VBSettings, r *rand.Rand) (*VB, error) {
	s = s.withDefaults()
	if p == nil {
		return nil, errors.New("bnn: nil problem")
	}
	if err := p.Arch.Check(); err != nil {
		return nil, err
	}
	if prior < Single || prior > NRD {
		return nil, fmt.Errorf("bnn: unknown prior %v", prior)
	}
	if err := s.Hyper.Check(); err != nil {
		return nil, err
	}
	if !(s.InitBeta > 0) || math.IsInf(s.InitBeta, 0) || !(s.InitVariance > 0) || math.IsInf(s.InitVariance, 0) {
		return nil, fmt.Errorf("bnn: InitBeta %v and InitVariance %v must be positive and finite", s.InitBeta, s.InitVariance)
	}
	k := p.NumWeights()
	v := &VB{p: p, orig: p, arch: p.Arch, prior: prior, s: s, q: []float64{1}, loglam: []float64{0}}
	v.init()
	if len(s.InitAlpha) != 1 && len(s.InitAlpha) != len(v.ea) {
		return nil, fmt.Errorf("bnn: %d InitAlpha values for %d precision variables", len(s.InitAlpha), len(v.ea))
	}
	for j := range v.ea {
		a := s.InitAlpha[0]
		if len(s.InitAlpha) > 1 {
			a = s.InitAlpha[j]
		}
		if !(a > 0) || math.IsInf(a, 0) {
			return nil, fmt.Errorf("bnn: InitAlpha %v must be positive and finite", a)
		}
		if prior == NRD && len(s.InitAlpha) == 1 {
			a = math.Sqrt(a)
		}
		v.setAlpha(j, a)
	}
	v.setBeta(s.InitBeta)
	mean := make([]float64, k)
	switch {
	case s.Mean != nil:
		if len(s.Mean) != k {
			return nil, fmt.Errorf("bnn: VBSettings.Mean has %d values, the network %d weights", len(s.Mean), k)
		}
		copy(mean, s.Mean)
	default:
		if r == nil {
			return nil, errors.New("bnn: FitVB needs a random source to start without VBSettings.Mean")
		}
		for j := range mean {
			mean[j] = r.NormFloat64()
		}
		v.mapFit(mean)
	}
	logs := make([]float64, k)
	for j := range logs {
		logs[j] = 0.5 * math.Log(s.InitVariance)
	}
	v.mean, v.logs = [][]float64{mean}, [][]float64{logs}
	return v, nil
}

// init sizes the precision variables and the work space from arch, prior
// and the number of components.
func (v *VB) init() {
	n, first, second := v.arch.PrecisionNodes(v.prior)
	v.first, v.second = first, second
	v.count = make([]int, n)
	for k := range first {
		v.count[first[k]]++
		if second[k] >= 0 {
			v.count[second[k]]++
		}
	}
	v.ea, v.ela = make([]float64, n), make([]float64, n)
	if !v.s.FixHyper {
		v.qa = make([]dist.Gamma, n)
	}
	v.initWork()
}

// initWork allocates the work space of the optimisation and binds the
// objectives to v.
func (v *VB) initWork() {
	mc, k := len(v.q), v.arch.NumWeights()
	v.ed = make([]float64, mc)
	v.sc = newVBScratch(v.arch.Hidden)
	v.gfull = make([]float64, v.numParams())
	v.xw = make([]float64, v.numParams())
	v.w2 = make([]float64, k)
	v.cbuf = make([]float64, mc)
	v.bound.Terms = make([]vb.Term, 0, 6)
	v.objW = func(x, g []float64) float64 { return v.objective(x, g, false) }
	if mc > 1 {
		v.xr = make([]float64, mc*(2*k+1))
		v.objR = func(x, g []float64) float64 { return v.objective(x, g, true) }
		v.lnB = make([][]float64, mc)
		for m := range v.lnB {
			v.lnB[m] = make([]float64, mc)
		}
	}
	v.ow = numeric.LBFGS{MaxIterations: v.s.WeightIterations}
	v.or = numeric.LBFGS{MaxIterations: v.s.SmoothIterations}
}

// numParams is the length of the full parameter vector: per component the
// means and log standard deviations, then for a mixture per component the
// smoothing means, log standard deviations and ln λ.
func (v *VB) numParams() int {
	mc, k := len(v.q), v.arch.NumWeights()
	if mc == 1 {
		return 2 * k
	}
	return mc*2*k + mc*(2*k+1)
}

func (v *VB) setAlpha(j int, a float64) {
	if v.s.FixHyper {
		v.ea[j], v.ela[j] = a, math.Log(a)
		return
	}
	shape := v.s.Hyper.AAlpha + float64(v.count[j])/2
	v.qa[j] = dist.Gamma{Alpha: shape, Beta: shape / a}
	v.ea[j], v.ela[j] = v.qa[j].Mean(), v.qa[j].MeanLog()
}

func (v *VB) setBeta(b float64) {
	if v.s.FixHyper {
		v.eb, v.elb = b, math.Log(b)
		return
	}
	shape := v.s.Hyper.ABeta + float64(len(v.p.T))/2
	v.qb = dist.Gamma{Alpha: shape, Beta: shape / b}
	v.eb, v.elb = v.qb.Mean(), v.qb.MeanLog()
}

// precision is ⟨α_k⟩, the expected prior precision of weight k.
func (v *VB) precision(k int) float64 {
	a := v.ea[v.first[k]]
	if j := v.second[k]; j >= 0 {
		a *= v.ea[j]
	}
	return a
}

// mapFit replaces w by a minimiser of β E_D(w) + ½ Σ_k α_k w_k² at the
// starting α, β, by L-BFGS.
func (v *VB) mapFit(w []float64) {
	a := v.arch
	act := make([]float64, a.Hidden)
	f := func(x, g []float64) float64 {
		e := a.ErrorGrad(x, v.p.X, v.p.T, g, act) * v.eb
		for k := range g {
			g[k] *= v.eb
		}
		for k, xk := range x {
			al := v.precision(k)
			e += 0.5 * al * xk * xk
			g[k] += al * xk
		}
		return e
	}
	o := numeric.LBFGS{MaxIterations: v.s.StartIterations}
	_, _ = o.Minimize(f, w) // a finite start always gives a finite point
}

// spread returns the mixture of s.Components components started from the
// diagonal fit v (L2138): each mean v's plus N(0, (Jitter·|mean|)²) noise,
// v's variances, equal mixing coefficients, the smoothing distributions at
// the components' means with standard deviations e^smoothStart = 10 times
// theirs, λ at its optimum. (The text does not say how r starts; ours
// makes 𝓘 start near the true mutual information of nearly identical
// components, 0: with r as narrow as q it would start near
// −(K/2)(1 − ln 2) nats.)
func (v *VB) spread(s VBSettings, r *rand.Rand) *VB {
	mc, k := s.Components, v.arch.NumWeights()
	w := &VB{p: v.p, orig: v.orig, arch: v.arch, prior: v.prior, s: s, inputs: v.inputs, pruned: v.pruned, prunedIn: v.prunedIn}
	w.q = make([]float64, mc)
	w.loglam = make([]float64, mc)
	for m := range mc {
		w.q[m] = 1 / float64(mc)
		mean := make([]float64, k)
		for j, x := range v.mean[0] {
			mean[j] = x + s.Jitter*math.Abs(x)*r.NormFloat64()
		}
		w.mean = append(w.mean, mean)
		w.logs = append(w.logs, append([]float64(nil), v.logs[0]...))
		w.rmean = append(w.rmean, append([]float64(nil), mean...))
		rl := make([]float64, k)
		for j, l := range v.logs[0] {
			rl[j] = l + smoothStart
		}
		w.rlogs = append(w.rlogs, rl)
	}
	w.init()
	copy(w.ea, v.ea)
	copy(w.ela, v.ela)
	if !s.FixHyper {
		copy(w.qa, v.qa)
	}
	w.qb, w.eb, w.elb = v.qb, v.eb, v.elb
	w.updateLambda()
	return w
}

// smoothStart is ln of the ratio of the smoothing distributions' standard
// deviations to the components' at the start of a mixture.
var smoothStart = math.Log(10)

// Components is the number M of components of q(w).
func (v *VB) Components() int { return len(v.q) }

// Arch is the shape of the network (smaller than the problem's after node
// removal).
func (v *VB) Arch() Arch { return v.arch }

// Pruned is the number of hidden units removed by node relevance
// determination.
func (v *VB) Pruned() int { return v.pruned }

// PrunedInputs is the number of inputs removed by node relevance
// determination (VBSettings.PruneInputs).
func (v *VB) PrunedInputs() int { return v.prunedIn }

// used returns x restricted to the inputs the network uses.
func (v *VB) used(x []float64) []float64 {
	if v.inputs == nil {
		return x
	}
	u := make([]float64, len(v.inputs))
	for j, i := range v.inputs {
		u[j] = x[i]
	}
	return u
}

// Mixing returns a copy of the mixing coefficients Q(m).
func (v *VB) Mixing() []float64 { return append([]float64(nil), v.q...) }

// Mean returns component m's mean and standard deviations (copies).
func (v *VB) Mean(m int) (mean, sd []float64) {
	mean = append([]float64(nil), v.mean[m]...)
	sd = make([]float64, len(mean))
	for j, l := range v.logs[m] {
		sd[j] = math.Exp(l)
	}
	return mean, sd
}

// Alpha returns ⟨α⟩ of every precision variable (PrecisionNodes' order).
func (v *VB) Alpha() []float64 { return append([]float64(nil), v.ea...) }

// Beta returns ⟨β⟩.
func (v *VB) Beta() float64 { return v.eb }

// Bound returns the bound of eq. 5.32 with its named terms at the current
// parameters (see E).
func (v *VB) Bound() vb.Bound {
	if !v.fresh {
		v.eval(nil, false)
	}
	return vb.Bound{F: v.bound.F, Terms: append([]vb.Term(nil), v.bound.Terms...)}
}

// E returns the bound (vb.Model).
func (v *VB) E() (vb.Bound, error) {
	b := v.Bound()
	if math.IsNaN(b.F) || math.IsInf(b.F, 0) {
		return b, fmt.Errorf("bnn: the variational bound is %v", b.F)
	}
	return b, nil
}

// M runs one round of the schedule (VBSettings.Rounds): for a mixture the
// smoothing distributions and λ, then q(w)'s means and variances (and the
// smoothing distributions) by L-BFGS, which never returns a lower bound,
// then the fixed-point update of Q(m) and λ; then q(α), q(β); then, with
// Prune, one node-removal step. Every step maximises the bound in its
// coordinates, so the bound never falls.
func (v *VB) M() {
	if len(v.q) > 1 {
		v.pack(v.xr, true)
		_, _ = v.or.Minimize(v.objR, v.xr)
		v.unpack(v.xr, true)
		v.updateLambda()
	}
	v.pack(v.xw, false)
	_, _ = v.ow.Minimize(v.objW, v.xw)
	v.unpack(v.xw, false)
	if len(v.q) > 1 {
		v.updateLambda()
		v.updateMixing()
		v.updateLambda()
	}
	v.updateHyper()
	if v.s.Prune {
		if w := v.pruneStep(); w != v {
			*v = *w
			v.initWork() // the objectives must close over v, not w
			v.fresh = false
		}
	}
}

// updateHyper sets q(β) and then every q(α_j) to its optimum given the
// others (eqs. 5.36-5.38, 5.45-5.47, 6.41-6.49), unless FixHyper.
//
// Eq. 5.38 prints b̄_β = ⟨E_D⟩/2 + b_β; with E_D = ½ Σ (t − f)² (eq. 5.5)
// in p(D|w, β) ∝ exp(−β E_D) (eq. 5.4) the optimum is ⟨E_D⟩ + b_β, as
// eq. 5.47's ½⟨wᵀw⟩ is for α.
func (v *VB) updateHyper() {
	if v.s.FixHyper {
		return
	}
	if !v.fresh {
		v.eval(nil, false)
	}
	var ed float64
	for m, qm := range v.q {
		ed += qm * v.ed[m]
	}
	v.qb = dist.Gamma{Alpha: v.s.Hyper.ABeta + float64(len(v.p.T))/2, Beta: v.s.Hyper.BBeta + ed}
	v.eb, v.elb = v.qb.Mean(), v.qb.MeanLog()
	k := v.arch.NumWeights()
	w2 := v.w2
	clear(w2)
	for m, qm := range v.q {
		for j := range k {
			s := math.Exp(v.logs[m][j])
			w2[j] += qm * (v.mean[m][j]*v.mean[m][j] + s*s)
		}
	}
	for n := range v.ea {
		rate := v.s.Hyper.BAlpha
		for j := range k {
			switch {
			case v.first[j] == n:
				rate += 0.5 * v.other(j, n) * w2[j]
			case v.second[j] == n:
				rate += 0.5 * v.other(j, n) * w2[j]
			}
		}
		v.qa[n] = dist.Gamma{Alpha: v.s.Hyper.AAlpha + float64(v.count[n])/2, Beta: rate}
		v.ea[n], v.ela[n] = v.qa[n].Mean(), v.qa[n].MeanLog()
	}
	v.fresh = false
}

// other is ⟨α⟩ of weight j's precision variable other than n (1 for a
// group prior).
func (v *VB) other(j, n int) float64 {
	if v.second[j] < 0 {
		return 1
	}
	if v.first[j] == n {
		return v.ea[v.second[j]]
	}
	return v.ea[v.first[j]]
}

// Predict returns the predictive mean ⟨f(x, w)⟩_q and variance
// ⟨f²⟩ − ⟨f⟩² + ⟨1/β⟩ of t at x: the spread of f under q(w) (a mixture's
// moments combined over its components, eq. C.33 per component) plus the
// noise variance averaged over q(β), ⟨1/β⟩ = b̄/(ā − 1) (1/β under
// FixHyper).
func (v *VB) Predict(x []float64) (mean, variance float64) {
	x = v.used(x)
	sc := newVBScratch(v.arch.Hidden)
	var m1, m2 float64
	for m, qm := range v.q {
		ef, vf := v.arch.momentsF(v.mean[m], sc.variances(v.logs[m]), x, sc, false)
		m1 += qm * ef
		m2 += qm * (ef*ef + vf)
	}
	return m1, m2 - m1*m1 + v.noiseVariance()
}

// PredictF returns the mean and variance of the network's output f(x, w)
// under q(w), without the noise: ⟨f⟩ and ⟨f²⟩ − ⟨f⟩² (eqs. C.32, C.33).
func (v *VB) PredictF(x []float64) (mean, variance float64) {
	m, s2 := v.Predict(x)
	return m, s2 - v.noiseVariance()
}

// ComponentMean returns ⟨f(x, w)⟩ under component m of q(w) (Fig. 5.3(a)).
func (v *VB) ComponentMean(m int, x []float64) float64 {
	x = v.used(x)
	sc := newVBScratch(v.arch.Hidden)
	ef, _ := v.arch.momentsF(v.mean[m], sc.variances(v.logs[m]), x, sc, false)
	return ef
}

// LogQ returns ln q(w), the log density of the mixture (or Gaussian) q(w)
// at w (Fig. 5.5).
func (v *VB) LogQ(w []float64) float64 {
	l := math.Inf(-1)
	for m, qm := range v.q {
		lm := math.Log(qm)
		for j, x := range w {
			z := (x - v.mean[m][j]) / math.Exp(v.logs[m][j])
			lm += -0.5*z*z - v.logs[m][j] - 0.5*ln2pi
		}
		l = numeric.LogAddExp(l, lm)
	}
	return l
}

// Sample draws w from q(w) into w (length NumWeights).
func (v *VB) Sample(w []float64, r *rand.Rand) {
	u, m := r.Float64(), 0
	for m < len(v.q)-1 && u > v.q[m] {
		u -= v.q[m]
		m++
	}
	for j := range w {
		w[j] = v.mean[m][j] + math.Exp(v.logs[m][j])*r.NormFloat64()
	}
}

// noiseVariance is ⟨1/β⟩ under q(β) (1/β under FixHyper; 1/⟨β⟩ if the
// shape is at most 1, where ⟨1/β⟩ is infinite).
func (v *VB) noiseVariance() float64 {
	if v.s.FixHyper || v.qb.Alpha <= 1 {
		return 1 / v.eb
	}
	return v.qb.Beta / (v.qb.Alpha - 1)
}

// MutualInformation returns the lower bound 𝓘(m; w) of eq. 5.30 on the
// mutual information between the component label and w, and the value
// −Σ Q(m) ln Q(m) it has under the minimum-overlap assumption, its upper
// bound (eq. C.14, L2026). Both are 0 for M = 1.
func (v *VB) MutualInformation() (bound, minOverlap float64) {
	if len(v.q) == 1 {
		return 0, 0
	}
	if !v.fresh {
		v.eval(nil, false)
	}
	for _, t := range v.bound.Terms {
		if t.Name == termMI {
			bound = t.Value
		}
	}
	return bound, numeric.Entropy(v.q)
}
