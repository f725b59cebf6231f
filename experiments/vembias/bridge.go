package vembias

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/lds"
	vm "github.com/vbworkbench/vbw/core/model/vembias"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/is"
)

// BridgeID is the registry key of the bridge to Beal's chapter 5 (targets
// §7 P1 "extension"): the VB-LDS of core/model/lds with one hidden state
// and one output, against the exact posterior of its parameters.
const BridgeID = "vembias/bridge"

// BridgeConfig is the config of vembias/bridge. Its keys:
//
//   - lambdas, the true A = λ; lengths, the series lengths T; seeds, the
//     series drawn per (λ, T); c and rho, the true C and ρ (x_0 ~ N(0, 1)
//     and the state noise 1, Q = I, Beal line 3203);
//   - [vb] ends VBEM (at least 40 iterations, until F is within abs_tol
//     of its limit); with [vb.hyper] alpha = 10, gamma = 20, noise = 30 its
//     hyperparameters α, γ, a, b follow the staged schedule
//     (lds.StagedSchedule) and the exact posterior uses the values VB
//     converged to; with every group 0 they stay at the priors' defaults
//     (α = γ = a = b = 1), so that F and ln p(y) are of the same fixed
//     model; μ_0 = 0 and Σ_0 = 1 (the group x0) are always held;
//   - quadrature_tol, the relative tolerance of both levels of
//     vembias.LDS1Prior.LDS1Quadrature (ρ integrated in closed form,
//     adaptive Gauss-Kronrod over A and ℓ = ln C²ρ);
//   - [is]: runs runs of samples draws of each of two importance
//     samplers in (A, C, ln ρ) with the Kalman filter of the model's own
//     coordinates (LDS1Prior.LogJoint): the check, from the Laplace
//     approximation of (A, ℓ) as a Student-t with 4 degrees of freedom,
//     ρ from its exact conditional and C = ±√(η/ρ); and the issue's
//     cross-check, VB's q widened by is.widen as a Student-t with 4 degrees of
//     freedom mixed with its mirror C → −C.
type BridgeConfig struct {
	experiments.Common
	BridgeData
	BridgeFit
}

// BridgeData are the keys of the series (see BridgeConfig).
type BridgeData struct {
	Lambdas []float64 `toml:"lambdas" range:"(-1,1) len=1..20"`
	Lengths []int     `toml:"lengths" range:"[2,1e6] len=1..20"`
	Seeds   int       `toml:"seeds" range:"[1,1e5]"`
	C       float64   `toml:"c" range:"(-1e3,0)|(0,1e3)"`
	Rho     float64   `toml:"rho" range:"[1e-6,1e6]"`
}

// BridgeFit are the keys of VB, the quadrature and IS (see BridgeConfig).
type BridgeFit struct {
	VB            config.FitSettings `toml:"vb"`
	QuadratureTol float64            `toml:"quadrature_tol" range:"[1e-12,1e-4]"`
	IS            struct {
		config.IS
		Widen float64 `toml:"widen" range:"[1,100]"`
	} `toml:"is"`
}

// bridgeGroups are the VB-LDS's hyperparameter groups (no inputs).
func bridgeGroups() []string { return lds.HyperGroupsOf(lds.Variational, false) }

// RetiredKeys: VBEM's keys moved into [vb] (update_hyper = true is the
// staged [vb.hyper] alpha = 10, gamma = 20, noise = 30; false every group
// 0) and the importance samplers' into [is].
func (*BridgeConfig) RetiredKeys() map[string]string {
	return map[string]string{"vb_max_iterations": "vb.max_iterations", "update_hyper": "vb.hyper",
		"is_runs": "is.runs", "is_samples": "is.samples", "widen": "is.widen"}
}

