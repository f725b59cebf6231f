package atlas

// atlas/mfa: one Bayesian factor analyser of Beal (2003) chapter 4 (the
// VBMFA of core/model/mfa at S = 1, k = 1, p = 2, with ARD on the loading
// column) against its evidence by quadrature over the loadings.

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/model/mfa"
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

// MFAID is the factor-analyser row of the atlas.
const MFAID = "atlas/mfa"

func init() {
	experiments.Add(MFAID, "atlas: one Bayesian factor analyser (VBMFA at S = 1, k = 1, p = 2, ARD) by VB, BIC, CS, Laplace, IS with q and AIS against quadrature over Λ",
		DefaultMFA, RunMFA, PlotGrid)
}

// mfaP and mfaK are the row's data dimension and factors: the quadrature
// (mfa.Annealed.LogEvidenceQuad) is two-dimensional.
const mfaP, mfaK = 2, 1

// MFAConfig is the config of atlas/mfa: one data set per loading λ of
// lambda (consecutive pairs (λ_1, λ_2)) and size of n, that many points y =
// λx + mean + ε, x ~ N(0, 1), ε ~ N(0, Ψ), data set i from rng.New(seed,
// "atlas/mfa", "data", i), i = loading·len(n) + size. The model is one analyser (S = 1)
// with k = 1 factor and the hyperparameters of [prior] FIXED for every
// method: Ψ = diag(psi) (also the noise of the data), the ARD prior ν ~
// Ga(a, b) (shape, rate) of the loading column, μ ~ N(mu, diag(1/nu)).
// Every method estimates ln p(y | Ψ, a, b, mu, nu) of this one model.
type MFAConfig struct {
	experiments.Common
	N      []int     `toml:"n" range:"[3,1e5] integer len=1.."`
	Lambda []float64 `toml:"lambda" range:"[-1e3,1e3] len=2.."`
	Mean   []float64 `toml:"mean" range:"[-1e3,1e3] len=2..2"`
	Seeds  int       `toml:"seeds" range:"[1,1e3] integer"`
	Prior  struct {
		A   float64   `toml:"a" range:"[1e-3,1e3]"`
		B   float64   `toml:"b" range:"[1e-3,1e3]"`
		Mu  []float64 `toml:"mu" range:"[-1e3,1e3] len=2..2"`
		Nu  []float64 `toml:"nu" range:"[1e-6,1e6] len=2..2"`
		Psi []float64 `toml:"psi" range:"[1e-3,1e3] len=2..2"`
	} `toml:"prior"`
	// Gold holds the quadrature's box and breaks (mfa.QuadSettings).
	Gold struct {
		Margin float64 `toml:"margin" range:"[20,100]"`
		Step   float64 `toml:"step" range:"[0.2,2]"`
		Bulk   float64 `toml:"bulk" range:"[6,30]"`
	} `toml:"gold"`
	VBBudgets []int `toml:"vb_budgets" range:"[1,1e4] integer len=1.. increasing"`
	// IS: VB's q(Λ), its standard deviations widened, mirrored (an
	// equal mixture of q and its reflection q(−Λ)) when mirror is true,
	// mixed with the prior at weight defensive (0: not at all); the ladder
	// is the draws of each run used.
	IS struct {
		config.IS
		Ladder    []int   `toml:"ladder" range:"[1,1e9] integer len=1.. increasing"`
		Widen     float64 `toml:"widen" range:"[1,10]"`
		Mirror    bool    `toml:"mirror"`
		Defensive float64 `toml:"defensive" range:"0|(0,1)"`
	} `toml:"is"`
	// AIS from the prior with HMC, leapfrog steps of step/√(a/b + τn/ψ_min)
	// (the prior's and the likelihood's curvature scales); one set of runs
	// per rung of the ladder.
	AIS hmcLadder `toml:"ais"`
}

