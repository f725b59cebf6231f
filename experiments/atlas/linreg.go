package atlas

// atlas/linreg: variational linear regression (PRML §10.3, core/model/linreg)
// against the evidence and the posterior of w by quadrature over α.

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/linreg"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/score"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/is"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// LinregID is the linear-regression row of the atlas.
const LinregID = "atlas/linreg"

func init() {
	experiments.Add(LinregID, "atlas: variational linear regression's ln p(t) and posterior of w by VB, BIC, Laplace, IS with q and AIS against quadrature over α",
		DefaultLinreg, RunLinreg, PlotGrid)
}

// LinregConfig is the config of atlas/linreg: data_sets data sets of n
// points x ~ U(−1, 1) with the polynomial basis of the given order
// (linreg.Polynomial), w drawn from N(0, alpha_true⁻¹ I) and t = Φw +
// N(0, 1/β) noise, each from rng.New(seed, "atlas/linreg", "data", i).
// The gold standard is ln p(t) by quadrature over α (Problem.LogEvidence)
// and the exact posterior mean and variance of w by a grid in ln α of
// step grid_step (Posterior). Each seed reruns the samplers from its own
// streams. Operations are counted in multiply-adds: VB N·M² (the SVD)
// plus M a iteration, BIC N·M, Laplace N·M² plus M³ a Newton step, IS
// runs·samples·M² and AIS runs·steps·M³ (the Cholesky factor of each
// Gibbs draw of w).
type LinregConfig struct {
	experiments.Common
	DataSets  int     `toml:"data_sets" range:"[1,1e3] integer"`
	N         int     `toml:"n" range:"[1,1e5] integer"`
	Order     int     `toml:"order" range:"[0,20] integer"`
	Beta      float64 `toml:"beta" range:"[1e-6,1e6]"`
	AlphaTrue float64 `toml:"alpha_true" range:"[1e-6,1e6]"`
	Seeds     int     `toml:"seeds" range:"[1,1e3] integer"`
	GridStep  float64 `toml:"grid_step" range:"[1e-4,0.5]"`
	Prior     struct {
		A0 float64 `toml:"a0" range:"[1e-6,1e6]"`
		B0 float64 `toml:"b0" range:"[1e-6,1e6]"`
	} `toml:"prior"`
	VB        config.FitSettings `toml:"vb"`
	VBBudgets []int              `toml:"vb_budgets" range:"[1,1e6] integer len=1.. increasing"`
	// IS: a Student t on VB's q(w)q(ln α), widened, mixed with the prior
	// at weight defensive (see newLinregProposal).
	IS struct {
		config.IS
		Nu        float64 `toml:"nu" range:"[1,1e6]"`
		Widen     float64 `toml:"widen" range:"[0.1,10]"`
		Defensive float64 `toml:"defensive" range:"(0,1)"`
	} `toml:"is"`
	ISSamples []int      `toml:"is_samples" range:"[1,1e8] integer len=1.. increasing"`
	AIS       config.AIS `toml:"ais"`
	AISSteps  []int      `toml:"ais_steps" range:"[2,1e8] integer len=1.. increasing"`
}

// DefaultLinreg returns 3 data sets of 20 points, a cubic (M = 4), β = 25,
// α = 1, the prior Gam(α | 1, 1), 3 seeds.
func DefaultLinreg() LinregConfig {
	c := LinregConfig{Common: experiments.Common{Seed: 1}, DataSets: 3, N: 20, Order: 3, Beta: 25, AlphaTrue: 1, Seeds: 3, GridStep: 0.01,
		VB: config.DefaultFit(100), VBBudgets: []int{1, 2, 3, 5, 10, 30, 100},
		ISSamples: []int{10, 100, 1000, 10000},
		AIS:       config.AIS{Runs: 8, Steps: 2, AISSchedule: config.DefaultSchedule(config.ScheduleGeometric)},
		AISSteps:  []int{10, 30, 100, 300, 1000}}
	c.Prior.A0, c.Prior.B0 = 1, 1
	c.IS.IS = config.IS{Runs: 16, Samples: 1}
	c.IS.Nu, c.IS.Widen, c.IS.Defensive = 10, 1.2, 0.05
	return c
}