// DefaultBridge returns the design: λ ∈ {0.5, 0.9, 0.99}, T ∈ {10,
// 30, 100, 300, 1000}, 20 seeds.
func DefaultBridge() BridgeConfig {
	fit := BridgeFit{QuadratureTol: 1e-6,
		VB: config.FitSettings{MaxIterations: 1000, MinIterations: 40, AbsTol: 1e-4, MonotoneTol: 1e-9,
			Hyper: config.ScheduleOf(bridgeGroups(), lds.StagedSchedule([]string{lds.HyperAlpha, lds.HyperGamma, lds.HyperNoise}))}}
	fit.IS.IS, fit.IS.Widen = config.IS{Runs: 4, Samples: 500}, 2
	return BridgeConfig{Common: experiments.Common{Figures: []string{"bridge"}, Seed: 23},
		BridgeData: BridgeData{Lambdas: []float64{0.5, 0.9, 0.99}, Lengths: []int{10, 30, 100, 300, 1000}, Seeds: 20, C: 1, Rho: 1},
		BridgeFit:  fit}
}

// Validate checks every field.
func (c *BridgeConfig) Validate() error {
	if err := c.VB.Validate("vb", bridgeGroups()); err != nil {
		return err
	}
	if c.VB.Hyper[lds.HyperX0] != 0 {
		return config.FieldError("vb.hyper.x0", c.VB.Hyper[lds.HyperX0], "must be 0: μ_0 = 0 and Σ_0 = 1 are held (the exact posterior assumes them)")
	}
	return nil
}

// kfOps is the work of one Kalman-filter step of the scalar model.
const kfOps = 30

// Estimate counts, per cell, VBEM's iterations (a few hundred operations
// a step), the quadrature's points (about 2·10⁴ at tolerance 1e-6, 10⁵
// where the posterior of A is broad, growing as the log of 1/tolerance)
// and the IS draws (three Kalman filters each), each a Kalman filter over
// the series.
func (c *BridgeConfig) Estimate() experiments.Cost {
	lams := experiments.KeyN("lambdas", c.Lambdas, float64(len(c.Lambdas)), "values of λ")
	lens := experiments.KeyN("lengths", c.Lengths, float64(len(c.Lengths)), "lengths")
	seeds := experiments.Key("seeds", c.Seeds)
	var sumT float64
	for _, T := range c.Lengths {
		sumT += float64(T)
	}
	total := experiments.KeyN("lengths", c.Lengths, sumT, "steps summed over the lengths")
	points := experiments.KeyN("quadrature_tol", c.QuadratureTol, 1e4*math.Log10(1/c.QuadratureTol), "points (10⁴ per digit)")
	return experiments.Cost{Cells: []experiments.Factor{lams, lens, seeds},
		Memory:     []experiments.Part{experiments.Words("cell results", lams, lens, seeds, experiments.Fixed(20, "numbers a cell"))},
		CellMemory: []experiments.Part{experiments.Words("memoised inner integrals", experiments.Fixed(4000, "values"))},
		Work: []experiments.Part{
			experiments.Ops("VBEM", 300, lams, seeds, total, experiments.Key("vb.max_iterations", c.VB.MaxIterations)),
			experiments.Ops("quadrature", kfOps, lams, seeds, total, points),
			experiments.Ops("importance sampling", 3*kfOps, lams, seeds, total, experiments.Key("is.runs", c.IS.Runs), experiments.Key("is.samples", c.IS.Samples)),
		},
	}
}

// bridgeCell is one series' comparison.
type bridgeCell struct {
	VBMeanA, VBVarA, F          float64
	ExactMeanA, ExactVarA, LogZ float64
	QuadRelErr                  float64 // the quadrature's error estimate of p(y), relative
	ISLogZ, ISSE, ISMeanA       float64 // IS from the Laplace approximation (the check)
	VQLogZ, VQSE                float64 // IS from VB's q widened (the cross-check)
	Alpha                       float64 // VB's α: A is pruned when it is large
	Iterations                  int
	Decreased                   bool
}