// DefaultMFA returns nine data sets of 20, 50 and 100 points from λ = (1,
// 0.8), the weak λ = (0.4, −0.3) and the one-sided λ = (1.5, 0.1), Ψ =
// diag(0.5, 0.5), the prior a = b = 1, μ ~ N(0, I), five seeds.
func DefaultMFA() MFAConfig {
	c := MFAConfig{Common: experiments.Common{Seed: 3604}, N: []int{20, 50, 100}, Lambda: []float64{1, 0.8, 0.4, -0.3, 1.5, 0.1}, Mean: []float64{0, 0}, Seeds: 5,
		VBBudgets: []int{1, 2, 3, 5, 10, 30, 100}}
	c.Prior.A, c.Prior.B, c.Prior.Mu, c.Prior.Nu, c.Prior.Psi = 1, 1, []float64{0, 0}, []float64{1, 1}, []float64{0.5, 0.5}
	c.Gold.Margin, c.Gold.Step, c.Gold.Bulk = 40, 0.5, 12
	c.IS.IS = config.IS{Runs: 16, Samples: 10000}
	c.IS.Ladder, c.IS.Widen, c.IS.Mirror, c.IS.Defensive = []int{10, 100, 1000, 10000}, 1.5, true, 0.05
	c.AIS.AIS = config.AIS{Runs: 16, Steps: 3000, AISSchedule: config.DefaultSchedule(config.ScheduleGeometric)}
	c.AIS.HMC = config.HMC{Leapfrog: 10, Step: 1}
	c.AIS.Ladder = []int{10, 30, 100, 300, 1000, 3000}
	return c
}

// Validate checks the ladders against their caps.
func (c *MFAConfig) Validate() error {
	switch {
	case len(c.Lambda)%mfaP != 0:
		return config.FieldError("lambda", c.Lambda, fmt.Sprintf("must hold loadings of %d entries each (its length a multiple of %d)", mfaP, mfaP))
	case slices.Max(c.IS.Ladder) > c.IS.Samples:
		return config.FieldError("is.ladder", slices.Max(c.IS.Ladder), fmt.Sprintf("must be at most is.samples (%d)", c.IS.Samples))
	case slices.Max(c.AIS.Ladder) > c.AIS.Steps:
		return config.FieldError("ais.ladder", slices.Max(c.AIS.Ladder), fmt.Sprintf("must be at most ais.steps (%d)", c.AIS.Steps))
	case c.AIS.Runs < 2:
		return config.FieldError("ais.runs", c.AIS.Runs, "must be at least 2 (a standard error)")
	}
	return c.AIS.Validate("ais")
}

// Criteria states the criteria a run judges.
func (c *MFAConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return Criteria(true, IS, AIS), nil
}

// mfaEval is the multiply-adds of one evaluation of ln p(Λ) + ln p(y|Λ)
// or its gradient (mfa.Annealed.EvalFlops at p = 2, k = 1).
const mfaEval = 4*mfaP*mfaP*mfaP + 3*mfaP*mfaP*mfaK + 4*mfaP*mfaP + 2*mfaP*mfaK

// mfaVBIter is the multiply-adds of one VB iteration on n points: per
// point the factor posterior and the loading statistics (4pd + 2d², d =
// k+1), per row the loading update (4d³).
func mfaVBIter(n int) float64 {
	d := float64(mfaK + 1)
	return float64(n)*(4*mfaP*d+2*d*d) + 4*mfaP*d*d*d
}

