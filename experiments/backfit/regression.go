package backfit

// The experiment backfit/regression: D'Souza's high-dimensional regression
// (Fig 3.15's stationary half, L1019-1032, and the ARD claims of section
// 4.4.2, L1640-1660; targets §4.2 and §7 P6). Five relevant inputs are
// embedded among irrelevant (noise) inputs and redundant noisy copies (or
// noisy linear combinations) of the relevant ones; batch least squares,
// probabilistic backfitting (EM), Bayesian backfitting with a shared α and
// with ARD are fitted at each N to the same data sets, and ARD's kept and
// pruned inputs are counted against N. VB's q(b) is set against a Gibbs
// sampler on a small problem of the same kind, and the Jaakkola-Jordan
// bound of Fig 4.8 is drawn with a toy backfitting classification.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/vbworkbench/vbw/core/model/backfit"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// RegressionID is the registry key of the high-dimensional regression.
const RegressionID = "backfit/regression"

// RegressionData are the [data] keys: the generator of the inputs and
// targets, which the text describes only in words (L1021-1029).
type RegressionData struct {
	// Relevant is the number of inputs that drive y (the text's 5).
	Relevant int `toml:"relevant" range:"[1,1000]"`
	// Irrelevant is the number of noise inputs, N(0, 1) independent of
	// everything (the text's 50).
	Irrelevant int `toml:"irrelevant" range:"[0,1e4]"`
	// Redundant is the number of redundant inputs (the text's 50); input
	// j of them is built from relevant input j mod relevant ("copies") or
	// from all of them ("combinations", weights N(0, 1/relevant) drawn
	// once per data set), plus noise of sd redundant_noise.
	Redundant     int    `toml:"redundant" range:"[0,1e4]"`
	RedundantKind string `toml:"redundant_kind"`
	// RedundantNoise is the sd of the noise added to every redundant
	// input. The text's "redundant copies" (L1024) leave it unsaid; exact
	// copies make the design rank deficient, and OLS (which EM converges
	// to) undefined, so it must be positive.
	RedundantNoise float64 `toml:"redundant_noise" range:"(0,1e3]"`
	// Noise is the sd of the Gaussian noise on y (positive: an exact fit
	// drives EM's noise variances to 0).
	Noise float64 `toml:"noise" range:"(0,1e3]"`
}

// inputs returns d.
func (d RegressionData) inputs() int { return d.Relevant + d.Irrelevant + d.Redundant }

// RegressionPrior is the [prior] table: the gamma prior Gamma(a, b) (shape,
// rate) of α and of every α_m (eqs. 4.24, 4.27); the text's a, b → 0
// (L1555) needs a proper stand-in.
type RegressionPrior struct {
	A float64 `toml:"a" range:"[1e-12,1e12]"`
	B float64 `toml:"b" range:"[1e-12,1e12]"`
}

// RegressionModel are the [model] keys: the start and schedule of q(α)
// that the text leaves unsaid (backfit.Settings.InitAlpha, AlphaFrom).
type RegressionModel struct {
	// InitAlpha is E[α] (every E[α_m]) of the starting q(α).
	InitAlpha float64 `toml:"init_alpha" range:"(0,1e12]"`
	// AlphaFrom is the first iteration whose M step updates q(α).
	AlphaFrom int `toml:"alpha_from" range:"[0,1e8]"`
}

// settings returns the backfit settings of the [model] table.
func (m RegressionModel) settings(ard bool) backfit.Settings {
	return backfit.Settings{ARD: ard, InitAlpha: m.InitAlpha, AlphaFrom: m.AlphaFrom}
}

// RegressionGibbs are the [gibbs] keys: the small problem on which VB's q(b)
// with a shared α is compared with the Gibbs posterior, drawn by the
// generator of [data] with these sizes and the same noises.
type RegressionGibbs struct {
	Points     int `toml:"points" range:"[2,1e5]"`
	Relevant   int `toml:"relevant" range:"[1,100]"`
	Irrelevant int `toml:"irrelevant" range:"[0,100]"`
	Redundant  int `toml:"redundant" range:"[0,100]"`
	Burn       int `toml:"burn" range:"[0,1e7]"`
	Sweeps     int `toml:"sweeps" range:"[100,1e8]"`
}