// runBridgeCell draws the series, fits the VB-LDS, and computes the exact
// posterior and the IS estimates.
func runBridgeCell(c *BridgeConfig, lam float64, T, seed int, stop func() error) (bridgeCell, error) {
	label := []string{"bridge", fmtF(lam), strconv.Itoa(T), strconv.Itoa(seed)}
	truth := &lds.Params{A: mat.NewDense(1, 1, []float64{lam}), C: mat.NewDense(1, 1, []float64{c.C}), Rho: []float64{c.Rho},
		Sigma0: mat.NewSymDense(1, []float64{1})}
	seq, _ := lds.Simulate(rng.New(c.Seed, append(label, "data")...), truth, T, nil)
	m, err := lds.NewVB([]lds.Sequence{seq}, lds.Settings{K: 1}, rng.New(c.Seed, append(label, "init")...))
	if err != nil {
		return bridgeCell{}, err
	}
	res := vb.Run(m, c.VB.Settings(stop, m))
	out := bridgeCell{F: res.F, Iterations: res.Iterations, Decreased: res.Status == vb.BoundDecreased, Alpha: m.Hyper.Alpha[0]}
	if err := res.Error(); err != nil && !out.Decreased {
		return out, fmt.Errorf("VBEM: %w", err)
	}
	out.VBMeanA, out.VBVarA = m.A().At(0, 0), m.CovAB().At(0, 0)
	qr := m.NoisePosterior()[0]
	eRho, eU, vU := qr.Alpha/qr.Beta, numeric.Digamma(qr.Alpha)-math.Log(qr.Beta), numeric.Trigamma(qr.Alpha)
	prior := vm.LDS1Prior{Alpha: m.Hyper.Alpha[0], Gamma: m.Hyper.Gamma[0], A: m.Hyper.NoiseShape, B: m.Hyper.NoiseRate, Sigma0: 1 / m.Hyper.Lambda0[0]}
	cMean, cVar := math.Abs(m.C().At(0, 0)), m.CovCD().At(0, 0)
	y := make([]float64, T)
	mat.Col(y, 0, seq.Y)
	w := c.IS.Widen
	// ℓ = ln C²ρ at VB's means starts the search for the mode.
	post, err := prior.LDS1Quadrature(y, [2]float64{out.VBMeanA, math.Log((cMean*cMean + cVar) * eRho)}, c.QuadratureTol)
	if err != nil {
		return out, err
	}
	out.ExactMeanA, out.ExactVarA, out.LogZ, out.QuadRelErr = post.MeanA, post.VarA, post.LogEvidence, post.RelErr
	target := ldsTarget{prior: prior, y: y}
	streams := is.RunStreams(c.Seed, append(label, "is")...)
	lap, err := newCollapsedProposal(prior, y, post)
	if err != nil {
		return out, err
	}
	sum, meanA := importance(lap, target, streams, 0, c.IS.Runs, c.IS.Samples, post.LogEvidence)
	out.ISLogZ, out.ISSE, out.ISMeanA = sum.Mean, sum.SE, meanA
	// VB's q widened, in (A, C, ln ρ), a t with 4 degrees of freedom,
	// mixed with its mirror C → −C (the posterior is even in C).
	sd := []float64{w * math.Sqrt(out.VBVarA), w * math.Sqrt(cVar/eRho), w * math.Sqrt(vU)}
	var chol mat.Cholesky
	if !chol.Factorize(mat.NewSymDense(3, []float64{sd[0] * sd[0], 0, 0, 0, sd[1] * sd[1], 0, 0, 0, sd[2] * sd[2]})) {
		return out, fmt.Errorf("IS proposal: VB's variances %v are not positive", sd)
	}
	q := is.NewMixture(is.NewStudentT(4, []float64{out.VBMeanA, cMean, eU}, &chol), is.NewStudentT(4, []float64{out.VBMeanA, -cMean, eU}, &chol))
	sum, _ = importance(q, target, streams, c.IS.Runs, c.IS.Runs, c.IS.Samples, post.LogEvidence)
	out.VQLogZ, out.VQSE = sum.Mean, sum.SE
	return out, nil
}

// importance runs runs of n draws from q (streams first, first+1, …) and
// returns the summary of their estimates of ln p(y) and the
// self-normalised posterior mean of A (weights scaled by logZ, a guess
// of ln p(y), against overflow).
func importance(q is.Proposal, target ldsTarget, streams func(int) *rand.Rand, first, runs, n int, logZ float64) (is.Summary, float64) {
	zs := make([]is.Estimate, runs)
	var num, den float64
	theta := make([]float64, 3)
	lw := make([]float64, n)
	for r := range zs {
		rnd := streams(first + r)
		for i := range lw {
			lw[i] = is.LogWeight(theta, q, target, rnd)
			e := math.Exp(lw[i] - logZ)
			num += e * theta[0]
			den += e
		}
		zs[r] = is.EstimateFrom(lw)
	}
	return is.Summarize(zs), num / den
}

