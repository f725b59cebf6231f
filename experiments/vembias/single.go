package vembias

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	vm "github.com/vbworkbench/vbw/core/model/vembias"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// SingleID is the registry key of Figs 1.4 and 1.5: one parameter of the
// two-chain model learnt from infinite data, the others at the truth.
const SingleID = "vembias/single"

// Setting is a true θ of the two-chain model, as the configs spell it.
type Setting struct {
	Lambda  float64 `toml:"lambda" range:"(-1,1)"`
	SigmaX2 float64 `toml:"sigma_x2" range:"[1e-6,1e6]"`
	SigmaY2 float64 `toml:"sigma_y2" range:"[1e-6,1e6]"`
	Phi1    float64 `toml:"phi1" range:"[-7,7]"`
	Phi2    float64 `toml:"phi2" range:"[-7,7]"`
	W1Norm  float64 `toml:"w1_norm" range:"[1e-6,1e6]"`
	W2Norm  float64 `toml:"w2_norm" range:"[1e-6,1e6]"`
}

// params returns the setting as vembias.Params.
func (s Setting) params() vm.Params {
	return vm.Params{vm.Lambda: s.Lambda, vm.SigmaX2: s.SigmaX2, vm.SigmaY2: s.SigmaY2,
		vm.Phi1: s.Phi1, vm.Phi2: s.Phi2, vm.Norm1: s.W1Norm, vm.Norm2: s.W2Norm}
}

// validate checks the setting under the config key key.
func (s Setting) validate(key string) error {
	if err := s.params().Check(); err != nil {
		return config.FieldError(key, s, err.Error())
	}
	return nil
}

// SingleConfig is the config of vembias/single.
type SingleConfig struct {
	experiments.Common
	// Fig14 and Fig15 are the true parameters of Figs 1.4 and 1.5 (L281,
	// L315).
	Fig14 Setting `toml:"fig14"`
	Fig15 Setting `toml:"fig15"`
	// GridPoints is the grid optimiser's number of points (then refined).
	GridPoints int `toml:"grid_points" range:"[11,1e6]"`
	// CurvePoints is the number of points of each drawn objective.
	CurvePoints int `toml:"curve_points" range:"[3,1e6]"`
	// VEM ends each vEM run (vemFit).
	VEM config.FitSettings `toml:"vem"`
}

// RetiredKeys: see retiredVEM.
func (*SingleConfig) RetiredKeys() map[string]string { return retiredVEM }

// DefaultSingle returns the paper's settings (Fig 1.4: λ = 0.9, σ_x² =
// 0.19, w₁ = w₂ = [1, 0], σ_y² = 0.43; Fig 1.5: w₂ = [cos π/8, sin π/8],
// σ_y² = 0.3), a grid of 2001 points and curves of 300.
func DefaultSingle() SingleConfig {
	return SingleConfig{Common: experiments.Common{Figures: []string{"fig1_4", "fig1_5"}, Seed: 23},
		Fig14:      Setting{Lambda: 0.9, SigmaX2: 0.19, SigmaY2: 0.43, W1Norm: 1, W2Norm: 1},
		Fig15:      Setting{Lambda: 0.9, SigmaX2: 0.19, SigmaY2: 0.3, Phi2: math.Pi / 8, W1Norm: 1, W2Norm: 1},
		GridPoints: 2001, CurvePoints: 300, VEM: vemFit()}
}

// Validate checks every field.
func (c *SingleConfig) Validate() error {
	if err := c.Fig14.validate("fig14"); err != nil {
		return err
	}
	if err := c.Fig15.validate("fig15"); err != nil {
		return err
	}
	return c.VEM.Validate("vem", nil)
}

// evalOps is the work of one objective evaluation (two 4×4 Cholesky
// factorisations and inverses, the blocks, the trace): about 2000
// operations; a vEM iteration is about 60 evaluations.
const evalOps = 2000