// RegressionClassify are the [classify] keys: the toy of Fig 4.8's right
// panel, two Gaussian classes in 2-D (means ±separation/2 along the first
// axis, unit covariance), classified by backfitting on (x₁, x₂, 1).
type RegressionClassify struct {
	Points     int       `toml:"points" range:"[4,1e6]"`
	Separation float64   `toml:"separation" range:"[0,100]"`
	Xi         []float64 `toml:"xi" range:"(0,100] len=1..5"`
}

// RegressionConfig is the config of backfit/regression: seeds data sets,
// each fitted at every N of sizes (the first N points of one stream, so the
// curves are nested in N) and scored on test_points fresh points; ARD's
// claims are judged at judge_size; an input counts as kept by ARD when
// E[α_m] < keep_alpha.
type RegressionConfig struct {
	experiments.Common
	Seeds      int                `toml:"seeds" range:"[1,1e4]"`
	Sizes      []int              `toml:"sizes" range:"[10,1e6] len=1..20 increasing"`
	JudgeSize  int                `toml:"judge_size" range:"[10,1e6]"`
	TestPoints int                `toml:"test_points" range:"[2,1e6]"`
	KeepAlpha  float64            `toml:"keep_alpha" range:"(0,1e12]"`
	Data       RegressionData     `toml:"data"`
	Prior      RegressionPrior    `toml:"prior"`
	Model      RegressionModel    `toml:"model"`
	VB         config.FitSettings `toml:"vb"`
	ML         config.FitSettings `toml:"ml"`
	Gibbs      RegressionGibbs    `toml:"gibbs"`
	Classify   RegressionClassify `toml:"classify"`
}

// DefaultRegression returns the text's sizes (5 relevant, 50 irrelevant, 50
// redundant inputs, N up to 5000, 50 data sets: L1021-1032) with the rest
// chosen and stated in configs/backfit/regression.toml.
func DefaultRegression() RegressionConfig {
	return RegressionConfig{
		Common:     experiments.Common{Experiment: RegressionID, Figures: []string{"dsouza_fig3.15a", "dsouza_fig4.8"}, Seed: 315},
		Seeds:      50,
		Sizes:      []int{100, 250, 500, 1000, 2500, 5000},
		JudgeSize:  1000,
		TestPoints: 2000,
		KeepAlpha:  1e3,
		Data: RegressionData{Relevant: 5, Irrelevant: 50, Redundant: 50, RedundantKind: "copies",
			RedundantNoise: 0.5, Noise: 1},
		Prior:    RegressionPrior{A: 1e-6, B: 1e-6},
		Model:    RegressionModel{InitAlpha: 1e-3, AlphaFrom: 100},
		VB:       config.FitSettings{MaxIterations: 2000, RelTol: 1e-7, AbsTol: 1e-4, MonotoneTol: 1e-9},
		ML:       config.FixedBudget(5000),
		Gibbs:    RegressionGibbs{Points: 50, Relevant: 2, Irrelevant: 2, Redundant: 2, Burn: 1000, Sweeps: 20000},
		Classify: RegressionClassify{Points: 200, Separation: 3, Xi: []float64{3, 7}},
	}
}

// Validate checks what relates several keys.
func (c *RegressionConfig) Validate() error {
	var errs []error
	if !slices.Contains(c.Sizes, c.JudgeSize) {
		errs = append(errs, config.FieldError("judge_size", c.JudgeSize, fmt.Sprintf("must be one of sizes %v", c.Sizes)))
	}
	if d := c.Data.inputs(); c.JudgeSize <= d {
		errs = append(errs, config.FieldError("judge_size", c.JudgeSize, fmt.Sprintf("must exceed the %d inputs (OLS, which EM converges to, needs N > d)", d)))
	}
	if k := c.Data.RedundantKind; k != "copies" && k != "combinations" {
		errs = append(errs, config.FieldError("data.redundant_kind", k, `must be "copies" or "combinations"`))
	}
	if c.Gibbs.Burn >= c.Gibbs.Sweeps {
		errs = append(errs, config.FieldError("gibbs.burn", c.Gibbs.Burn, fmt.Sprintf("must be below gibbs.sweeps (%d)", c.Gibbs.Sweeps)))
	}
	if g := c.Gibbs; g.Points <= g.Relevant+g.Irrelevant+g.Redundant {
		errs = append(errs, config.FieldError("gibbs.points", g.Points, "must exceed the Gibbs problem's inputs"))
	}
	errs = append(errs, c.VB.Validate("vb", nil), c.ML.Validate("ml", nil))
	return config.FirstError(errs...)
}