// collapsedProposal is the IS proposal in (A, C, u = ln ρ) built from the
// exact marginal of ρ (LDS1Prior.CollapsedLogJoint): (A, ℓ) from a
// Student-t with 4 degrees of freedom at the Laplace approximation of
// LDS1Quadrature (covariance widened by 1.5²), ρ | A, η from its exact
// conditional Ga(a + T/2, b + yᵀM⁻¹y/2), and C = ±√(η/ρ) with either sign
// at probability ½, so that
//
//	q(A, C, u) = t(A, ℓ) Ga(ρ) ρ / |C|   (ℓ = 2 ln|C| + u).
//
// Were the closed form wrong, the weights p(y, A, C, u)/q, the joint by
// the Kalman filter in the model's own coordinates, would still be
// unbiased; where it is right they vary only through t against the
// marginal of (A, ℓ).
type collapsedProposal struct {
	t     *is.StudentT
	prior vm.LDS1Prior
	y     []float64
	al    []float64
}

func newCollapsedProposal(prior vm.LDS1Prior, y []float64, post vm.LDS1Posterior) (*collapsedProposal, error) {
	const widen = 1.5 * 1.5
	cv := post.Cov
	var chol mat.Cholesky
	if !chol.Factorize(mat.NewSymDense(2, []float64{widen * cv[0], widen * cv[1], widen * cv[2], widen * cv[3]})) {
		return nil, fmt.Errorf("IS proposal: the Laplace covariance %v is not positive definite", cv)
	}
	return &collapsedProposal{t: is.NewStudentT(4, post.Mode[:], &chol), prior: prior, y: y, al: make([]float64, 2)}, nil
}

func (q *collapsedProposal) Dim() int { return 3 }

// logRest returns ln Ga(ρ | shape, rate) ρ − ln|C| at θ = (A, C, u).
func logRest(th []float64, shape, rate float64) float64 {
	return dist.NewGammaShapeRate(shape, rate).LogProb(math.Exp(th[2])) + th[2] - math.Log(math.Abs(th[1]))
}

func (q *collapsedProposal) LogProb(th []float64) float64 {
	q.al[0], q.al[1] = th[0], 2*math.Log(math.Abs(th[1]))+th[2]
	_, shape, rate := q.prior.CollapsedLogJoint(q.y, q.al[0], q.al[1])
	return q.t.LogProb(q.al) + logRest(th, shape, rate)
}

func (q *collapsedProposal) RandLogProb(dst []float64, rnd *rand.Rand) float64 {
	lt := q.t.RandLogProb(q.al, rnd)
	_, shape, rate := q.prior.CollapsedLogJoint(q.y, q.al[0], q.al[1])
	rho := dist.NewGammaShapeRate(shape, rate).Rand(rnd)
	c := math.Sqrt(math.Exp(q.al[1]) / rho)
	if rnd.IntN(2) == 0 {
		c = -c
	}
	dst[0], dst[1], dst[2] = q.al[0], c, math.Log(rho)
	return lt + logRest(dst, shape, rate)
}

// biasZero is the largest |median bias| that counts as none.
const biasZero = 1e-6

// prunedAlpha is the α above which A counts as pruned by ARD (prior
// standard deviation of A below 0.03).
const prunedAlpha = 1e3

// ldsTarget is the joint density of the scalar LDS in (A, C, ln ρ).
type ldsTarget struct {
	prior vm.LDS1Prior
	y     []float64
}

// LogProb returns ln p(y, A, C, ln ρ).
func (t ldsTarget) LogProb(th []float64) float64 { return t.prior.LogJoint(t.y, th[0], th[1], th[2]) }