// Estimate counts the cells (data sets) and the operations of each method
// (BIC's and CS's ML point and E step, O(np² + p³), are below the count's
// resolution; CS's integral over ln ν is counted).
func (c *MFAConfig) Estimate() experiments.Cost {
	sum := func(xs []int) float64 {
		s := 0
		for _, x := range xs {
			s += x
		}
		return float64(s)
	}
	loads := experiments.KeyN("lambda", c.Lambda, float64(len(c.Lambda)/mfaP), "loadings")
	sets := experiments.KeyN("n", c.N, float64(len(c.N)), "sizes")
	pts := experiments.KeyN("n", c.N, sum(c.N), "points over the sizes")
	seeds := experiments.Key("seeds", c.Seeds)
	// The quadrature: (2·bulk/step + 40)² breaks' cells × 225 nodes.
	breaks := experiments.KeyN("gold.bulk", c.Gold.Bulk, 2*c.Gold.Bulk/c.Gold.Step+40, "breaks an axis (2 bulk / step + 40)")
	return experiments.Cost{Cells: []experiments.Factor{loads, sets},
		Memory: []experiments.Part{
			experiments.Rows("estimates", loads, sets, seeds, experiments.Fixed(float64(len(c.VBBudgets)+len(c.IS.Ladder)+len(c.AIS.Ladder)+2), "budgets")),
			experiments.Words("IS draws and weights", experiments.Fixed(mfaP*mfaK+1, "values a draw"), experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs)),
		},
		CellMemory: []experiments.Part{experiments.Words("data", experiments.KeyN("n", c.N, float64(slices.Max(c.N)), "points of the largest set"), experiments.Fixed(mfaP, "p"))},
		Work: []experiments.Part{
			experiments.Ops("quadrature", 2*225*mfaEval, loads, sets, breaks, breaks),
			experiments.Ops("CS: the integrand over ln ν", 30*mfaP, loads, sets, experiments.Fixed(2200, "evaluations (about: a scan of 401, then the adaptive rule)")),
			experiments.Ops("VB", 2*mfaVBIter(1), loads, pts, experiments.KeyN("vb_budgets", c.VBBudgets, float64(slices.Max(c.VBBudgets)), "iterations")),
			experiments.Ops("IS", 2*mfaEval, loads, sets, seeds, experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs)),
			experiments.Ops("AIS ladder", 4*mfaEval, loads, sets, seeds, experiments.KeyN("ais.ladder", c.AIS.Ladder, sum(c.AIS.Ladder), "steps summed over the ladder"),
				experiments.Key("ais.runs", c.AIS.Runs), experiments.Key("ais.leapfrog", c.AIS.Leapfrog).Plus(2, "evaluations a transition (leapfrog + 2)")),
		}}
}

// hyper returns the fixed hyperparameters.
func (c *MFAConfig) hyper() mfa.Hyper {
	return mfa.Hyper{Alpha: 1, A: c.Prior.A, B: c.Prior.B, Mu: slices.Clone(c.Prior.Mu), Nu: slices.Clone(c.Prior.Nu), Psi: slices.Clone(c.Prior.Psi)}
}

// mfaSets is the number of data sets: loadings × sizes.
func (c *MFAConfig) mfaSets() int { return len(c.Lambda) / mfaP * len(c.N) }

// mfaSet returns the loading and the size of data set i.
func (c *MFAConfig) mfaSet(i int) (lambda []float64, n int) {
	l := i / len(c.N)
	return c.Lambda[l*mfaP : (l+1)*mfaP], c.N[i%len(c.N)]
}

// mfaDataSet draws data set i (see MFAConfig).
func (c *MFAConfig) mfaDataSet(i int) *mat.Dense {
	rnd := rng.New(c.Seed, MFAID, "data", strconv.Itoa(i))
	lambda, n := c.mfaSet(i)
	y := mat.NewDense(n, mfaP, nil)
	for r := range n {
		x := rnd.NormFloat64()
		for q := range mfaP {
			y.Set(r, q, c.Mean[q]+lambda[q]*x+math.Sqrt(c.Prior.Psi[q])*rnd.NormFloat64())
		}
	}
	return y
}

// mfaName is the name of data set i: its loading's index and its size.
func (c *MFAConfig) mfaName(i int) string {
	_, n := c.mfaSet(i)
	return fmt.Sprintf("l%d-n%d", i/len(c.N), n)
}

// mfaCell is one data set: a rowCell per seed, sharing the gold standard.
type mfaCell struct {
	Rows []rowCell `json:"rows"`
}