// regressionOps is the work of one backfitting iteration per design value
// (a dot product and an axpy over each row, and the O(d) updates).
const regressionOps = 5

// Estimate counts, per data set, VB twice and EM once to their caps at
// every size (EM only at judge_size), OLS by QR, and the Gibbs and
// classification toys.
func (c *RegressionConfig) Estimate() experiments.Cost {
	seeds := experiments.Key("seeds", c.Seeds)
	sizes := experiments.KeyN("sizes", c.Sizes, float64(len(c.Sizes)), "sizes")
	sumN := 0
	for _, n := range c.Sizes {
		sumN += n
	}
	points := experiments.KeyN("sizes", c.Sizes, float64(sumN), "points summed over sizes")
	maxN := experiments.KeyN("sizes", c.Sizes, float64(slices.Max(c.Sizes)), "largest size")
	d := experiments.Key("data.irrelevant", c.Data.Irrelevant).Plus(float64(c.Data.Relevant+c.Data.Redundant), "inputs")
	test := experiments.Key("test_points", c.TestPoints)
	g := c.Gibbs
	gd := experiments.Key("gibbs.irrelevant", g.Irrelevant).Plus(float64(g.Relevant+g.Redundant), "Gibbs inputs")
	return experiments.Cost{
		Cells: []experiments.Factor{seeds, sizes},
		Memory: []experiments.Part{
			experiments.Rows("regression.csv rows", seeds, sizes, experiments.Fixed(4, "methods")),
			experiments.Rows("ard_inputs.csv rows", seeds, sizes, d),
		},
		CellMemory: []experiments.Part{
			experiments.Words("design and its QR copy", maxN, d, experiments.Fixed(3, "copies")),
			experiments.Words("test design", test, d),
		},
		Work: []experiments.Part{
			experiments.Ops("VB iterations (shared α and ARD)", 2*regressionOps, seeds, experiments.Key("vb.max_iterations", c.VB.MaxIterations), points, d),
			experiments.Ops("EM iterations at judge_size (with and without the redundant inputs)", 2*regressionOps, seeds, experiments.Key("ml.max_iterations", c.ML.MaxIterations), experiments.Key("judge_size", c.JudgeSize), d),
			experiments.Ops("OLS by QR", 4, seeds, points, d, d),
			experiments.Ops("test predictions", 8, seeds, sizes, test, d),
			experiments.Ops("Gibbs sweeps", 6, seeds, experiments.Key("gibbs.sweeps", g.Sweeps), experiments.Key("gibbs.points", g.Points), gd),
			experiments.Ops("classification toy", 40, experiments.Key("vb.max_iterations", c.VB.MaxIterations), experiments.Key("classify.points", c.Classify.Points)),
		},
	}
}