// bridgeCriteria are targets §7 P1's questions as criteria: T&S's claims
// (L290, L172, and Wang & Titterington 2004, L376) judged on a model of
// Beal's chapter 5 rather than the text's, so extensions of ours, each
// (λ, T) judged over its seeds; the bound, the agreement of the quadrature
// with importance sampling and the quadrature's error are sanity checks.
var bridgeCriteria = results.Criteria{
	results.Criterion{ID: "bridge-bias-toward-zero", Text: "E_q[A] is biased towards 0 (T&S L290; targets §7 P1): share of the series with E_q[A] − E[A|y] below −1e-6 (pruned series give ±1e-8)", Target: results.Above(0.5)}.
		AsClaim("vEM's λ̂ under-estimates λ, towards 0 (infinite data; also Wang & Titterington 2004, L376)", "L290").AsExtension(),
	results.Criterion{ID: "bridge-var-too-small", Text: "Var_q[A] is too small (targets §7 P1): share of the series with Var_q[A]/Var[A|y] below 1 − 1e-6 (pruned series give 1 ± 1e-8)", Target: results.Above(0.5)}.
		AsClaim("variational approximations 'under-estimate the uncertainties in inference'", "L172").AsExtension(),
	results.Criterion{ID: "bridge-bias-shrinks", Text: "the bias shrinks as T grows: |median bias| at the longest T below that at the shortest", Target: results.Holds}.AsExtension(),
	results.Criterion{ID: "bridge-f-bound", Text: "F ≤ ln p(y) (F is a lower bound of the log evidence at the same hyperparameters, T&S eq. 1.2, Beal eq. 2.15): series where F exceeds it by more than 1e-6", Target: results.Equal(0)}.AsSanity(),
	results.Criterion{ID: "bridge-is-agrees", Text: "the quadrature's ln p(y) agrees with importance sampling in (A, C, ln ρ) from its Laplace approximation (the Kalman filter in the model's own coordinates): share of series where they differ by more than 4 standard errors + 0.01", Target: results.AtMost(0.05)}.AsSanity(),
	results.Criterion{ID: "bridge-is-mean-agrees", Text: "the quadrature's E[A|y] agrees with the same importance sampler's: share of series where they differ by more than 0.2 posterior standard deviations", Target: results.AtMost(0.05)}.AsSanity(),
	results.Criterion{ID: "bridge-quadrature-error", Text: "the quadrature's error estimate of p(y), relative, largest over series (both levels of the adaptive Gauss-Kronrod rule)", Target: results.AtMost(1e-5)}.AsSanity(),
	fMonotone("VBEM"),
}