// RunMFA runs every data set and writes the grid.
func RunMFA(env *experiments.Env, c *MFAConfig) error {
	names := make([]string, c.mfaSets())
	cost := make([]float64, len(names))
	for i := range names {
		_, n := c.mfaSet(i)
		names[i], cost[i] = c.mfaName(i), 1+float64(n)/100
	}
	cells, complete, err := experiments.RunAllCells(env, names, cost, func(i int) (mfaCell, error) { return c.runMFACell(env, i) })
	if err != nil || !complete {
		return err
	}
	var rows []rowCell
	for _, cl := range cells {
		rows = append(rows, cl.Rows...)
	}
	s := &results.Summary{Metrics: map[string]float64{}, Criteria: Criteria(true, IS, AIS)}
	absent := []Absent{
		{Method: EP, Why: "not applicable: Beal's chapter 4 has no EP for the analyser, and each point's factor N(y_i | μ, ΛΛᵀ + Ψ) depends on Λ through a covariance, not through a projection EP's sites could match"},
	}
	noteMetrics(s, rows)
	gold, est := rowEstimates(rows)
	if _, err := WriteGrid(env.Dir, s, "mfa", gold, est, absent); err != nil {
		return err
	}
	s.AddFindingsFromChecks(map[string]string{
		"within3se-is":  "the widened, mirrored q(Λ) is too light in the tails for this data set: a few large weights the runs' spread does not show",
		"within3se-ais": "too few temperatures or runs: the pooled estimate's SE understates its spread",
	})
	mirror := "not mirrored"
	if c.IS.Mirror {
		mirror = "mirrored (½q(Λ) + ½q(−Λ))"
	}
	return env.WriteSummary(s, fmt.Sprintf("Atlas row: one Bayesian factor analyser of Beal (2003) chapter 4 (VBMFA, S = 1, k = 1, p = 2) with the hyperparameters FIXED for every method: "+
		"Ψ = diag(%v), the ARD precision ν ~ Ga(%g, %g) (shape, rate) of the loading column, μ ~ N(%v, diag(1/%v)). Data: one set per n = %v and loading λ of the pairs %v, y = λx + mean + ε, mean = %v, ε ~ N(0, Ψ); %d seeds of every sampler. "+
		"Gold standard: ln p(y) = ln ∫ p(Λ) p(y|Λ) dΛ over the whole plane (ν and μ integrated in closed form: the column Student-t, the Gaussian convolution over μ) by iterated adaptive Gauss–Kronrod on a box whose edges are at least %g nats below the peak (mfa.Annealed.LogEvidenceQuad; both mirrored modes inside; SE its error estimate), and E[ΛΛᵀ|y], Var[Λ_qΛ_t|y] on the same rule. "+
		"VB: F (eq. 4.29 at S = 1) after %v iterations of one run; BIC = ln p(y | Λ̂, ȳ, Ψ) − (4/2) ln n at the ML loadings for fixed Ψ; Laplace: core/approx.Laplace on ln p(Λ) + ln p(y|Λ) from VB's mean, + ln 2 for the two mirrored modes ±Λ̂. "+
		"CS: Cheeseman–Stutz ln p(x̂, y) + ln p(y | θ̂) − ln p(x̂, y | θ̂) (Beal 2003 eqs. 2.133, 6.27–6.30) at BIC's point θ̂ = (Λ̂, ȳ), x̂ the expected statistics Σ⟨x_i⟩, Σ⟨x_i²⟩, Σ⟨x_i⟩y_i under p(x | y, θ̂), ln p(x̂, y) the Gaussian integral over each row's (Λ_q, μ_q) given ν in closed form and the integral over ln ν by adaptive Gauss–Kronrod (mfa.Annealed.CheesemanStutz; VB's bound at q(x) = p(x | y, θ̂), so a lower bound before its ln 2; its error does not vanish with n but tends to −½ ln(|H_c|/|H_o|), the missing information of the completed against the observed likelihood's curvature in (Λ, μ)), + ln 2 for the mirrored mode as Laplace; its operations are the ML point's np² + 10p³ (BIC's), the E step at ȳ and the scatter 3p² + 4p, ln p(y | θ̂) and 30p an evaluation of the integrand over ln ν. "+
		"IS: %d runs of up to %d draws from VB's q(Λ) widened %g× in sd, %s, mixed with the prior at %g, estimates on prefixes %v; AIS: %d runs per rung of %v steps from the prior (%s schedule), HMC with %d leapfrog steps of %g/√(a/b + τn/ψ_min), its posterior errors in the norms of VB's and Laplace's below, from the products Λ_qΛ_t of the runs' final states weighted by their w (Neal 2001 §3). "+
		"Posterior errors (VB, Laplace, IS from the products Λ_qΛ_t of its draws, AIS): mean_err = ‖E_q[ΛΛᵀ] − E[ΛΛᵀ|y]‖_F (the posterior mean of Λ is 0 by the sign symmetry), var_err = ‖Var_q[Λ_qΛ_t] − Var[Λ_qΛ_t|y]‖_F over the 2×2 entries; Laplace's q is its Gaussian mirrored. "+
		"Operations: multiply-adds; an evaluation of ln p(Λ) + ln p(y|Λ) or its gradient is %d (the data enter through ȳ and the scatter), a VB iteration n(4pd + 2d²) + 4pd³ with d = 2.",
		c.Prior.Psi, c.Prior.A, c.Prior.B, c.Prior.Mu, c.Prior.Nu, c.N, c.Lambda, c.Mean, c.Seeds, c.Gold.Margin, c.VBBudgets,
		c.IS.Runs, c.IS.Samples, c.IS.Widen, mirror, c.IS.Defensive, c.IS.Ladder, c.AIS.Runs, c.AIS.Ladder, c.AIS.Schedule, c.AIS.Leapfrog, c.AIS.Step, mfaEval))
}