// regressionCriteria are the criteria of backfit/regression: EM's fixed
// point (L1523-1525) and ARD's pruning (L1654-1660) as claims of the text
// with the targets' thresholds (§7 P6), judged over every data set; the
// shapes of Fig 4.8 as its claim; the rest sanity and extensions.
var regressionCriteria = results.Criteria{
	results.Criterion{ID: "f-monotone", Text: "fits (EM, VB shared α, VB ARD, classification) ending abnormally (objective decreased, not finite, failed)", Target: results.Equal(0)}.AsSanity(),
	results.Criterion{ID: "em-ols", Text: "fraction of data sets whose EM coefficients equal OLS's (QR) to 1e-6 after ml.max_iterations, on the full-rank problem of the relevant and irrelevant inputs at judge_size (targets §7 P6)", Target: results.AtLeast(1)}.
		AsClaim("probabilistic backfitting's stationary point is the OLS solution: \"performing true linear regression with a global optimum\"", "L1523-1525"),
	results.Criterion{ID: "em-ols-redundant", Text: "fraction of data sets whose EM coefficients equal OLS's to 1e-6 after ml.max_iterations on the whole design, redundant inputs included, at judge_size", Target: results.AtLeast(1)}.AsExtension(),
	results.Criterion{ID: "ard-relevant-kept", Text: "fraction of data sets where ARD keeps at least 80% of the relevant inputs (4 of the 5) at judge_size (targets §7 P6)", Target: results.AtLeast(0.9)}.
		AsClaim("ARD \"minimizes the number of relevant inputs required to accurately predict the output\"", "L1654-1656"),
	results.Criterion{ID: "ard-irrelevant-pruned", Text: "fraction of data sets where ARD prunes at least 90% of the irrelevant inputs at judge_size (targets §7 P6)", Target: results.AtLeast(0.9)}.
		AsClaim("ARD regularisation \"is desirable when the input contains information that is irrelevant to predicting the output\"", "L1660-1662"),
	results.Criterion{ID: "ard-redundant-pruned", Text: "fraction of data sets where ARD prunes at least 90% of the redundant inputs at judge_size", Target: results.AtLeast(0.9)}.AsExtension(),
	results.Criterion{ID: "fig3.15a-ard-beats-ols", Text: "fraction of data sets where ARD's test nMSE is below OLS's at judge_size (stationary weights)", Target: results.AtLeast(0.9)}.AsExtension(),
	results.Criterion{ID: "fig3.15a-shared-beats-ols", Text: "fraction of data sets where the shared-α (ridge-like) test nMSE is at most OLS's at judge_size", Target: results.AtLeast(0.9)}.AsExtension(),
	results.Criterion{ID: "vb-gibbs-means", Text: "fraction of Gibbs problems where every VB mean of b (shared α) is within 3 Gibbs posterior sd of the Gibbs mean", Target: results.AtLeast(0.9)}.AsSanity(),
	results.Criterion{ID: "vb-gibbs-compact", Text: "median over Gibbs problems of the geometric-mean ratio VB variance / Gibbs variance of b, below 1 (targets §7 P6: compactness; the text makes no claim)", Target: results.Below(1)}.AsExtension(),
	results.Criterion{ID: "fig4.8-bound", Text: "the JJ bound at each ξ of classify.xi lies below ln g on [−15, 15] and touches it at ±ξ (the circled tangencies)", Target: results.Holds}.
		AsClaim("the two approximations of the logistic at ξ = 3 and ξ = 7, with \"the points of tangency ... circled\"", "L1688 (Figure 4.8 caption)"),
	results.Criterion{ID: "fig4.8-toy-error", Text: "training error of backfitting classification (shared α) on the toy of Fig 4.8's right panel", Target: results.AtMost(0.1)}.AsSanity(),
}

// Criteria states the criteria a run of the config judges.
func (c *RegressionConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return regressionCriteria, nil
}

// Fit is one method's result at one size of one data set.
type Fit struct {
	NMSE       experiments.Float `json:"nmse"`
	Iterations int               `json:"iterations"`
	Status     string            `json:"status"`
	Seconds    float64           `json:"seconds"`
}

// RegressionCell is the outcome of one data set at one size.
type RegressionCell struct {
	Seed, N int
	OLS     Fit
	EM      *Fit              // judge_size only
	EMDiff  experiments.Float // max |b_EM − b_OLS| (judge_size only)
	// EM against OLS on the relevant and irrelevant inputs alone (judge_size only).
	EMSub     *Fit
	EMSubDiff experiments.Float
	Shared    Fit                 // VB with a shared α
	ARD       Fit                 // VB with ARD
	Alpha     []experiments.Float // ARD's E[α_m]
	Mean      []experiments.Float // ARD's E[b_m]
	// The small problem's VB (shared α) against Gibbs: per coefficient,
	// VB's mean and variance, Gibbs's mean and variance (first size only).
	GibbsVB, GibbsVar, GibbsMean, VBVar []experiments.Float
	PsiZOverS                           experiments.Float // mean ψ_zm/s of the small problem's VB fit
}

// generator draws the points of one data set: its relevant coefficients
// and (for "combinations") the weights of the redundant inputs.
type generator struct {
	d     RegressionData
	coef  []float64 // relevant coefficients
	combo []float64 // redundant × relevant weights ("combinations")
}

// newGenerator draws a data set's coefficients: ± U(0.5, 1.5) for each
// relevant input (the text gives none), and the combination weights.
func newGenerator(d RegressionData, rnd *rand.Rand) generator {
	g := generator{d: d, coef: make([]float64, d.Relevant)}
	for j := range g.coef {
		g.coef[j] = 0.5 + rnd.Float64()
		if rnd.IntN(2) == 0 {
			g.coef[j] = -g.coef[j]
		}
	}
	if d.RedundantKind == "combinations" {
		g.combo = make([]float64, d.Redundant*d.Relevant)
		for k := range g.combo {
			g.combo[k] = rnd.NormFloat64() / math.Sqrt(float64(d.Relevant))
		}
	}
	return g
}