// Validate checks what relates the keys.
func (c *LinregConfig) Validate() error {
	var errs []error
	if b := c.VBBudgets[len(c.VBBudgets)-1]; b > c.VB.MaxIterations {
		errs = append(errs, config.FieldError("vb_budgets", c.VBBudgets, fmt.Sprintf("must be at most vb.max_iterations = %d", c.VB.MaxIterations)))
	}
	if c.AIS.Runs < 2 {
		errs = append(errs, config.FieldError("ais.runs", c.AIS.Runs, "must be at least 2 (a standard error)"))
	}
	errs = append(errs, c.VB.Validate("vb", nil), c.AIS.Validate("ais"))
	return config.FirstError(errs...)
}

// Criteria states the criteria a run judges.
func (c *LinregConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return Criteria(true, IS, AIS), nil
}

// Estimate counts the cells (data sets) and the operations of each method.
func (c *LinregConfig) Estimate() experiments.Cost {
	sets, seeds := experiments.Key("data_sets", c.DataSets), experiments.Key("seeds", c.Seeds)
	n := experiments.Key("n", c.N)
	m := experiments.Key("order", c.Order).Plus(1, "weights (order + 1)")
	sum := func(xs []int) float64 {
		s := 0
		for _, x := range xs {
			s += x
		}
		return float64(s)
	}
	isM := experiments.KeyN("is_samples", c.ISSamples, sum(c.ISSamples), "IS samples over the ladder")
	aisT := experiments.KeyN("ais_steps", c.AISSteps, sum(c.AISSteps), "AIS temperatures over the ladder")
	grid := experiments.KeyN("grid_step", c.GridStep, 2*linregGridHalf/c.GridStep, "points of the ln α grid")
	return experiments.Cost{Cells: []experiments.Factor{sets},
		Memory:     []experiments.Part{experiments.Rows("estimates", sets, seeds, experiments.Fixed(float64(len(c.VBBudgets)+len(c.ISSamples)+len(c.AISSteps)+2), "budgets"))},
		CellMemory: []experiments.Part{experiments.Words("design matrix", n, m)},
		Work: []experiments.Part{
			experiments.Ops("posterior grid", 4, sets, grid, m, m, m),
			experiments.Ops("VB", 4, sets, seeds, n, m, m),
			experiments.Ops("VB iterations", 20, sets, seeds, experiments.Key("vb.max_iterations", c.VB.MaxIterations), m),
			experiments.Ops("IS samples", 10, sets, seeds, experiments.Key("is.runs", c.IS.Runs), isM, m, m),
			experiments.Ops("AIS sweeps", 10, sets, seeds, experiments.Key("ais.runs", c.AIS.Runs), aisT, m, m, m),
		}}
}

// linregGridHalf is the half-width, in ln α, of the grid about the mode of
// p(ln α | t) on which Posterior integrates.
const linregGridHalf = 40

// linregData is one data set: its design, targets and dense sufficient
// statistics A = ΦᵀΦ, b = Φᵀt, tᵀt.
type linregData struct {
	phi  *mat.Dense
	t    []float64
	p    *linreg.Problem
	a, b []float64
	tt   float64
	n, m int
	beta float64
}

func newLinregData(phi *mat.Dense, t []float64, beta float64) (*linregData, error) {
	p, err := linreg.NewProblem(phi, t, beta)
	if err != nil {
		return nil, err
	}
	n, m := phi.Dims()
	d := &linregData{phi: phi, t: t, p: p, a: make([]float64, m*m), b: make([]float64, m), n: n, m: m, beta: beta}
	for r := range n {
		row := phi.RawRowView(r)
		for i := range m {
			d.b[i] += row[i] * t[r]
			for j := range m {
				d.a[i*m+j] += row[i] * row[j]
			}
		}
		d.tt += t[r] * t[r]
	}
	return d, nil
}

// logLik is ln p(t | w) = (N/2) ln(β/2π) − (β/2)‖t − Φw‖², the residual
// summed over the points (no cancellation of tᵀt).
func (d *linregData) logLik(w []float64) float64 {
	r2 := 0.0
	for r := range d.n {
		e := d.t[r] - numeric.Dot(d.phi.RawRowView(r), w)
		r2 += e * e
	}
	return float64(d.n)/2*math.Log(d.beta/(2*math.Pi)) - d.beta/2*r2
}