// gaussProd returns E[ΛΛᵀ] and the entrywise Var[Λ_qΛ_t] (2×2 row-major)
// of a Gaussian N(m, S) on vec Λ (k = 1; also of its mirrored mixture,
// since both are even in Λ) by Isserlis' theorem: E[Λ_qΛ_t] = S_qt +
// m_qm_t, Var[Λ_qΛ_t] = S_qqS_tt + S_qt² + m_q²S_tt + m_t²S_qq + 2m_qm_tS_qt.
func gaussProd(m, s []float64) (second, prodVar []float64) {
	p := len(m)
	second, prodVar = make([]float64, p*p), make([]float64, p*p)
	for q := range p {
		for t := range p {
			sqt, sqq, stt := s[q*p+t], s[q*p+q], s[t*p+t]
			second[q*p+t] = sqt + m[q]*m[t]
			prodVar[q*p+t] = sqq*stt + sqt*sqt + m[q]*m[q]*stt + m[t]*m[t]*sqq + 2*m[q]*m[t]*sqt
		}
	}
	return second, prodVar
}

// vbQ returns the mean and covariance of q(Λ) on vec Λ (row-major p×k):
// the Λ block of each row's Gaussian q(Λ̃_q) (eqs. (4.43)–(4.50)), rows
// independent.
func vbQ(post mfa.ISPosterior) (mean, cov []float64) {
	r := post.Rows[0]
	k, d := r.K, r.K+1
	p := len(r.Mean) / d
	dim := p * k
	mean, cov = make([]float64, dim), make([]float64, dim*dim)
	for q := range p {
		for a := range k {
			mean[q*k+a] = r.Mean[q*d+a]
			for b := range k {
				cov[(q*k+a)*dim+q*k+b] = r.Cov[q*d*d+a*d+b]
			}
		}
	}
	return mean, cov
}

// priorProposal is p(Λ) of the target as an importance proposal (the
// defensive component).
type priorProposal struct{ a *mfa.Annealed }

func (p priorProposal) Dim() int                        { return p.a.Dim() }
func (p priorProposal) LogProb(theta []float64) float64 { return p.a.LogPrior(theta) }
func (p priorProposal) RandLogProb(dst []float64, rnd *rand.Rand) float64 {
	p.a.SamplePrior(dst, rnd)
	return p.a.LogPrior(dst)
}