// Estimate counts the evaluations of the grid, the curves and the vEM
// runs of the six cases and five schemes.
func (c *SingleConfig) Estimate() experiments.Cost {
	runs := experiments.Fixed(float64(len(singleCases)*len(vm.Approxes)), "cases × schemes")
	return experiments.Cost{
		Memory: []experiments.Part{experiments.Rows("curves.csv rows", runs, experiments.Key("curve_points", c.CurvePoints))},
		Work: []experiments.Part{
			experiments.Ops("grid and gradient", evalOps, runs, experiments.Key("grid_points", c.GridPoints).Plus(200, "points + gradient steps")),
			experiments.Ops("curves", evalOps, runs, experiments.Key("curve_points", c.CurvePoints)),
			experiments.Ops("vEM runs", 60*evalOps, runs, experiments.Key("vem.max_iterations", c.VEM.MaxIterations)),
		},
	}
}

// singleCase is one panel column: a parameter learnt under one reading.
type singleCase struct {
	name   string // "fig1.4a", …
	fig15  bool
	param  vm.Param
	obs    int
	metric string // metric prefix, "" for none
	lo, hi float64
}

// singleCases are Figs 1.4 (A: λ, B: σ_y²; both readings of targets §1.3)
// and 1.5 (A: φ₂, B: |w₂|; two outputs).
var singleCases = []singleCase{
	{"fig1.4a", false, vm.Lambda, 2, "lambda_hat", 0.3, 0.999},
	{"fig1.4a-1d", false, vm.Lambda, 1, "lambda_hat_1d", 0.3, 0.999},
	{"fig1.4b", false, vm.SigmaY2, 2, "sigma_y2_hat", 0.01, 1.2},
	{"fig1.4b-1d", false, vm.SigmaY2, 1, "sigma_y2_hat_1d", 0.01, 1.2},
	{"fig1.5a", true, vm.Phi2, 2, "phi2_hat", 0, math.Pi / 2},
	{"fig1.5b", true, vm.Norm2, 2, "w2_norm_hat", 0, 3},
}