// draw returns n rows: relevant inputs first, then irrelevant, then
// redundant (a row at a time from rnd, so a prefix of a longer draw is a
// shorter one), and y = Σ_j coef_j x_j + noise.
func (g generator) draw(n int, rnd *rand.Rand) (x, y []float64) {
	d := g.d
	p := d.inputs()
	x, y = make([]float64, n*p), make([]float64, n)
	for i := 0; i < n; i++ {
		row := x[i*p : (i+1)*p]
		for m := 0; m < d.Relevant+d.Irrelevant; m++ {
			row[m] = rnd.NormFloat64()
		}
		for k := 0; k < d.Redundant; k++ {
			v := 0.0
			if g.combo == nil {
				v = row[k%d.Relevant]
			} else {
				for j := 0; j < d.Relevant; j++ {
					v += g.combo[k*d.Relevant+j] * row[j]
				}
			}
			row[d.Relevant+d.Irrelevant+k] = v + d.RedundantNoise*rnd.NormFloat64()
		}
		for j, b := range g.coef {
			y[i] += b * row[j]
		}
		y[i] += d.Noise * rnd.NormFloat64()
	}
	return x, y
}

// nmse returns the test mean squared error of predict over the variance of
// the test targets.
func nmse(x, y []float64, p int, predict func(f []float64) float64) float64 {
	mean := 0.0
	for _, v := range y {
		mean += v
	}
	mean /= float64(len(y))
	se, sv := 0.0, 0.0
	for i, v := range y {
		r := v - predict(x[i*p:(i+1)*p])
		se += r * r
		sv += (v - mean) * (v - mean)
	}
	return se / sv
}

// maxDiff returns max_k |a_k − b_k|.
func maxDiff(a, b []float64) float64 {
	m := 0.0
	for k := range a {
		m = math.Max(m, math.Abs(a[k]-b[k]))
	}
	return m
}

// linear returns the prediction bᵀf.
func linear(b []float64) func(f []float64) float64 {
	return func(f []float64) float64 {
		s := 0.0
		for k, v := range f {
			s += b[k] * v
		}
		return s
	}
}

// fitRun runs m under the settings and returns the fit's record (NMSE
// filled in by the caller).
func fitRun(m vb.Model, s config.FitSettings, stop func() error) (Fit, vb.Result) {
	start := time.Now()
	r := vb.Run(m, s.Settings(stop, m))
	return Fit{Iterations: r.Iterations, Status: r.Status.String(), Seconds: time.Since(start).Seconds()}, r
}

// runCell fits every method to data set seed at size n.
func (c *RegressionConfig) runCell(seed, n int, first bool, stop func() error) (RegressionCell, error) {
	cell := RegressionCell{Seed: seed, N: n}
	s := strconv.Itoa(seed)
	gen := newGenerator(c.Data, rng.New(c.Seed, RegressionID, "coefficients", s))
	x, y := gen.draw(n, rng.New(c.Seed, RegressionID, "train", s))
	tx, ty := gen.draw(c.TestPoints, rng.New(c.Seed, RegressionID, "test", s))
	d := c.Data.inputs()
	p, err := backfit.NewProblem(x, d, y)
	if err != nil {
		return cell, err
	}
	var ols []float64
	if n > d {
		start := time.Now()
		if ols, err = p.OLS(); err != nil {
			return cell, fmt.Errorf("data set %d, N = %d: %w", seed, n, err)
		}
		cell.OLS = Fit{NMSE: experiments.Float(nmse(tx, ty, d, linear(ols))), Status: "converged", Seconds: time.Since(start).Seconds()}
	} else {
		cell.OLS = Fit{NMSE: experiments.Float(math.NaN()), Status: "N ≤ d"}
	}
	if n == c.JudgeSize {
		m, err := backfit.NewEM(p, backfit.Noise{})
		if err != nil {
			return cell, err
		}
		f, r := fitRun(m, c.ML, stop)
		if r.Status == vb.Canceled {
			return cell, r.Err
		}
		f.NMSE = experiments.Float(nmse(tx, ty, d, linear(m.Coef())))
		cell.EM = &f
		cell.EMDiff = experiments.Float(maxDiff(m.Coef(), ols))
		// The full-rank problem without the redundant inputs, on which EM's
		// fixed point is reached within the budget.
		q := c.Data.Relevant + c.Data.Irrelevant
		sub := make([]float64, n*q)
		for i := 0; i < n; i++ {
			copy(sub[i*q:(i+1)*q], x[i*d:i*d+q])
		}
		ps, err := backfit.NewProblem(sub, q, y)
		if err != nil {
			return cell, err
		}
		olsSub, err := ps.OLS()
		if err != nil {
			return cell, fmt.Errorf("data set %d without redundant inputs: %w", seed, err)
		}
		ms, err := backfit.NewEM(ps, backfit.Noise{})
		if err != nil {
			return cell, err
		}
		fs, r := fitRun(ms, c.ML, stop)
		if r.Status == vb.Canceled {
			return cell, r.Err
		}
		cell.EMSub = &fs
		cell.EMSubDiff = experiments.Float(maxDiff(ms.Coef(), olsSub))
	}
	prior := backfit.Prior{A: c.Prior.A, B: c.Prior.B}
	for _, ard := range []bool{false, true} {
		m, err := backfit.NewVB(p, prior, c.Model.settings(ard))
		if err != nil {
			return cell, err
		}
		f, r := fitRun(m, c.VB, stop)
		if r.Status == vb.Canceled {
			return cell, r.Err
		}
		f.NMSE = experiments.Float(nmse(tx, ty, d, linear(m.Mean())))
		if !ard {
			cell.Shared = f
			continue
		}
		cell.ARD = f
		for k := 0; k < d; k++ {
			cell.Alpha = append(cell.Alpha, experiments.Float(m.Alpha(k)))
			cell.Mean = append(cell.Mean, experiments.Float(m.Mean()[k]))
		}
	}
	if first {
		if err := c.gibbsCell(&cell, seed, stop); err != nil {
			return cell, err
		}
	}
	return cell, nil
}