// mfaProposal returns the importance proposal of the row and its
// multiply-adds a draw: VB's q(Λ) = N(m, S) with S widened to widen²·S,
// mirrored when is.mirror holds (½N(m, w²S) + ½N(−m, w²S): the posterior is
// even in Λ, q sits on one of its modes), mixed with the prior p(Λ) at
// weight is.defensive when that is positive (is.Defensive).
func (c *MFAConfig) mfaProposal(target *mfa.Annealed, qMean, qCov []float64) (is.Proposal, float64, error) {
	d := target.Dim()
	cov := mat.NewSymDense(d, nil)
	for a := range d {
		for b := range d {
			cov.SetSym(a, b, c.IS.Widen*c.IS.Widen*qCov[a*d+b])
		}
	}
	var chol mat.Cholesky
	if !chol.Factorize(cov) {
		return nil, 0, errors.New("VB's q(Λ) covariance is not positive definite")
	}
	var prop is.Proposal = is.NewGaussian(slices.Clone(qMean), &chol)
	perDraw := float64(mfaEval) + gaussFlops(d)
	if c.IS.Mirror {
		neg := make([]float64, d)
		for j, v := range qMean {
			neg[j] = -v
		}
		prop = is.NewMixture(prop, is.NewGaussian(neg, &chol))
		perDraw += gaussFlops(d)
	}
	if c.IS.Defensive > 0 {
		prop = is.NewDefensive(prop, priorProposal{target}, c.IS.Defensive)
		perDraw += float64(4 * d)
	}
	return prop, perDraw, nil
}

// mfaNewVB returns the VBMFA of one analyser (S = 1, every
// responsibility 1) with k = 1 on y, its hyperparameters h (Ψ included)
// held: vb.Run updates them only on a [vb.hyper] schedule, and the row
// gives it none.
func mfaNewVB(y *mat.Dense, h mfa.Hyper) (*mfa.VB, error) {
	n, _ := y.Dims()
	resp := mat.NewDense(n, 1, nil)
	for r := range n {
		resp.Set(r, 0, 1)
	}
	return mfa.NewVB(y, resp, mfa.Settings{K: mfaK, Hyper: h})
}

// mfaLaplace is core/approx.Laplace on ln p(Λ) + ln p(y|Λ) of the target
// (Λ is unconstrained: no Jacobian) from x0, with the closed-form gradient
// and the Hessian by differences of it (mfa.Annealed.NegHessian). Its
// LnZ is the mass of ONE of the mirrored modes ±Λ̂: the evidence is LnZ +
// ln 2 when the modes are well apart.
func mfaLaplace(target *mfa.Annealed, x0 []float64) (approx.LaplaceResult, error) {
	tmp := make([]float64, target.Dim())
	return approx.Laplace(approx.Func{
		LogP: target.LogProb,
		Grad: func(dst, x []float64) {
			target.GradLogPrior(dst, x)
			target.GradLogLik(tmp, x)
			for j := range dst {
				dst[j] += tmp[j]
			}
		},
		Hess: func(dst, x []float64) {
			for j, v := range target.NegHessian(x) {
				dst[j] = -v
			}
		},
	}, slices.Clone(x0))
}

// mfaCS returns the row's CS cell at the ML point θ̂ = (Λ̂, ȳ) of BIC
// (mfa.Annealed.CheesemanStutz: ln p(x̂, y) + ln p(y | θ̂) − ln p(x̂, y |
// θ̂), Beal 2003 eqs. (2.133), (6.27)–(6.30), x̂ the E step's expected
// statistics at θ̂, ln p(x̂, y) in closed form given ν and by quadrature
// over ln ν), + ln 2 for the mirrored mode −Λ̂ as the row's Laplace (the
// completion fixes the sign of x̂, so the bare score covers one mode and
// is a lower bound; with ln 2 it overcounts where the modes overlap),
// and its multiply-adds (CSResult.Flops: the E step at the data's ȳ and
// scatter, ln p(y | θ̂), the quadrature's evaluations; the ML point's are
// the caller's).
func mfaCS(target *mfa.Annealed, lambda, mu []float64) (lnZ, ops float64, err error) {
	r, err := target.CheesemanStutz(lambda, mu)
	if err != nil {
		return 0, 0, fmt.Errorf("CS: %w", err)
	}
	return r.LnZ + math.Ln2, r.Flops, nil
}