// singleCriteria are the paper's orderings for Figs 1.4-1.5 (targets §1.2),
// the claims of the text; and, as sanity checks, the consistency of ML, the
// agreement of the three optimisers and Appendix A's optima to 1e-3 (the
// closed forms recomputed independently, at the text's θ).
var singleCriteria = func() results.Criteria {
	cs := results.Criteria{
		results.Criterion{ID: "fig1.4a-all-under", Text: "every approximation under-estimates λ (L286-L290), the largest λ̂ of MF, FC, FT, MAP minus the truth", Target: results.Below(0)}.
			AsClaim("every scheme under-estimates λ (q_FC and q_FT 'yield under-estimates', q_MF and q_MAP equal q_FT's)", "L290-L292"),
		results.Criterion{ID: "fig1.4a-mf-ft-map-equal", Text: "q_MF, q_FT and q_MAP give the same λ̂ (L292), their largest difference", Target: results.AtMost(1e-6)}.
			AsClaim("q_MF, q_FT and q_MAP 'recover identical values for the dynamical parameter'", "L292"),
		results.Criterion{ID: "fig1.4a-fc-least-biased", Text: "q_FC is the least biased for λ (targets §1.2): |bias_FC| − min of the others", Target: results.Below(0)}.
			AsClaim("'the bias from using q_FC is always smaller than that from using the others' (Fig 1.6A, of which Fig 1.4's θ is a setting)", "L324"),
		results.Criterion{ID: "fig1.4b-fc-over-ft-under", Text: "q_FC over-estimates σ_y² and q_FT under-estimates it (L298)", Target: results.Holds}.
			AsClaim("q_FT under-estimates σ_y², q_FC over-estimates it", "L298"),
		results.Criterion{ID: "fig1.4b-mf-between", Text: "q_MF's σ̂_y² lies between q_FT's and q_FC's (L298)", Target: results.Holds}.
			AsClaim("q_MF's peak 'lies in between the two'", "L298"),
		results.Criterion{ID: "fig1.4b-mf-best", Text: "q_MF is the least biased for σ_y² at Fig 1.4's θ (L298 'can actually provide the best estimate')", Target: results.Holds}.
			AsClaim("q_MF 'can actually provide the best estimate'; 'the most unbiased (see figure 1.4B)'", "L298, L312"),
		results.Criterion{ID: "fig1.4b-map-spike-1d", Text: "with y_{2,t} dropped, q_MAP's σ̂_y² runs to 0, the edge of the search (L300-L302; targets §1.3)", Target: results.Holds}.
			AsClaim("q_MAP 'behaves catastrophically': σ_y² shrunk to 0 (here with y_{2,t} dropped, the reading of targets §1.3)", "L300-L302").AsExtension(),
		results.Criterion{ID: "fig1.4b-map-spike-2d", Text: "with both outputs (the literal setting), q_MAP's σ̂_y² also runs to 0 (L300-L302); targets §1.3 found an interior optimum", Target: results.Holds}.
			AsClaim("q_MAP 'behaves catastrophically': a spike at σ_y² = 0, the noise variance 'shrunk to zero'", "L300-L302"),
		results.Criterion{ID: "fig1.4-1d-lambda-unchanged", Text: "dropping y_{2,t} leaves every λ̂ unchanged (targets §1.3), the largest difference", Target: results.AtMost(1e-6)}.AsExtension(),
		results.Criterion{ID: "fig1.5a-all-over", Text: "every approximation over-estimates the angle between the weights (L308), the smallest φ̂₂ − φ₂", Target: results.Above(0)}.
			AsClaim("'all the approximations are biased toward settings of the weights which are more orthogonal than the true setting'", "L308"),
		results.Criterion{ID: "fig1.5a-mf-fc-map-equal", Text: "q_MF, q_FC and q_MAP give the same φ̂₂ (L308), their largest difference", Target: results.AtMost(1e-6)}.
			AsClaim("'the bias in q_MF, q_FC and q_MAP are equal'", "L308"),
		results.Criterion{ID: "fig1.5a-ft-less-biased", Text: "q_FT is less biased in φ₂ than the others (L308)", Target: results.Holds}.
			AsClaim("'the bias in q_FT is somewhat less'", "L308"),
		results.Criterion{ID: "fig1.5b-fc-prunes", Text: "q_FC prunes w₂: |ŵ₂| (L308)", Target: results.AtMost(1e-3)}.
			AsClaim("q_FC under-estimates |w₂|, 'often severely thereby pruning the weight entirely, see figure 1.5B'", "L308"),
		results.Criterion{ID: "fig1.5b-ft-over-mf-between", Text: "q_FT over-estimates |w₂| and q_MF lies between q_FC and q_FT (L308)", Target: results.Holds}.
			AsClaim("q_FT over-estimates |w₂|; q_MF's 'estimates lie between the two'", "L308"),
		results.Criterion{ID: "fig1.5b-map-infinite", Text: "q_MAP's |ŵ₂| runs to the edge of the search (→ ∞, L308)", Target: results.Holds}.
			AsClaim("q_MAP's 'estimated weight magnitudes blow up to infinity'", "L308"),
		results.Criterion{ID: "ml-consistent", Text: "the ML optimum is the truth in every case (L277), the largest |θ̂_ML − θ*|", Target: results.AtMost(1e-6)}.AsSanity(),
		results.Criterion{ID: "optimiser-agreement", Text: "grid, gradient ascent and vEM optima agree (L322; targets §7 P1), the largest pairwise difference over interior optima", Target: results.AtMost(1e-3)}.AsSanity(),
		fMonotone("vEM"),
	}
	for _, a := range appendixA {
		for q, v := range a.want {
			cs = append(cs, results.Criterion{ID: fmt.Sprintf("appendix-a-%s-%s", a.name, q),
				Text: fmt.Sprintf("%s optimum of q_%s, Appendix A %.3f", a.name, q, v), Target: results.Within(v-1e-3, v+1e-3)}.AsSanity())
		}
	}
	for q, v := range map[vm.Approx]float64{vm.MF: 1.059, vm.FC: 0.565, vm.FT: 0.960} {
		cs = append(cs, results.Criterion{ID: "appendix-a-kl-" + q.String(), Text: fmt.Sprintf("KL_%s at Fig 1.4's θ, Appendix A %.3f", q, v), Target: results.Within(v-1e-3, v+1e-3)}.AsSanity())
	}
	sortCriteria(cs)
	return cs
}()