// RunBridge runs the cells and writes bridge.csv and the summary.
func RunBridge(env *experiments.Env, c *BridgeConfig) error {
	type key struct {
		lam     float64
		T, seed int
	}
	nT, ns := len(c.Lengths), c.Seeds
	keys := make([]key, len(c.Lambdas)*nT*ns)
	names, cost := make([]string, len(keys)), make([]float64, len(keys))
	for i := range keys {
		k := key{c.Lambdas[i/(nT*ns)], c.Lengths[(i/ns)%nT], i % ns}
		keys[i], names[i], cost[i] = k, fmt.Sprintf("l%s-T%d-s%d", fmtF(k.lam), k.T, k.seed), float64(k.T)
	}
	cells, complete, err := experiments.RunAllCells(env, names, cost, func(i int) (bridgeCell, error) {
		return runBridgeCell(c, keys[i].lam, keys[i].T, keys[i].seed, env.Stop)
	})
	if err != nil || !complete {
		return err
	}
	s := results.Summary{Criteria: bridgeCriteria}
	get := bridgeCriteria.Get
	tab := results.NewTable("lambda", "T", "seed", "vb_mean_a", "vb_var_a", "f", "exact_mean_a", "exact_var_a", "log_evidence", "quad_rel_err", "is_log_evidence", "is_se", "is_mean_a", "vbq_is_log_evidence", "vbq_is_se", "alpha", "iterations")
	var aboveBound, isBad, isMeanBad, vqBad, decreased int
	var quadErr float64
	for i, k := range keys {
		r := cells[i]
		tab.AddRow(k.lam, k.T, k.seed, r.VBMeanA, r.VBVarA, r.F, r.ExactMeanA, r.ExactVarA, r.LogZ, r.QuadRelErr, r.ISLogZ, r.ISSE, r.ISMeanA, r.VQLogZ, r.VQSE, r.Alpha, r.Iterations)
		if r.F > r.LogZ+1e-6 {
			aboveBound++
		}
		if math.Abs(r.ISLogZ-r.LogZ) > 4*r.ISSE+0.01 {
			isBad++
		}
		if !(math.Abs(r.ISMeanA-r.ExactMeanA) <= 0.2*math.Sqrt(r.ExactVarA)) {
			isMeanBad++
		}
		if math.Abs(r.VQLogZ-r.LogZ) > 4*r.VQSE+0.01 {
			vqBad++
		}
		quadErr = math.Max(quadErr, r.QuadRelErr)
		if r.Decreased {
			decreased++
		}
	}
	if err := results.WriteCSV(env.Path("bridge.csv"), *tab); err != nil {
		return err
	}
	// Each (λ, T) judged over its seeds; the medians for the metrics and
	// the findings.
	var above, cellsN, prunedN, notBelow int
	var worst struct {
		bias float64
		at   string
	}
	for _, l := range c.Lambdas {
		var first, last float64
		for j, T := range c.Lengths {
			var bias, ratio, gap []float64
			pruned := 0
			for i, k := range keys {
				if k.lam == l && k.T == T {
					r := cells[i]
					if r.Alpha > prunedAlpha {
						pruned++
					}
					bias = append(bias, r.VBMeanA-r.ExactMeanA)
					ratio = append(ratio, r.VBVarA/r.ExactVarA)
					gap = append(gap, r.LogZ-r.F)
				}
			}
			suffix := "_l" + fmtF(l) + "_T" + strconv.Itoa(T)
			mb, mr := results.Median(bias), results.Median(ratio)
			s.SetMetric("bridge_bias_A"+suffix, mb)
			s.SetMetric("bridge_var_ratio"+suffix, mr)
			s.SetMetric("bridge_f_gap"+suffix, results.Median(gap))
			s.SetMetric("bridge_pruned_share"+suffix, float64(pruned)/float64(len(bias)))
			// A pruned series has E_q[A] = 0 and E[A|y] ≈ ±1e-8, and
			// Var_q[A]/Var[A|y] = 1 ± 1e-8 (both the prior N(0, 1/α) with
			// α > 1e3): within biasZero of 0 (of 1) is no bias.
			cs := "l=" + fmtF(l) + ",T=" + strconv.Itoa(T)
			s.JudgeSeeds(get("bridge-bias-toward-zero").For(cs), bias, func(v float64) bool { return v < -biasZero })
			s.JudgeSeeds(get("bridge-var-too-small").For(cs), ratio, func(v float64) bool { return v < 1-biasZero })
			if ch, _ := s.CheckByID("bridge-bias-toward-zero[" + cs + "]"); !ch.Pass {
				notBelow++
			}
			cellsN++
			if mb > biasZero {
				above++
			}
			if mb > worst.bias {
				worst.bias, worst.at = mb, fmt.Sprintf("λ = %s, T = %d", fmtF(l), T)
			}
			if 2*pruned >= len(bias) {
				prunedN++
			}
			if j == 0 {
				first = math.Abs(mb)
			}
			last = math.Abs(mb)
		}
		s.JudgeBool(get("bridge-bias-shrinks").For("l="+fmtF(l)), last < first, fmt.Sprintf("|bias| %.4g at the shortest T, %.4g at the longest", first, last))
	}
	s.Judge(get("bridge-f-bound"), float64(aboveBound))
	s.Judge(get("bridge-is-agrees"), float64(isBad)/float64(len(keys)))
	s.Judge(get("bridge-is-mean-agrees"), float64(isMeanBad)/float64(len(keys)))
	s.Judge(get("bridge-quadrature-error"), quadErr)
	s.SetMetric("bridge_vbq_is_off_share", float64(vqBad)/float64(len(keys)))
	s.Findings = append(s.Findings, fmt.Sprintf("The reference: ρ integrated in closed form and adaptive Gauss-Kronrod over (A, ln C²ρ), error estimate at most %.2g of p(y); importance sampling in the model's own coordinates from its Laplace approximation agrees in %.0f%% of series (bridge-is-agrees). IS from VB's q widened ×%g disagrees in %.0f%% (bridge_vbq_is_off_share), below the quadrature where q is much narrower than the posterior: heavy weights, not an error of the quadrature.",
		quadErr, 100*(1-float64(isBad)/float64(len(keys))), c.IS.Widen, 100*float64(vqBad)/float64(len(keys))))
	if notBelow > 0 {
		biasText := fmt.Sprintf("The bridge's bias: with Beal's split q(A)q(C, ρ)q(x), E_q[A] is below E[A|y] on most series at %d of %d (λ, T) (bridge-bias-toward-zero); the median of E_q[A] − E[A|y] is above 0 at %d (largest %+.3g at %s), not towards 0.", cellsN-notBelow, cellsN, above, worst.bias, worst.at)
		if !c.VB.Hyper.Fixed() {
			biasText += fmt.Sprintf(" The pull towards 0 comes through the hyperparameters instead: learning α by VB prunes A (α > 1e3, E_q[A] = 0) in at least half the series at %d of %d (λ, T), the short ones (bridge_pruned_share_*), and the exact posterior at that α is pruned too, so that the comparison at VB's hyperparameters shows no bias there.", prunedN, cellsN)
		}
		s.Findings = append(s.Findings, biasText)
	}
	s.Judge(get("f-monotone"), float64(decreased))
	s.AddFindingsFromChecks(map[string]string{
		"bridge-bias-toward-zero": "E_q[A] is not below the exact posterior mean on most of these series (see the finding on the bridge's bias).",
		"bridge-bias-shrinks":     "The bias is not monotone in T: it is near 0 in the shortest series, where A is pruned (hyperparameters learnt) or the prior dominates (held), peaks at an intermediate length and falls beyond (bridge_bias_A_*).",
		"bridge-var-too-small":    "Where A is pruned (α → ∞) q and the exact posterior are both the prior N(0, 1/α) and the ratio is 1.",
	})
	artefact := "the bridge (targets §7 P1), hyperparameters by VB"
	if c.VB.Hyper.Fixed() {
		artefact = "the bridge (targets §7 P1), hyperparameters held at α = γ = a = b = 1"
	}
	s.Claims = []results.Claim{claim(artefact, "bridge", "Our VB-LDS (k = p = 1) against the exact posterior of its parameters: is E_q[A] biased towards 0 (T&S L290), Var_q[A] too small, and how far is F below ln p(y)? (targets §7 P1)", bridgeCriteria, "bridge-", "f-monotone")}
	return env.WriteSummary(&s, "The bridge to Beal's chapter 5: the VB-LDS (k = p = 1) against the exact posterior of A and ln p(y) by quadrature (hyperparameters at VB's values), cross-checked by IS.")
}