// runMFACell computes the gold standard and every method's estimates of
// data set i over the seeds.
func (c *MFAConfig) runMFACell(env *experiments.Env, i int) (mfaCell, error) {
	var out mfaCell
	name := c.mfaName(i)
	// CPU seconds are the thread's clock (cpuNow).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	y := c.mfaDataSet(i)
	_, n := c.mfaSet(i)
	h := c.hyper()
	target, err := mfa.NewAnnealed(y, mfaK, h)
	if err != nil {
		return out, fmt.Errorf("%s: %w", name, err)
	}
	gq, err := target.LogEvidenceQuad(mfa.QuadSettings{Margin: c.Gold.Margin, Step: c.Gold.Step, Bulk: c.Gold.Bulk})
	if err != nil {
		return out, fmt.Errorf("%s: %w", name, err)
	}
	// Posterior errors against the quadrature's moments.
	postErr := func(second, prodVar []float64) (float64, float64) {
		return vecErr(second, gq.Second), vecErr(prodVar, gq.ProdVar)
	}
	// A sampler's errors from its self-normalised means and second
	// moments of the products Λ_qΛ_t (mfaProducts).
	prodErrs := func(mean, second []float64) (float64, float64) {
		v := make([]float64, len(mean))
		for j := range v {
			v[j] = second[j] - mean[j]*mean[j]
		}
		return postErr(mean, v)
	}
	nan := math.NaN()
	det := rowCell{Dataset: name, Gold: experiments.Float(gq.LnZ), GoldSE: experiments.Float(gq.ErrEst), GoldKind: GoldQuadrature}

	// VB: one run of the largest budget with the hyperparameters fixed
	// (no [vb.hyper] schedule), F and q(Λ) read after each budget.
	t0 := cpuNow()
	m, err := mfaNewVB(y, h)
	if err != nil {
		return out, fmt.Errorf("%s: VB: %w", name, err)
	}
	var qMean, qCov []float64
	set := config.FixedBudget(slices.Max(c.VBBudgets)).Settings(env.Stop, m)
	set.Recorder = func(it vb.Iteration) {
		if b := it.Iter + 1; slices.Contains(c.VBBudgets, b) {
			qMean, qCov = vbQ(m.ISPosterior())
			me, ve := postErr(gaussProd(qMean, qCov))
			det.add(VB, b, it.F, nan, float64(b)*mfaVBIter(n), secs(cpuNow()-t0), me, ve)
		}
	}
	res := vb.Run(m, set)
	if res.Status == vb.Canceled {
		return out, res.Err
	}
	if err := res.Error(); err != nil {
		return out, fmt.Errorf("%s: VB: %w", name, err)
	}

	// BIC at the ML loadings for fixed Ψ: D = pk + p free parameters (Λ
	// and μ; k = 1, no rotations).
	t0 = cpuNow()
	mlLam, mlMu, ll, err := target.MaxLikelihood()
	if err != nil {
		return out, fmt.Errorf("%s: %w", name, err)
	}
	mlOps, mlSecs := float64(n*mfaP*mfaP+10*mfaP*mfaP*mfaP), cpuNow()-t0
	det.add(BIC, 0, score.BIC(ll, mfaP*mfaK+mfaP, float64(n)), nan, mlOps, secs(mlSecs), nan, nan)

	// CS at the same ML point, + ln 2 as Laplace (mfaCS); its cost
	// includes the ML point's.
	t0 = cpuNow()
	cs, csOps, err := mfaCS(target, mlLam, mlMu)
	if err != nil {
		return out, fmt.Errorf("%s: %w", name, err)
	}
	det.add(CS, 0, cs, nan, mlOps+csOps, secs(mlSecs+cpuNow()-t0), nan, nan)

	// Laplace on ln p(Λ) + ln p(y|Λ) (Λ is unconstrained: no Jacobian)
	// from VB's mean, + ln 2 for the mirrored mode −Λ̂ (which overcounts
	// where the two modes overlap: a weak loading at small n).
	t0 = cpuNow()
	d := target.Dim()
	lap, err := mfaLaplace(target, qMean)
	if err != nil {
		// VB's mean can sit at the saddle Λ = 0 (ARD switched the
		// column off): restart from the posterior mode by L-BFGS.
		var mode []float64
		if mode, err = target.PosteriorMode(); err == nil {
			lap, err = mfaLaplace(target, mode)
		}
		if err != nil {
			return out, fmt.Errorf("%s: Laplace: %w", name, err)
		}
		det.note("laplace_restart")
	}
	me, ve := postErr(gaussProd(lap.Q.Mean, lap.Q.Cov))
	det.add(Laplace, 0, lap.LnZ+math.Ln2, nan, float64(lap.Iterations+1)*float64(2*d+2)*mfaEval+float64(n*mfaP*mfaP), secs(cpuNow()-t0), me, ve)

	prop, perDraw, err := c.mfaProposal(target, qMean, qCov)
	if err != nil {
		return out, fmt.Errorf("%s: %w", name, err)
	}
	psiMin := slices.Min(c.Prior.Psi)
	for sd := range c.Seeds {
		seed := uint64(sd + 1)
		cl := det
		cl.Seed = seed
		if sd > 0 {
			cl.Notes = nil // the deterministic methods' notes, counted once
		}
		cl.Est = make([]cellEst, len(det.Est))
		copy(cl.Est, det.Est)
		for j := range cl.Est {
			cl.Est[j].Seed = seed
		}
		ss := strconv.FormatUint(seed, 10)
		isRungsOf(&cl, c.IS.IS, c.IS.Ladder, is.RunStreams(c.Seed, MFAID, name, "is", ss), prop, target, perDraw, mfaProducts, prodErrs)
		for _, steps := range c.AIS.Ladder {
			t0 := cpuNow()
			a := c.AIS.AIS
			a.Steps = steps
			hm := c.AIS.HMC
			s := ais.Sampler[[]float64]{Model: target, NewKernel: func() mcmc.Kernel[[]float64] {
				return &mcmc.HMC{Target: target, Steps: hm.Leapfrog, StepSize: func(beta float64) float64 {
					return hm.Step / math.Sqrt(c.Prior.A/c.Prior.B+beta*float64(n)/psiMin)
				}}
			}}
			runs, final, _, err := config.SampleFinal(a, s, 1, c.Seed, MFAID, name, "ais", ss, strconv.Itoa(steps))
			if err != nil {
				return out, err
			}
			lw := ais.LogWeights(runs)
			z, se := ais.Pool(lw)
			cpu := secs(cpuNow() - t0)
			// The products Λ_qΛ_t (p×p row-major; k = 1, so a state is vec Λ
			// of length p) of each final state, whose weighted means are
			// E[ΛΛᵀ|y] and second moments E[(Λ_qΛ_t)²|y].
			prods := make([][]float64, len(final))
			for g, l := range final {
				prods[g] = mfaProducts(l)
			}
			me, ve := aisErrs(runs, prods, prodErrs)
			cl.add(AIS, steps, z, max(se, ais.LogWSE(lw)), float64(a.Runs*steps*(hm.Leapfrog+2))*2*mfaEval, cpu, me, ve)
		}
		out.Rows = append(out.Rows, cl)
	}
	return out, nil
}

// mfaProducts returns the products Λ_qΛ_t (p×p row-major) of a state
// vec Λ of length p (k = 1), whose weighted means are E[ΛΛᵀ|y] and second
// moments E[(Λ_qΛ_t)²|y].
func mfaProducts(l []float64) []float64 {
	out := make([]float64, 0, len(l)*len(l))
	for _, lq := range l {
		for _, lt := range l {
			out = append(out, lq*lt)
		}
	}
	return out
}