// appendixA lists Appendix A's interior optima (two outputs).
var appendixA = []struct {
	name string // a singleCases name
	want map[vm.Approx]float64
}{
	{"fig1.4a", map[vm.Approx]float64{vm.ML: 0.900, vm.MF: 0.735, vm.FC: 0.816, vm.FT: 0.735, vm.MAP: 0.735}},
	{"fig1.4b", map[vm.Approx]float64{vm.ML: 0.430, vm.MF: 0.431, vm.FC: 0.590, vm.FT: 0.389, vm.MAP: 0.272}},
	{"fig1.5a", map[vm.Approx]float64{vm.ML: 0.393, vm.MF: 0.827, vm.FC: 0.827, vm.FT: 0.676, vm.MAP: 0.827}},
	{"fig1.5b", map[vm.Approx]float64{vm.ML: 1.000, vm.MF: 1.055, vm.FC: 0.000, vm.FT: 1.248}},
}

// optimum is one scheme's optimum in one case.
type optimum struct {
	grid, grad, vem vm.Result
	run             vb.Result
}

// RunSingle computes the optima and the objective curves.
func RunSingle(env *experiments.Env, c *SingleConfig) error {
	s := results.Summary{Criteria: singleCriteria}
	opt := results.NewTable("case", "obs", "approx", "truth", "grid", "gradient", "vem", "vem_iterations", "vem_status", "edge", "objective")
	curves := results.NewTable("case", "obs", "approx", "x", "objective")
	res := map[string]map[vm.Approx]optimum{}
	disagree, decreased := 0.0, 0
	for _, sc := range singleCases {
		truth := c.Fig14.params()
		if sc.fig15 {
			truth = c.Fig15.params()
		}
		res[sc.name] = map[vm.Approx]optimum{}
		m := vm.NewSSM(sc.obs)
		for _, q := range vm.Approxes {
			pr := &vm.Problem{Obs: sc.obs, Truth: truth, Approx: q, Free: []vm.Param{sc.param}}
			g, err := pr.Grid(c.GridPoints)
			if err != nil {
				return fmt.Errorf("%s, %v: %w", sc.name, q, err)
			}
			gr, err := pr.Gradient(g.X)
			if err != nil {
				return fmt.Errorf("%s, %v: %w", sc.name, q, err)
			}
			start := truth[sc.param] * 0.8
			if start == 0 {
				start = 0.2
			}
			v, run, err := pr.RunVEM([]float64{start}, c.VEM.Settings(nil, nil))
			if run.Status == vb.BoundDecreased {
				decreased++
			} else if err != nil {
				return fmt.Errorf("%s, %v: vEM: %w", sc.name, q, err)
			}
			o := optimum{g, gr, v, run}
			res[sc.name][q] = o
			if !g.Edge {
				disagree = math.Max(disagree, spread(g.X[0], gr.X[0], v.X[0]))
			}
			opt.AddRow(sc.name, sc.obs, q.String(), truth[sc.param], g.X[0], gr.X[0], v.X[0], run.Iterations, run.Status.String(), g.Edge, g.F)
			for _, x := range vm.Axis(sc.lo, sc.hi, c.CurvePoints, false) {
				curves.AddRow(sc.name, sc.obs, q.String(), x, m.Objective(truth.With(sc.param, x), pr.S, q))
			}
			if sc.metric != "" {
				name := sc.metric + "_" + q.String()
				s.SetMetric(name, g.X[0])
				if g.Edge {
					s.SetMetric(name+"_at_edge", 1)
				}
			}
		}
	}
	s.SetMetric("optimiser_max_disagreement", disagree)
	m := vm.NewSSM(2)
	for _, q := range []vm.Approx{vm.MF, vm.FC, vm.FT} {
		kl := m.KL(c.Fig14.params(), q)
		s.SetMetric("kl_"+q.String(), kl)
		if cr := singleCriteria.Get("appendix-a-kl-" + q.String()); c.Fig14 == DefaultSingle().Fig14 {
			s.Judge(cr, kl)
		} else {
			s.NotJudged(cr, notTextTheta)
		}
	}
	judgeSingle(&s, c, res, disagree, decreased)
	if err := results.WriteCSV(env.Path("optima.csv"), *opt); err != nil {
		return err
	}
	if err := results.WriteCSV(env.Path("curves.csv"), *curves); err != nil {
		return err
	}
	s.Claims = []results.Claim{
		claim("Figure 1.4", "fig1_4", "Learning λ, every scheme under-estimates it, q_FC least; learning σ_y², q_FC over- and q_FT under-estimates it, q_MF lies between and can be best, and zero-temperature EM is catastrophic (L282-L305).", singleCriteria, "fig1.4", "appendix-a-fig1.4", "appendix-a-kl-", "ml-consistent", "optimiser-agreement", "f-monotone"),
		claim("Figure 1.5", "fig1_5", "Every scheme over-estimates the angle between the weights, q_FT least; q_FC prunes w₂, q_FT over-estimates |w₂| and q_MAP runs to infinity (L306-L317).", singleCriteria, "fig1.5", "appendix-a-fig1.5", "ml-consistent", "optimiser-agreement", "f-monotone"),
	}
	s.AddFindingsFromChecks(map[string]string{
		"fig1.4b-map-spike-2d": "With the literal Fig 1.4 setting (w₁ = w₂ = [1, 0], two outputs) the second output is pure noise and pins σ_y²: q_MAP's objective has an interior maximum (σ̂_y² = 0.272, as Appendix A) instead of the spike at 0 of L300; the spike appears once y_{2,t} is dropped (fig1.4b-map-spike-1d), the reading of targets §1.3.",
	})
	return env.WriteSummary(&s, "Turner & Sahani Figs 1.4-1.5: one parameter learnt from infinite data by exact EM, q_MF, q_FC, q_FT and zero-temperature EM; three optimisers.")
}