// conditional sets, for precision α and likelihood power τ, the factor l
// of P = αI + τβA, the mean μ = τβP⁻¹b (into mu) and returns false when P
// is not positive definite.
func (d *linregData) conditional(alpha, tau float64, l, mu []float64) bool {
	m := d.m
	for i := range m * m {
		l[i] = tau * d.beta * d.a[i]
	}
	for i := range m {
		l[i*m+i] += alpha
	}
	if !numeric.CholFactor(l, m) {
		return false
	}
	for i := range m {
		mu[i] = tau * d.beta * d.b[i]
	}
	numeric.CholSolveVec(l, m, mu)
	numeric.CholSolveVecT(l, m, mu)
	return true
}

// Posterior returns the exact posterior mean and marginal variances of w,
// E[w | t] = ∫ m(α) p(α | t) dα and Var[w_i | t] = ∫ (S(α)_ii + m_i(α)²)
// p(α | t) dα − E[w_i | t]², with m(α), S(α) the Gaussian posterior of w
// at α (PRML eqs. 3.53–3.54), and ln p(t) by the same rule: the trapezoid
// rule on u = ln α with the given step over ±linregGridHalf about the mode
// of g(u) = ln p(t | eᵘ) + ln Gam(eᵘ | a₀, b₀) + u. It refuses a grid whose
// ends are within 40 nats of the peak.
func (d *linregData) Posterior(prior linreg.Prior, step float64) (mean, variance []float64, lnZ float64, err error) {
	g := func(u float64) float64 {
		a := math.Exp(u)
		return d.p.LogLik(a) + dist.Gamma{Alpha: prior.A0, Beta: prior.B0}.LogProb(a) + u
	}
	// The mode of g by a coarse scan, refined on the fine grid below.
	best, bu := math.Inf(-1), 0.0
	for u := -60.0; u <= 60; u += 0.25 {
		if v := g(u); v > best {
			best, bu = v, u
		}
	}
	var us, gs []float64
	for u := bu - linregGridHalf; u <= bu+linregGridHalf; u += step {
		us, gs = append(us, u), append(gs, g(u))
	}
	mx := slices.Max(gs)
	if gs[0] > mx-40 || gs[len(gs)-1] > mx-40 {
		return nil, nil, 0, errors.New("atlas: the posterior of ln α is not within the grid")
	}
	m := d.m
	l, mu := make([]float64, m*m), make([]float64, m)
	mean, second := make([]float64, m), make([]float64, m)
	e := make([]float64, m)
	var wsum float64
	for i, u := range us {
		w := math.Exp(gs[i] - mx)
		if i == 0 || i == len(us)-1 {
			w /= 2
		}
		if w < 1e-300 {
			continue
		}
		if !d.conditional(math.Exp(u), 1, l, mu) {
			return nil, nil, 0, errors.New("atlas: αI + βΦᵀΦ not positive definite")
		}
		wsum += w
		for j := range m {
			// S_jj = ‖L⁻¹e_j‖².
			clear(e)
			e[j] = 1
			numeric.CholSolveVec(l, m, e)
			mean[j] += w * mu[j]
			second[j] += w * (numeric.Dot(e, e) + mu[j]*mu[j])
		}
	}
	variance = make([]float64, m)
	for j := range m {
		mean[j] /= wsum
		variance[j] = second[j]/wsum - mean[j]*mean[j]
	}
	return mean, variance, mx + math.Log(wsum*step), nil
}