// gibbsCell fits VB with a shared α (ψ fitted) to data set seed's small
// problem and runs the Gibbs sampler at VB's fitted ψ (s = ψ_y + Σψ_zm):
// q(b) against p(b | y; ψ̂).
func (c *RegressionConfig) gibbsCell(cell *RegressionCell, seed int, stop func() error) error {
	g := c.Gibbs
	s := strconv.Itoa(seed)
	dat := c.Data
	dat.Relevant, dat.Irrelevant, dat.Redundant = g.Relevant, g.Irrelevant, g.Redundant
	gen := newGenerator(dat, rng.New(c.Seed, RegressionID, "gibbs coefficients", s))
	x, y := gen.draw(g.Points, rng.New(c.Seed, RegressionID, "gibbs data", s))
	d := dat.inputs()
	p, err := backfit.NewProblem(x, d, y)
	if err != nil {
		return err
	}
	prior := backfit.Prior{A: c.Prior.A, B: c.Prior.B}
	m, err := backfit.NewVB(p, prior, c.Model.settings(false))
	if err != nil {
		return err
	}
	if r := vb.Run(m, c.VB.Settings(stop, m)); r.Status == vb.Canceled {
		return r.Err
	} else if !r.Status.OK() {
		return fmt.Errorf("gibbs problem %d: VB ended %s", seed, r.Status)
	}
	sv := m.PsiY()
	for _, v := range m.PsiZ() {
		sv += v
	}
	cell.PsiZOverS = experiments.Float((sv - m.PsiY()) / float64(d) / sv)
	gs, err := backfit.NewGibbs(p, prior, false, sv)
	if err != nil {
		return err
	}
	rnd := rng.New(c.Seed, RegressionID, "gibbs chain", s)
	st := gs.Start()
	sum, sq := make([]float64, d), make([]float64, d)
	for it := 0; it < g.Sweeps; it++ {
		st = gs.Sweep(st, 1, rnd)
		if it < g.Burn {
			continue
		}
		for k := 0; k < d; k++ {
			sum[k] += st[k]
			sq[k] += st[k] * st[k]
		}
	}
	kept := float64(g.Sweeps - g.Burn)
	for k := 0; k < d; k++ {
		mean := sum[k] / kept
		cell.GibbsMean = append(cell.GibbsMean, experiments.Float(mean))
		cell.GibbsVar = append(cell.GibbsVar, experiments.Float(sq[k]/kept-mean*mean))
		cell.GibbsVB = append(cell.GibbsVB, experiments.Float(m.Mean()[k]))
		cell.VBVar = append(cell.VBVar, experiments.Float(m.Var()[k]))
	}
	return nil
}

func init() {
	experiments.Add(RegressionID, "D'Souza Fig 3.15 (stationary) and section 4.4: probabilistic and Bayesian backfitting, ARD on 5 relevant of 105 inputs, VB against Gibbs, and Fig 4.8's JJ bound",
		DefaultRegression, RunRegression, PlotRegression)
}