// spread returns the largest pairwise difference of xs.
func spread(xs ...float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return hi - lo
}

// judgeSingle judges the criteria of vembias/single.
func judgeSingle(s *results.Summary, c *SingleConfig, res map[string]map[vm.Approx]optimum, disagree float64, decreased int) {
	x := func(cs string, q vm.Approx) float64 { return res[cs][q].grid.X[0] }
	edge := func(cs string, q vm.Approx) bool { return res[cs][q].grid.Edge }
	get := singleCriteria.Get
	lam := c.Fig14.Lambda
	s.Judge(get("fig1.4a-all-under"), math.Max(math.Max(x("fig1.4a", vm.MF), x("fig1.4a", vm.FC)), math.Max(x("fig1.4a", vm.FT), x("fig1.4a", vm.MAP)))-lam)
	s.Judge(get("fig1.4a-mf-ft-map-equal"), spread(x("fig1.4a", vm.MF), x("fig1.4a", vm.FT), x("fig1.4a", vm.MAP)))
	bias := func(cs string, q vm.Approx, truth float64) float64 { return math.Abs(x(cs, q) - truth) }
	s.Judge(get("fig1.4a-fc-least-biased"), bias("fig1.4a", vm.FC, lam)-math.Min(bias("fig1.4a", vm.MF, lam), math.Min(bias("fig1.4a", vm.FT, lam), bias("fig1.4a", vm.MAP, lam))))
	sy := c.Fig14.SigmaY2
	fc, ft, mf := x("fig1.4b", vm.FC), x("fig1.4b", vm.FT), x("fig1.4b", vm.MF)
	s.JudgeBool(get("fig1.4b-fc-over-ft-under"), fc > sy && ft < sy, fmt.Sprintf("FC %.4f, FT %.4f, truth %.4f", fc, ft, sy))
	s.JudgeBool(get("fig1.4b-mf-between"), mf > ft && mf < fc, fmt.Sprintf("MF %.4f", mf))
	s.JudgeBool(get("fig1.4b-mf-best"), bias("fig1.4b", vm.MF, sy) < math.Min(bias("fig1.4b", vm.FC, sy), math.Min(bias("fig1.4b", vm.FT, sy), bias("fig1.4b", vm.MAP, sy))))
	s.JudgeBool(get("fig1.4b-map-spike-1d"), edge("fig1.4b-1d", vm.MAP) && x("fig1.4b-1d", vm.MAP) < 1e-3, fmt.Sprintf("σ̂_y² = %g", x("fig1.4b-1d", vm.MAP)))
	s.JudgeBool(get("fig1.4b-map-spike-2d"), edge("fig1.4b", vm.MAP) && x("fig1.4b", vm.MAP) < 1e-3, fmt.Sprintf("σ̂_y² = %g", x("fig1.4b", vm.MAP)))
	var d1 float64
	for _, q := range vm.Approxes {
		d1 = math.Max(d1, math.Abs(x("fig1.4a", q)-x("fig1.4a-1d", q)))
	}
	s.Judge(get("fig1.4-1d-lambda-unchanged"), d1)
	phi := c.Fig15.Phi2 - c.Fig15.Phi1
	minOver := math.Inf(1)
	for _, q := range []vm.Approx{vm.MF, vm.FC, vm.FT, vm.MAP} {
		minOver = math.Min(minOver, x("fig1.5a", q)-c.Fig15.Phi1-phi)
	}
	s.Judge(get("fig1.5a-all-over"), minOver)
	s.Judge(get("fig1.5a-mf-fc-map-equal"), spread(x("fig1.5a", vm.MF), x("fig1.5a", vm.FC), x("fig1.5a", vm.MAP)))
	s.JudgeBool(get("fig1.5a-ft-less-biased"), x("fig1.5a", vm.FT) < x("fig1.5a", vm.MF))
	w := c.Fig15.W2Norm
	s.Judge(get("fig1.5b-fc-prunes"), x("fig1.5b", vm.FC))
	s.JudgeBool(get("fig1.5b-ft-over-mf-between"), x("fig1.5b", vm.FT) > w && x("fig1.5b", vm.MF) > x("fig1.5b", vm.FC) && x("fig1.5b", vm.MF) < x("fig1.5b", vm.FT))
	s.JudgeBool(get("fig1.5b-map-infinite"), edge("fig1.5b", vm.MAP))
	var ml float64
	for _, sc := range singleCases {
		truth := c.Fig14.params()
		if sc.fig15 {
			truth = c.Fig15.params()
		}
		ml = math.Max(ml, math.Abs(paramDiff(sc.param, x(sc.name, vm.ML), truth[sc.param])))
	}
	s.Judge(get("ml-consistent"), ml)
	s.Judge(get("optimiser-agreement"), disagree)
	s.Judge(get("f-monotone"), float64(decreased))
	text := DefaultSingle()
	for _, a := range appendixA {
		theirs := c.Fig14 == text.Fig14
		if strings.HasPrefix(a.name, "fig1.5") {
			theirs = c.Fig15 == text.Fig15
		}
		for _, q := range vm.Approxes {
			if _, ok := a.want[q]; !ok {
				continue
			}
			if cr := get(fmt.Sprintf("appendix-a-%s-%s", a.name, q)); theirs {
				s.Judge(cr, x(a.name, q))
			} else {
				s.NotJudged(cr, notTextTheta)
			}
		}
	}
}