// Laplace is the Laplace approximation to ln p(t) over θ = (w, u = ln α)
// at the mode of g(θ) = ln p(t | w) + ln N(w | 0, e⁻ᵘI) + ln Gam(eᵘ | a₀,
// b₀) + u (the Jacobian of u = ln α included): ln Z ≈ g(θ̂) + ((M+1)/2) ln
// 2π − ½ ln|−∇²g(θ̂)|, with ∇²_ww g = −(αI + βA), ∇²_wu g = −αw, ∇²_uu g =
// −α(wᵀw/2 + b₀). The mode is the fixed point of w = m(α), α = (a₀ +
// M/2)/(b₀ + wᵀw/2) (∂g/∂u = 0), iterated to a relative change of 10⁻¹²;
// it returns the iterations too, and the mode's w and the marginal
// variances of w under the Gaussian of covariance (−∇²g)⁻¹.
func (d *linregData) Laplace(prior linreg.Prior) (lnZ float64, w, variance []float64, iters int, err error) {
	m := d.m
	l, mu := make([]float64, m*m), make([]float64, m)
	alpha := prior.A0 / prior.B0
	for iters = 1; iters <= 10000; iters++ {
		if !d.conditional(alpha, 1, l, mu) {
			return 0, nil, nil, iters, errors.New("atlas: αI + βΦᵀΦ not positive definite")
		}
		next := (prior.A0 + float64(m)/2) / (prior.B0 + numeric.Dot(mu, mu)/2)
		done := math.Abs(next-alpha) <= 1e-12*alpha
		alpha = next
		if done {
			break
		}
	}
	d.conditional(alpha, 1, l, mu)
	w = slices.Clone(mu)
	u := math.Log(alpha)
	ww := numeric.Dot(w, w)
	gm := d.logLik(w) + float64(m)/2*(u-math.Log(2*math.Pi)) - alpha*ww/2 +
		dist.Gamma{Alpha: prior.A0, Beta: prior.B0}.LogProb(alpha) + u
	k := m + 1
	h := make([]float64, k*k) // −∇²g
	for i := range m {
		for j := range m {
			h[i*k+j] = d.beta * d.a[i*m+j]
		}
		h[i*k+i] += alpha
		h[i*k+m], h[m*k+i] = alpha*w[i], alpha*w[i]
	}
	h[m*k+m] = alpha * (ww/2 + prior.B0)
	if !numeric.CholFactor(h, k) {
		return 0, nil, nil, iters, errors.New("atlas: the Laplace Hessian is not negative definite")
	}
	lnZ = gm + float64(k)/2*math.Log(2*math.Pi) - numeric.CholLogDet(h, k)/2
	variance = make([]float64, m)
	e := make([]float64, k)
	for j := range m {
		clear(e)
		e[j] = 1
		numeric.CholSolveVec(h, k, e)
		variance[j] = numeric.Dot(e, e)
	}
	return lnZ, w, variance, iters, nil
}

// linregState is a point (w, α) of the AIS chain.
type linregState struct {
	w     []float64
	alpha float64
}

// linregAnnealed is the AIS target of linear regression: the prior p(w |
// α) p(α) and the likelihood p(t | w), with the exact Gibbs conditionals of
// p(w, α) p(t | w)^τ as the sweep.
type linregAnnealed struct {
	d     *linregData
	prior linreg.Prior
}

func (a *linregAnnealed) LogPrior(s *linregState) float64 {
	m := float64(a.d.m)
	return m/2*(math.Log(s.alpha)-math.Log(2*math.Pi)) - s.alpha*numeric.Dot(s.w, s.w)/2 +
		dist.Gamma{Alpha: a.prior.A0, Beta: a.prior.B0}.LogProb(s.alpha)
}

func (a *linregAnnealed) LogLik(s *linregState) float64 { return a.d.logLik(s.w) }

func (a *linregAnnealed) SamplePrior(dst *linregState, rnd *rand.Rand) *linregState {
	if dst == nil || len(dst.w) != a.d.m {
		dst = &linregState{w: make([]float64, a.d.m)}
	}
	dst.alpha = dist.Gamma{Alpha: a.prior.A0, Beta: a.prior.B0}.Rand(rnd)
	sd := 1 / math.Sqrt(dst.alpha)
	for i := range dst.w {
		dst.w[i] = sd * rnd.NormFloat64()
	}
	return dst
}

// linregGibbs draws w | α, t at power τ (N(μ_τ, P_τ⁻¹), P_τ = αI + τβA)
// then α | w (Gam(a₀ + M/2, b₀ + wᵀw/2)).
type linregGibbs struct {
	a     *linregAnnealed
	l, mu []float64
}

func (g *linregGibbs) Sweep(s *linregState, tau float64, rnd *rand.Rand) *linregState {
	m := g.a.d.m
	if !g.a.d.conditional(s.alpha, tau, g.l, g.mu) {
		return s
	}
	// w = μ + L⁻ᵀz has covariance (LLᵀ)⁻¹.
	z := s.w
	for i := range z {
		z[i] = rnd.NormFloat64()
	}
	numeric.CholSolveVecT(g.l, m, z)
	for i := range z {
		z[i] += g.mu[i]
	}
	s.alpha = dist.Gamma{Alpha: g.a.prior.A0 + float64(m)/2, Beta: g.a.prior.B0 + numeric.Dot(s.w, s.w)/2}.Rand(rnd)
	return s
}