// PlotBridge draws the bias of E_q[A], the ratio Var_q[A]/Var[A|y] and the
// gap ln p(y) − F against T, one line per λ with the seeds' interquartile
// range.
func PlotBridge(dir string) error {
	t := results.ReadColumns(filepath.Join(dir, "bridge.csv"))
	ls, Ts := t.Floats("lambda"), t.Floats("T")
	vm, vv, f, em, ev, lz := t.Floats("vb_mean_a"), t.Floats("vb_var_a"), t.Floats("f"), t.Floats("exact_mean_a"), t.Floats("exact_var_a"), t.Floats("log_evidence")
	if err := t.Err(); err != nil {
		return err
	}
	var panels []*plot.Plot
	for k, what := range []string{"E_q[A] − E[A|y]", "Var_q[A] / Var[A|y]", "ln p(y) − F (nats)"} {
		var series []plots.Series
		for _, l := range uniq(ls) {
			sr := plots.Series{Name: "λ = " + fmtF(l), Points: true}
			for _, T := range uniq(Ts) {
				var v []float64
				for i := range ls {
					if ls[i] == l && Ts[i] == T {
						v = append(v, [3]float64{vm[i] - em[i], vv[i] / ev[i], lz[i] - f[i]}[k])
					}
				}
				sr.X, sr.Y = append(sr.X, T), append(sr.Y, results.Median(v))
				sr.Lo, sr.Hi = append(sr.Lo, results.Quantile(v, 0.25)), append(sr.Hi, results.Quantile(v, 0.75))
			}
			series = append(series, sr)
		}
		p, _, err := plots.Lines(plots.Axes{Title: what + " (median, IQR over seeds)", XLabel: "T", YLabel: what, LogX: true}, series...)
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	return experiments.SaveFigure(dir, "bridge", plots.Figure{Rows: 1, Cols: 3, Panels: panels, Title: "The VB-LDS (k = p = 1) against the exact posterior of A"})
}