// notTextTheta is why Appendix A's numbers are not judged on a θ of the
// config's own: they are the optima at the θ of Figs 1.4 and 1.5 (L282,
// L317).
const notTextTheta = "Appendix A's values are for the θ of Figs 1.4 and 1.5 (L282, L317); the config's θ differs"

// PlotSingle draws fig1_4 (columns A: λ, B: σ_y²; rows: the uncertainty-
// preserving schemes with two outputs, q_MAP with two outputs, and the
// reading with y_{2,t} dropped) and fig1_5 (columns A: φ₂, B: |w₂|; rows:
// the uncertainty-preserving schemes, q_MAP) from curves.csv and
// optima.csv, with a dashed line at each optimum.
func PlotSingle(dir string) error {
	cur := results.ReadColumns(filepath.Join(dir, "curves.csv"))
	cs, qs, xs, fs := cur.Strings("case"), cur.Strings("approx"), cur.Floats("x"), cur.Floats("objective")
	if err := cur.Err(); err != nil {
		return err
	}
	op := results.ReadColumns(filepath.Join(dir, "optima.csv"))
	ocs, oqs, ogrid, oobj := op.Strings("case"), op.Strings("approx"), op.Floats("grid"), op.Floats("objective")
	if err := op.Err(); err != nil {
		return err
	}
	// window is the zoom of Fig 1.4's bottom panels (L282 "a zoomed in
	// region of the top two panels"): the optima of approx widened by half
	// their spread each side (by 0.05 if they coincide).
	window := func(cse string, approx []vm.Approx) (lo, hi float64) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for i := range ocs {
			if ocs[i] == cse && slices.ContainsFunc(approx, func(q vm.Approx) bool { return oqs[i] == q.String() }) {
				lo, hi = math.Min(lo, ogrid[i]), math.Max(hi, ogrid[i])
			}
		}
		m := math.Max((hi-lo)/2, 0.05)
		return lo - m, hi + m
	}
	panel := func(cse string, approx []vm.Approx, title, xl string, zoom bool) (*plot.Plot, error) {
		xlo, xhi := math.Inf(-1), math.Inf(1)
		if zoom {
			xlo, xhi = window(cse, approx)
		}
		var series []plots.Series
		for _, q := range approx {
			var sr plots.Series
			sr.Name = "F_" + q.String()
			if q == vm.ML {
				sr.Name = "ln p(y|θ)"
			}
			for i := range cs {
				if cs[i] == cse && qs[i] == q.String() && xs[i] >= xlo && xs[i] <= xhi {
					sr.X, sr.Y = append(sr.X, xs[i]), append(sr.Y, fs[i])
				}
			}
			series = append(series, sr)
		}
		p, _, err := plots.Lines(plots.Axes{Title: title, XLabel: xl, YLabel: "objective (nats per sequence)"}, series...)
		if err != nil {
			return nil, err
		}
		// Each curve's maximum: a dashed line in the curve's colour and
		// the curve's marker on the curve, so that coinciding optima stay
		// apart; one legend entry says what they are.
		shown := func(i int) int { // the index in approx of optimum i, or −1
			if math.IsNaN(oobj[i]) || math.IsInf(oobj[i], 0) || math.IsNaN(ogrid[i]) || math.IsInf(ogrid[i], 0) {
				return -1
			}
			for j, q := range approx {
				if ocs[i] == cse && oqs[i] == q.String() && ogrid[i] >= xlo && ogrid[i] <= xhi {
					return j
				}
			}
			return -1
		}
		lo, hi := p.Y.Min, p.Y.Max
		for i := range ocs {
			if shown(i) >= 0 {
				lo, hi = math.Min(lo, oobj[i]), math.Max(hi, oobj[i])
			}
		}
		var marks plots.Marks
		for i := range ocs {
			if j := shown(i); j >= 0 {
				style := dashed
				style.Color = plots.LineStyle(j).Color
				if err := vline(p, ogrid[i], lo, hi, style); err != nil {
					return nil, err
				}
				at := plotter.XYs{{X: ogrid[i], Y: oobj[i]}}
				m, err := plotter.NewScatter(at)
				if err != nil {
					return nil, err
				}
				m.GlyphStyle = plots.GlyphStyle(j)
				p.Add(m)
				marks.Lines = append(marks.Lines, plotter.XYs{{X: ogrid[i], Y: lo}, {X: ogrid[i], Y: hi}})
				marks.Points = append(marks.Points, at)
			}
		}
		if len(marks.Lines) > 0 {
			if len(approx) == 1 { // Lines gives a lone curve no legend
				p.Legend.Add(series[0].Name, &plotter.Line{LineStyle: plots.LineStyle(0)})
				plots.PlaceLegend(p, plots.SeriesMarks(false, false, series...))
			}
			p.Legend.Add("maximum of each curve", &plotter.Line{LineStyle: dashed},
				&plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: dashed.Color, Radius: plots.GlyphRadius, Shape: draw.RingGlyph{}}})
			plots.PlaceLegend(p, marks)
		}
		return p, nil
	}
	up := []vm.Approx{vm.ML, vm.MF, vm.FC, vm.FT}
	mp := []vm.Approx{vm.MAP}
	type cell struct {
		cse   string
		q     []vm.Approx
		title string
		xl    string
		zoom  bool // the optima's neighbourhood only
	}
	figs := []struct {
		name  string
		title string
		rows  int
		cells []cell
	}{
		{"fig1_4", "Fig 1.4: learning λ (A) and σ_y² (B), others at the truth", 4, []cell{
			{"fig1.4a", up, "A: λ, two outputs", "λ", false}, {"fig1.4b", up, "B: σ_y², two outputs", "σ_y²", false},
			{"fig1.4a", mp, "A: q_MAP, two outputs", "λ", false}, {"fig1.4b", mp, "B: q_MAP, two outputs", "σ_y²", false},
			{"fig1.4a", up, "A: zoom on the optima", "λ", true}, {"fig1.4b", up, "B: zoom on the optima", "σ_y²", true},
			{"fig1.4a-1d", append(append([]vm.Approx{}, up...), vm.MAP), "A: y_{2,t} dropped (targets §1.3)", "λ", false}, {"fig1.4b-1d", mp, "B: q_MAP, y_{2,t} dropped", "σ_y²", false},
		}},
		{"fig1_5", "Fig 1.5: learning φ₂ (A) and |w₂| (B), others at the truth", 2, []cell{
			{"fig1.5a", up, "A: φ₂", "φ₂ (rad)", false}, {"fig1.5b", up, "B: |w₂|", "|w₂|", false},
			{"fig1.5a", mp, "A: q_MAP", "φ₂ (rad)", false}, {"fig1.5b", mp, "B: q_MAP", "|w₂|", false},
		}},
	}
	for _, f := range figs {
		var panels []*plot.Plot
		for _, c := range f.cells {
			p, err := panel(c.cse, c.q, c.title, c.xl, c.zoom)
			if err != nil {
				return fmt.Errorf("%s: %w", f.name, err)
			}
			panels = append(panels, p)
		}
		if err := experiments.SaveFigure(dir, f.name, plots.Figure{Rows: f.rows, Cols: 2, Panels: panels, Title: f.title}); err != nil {
			return err
		}
	}
	return nil
}