// newLinregProposal returns the IS proposal on θ = (w, u = ln α): the
// defensive mixture (1 − ε) t_ν(μ, c²Σ) + ε p(w, u) (is.Defensive), where
// μ = (m_N, ψ(a_N) − ln b_N) and Σ = blockdiag(S_N, ψ′(a_N)) are the mean
// and covariance of VB's q(w) q(α) in these coordinates (PRML eqs. 10.93–
// 10.101; the mean and variance of ln α under Gam(a_N, b_N)), c = widen,
// and p the prior in θ. With VB's Gaussian q itself and 4 runs, 2 of the 9
// estimates of the full run lay 3.2 and 4.1 standard errors below the
// quadrature: an SE from 4 runs has 3 degrees of freedom (|t₃| > 3 has
// probability 0.058 per estimate) and Gaussian tails hide the weights'
// spread. The row's defaults are 16 runs and the t (ν = 10, c = 1.2,
// ε = 0.05), whose heavier tails and prior share bound the weights.
func newLinregProposal(q *linreg.VB, a *linregAnnealed, nu, widen, eps float64) (is.Proposal, error) {
	cov := q.Cov()
	m := cov.SymmetricDim()
	s := mat.NewSymDense(m+1, nil)
	for i := range m {
		for j := i; j < m; j++ {
			s.SetSym(i, j, widen*widen*cov.At(i, j))
		}
	}
	qa := q.QAlpha()
	s.SetSym(m, m, widen*widen*numeric.Trigamma(qa.Alpha))
	var chol mat.Cholesky
	if !chol.Factorize(s) {
		return nil, errors.New("atlas: S_N not positive definite")
	}
	mu := append(q.Mean(), numeric.Digamma(qa.Alpha)-math.Log(qa.Beta))
	return is.NewDefensive(is.NewStudentT(nu, mu, &chol), &linregPrior{a: a}, eps), nil
}

// linregPrior is the prior p(w | α) p(α) on θ = (w, u = ln α), with the
// Jacobian α of u, as an IS proposal.
type linregPrior struct {
	a *linregAnnealed
	s linregState
}

func (p *linregPrior) Dim() int { return p.a.d.m + 1 }

func (p *linregPrior) LogProb(theta []float64) float64 {
	m := p.a.d.m
	s := linregState{w: theta[:m], alpha: math.Exp(theta[m])}
	return p.a.LogPrior(&s) + theta[m]
}

func (p *linregPrior) RandLogProb(dst []float64, rnd *rand.Rand) float64 {
	m := p.a.d.m
	p.s.w = dst[:m]
	p.a.SamplePrior(&p.s, rnd)
	dst[m] = math.Log(p.s.alpha)
	return p.LogProb(dst)
}

// linregTarget is ln p(t | w) p(w | α) p(α) α on θ = (w, ln α).
type linregTarget struct{ a *linregAnnealed }

func (t linregTarget) LogProb(theta []float64) float64 {
	m := t.a.d.m
	s := linregState{w: theta[:m], alpha: math.Exp(theta[m])}
	return t.a.LogPrior(&s) + t.a.LogLik(&s) + theta[m]
}

// linregCell is the outcome of one data set.
type linregCell struct {
	Gold cellGold  `json:"gold"`
	Est  []cellEst `json:"est"`
}

// RunLinreg runs every data set and writes the grid.
func RunLinreg(env *experiments.Env, c *LinregConfig) error {
	var names []string
	var cost []float64
	for i := range c.DataSets {
		names, cost = append(names, "set"+strconv.Itoa(i)), append(cost, 1)
	}
	cells, complete, err := experiments.RunAllCells(env, names, cost, func(i int) (linregCell, error) {
		return c.runCell(env, i, names[i])
	})
	if err != nil || !complete {
		return err
	}
	var gold []GoldStandard
	var est []Estimate
	for _, cl := range cells {
		gold = append(gold, cl.Gold.gold())
		for _, e := range cl.Est {
			est = append(est, e.estimate())
		}
	}
	absent := []Absent{
		{Method: CS, Why: "not applicable: no hidden variables (CS corrects the complete-data evidence of a latent-variable model)"},
		{Method: EP, Why: "not applicable: the posterior given α is Gaussian (EP is exact there and adds nothing over the quadrature)"},
	}
	s := &results.Summary{Metrics: map[string]float64{}, Criteria: Criteria(true, IS, AIS)}
	if _, err := WriteGrid(env.Dir, s, "linreg", gold, est, absent); err != nil {
		return err
	}
	s.AddFindingsFromChecks(map[string]string{
		"within3se-is":  "the weights' tail (a proposal too light for the posterior of (w, ln α)) makes the SE of a few runs understate the spread",
		"within3se-ais": "too few temperatures or runs: the pooled estimate's SE understates its spread",
	})
	return env.WriteSummary(s, "atlas/linreg: ln p(t) and the posterior of w by each method against quadrature over α")
}

// linregDataSet draws data set i (see LinregConfig).
func (c *LinregConfig) linregDataSet(i int) (*linregData, error) {
	rnd := rng.New(c.Seed, LinregID, "data", strconv.Itoa(i))
	x := make([]float64, c.N)
	for j := range x {
		x[j] = 2*rnd.Float64() - 1
	}
	phi := linreg.Polynomial(x, c.Order)
	m := c.Order + 1
	w := make([]float64, m)
	for j := range w {
		w[j] = rnd.NormFloat64() / math.Sqrt(c.AlphaTrue)
	}
	t := make([]float64, c.N)
	for j := range t {
		t[j] = numeric.Dot(phi.RawRowView(j), w) + rnd.NormFloat64()/math.Sqrt(c.Beta)
	}
	return newLinregData(phi, t, c.Beta)
}

// vecErr is ‖a − b‖₂.
func vecErr(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Sqrt(s)
}

// runCell computes the gold standard and every method's estimates of one
// data set over the seeds. The posterior errors are ‖E_q[w] − E[w|t]‖₂
// and ‖diag Var_q[w] − diag Var[w|t]‖₂ (VB, Laplace, IS from its draws'
// self-normalised moments, and AIS from its runs' final states weighted
// by their w; NaN for BIC).
func (c *LinregConfig) runCell(env *experiments.Env, i int, name string) (linregCell, error) {
	var out linregCell
	d, err := c.linregDataSet(i)
	if err != nil {
		return out, err
	}
	prior := linreg.Prior{A0: c.Prior.A0, B0: c.Prior.B0}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	lnZ, qerr, err := d.p.LogEvidence(prior, linreg.QuadSettings{})
	if err != nil {
		return out, fmt.Errorf("%s: %w", name, err)
	}
	out.Gold = cellGold{Dataset: name, LnZ: experiments.Float(lnZ), SE: experiments.Float(math.Abs(qerr)), Kind: GoldQuadrature}
	pm, pv, _, err := d.Posterior(prior, c.GridStep)
	if err != nil {
		return out, fmt.Errorf("%s: %w", name, err)
	}
	n, m := float64(d.n), float64(d.m)
	nan := math.NaN()
	add := func(seed uint64, meth string, b int, lnz, se, ops, cpu, me, ve float64) {
		out.Est = append(out.Est, cellEst{Dataset: name, Seed: seed, Method: meth, Budget: b, LnZ: experiments.Float(lnz),
			SE: experiments.Float(se), Ops: experiments.Float(ops), CPUSeconds: experiments.Float(cpu),
			MeanErr: experiments.Float(me), VarErr: experiments.Float(ve)})
	}
	// A sampler's errors from its self-normalised moments of w.
	moments := func(mean, second []float64) (float64, float64) {
		v := make([]float64, d.m)
		for j := range v {
			v[j] = second[j] - mean[j]*mean[j]
		}
		return vecErr(mean, pm), vecErr(v, pv)
	}
	diag := func(s interface{ At(i, j int) float64 }) []float64 {
		v := make([]float64, d.m)
		for j := range v {
			v[j] = s.At(j, j)
		}
		return v
	}
	// The deterministic methods, once (seed 0 is every seed's).
	var q *linreg.VB
	for _, b := range c.VBBudgets {
		// A fresh run of b iterations: the posterior error at that budget
		// needs q after it.
		t1 := cpuNow()
		qb, _ := linreg.NewVB(d.p, prior, linreg.Settings{})
		set := c.VB
		set.MaxIterations = b
		res := vb.Run(qb, set.Settings(env.Stop, qb))
		if res.Status == vb.Canceled {
			return out, res.Err
		}
		if err := res.Error(); err != nil {
			return out, fmt.Errorf("%s: %w", name, err)
		}
		add(0, VB, b, res.F, nan, n*m*m+float64(res.Iterations)*m, cpuNow()-t1,
			vecErr(qb.Mean(), pm), vecErr(diag(qb.Cov()), pv))
		if b == c.VBBudgets[len(c.VBBudgets)-1] {
			q = qb
		}
	}
	t0 := cpuNow()
	wml, err := leastSquares(d)
	if err != nil {
		return out, err
	}
	add(0, BIC, 0, score.BIC(d.logLik(wml), d.m, n), nan, n*m, cpuNow()-t0, nan, nan)
	t0 = cpuNow()
	lz, lw, lv, its, err := d.Laplace(prior)
	if err != nil {
		return out, fmt.Errorf("%s: %w", name, err)
	}
	add(0, Laplace, 0, lz, nan, n*m*m+float64(its)*m*m*m, cpuNow()-t0, vecErr(lw, pm), vecErr(lv, pv))
	target := &linregAnnealed{d: d, prior: prior}
	// One proposal per worker (a t and the prior keep scratch space).
	newProposal := func() (is.Proposal, error) { return newLinregProposal(q, target, c.IS.Nu, c.IS.Widen, c.IS.Defensive) }
	if _, err := newProposal(); err != nil {
		return out, err
	}
	for sd := range c.Seeds {
		seed := uint64(sd + 1)
		labels := []string{LinregID, name, "seed", strconv.Itoa(sd)}
		for _, ms := range c.ISSamples {
			t0 = cpuNow()
			// is.SampleRuns' runs on one worker (one proposal), keeping the
			// draws θ = (w, ln α) for the moments of w.
			prop, _ := newProposal()
			stream := is.RunStreams(c.Seed, append(slices.Clone(labels), "is", strconv.Itoa(ms))...)
			ests := make([]is.Estimate, c.IS.Runs)
			var lws []float64
			var ws [][]float64
			for r := range c.IS.Runs {
				run, th := is.SampleDraws(ms, prop, linregTarget{target}, stream(r))
				ests[r] = run.Estimate
				lws = append(lws, run.LogW...)
				for i := range ms {
					ws = append(ws, th[i*(d.m+1):i*(d.m+1)+d.m])
				}
			}
			sum := is.Summarize(ests)
			me, ve := nan, nan
			if mean, second, ok := is.Moments(lws, ws); ok {
				me, ve = moments(mean, second)
			}
			add(seed, IS, ms, sum.Pooled, sum.SE, float64(c.IS.Runs*ms)*(n*m+m*m), cpuNow()-t0, me, ve)
		}
		for _, steps := range c.AISSteps {
			t0 = cpuNow()
			a := c.AIS
			a.Steps = steps
			s := ais.Sampler[*linregState]{Model: target, NewKernel: func() mcmc.Kernel[*linregState] {
				return &mcmc.Gibbs[*linregState]{Target: target, Sweeper: &linregGibbs{a: target, l: make([]float64, d.m*d.m), mu: make([]float64, d.m)}}
			}}
			runs, final, _, err := config.SampleFinal(a, s, 1, c.Seed, append(slices.Clone(labels), "ais", strconv.Itoa(steps))...)
			if err != nil {
				return out, err
			}
			lw := ais.LogWeights(runs)
			z, se := ais.Pool(lw)
			cpu := cpuNow() - t0
			// The moments of w from the weighted final states.
			ws := make([][]float64, len(final))
			for g, st := range final {
				ws[g] = st.w
			}
			me, ve := aisErrs(runs, ws, moments)
			add(seed, AIS, steps, z, max(se, ais.LogWSE(lw)), float64(a.Runs*steps)*(m*m*m+n*m), cpu, me, ve)
		}
	}
	// The deterministic estimates hold for every seed.
	var det []cellEst
	for _, e := range out.Est {
		if e.Seed == 0 {
			for sd := range c.Seeds {
				e.Seed = uint64(sd + 1)
				det = append(det, e)
			}
		} else {
			det = append(det, e)
		}
	}
	out.Est = det
	return out, nil
}

// leastSquares returns the ML weights argmin ‖t − Φw‖² (gonum's QR/SVD
// solve of the N × M system).
func leastSquares(d *linregData) ([]float64, error) {
	var w mat.VecDense
	if err := w.SolveVec(d.phi, mat.NewVecDense(d.n, d.t)); err != nil {
		return nil, fmt.Errorf("atlas: least squares: %w", err)
	}
	return w.RawVector().Data, nil
}
