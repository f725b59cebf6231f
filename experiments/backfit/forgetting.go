// Forgetting rates (D'Souza 2004 section 3.2.2, L1007-1052, Figs 3.13, 3.14,
// 3.16 and 3.17; targets §4.2 and §7 P6): a regression weight drifts over
// 1000 steps, x_n ~ N(0, 1), y_n = w_n x_n + N(0, 1/ψ_y) for ψ_y ∈ {10², 10³,
// 10⁴}, 50 data sets each. Three online trackers estimate w_n from
// y_{1:n}: vkS (core/model/drift's VB on a moving window, which never sees
// the true w), vkF (the variational Kalman filter, its window chosen from
// 10-200 by the MSE against the true w) and RLS (its forgetting factor γ
// chosen by a line search on the same MSE). The drift path exists only as
// the text's figure; ours is stated in configs/backfit/forgetting.toml and
// in DefaultForgetting.

package backfit

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/vbworkbench/vbw/core/model/drift"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// ForgettingID is the registry key of the forgetting-rate study.
const ForgettingID = "backfit/forgetting"

func init() {
	experiments.Add(ForgettingID, "D'Souza Figs 3.13-3.17: forgetting rates of a drifting regression weight, vkS against vkF and tuned RLS",
		DefaultForgetting, RunForgetting, PlotForgetting)
}

// ForgettingDrift is the [drift] table: the path of the weight, our
// invention (the text shows it only in Fig. 3.13(a)):
//
//	w_n = offset + amplitude·sin(2πn/period) + r_n,  r_n = r_{n−1} + N(0, 1/walk_precision), r_0 = 0,
//
// one path, drawn once from the config's seed, shared by every data set (the
// text drifts "w ... according to the plot in figure 3.13(a)", L1007).
type ForgettingDrift struct {
	Offset        float64 `toml:"offset" range:"[-1e6,1e6]"`
	Amplitude     float64 `toml:"amplitude" range:"[0,1e6]"`
	Period        float64 `toml:"period" range:"[1,1e9]"`
	WalkPrecision float64 `toml:"walk_precision" range:"[1e-6,1e15]"`
}

// ForgettingPrior is the [prior] table (eqs. 3.13-3.15): broad gammas on λ
// and ψ_y (the text: "broad (non-informative)", L962; values ours) and
// w_0 ~ N(w0, 1/zeta0).
type ForgettingPrior struct {
	ALambda float64 `toml:"a_lambda" range:"[1e-12,1e12]"`
	BLambda float64 `toml:"b_lambda" range:"[1e-12,1e12]"`
	APsi    float64 `toml:"a_psi" range:"[1e-12,1e12]"`
	BPsi    float64 `toml:"b_psi" range:"[1e-12,1e12]"`
	W0      float64 `toml:"w0" range:"[-1e6,1e6]"`
	Zeta0   float64 `toml:"zeta0" range:"[1e-12,1e12]"`
}

func (p ForgettingPrior) prior() drift.Prior {
	return drift.Prior{ALambda: p.ALambda, BLambda: p.BLambda, APsi: p.APsi, BPsi: p.BPsi, W0: []float64{p.W0}, Zeta0: p.Zeta0}
}

// ForgettingVKS is the [vks] table: the window of vkS's online runs (the
// text does not give it; it "monitor[s]" the precision ratio of Fig. 3.17,
// L1050, which the horizon check of this experiment does).
type ForgettingVKS struct {
	Window int `toml:"window" range:"[2,1e6]"`
}

// ForgettingVKF is the [vkf] table: the windows vkF is tuned over (the
// text's 10 to 200, L1011) and its passes per step (drift.Filter).
type ForgettingVKF struct {
	Windows    []int `toml:"windows" range:"[1,1e6] len=1.. increasing"`
	Iterations int   `toml:"iterations" range:"[1,100]"`
}

// ForgettingRLS is the [rls] table: the line search of 1 − γ on a log
// scale over [min, max] (a grid of 12 points, then golden-section search
// around the best, evaluations in all), and δ of the start's ridge, which
// is the prior's ζ_0 (the same start as the VB trackers').
type ForgettingRLS struct {
	MinOneMinusGamma float64 `toml:"min_one_minus_gamma" range:"[1e-12,1)"`
	MaxOneMinusGamma float64 `toml:"max_one_minus_gamma" range:"(0,1)"`
	Evaluations      int     `toml:"evaluations" range:"[13,1000]"`
}

// ForgettingWindow is the [window] table of Fig. 3.16: vkS's MSE against
// its window, on the first data_sets data sets of each noise level.
type ForgettingWindow struct {
	Windows  []int `toml:"windows" range:"[2,1e6] len=2.. increasing"`
	DataSets int   `toml:"data_sets" range:"[1,1e4]"`
}

// ForgettingHorizon is the [horizon] table of Fig. 3.17: vkS's smoother at the
// true λ and ψ_y (known) on pure random
// walks of steps steps (panel a: drift precision lambda, each noise
// precision of noise_precisions; panel b: noise precision psi, each of
// lambdas), seeds data sets each. The horizon (ours: the text reads it off
// the figure) is the number of steps back from the end at which φ_n/ζ_n,
// 1 at the last step, first covers all but the fraction tolerance of the
// way to its settled value, the median over the first half of the
// sequence.
type ForgettingHorizon struct {
	Steps           int       `toml:"steps" range:"[20,1e6]"`
	Seeds           int       `toml:"seeds" range:"[1,1e4]"`
	Lambda          float64   `toml:"lambda" range:"[1e-6,1e15]"`
	NoisePrecisions []float64 `toml:"noise_precisions" range:"[1e-6,1e15] len=2.. increasing"`
	Psi             float64   `toml:"psi" range:"[1e-6,1e15]"`
	Lambdas         []float64 `toml:"lambdas" range:"[1e-6,1e15] len=2.. increasing"`
	Tolerance       float64   `toml:"tolerance" range:"(0,1)"`
}

// ForgettingExact is the [exact] table, an extension: vkS's q(λ) on a
// whole sequence of steps steps with ψ_y known, against the exact
// posterior of λ by quadrature (drift.ExactLambda), on pure random walks
// of each drift precision of lambdas and noise precision of noise_precisions,
// seeds data sets each: is E[λ] under-estimated, as Turner & Sahani (2011)
// expect of a factorised approximation?
type ForgettingExact struct {
	Steps           int       `toml:"steps" range:"[2,2000]"`
	Seeds           int       `toml:"seeds" range:"[1,1e4]"`
	Lambdas         []float64 `toml:"lambdas" range:"[1e-3,1e9] len=1.. increasing"`
	NoisePrecisions []float64 `toml:"noise_precisions" range:"[1e-3,1e9] len=1.. increasing"`
}

// ForgettingConfig is the config of backfit/forgetting.
type ForgettingConfig struct {
	experiments.Common
	Steps           int                `toml:"steps" range:"[10,1e6]"`
	DataSets        int                `toml:"data_sets" range:"[1,1e4]"`
	NoisePrecisions []float64          `toml:"noise_precisions" range:"[1e-6,1e15] len=1.. increasing"`
	Drift           ForgettingDrift    `toml:"drift"`
	Prior           ForgettingPrior    `toml:"prior"`
	VKS             ForgettingVKS      `toml:"vks"`
	VKF             ForgettingVKF      `toml:"vkf"`
	RLS             ForgettingRLS      `toml:"rls"`
	Window          ForgettingWindow   `toml:"window"`
	Horizon         ForgettingHorizon  `toml:"horizon"`
	Exact           ForgettingExact    `toml:"exact"`
	VB              config.FitSettings `toml:"vb"`
}

// DefaultForgetting returns the text's setting (1000 steps, ψ_y ∈ {10²,
// 10³, 10⁴}, 50 data sets each, vkF windows 10-200) with what it leaves out
// chosen: the path w_n = sin(2πn/500) + a random walk of precision 10⁴;
// priors Ga(10⁻⁶, 10⁻⁶) on λ and ψ_y, w_0 ~ N(0, 1); vkS's window 200.
func DefaultForgetting() ForgettingConfig {
	var vkf []int
	for w := 10; w <= 200; w += 10 {
		vkf = append(vkf, w)
	}
	return ForgettingConfig{
		Common:          experiments.Common{Experiment: ForgettingID, Seed: 3},
		Steps:           1000,
		DataSets:        50,
		NoisePrecisions: []float64{1e2, 1e3, 1e4},
		Drift:           ForgettingDrift{Offset: 0, Amplitude: 1, Period: 500, WalkPrecision: 1e4},
		Prior:           ForgettingPrior{ALambda: 1e-6, BLambda: 1e-6, APsi: 1e-6, BPsi: 1e-6, W0: 0, Zeta0: 1},
		VKS:             ForgettingVKS{Window: 200},
		VKF:             ForgettingVKF{Windows: vkf, Iterations: 1},
		RLS:             ForgettingRLS{MinOneMinusGamma: 1e-5, MaxOneMinusGamma: 0.99, Evaluations: 40},
		Window:          ForgettingWindow{Windows: []int{10, 20, 50, 100, 200, 400}, DataSets: 10},
		Horizon: ForgettingHorizon{Steps: 400, Seeds: 5, Lambda: 1e4, NoisePrecisions: []float64{1e2, 1e3, 1e4},
			Psi: 1e3, Lambdas: []float64{1e2, 1e3, 1e4, 1e5}, Tolerance: 0.1},
		Exact: ForgettingExact{Steps: 100, Seeds: 3, Lambdas: []float64{1e3, 1e4}, NoisePrecisions: []float64{1e2, 1e3, 1e4}},
		VB:    config.DefaultFit(500),
	}
}

// Validate checks what relates keys.
func (c *ForgettingConfig) Validate() error {
	var err error
	if c.RLS.MinOneMinusGamma >= c.RLS.MaxOneMinusGamma {
		err = config.FieldError("rls.min_one_minus_gamma", c.RLS.MinOneMinusGamma, fmt.Sprintf("must be below rls.max_one_minus_gamma (%g)", c.RLS.MaxOneMinusGamma))
	}
	var errW error
	if c.Window.DataSets > c.DataSets {
		errW = config.FieldError("window.data_sets", c.Window.DataSets, fmt.Sprintf("must be at most data_sets (%d)", c.DataSets))
	}
	return config.FirstError(err, errW, c.VB.Validate("vb", nil))
}

// Estimate counts, per data set, vkS's runs (one per step, each up to
// vb.max_iterations smoothings of up to vks.window steps), vkF's passes
// over its windows, RLS's evaluations, and the window study's vkS runs; and
// the horizon study's runs.
func (c *ForgettingConfig) Estimate() experiments.Cost {
	noise := experiments.KeyN("noise_precisions", c.NoisePrecisions, float64(len(c.NoisePrecisions)), "noise levels")
	sets := experiments.Key("data_sets", c.DataSets)
	steps := experiments.Key("steps", c.Steps)
	iters := experiments.Key("vb.max_iterations", c.VB.MaxIterations)
	var winSum int
	for _, w := range c.Window.Windows {
		winSum += min(w, c.Steps)
	}
	hcases := float64(len(c.Horizon.NoisePrecisions) + len(c.Horizon.Lambdas))
	return experiments.Cost{
		Cells: []experiments.Factor{noise, sets},
		Memory: []experiments.Part{
			experiments.Words("per data set: the MSE of each vkF window and window-study run", noise, sets,
				experiments.KeyN("vkf.windows", c.VKF.Windows, float64(len(c.VKF.Windows)+len(c.Window.Windows)+12), "values")),
			experiments.Words("traces of the first data set of each noise level", noise, steps, experiments.Fixed(8, "values per step")),
			experiments.Words("horizon ratios", experiments.Fixed(hcases, "cases"), experiments.Key("horizon.seeds", c.Horizon.Seeds),
				experiments.Key("horizon.steps", c.Horizon.Steps)),
		},
		CellMemory: []experiments.Part{experiments.Words("data, path and estimates", steps, experiments.Fixed(12, "values per step"))},
		Work: []experiments.Part{
			experiments.Ops("vkS smoother steps", 60, noise, sets, steps, experiments.Key("vks.window", c.VKS.Window), iters),
			experiments.Ops("vkF filter passes", 400, noise, sets, steps, experiments.KeyN("vkf.windows", c.VKF.Windows, float64(len(c.VKF.Windows)), "windows"),
				experiments.Key("vkf.iterations", c.VKF.Iterations)),
			experiments.Ops("RLS evaluations", 20, noise, sets, steps, experiments.Key("rls.evaluations", c.RLS.Evaluations)),
			experiments.Ops("window-study smoother steps", 60, noise, experiments.Key("window.data_sets", c.Window.DataSets), steps,
				experiments.KeyN("window.windows", c.Window.Windows, float64(winSum), "window steps"), iters),
			experiments.Ops("horizon runs", 60, experiments.Fixed(hcases, "cases"), experiments.Key("horizon.seeds", c.Horizon.Seeds),
				experiments.Key("horizon.steps", c.Horizon.Steps), iters),
			experiments.Ops("exact posterior of λ: quadrature points of an O(T³) marginal", 2000,
				experiments.KeyN("exact.lambdas", c.Exact.Lambdas, float64(len(c.Exact.Lambdas)), "drift precisions"),
				experiments.KeyN("exact.noise_precisions", c.Exact.NoisePrecisions, float64(len(c.Exact.NoisePrecisions)), "noise precisions"),
				experiments.Key("exact.seeds", c.Exact.Seeds), experiments.Key("exact.steps", c.Exact.Steps),
				experiments.Key("exact.steps", c.Exact.Steps), experiments.Key("exact.steps", c.Exact.Steps)),
		},
	}
}

// forgettingCriteria are the criteria of backfit/forgetting: the text's
// claims of Figs 3.13, 3.14, 3.16 and 3.17, each judged per noise level or
// case, and sanity checks of the runs.
var forgettingCriteria = results.Criteria{
	results.Criterion{ID: "fig3.14-vks-vs-vkf", Text: "median MSE of vkS over that of vkF (tuned on the true w)", Target: results.AtMost(1)}.
		AsClaim("vkS \"performs the best of the 3 algorithms across all noise ranges\" without access to the true w", "L1013"),
	results.Criterion{ID: "fig3.14-vks-vs-rls", Text: "median MSE of vkS over that of RLS (γ tuned on the true w)", Target: results.AtMost(1)}.
		AsClaim("vkS \"performs the best of the 3 algorithms across all noise ranges\"; it \"tends to outperform RLS significantly\"", "L1013"),
	results.Criterion{ID: "fig3.14-sign-vkf", Text: "one-sided sign-test p of vkS's MSE below vkF's over the data sets", Target: results.Below(0.05)}.
		AsClaim("\"Results are tested for statistical significance with p < 0.05\"", "L1017"),
	results.Criterion{ID: "fig3.14-sign-rls", Text: "one-sided sign-test p of vkS's MSE below RLS's over the data sets", Target: results.Below(0.05)}.
		AsClaim("\"Results are tested for statistical significance with p < 0.05\"", "L1017"),
	results.Criterion{ID: "fig3.13-vkf-lambda-under", Text: "fraction of data sets on which vkF's median ⟨λ⟩ over the second half of the steps is below vkS's", Target: results.Above(0.5)}.
		AsClaim("vkF \"tends to underestimate λ due to the lack of anti-causal information\"", "L1013"),
	results.Criterion{ID: "fig3.16-window-helps", Text: "vkS's median MSE at the smallest window over that at the largest", Target: results.Above(1)}.
		AsClaim("\"the estimation accuracy increases with the window size\"", "L1040"),
	results.Criterion{ID: "fig3.16-saturates", Text: "relative gain in vkS's median MSE from the second-largest window to the largest (saturated: at most 10 %, our threshold)", Target: results.AtMost(0.1)}.
		AsClaim("\"the gain in accuracy quickly saturates\"", "L1046"),
	results.Criterion{ID: "fig3.17-ratio-one-at-end", Text: "largest |φ_T/ζ_T − 1| over the horizon runs (the smoothed and filtered posteriors of the last step agree)", Target: results.AtMost(1e-9)}.
		AsSanity(),
	results.Criterion{ID: "fig3.17-horizon-psi", Text: "median horizon at the smallest ψ_y minus that at the largest, in steps (drift precision fixed)", Target: results.Above(0)}.
		AsClaim("\"the time horizon should be larger when the value of ψ_y is small\"", "L1050"),
	results.Criterion{ID: "fig3.17-horizon-lambda", Text: "median horizon at the largest λ minus that at the smallest, in steps (noise precision fixed)", Target: results.Above(0)}.
		AsClaim("\"a higher value of λ (slowly changing process) tends to stretch the window\"", "L1050"),
	results.Criterion{ID: "fig3.17-window-covers-horizon", Text: "largest median horizon of panel (a) over vks.window (the window is long enough, L1050)", Target: results.AtMost(1)}.
		AsSanity(),
	results.Criterion{ID: "exact-lambda-under", Text: "fraction of the [exact] cases in which vkS's E_q[λ] is below the exact posterior mean E[λ | y] (quadrature)", Target: results.Above(0.5)}.
		AsExtension(),
	results.Criterion{ID: "exact-bound", Text: "largest F − ln p(y) over the [exact] cases (the bound may not exceed the exact evidence)", Target: results.AtMost(1e-6)}.
		AsSanity(),
	results.Criterion{ID: "vks-runs-capped", Text: "fraction of vkS window runs that reached vb.max_iterations", Target: results.AtMost(0.01)}.AsSanity(),
}

// Criteria states the criteria a run of the config judges.
func (c *ForgettingConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return forgettingCriteria, nil
}

// forgettingCell is the outcome of one data set.
type forgettingCell struct {
	VKS              experiments.Float   `json:"vks"`
	VKF              experiments.Float   `json:"vkf"`
	RLS              experiments.Float   `json:"rls"`
	KF               experiments.Float   `json:"kf"` // the Kalman filter at the path's λ and the true ψ_y
	VKFWindow        int                 `json:"vkf_window"`
	VKFWindowMSE     []experiments.Float `json:"vkf_window_mse"`
	RLSOneMinusGamma experiments.Float   `json:"rls_one_minus_gamma"`
	LambdaVKS        experiments.Float   `json:"lambda_vks"`
	LambdaVKF        experiments.Float   `json:"lambda_vkf"`
	WindowMSE        []experiments.Float `json:"window_mse"` // vkS at window.windows (window-study sets only)
	Runs             int                 `json:"runs"`
	Capped           int                 `json:"capped"`
	Trace            *forgettingTrace    `json:"trace,omitempty"` // the first data set of each noise level
}

// forgettingTrace holds the estimates of every step of one data set.
type forgettingTrace struct {
	VKS       []experiments.Float `json:"vks"`
	VKF       []experiments.Float `json:"vkf"`
	RLS       []experiments.Float `json:"rls"`
	LambdaVKS []experiments.Float `json:"lambda_vks"`
	LambdaVKF []experiments.Float `json:"lambda_vkf"`
}

// forgetHorizonCell is the outcome of one Fig. 3.17 run.
type forgetHorizonCell struct {
	Ratio   []experiments.Float `json:"ratio"` // φ_n/ζ_n, n = 1..T
	Horizon int                 `json:"horizon"`
}

// forgettingPath returns the drift path w_1..w_T of [drift].
func forgettingPath(c *ForgettingConfig) []float64 {
	rnd := rng.New(c.Seed, c.Experiment, "path")
	w := make([]float64, c.Steps)
	r := 0.0
	sd := 1 / math.Sqrt(c.Drift.WalkPrecision)
	for n := range w {
		r += sd * rnd.NormFloat64()
		w[n] = c.Drift.Offset + c.Drift.Amplitude*math.Sin(2*math.Pi*float64(n+1)/c.Drift.Period) + r
	}
	return w
}

// forgettingData draws x_n ~ N(0, 1) and y_n = w_n x_n + N(0, 1/ψ_y).
func forgettingData(c *ForgettingConfig, w []float64, psi float64, labels ...string) drift.Data {
	rnd := rng.New(c.Seed, append([]string{c.Experiment, "data"}, labels...)...)
	x, y := make([]float64, len(w)), make([]float64, len(w))
	sd := 1 / math.Sqrt(psi)
	for n := range w {
		x[n] = rnd.NormFloat64()
		y[n] = w[n]*x[n] + sd*rnd.NormFloat64()
	}
	return drift.Data{X: x, Y: y, D: 1}
}

// mse returns the mean of (est_n − w_n)² over every step.
func forgetMSE(est, w []float64) float64 {
	var s float64
	for n, v := range w {
		d := est[n] - v
		s += d * d
	}
	return s / float64(len(w))
}

// forgetSecondHalfMedian returns the median of xs over its second half.
func forgetSecondHalfMedian(xs []float64) float64 { return results.Median(xs[len(xs)/2:]) }

// forgetTuneRLS returns 1 − γ minimising RLS's MSE against the true w: a grid of
// 12 points uniform in ln(1 − γ) over [min, max], then golden-section
// search between the best point's neighbours, evaluations in all.
func forgetTuneRLS(c *ForgettingConfig, data drift.Data, w []float64) (oneMinus, best float64, est []float64, err error) {
	lo, hi := math.Log(c.RLS.MinOneMinusGamma), math.Log(c.RLS.MaxOneMinusGamma)
	eval := func(u float64) (float64, []float64, error) {
		e, err := drift.RLS{Gamma: 1 - math.Exp(u), Delta: c.Prior.Zeta0, Init: []float64{c.Prior.W0}}.Track(data)
		if err != nil {
			return 0, nil, err
		}
		return forgetMSE(e, w), e, nil
	}
	const grid = 12
	us := make([]float64, grid)
	vals := make([]float64, grid)
	bestU, best := 0.0, math.Inf(1)
	for i := range us {
		us[i] = lo + (hi-lo)*float64(i)/float64(grid-1)
		v, e, err := eval(us[i])
		if err != nil {
			return 0, 0, nil, err
		}
		vals[i] = v
		if v < best {
			bestU, best, est = us[i], v, e
		}
	}
	i := slices.Index(us, bestU)
	a, b := us[max(i-1, 0)], us[min(i+1, grid-1)]
	g := (math.Sqrt(5) - 1) / 2
	x1, x2 := b-g*(b-a), a+g*(b-a)
	f1, e1, err := eval(x1)
	if err != nil {
		return 0, 0, nil, err
	}
	f2, e2, err := eval(x2)
	if err != nil {
		return 0, 0, nil, err
	}
	for k := grid + 2; k < c.RLS.Evaluations; k++ {
		if f1 < f2 {
			b, x2, f2, e2 = x2, x1, f1, e1
			x1 = b - g*(b-a)
			if f1, e1, err = eval(x1); err != nil {
				return 0, 0, nil, err
			}
		} else {
			a, x1, f1, e1 = x1, x2, f2, e2
			x2 = a + g*(b-a)
			if f2, e2, err = eval(x2); err != nil {
				return 0, 0, nil, err
			}
		}
	}
	if f1 < best {
		bestU, best, est = x1, f1, e1
	}
	if f2 < best {
		bestU, best, est = x2, f2, e2
	}
	return math.Exp(bestU), best, est, nil
}

// forgetRunCell tracks one data set with the three methods.
func forgetRunCell(env *experiments.Env, c *ForgettingConfig, w []float64, leff, psi float64, set int) (forgettingCell, error) {
	var cell forgettingCell
	data := forgettingData(c, w, psi, "psi", forgetG(psi), "set", strconv.Itoa(set))
	prior := c.Prior.prior()
	vbs := c.VB.Settings(env.Stop, nil)
	vks, err := drift.Smoother{Window: c.VKS.Window, VB: vbs, Factorised: true}.Track(data, prior, drift.Settings{})
	if err != nil {
		return cell, err
	}
	cell.VKS = experiments.Float(forgetMSE(vks.W, w))
	cell.LambdaVKS = experiments.Float(forgetSecondHalfMedian(vks.Lambda))
	cell.Runs, cell.Capped = vks.Runs, vks.Capped
	var best drift.Estimates
	bestMSE := math.Inf(1)
	for _, win := range c.VKF.Windows {
		e, err := drift.Filter{Window: win, Iterations: c.VKF.Iterations}.Track(data, prior, drift.Settings{})
		if err != nil {
			return cell, err
		}
		m := forgetMSE(e.W, w)
		cell.VKFWindowMSE = append(cell.VKFWindowMSE, experiments.Float(m))
		if m < bestMSE {
			bestMSE, best, cell.VKFWindow = m, e, win
		}
	}
	cell.VKF = experiments.Float(bestMSE)
	cell.LambdaVKF = experiments.Float(forgetSecondHalfMedian(best.Lambda))
	// A reference, not a competitor: the Kalman filter at the precision of
	// the path's increments and the true noise precision (both known).
	kf, err := drift.Filter{Window: 1}.Track(data, prior, drift.Settings{KnownLambda: leff, KnownPsi: psi})
	if err != nil {
		return cell, err
	}
	cell.KF = experiments.Float(forgetMSE(kf.W, w))
	om, rlsMSE, rls, err := forgetTuneRLS(c, data, w)
	if err != nil {
		return cell, err
	}
	cell.RLS, cell.RLSOneMinusGamma = experiments.Float(rlsMSE), experiments.Float(om)
	if set < c.Window.DataSets {
		for _, win := range c.Window.Windows {
			e, err := drift.Smoother{Window: win, VB: vbs, Factorised: true}.Track(data, prior, drift.Settings{})
			if err != nil {
				return cell, err
			}
			cell.WindowMSE = append(cell.WindowMSE, experiments.Float(forgetMSE(e.W, w)))
		}
	}
	if set == 0 {
		cell.Trace = &forgettingTrace{VKS: experiments.Floats(vks.W), VKF: experiments.Floats(best.W), RLS: experiments.Floats(rls),
			LambdaVKS: experiments.Floats(vks.Lambda), LambdaVKF: experiments.Floats(best.Lambda)}
	}
	return cell, nil
}

// forgetHorizonCase is one curve of Fig. 3.17.
type forgetHorizonCase struct {
	panel       string // "a" (ψ_y varies) or "b" (λ varies)
	lambda, psi float64
}

func (c *ForgettingConfig) forgetHorizonCases() []forgetHorizonCase {
	var out []forgetHorizonCase
	for _, p := range c.Horizon.NoisePrecisions {
		out = append(out, forgetHorizonCase{"a", c.Horizon.Lambda, p})
	}
	for _, l := range c.Horizon.Lambdas {
		out = append(out, forgetHorizonCase{"b", l, c.Horizon.Psi})
	}
	return out
}

// forgetRunHorizon runs vkS to convergence on one random walk of the case
// and returns φ_n/ζ_n and the horizon.
func forgetRunHorizon(env *experiments.Env, c *ForgettingConfig, hc forgetHorizonCase, seed int) (forgetHorizonCell, error) {
	rnd := rng.New(c.Seed, c.Experiment, "horizon", hc.panel, forgetG(hc.lambda), forgetG(hc.psi), strconv.Itoa(seed))
	T := c.Horizon.Steps
	x, y := make([]float64, T), make([]float64, T)
	cur := c.Prior.W0
	for n := range y {
		cur += rnd.NormFloat64() / math.Sqrt(hc.lambda)
		x[n] = rnd.NormFloat64()
		y[n] = cur*x[n] + rnd.NormFloat64()/math.Sqrt(hc.psi)
	}
	m, err := drift.NewVB(drift.Data{X: x, Y: y, D: 1}, c.Prior.prior(), drift.Settings{KnownLambda: hc.lambda, KnownPsi: hc.psi})
	if err != nil {
		return forgetHorizonCell{}, err
	}
	if err := vb.Run(m, c.VB.Settings(env.Stop, m)).Error(); err != nil {
		return forgetHorizonCell{}, err
	}
	ratio := make([]float64, T)
	var cv, zp []float64
	for n := 1; n <= T; n++ {
		cv = m.Cov(cv, n)
		zp = m.FilteredPrecision(zp, n)
		ratio[n-1] = 1 / cv[0] / zp[0]
	}
	return forgetHorizonCell{Ratio: experiments.Floats(ratio), Horizon: forgetHorizonOf(ratio, c.Horizon.Tolerance)}, nil
}

// forgetHorizonOf returns the number of steps back from the last step at which
// the ratio first comes within the fraction tol of its settled value,
// counted from 1 (where it is at the last step): the smallest lag L with
// ratio[T−1−L] − 1 ≥ (1 − tol)(settled − 1), settled the median of the
// first half of the ratios (the ratio fluctuates with x_n², so "settled"
// is a median and the horizon a first crossing). T if it never does.
func forgetHorizonOf(ratio []float64, tol float64) int {
	T := len(ratio)
	settled := results.Median(ratio[:T/2])
	for lag := 0; lag < T; lag++ {
		if ratio[T-1-lag]-1 >= (1-tol)*(settled-1) {
			return lag
		}
	}
	return T
}

// forgetG formats a number compactly for names and tables.
func forgetG(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// RunForgetting runs the study and writes its tables, summary and figures.
func RunForgetting(env *experiments.Env, c *ForgettingConfig) error {
	w := forgettingPath(c)
	leff := forgetLambdaEff(c, w)
	var names []string
	type key struct {
		psi float64
		set int
	}
	var keys []key
	for _, p := range c.NoisePrecisions {
		for s := 0; s < c.DataSets; s++ {
			names = append(names, fmt.Sprintf("psi=%s/set=%d", forgetG(p), s))
			keys = append(keys, key{p, s})
		}
	}
	cells, complete, err := experiments.RunAllCells(env, names, nil, func(i int) (forgettingCell, error) {
		return forgetRunCell(env, c, w, leff, keys[i].psi, keys[i].set)
	})
	if err != nil || !complete {
		return err
	}
	hcases := c.forgetHorizonCases()
	var hnames []string
	type hkey struct {
		c    forgetHorizonCase
		seed int
	}
	var hkeys []hkey
	for _, hc := range hcases {
		for s := 0; s < c.Horizon.Seeds; s++ {
			hnames = append(hnames, fmt.Sprintf("horizon/%s/lambda=%s/psi=%s/seed=%d", hc.panel, forgetG(hc.lambda), forgetG(hc.psi), s))
			hkeys = append(hkeys, hkey{hc, s})
		}
	}
	hcells, complete, err := experiments.RunAllCells(env, hnames, nil, func(i int) (forgetHorizonCell, error) {
		return forgetRunHorizon(env, c, hkeys[i].c, hkeys[i].seed)
	})
	if err != nil || !complete {
		return err
	}
	var enames []string
	type ekey struct {
		lambda, psi float64
		seed        int
	}
	var ekeys []ekey
	for _, l := range c.Exact.Lambdas {
		for _, p := range c.Exact.NoisePrecisions {
			for s := 0; s < c.Exact.Seeds; s++ {
				enames = append(enames, fmt.Sprintf("exact/lambda=%s/psi=%s/seed=%d", forgetG(l), forgetG(p), s))
				ekeys = append(ekeys, ekey{l, p, s})
			}
		}
	}
	ecells, complete, err := experiments.RunAllCells(env, enames, nil, func(i int) (forgetExactCell, error) {
		return forgetRunExact(env, c, ekeys[i].lambda, ekeys[i].psi, ekeys[i].seed)
	})
	if err != nil || !complete {
		return err
	}
	return writeForgetting(env, c, w, cells, hcells, ecells)
}

// forgetExactCell is the outcome of one [exact] case.
type forgetExactCell struct {
	VB, Exact experiments.Float // E_q[λ] and E[λ | y]
	Gap       experiments.Float // ln p(y) − F
}

// forgetRunExact runs vkS with ψ_y known to convergence on one random walk
// and integrates the exact posterior of λ.
func forgetRunExact(env *experiments.Env, c *ForgettingConfig, lambda, psi float64, seed int) (forgetExactCell, error) {
	rnd := rng.New(c.Seed, c.Experiment, "exact", forgetG(lambda), forgetG(psi), strconv.Itoa(seed))
	T := c.Exact.Steps
	x, y := make([]float64, T), make([]float64, T)
	cur := c.Prior.W0
	for n := range y {
		cur += rnd.NormFloat64() / math.Sqrt(lambda)
		x[n] = rnd.NormFloat64()
		y[n] = cur*x[n] + rnd.NormFloat64()/math.Sqrt(psi)
	}
	data := drift.Data{X: x, Y: y, D: 1}
	prior := c.Prior.prior()
	m, err := drift.NewVB(data, prior, drift.Settings{KnownPsi: psi})
	if err != nil {
		return forgetExactCell{}, err
	}
	r := vb.Run(m, c.VB.Settings(env.Stop, m))
	if err := r.Error(); err != nil {
		return forgetExactCell{}, err
	}
	ex, err := drift.ExactLambda(data, prior, psi, 1e-6, 1e8)
	if err != nil {
		return forgetExactCell{}, err
	}
	return forgetExactCell{VB: experiments.Float(m.QLambda().Mean()), Exact: experiments.Float(ex.Mean), Gap: experiments.Float(ex.LogEvidence - r.F)}, nil
}

// forgetLambdaEff is the precision of the path's increments, 1/mean((w_n −
// w_{n−1})²) with w_0 the prior mean: the λ that the path's steps show.
func forgetLambdaEff(c *ForgettingConfig, w []float64) float64 {
	prev := c.Prior.W0
	var s float64
	for _, v := range w {
		s += (v - prev) * (v - prev)
		prev = v
	}
	return float64(len(w)) / s
}

// writeForgetting writes forgetting_mse.csv, forgetting_window.csv,
// forgetting_trace.csv, forgetting_horizon.csv, the summary and the figures.
func writeForgetting(env *experiments.Env, c *ForgettingConfig, w []float64, cells []forgettingCell, hcells []forgetHorizonCell, ecells []forgetExactCell) error {
	crit := forgettingCriteria
	s := results.Summary{Criteria: crit}
	leff := forgetLambdaEff(c, w)
	s.SetMetric("lambda_path", leff)

	mt := results.NewTable("psi", "set", "vks", "vkf", "rls", "kf_path", "vkf_window", "rls_one_minus_gamma", "lambda_vks", "lambda_vkf")
	wt := results.NewTable("method", "psi", "window", "median", "q25", "q75")
	tt := results.NewTable("psi", "step", "w", "vks", "vkf", "rls", "lambda_vks", "lambda_vkf")
	var runs, capped int
	for k, psi := range c.NoisePrecisions {
		part := cells[k*c.DataSets : (k+1)*c.DataSets]
		var vks, vkf, rls, kf, lks, lkf []float64
		winsF, lossF, winsR, lossR, under := 0, 0, 0, 0, 0
		for set, cell := range part {
			mt.AddRow(psi, set, float64(cell.VKS), float64(cell.VKF), float64(cell.RLS), float64(cell.KF), cell.VKFWindow, float64(cell.RLSOneMinusGamma),
				float64(cell.LambdaVKS), float64(cell.LambdaVKF))
			vks, vkf, rls = append(vks, float64(cell.VKS)), append(vkf, float64(cell.VKF)), append(rls, float64(cell.RLS))
			kf = append(kf, float64(cell.KF))
			lks, lkf = append(lks, float64(cell.LambdaVKS)), append(lkf, float64(cell.LambdaVKF))
			winsF, lossF = forgetTally(winsF, lossF, float64(cell.VKS), float64(cell.VKF))
			winsR, lossR = forgetTally(winsR, lossR, float64(cell.VKS), float64(cell.RLS))
			if cell.LambdaVKF < cell.LambdaVKS {
				under++
			}
			runs += cell.Runs
			capped += cell.Capped
		}
		lab := "psi=" + forgetG(psi)
		mv, mf, mr := results.Median(vks), results.Median(vkf), results.Median(rls)
		s.SetMetric("vks_mse_psi"+forgetG(psi), mv)
		s.SetMetric("vkf_mse_psi"+forgetG(psi), mf)
		s.SetMetric("rls_mse_psi"+forgetG(psi), mr)
		mk := results.Median(kf)
		s.SetMetric("kf_path_mse_psi"+forgetG(psi), mk)
		s.Findings = append(s.Findings, fmt.Sprintf("ψ_y = %s: median MSE vkS %.3g, vkF %.3g, RLS %.3g; the Kalman filter at the path's increment precision %.3g and the true ψ_y (known, a reference) %.3g; median ⟨λ⟩ of vkS %.3g, of vkF %.3g",
			forgetG(psi), mv, mf, mr, leff, mk, results.Median(lks), results.Median(lkf)))
		s.SetMetric("vks_wins_vkf_frac_psi"+forgetG(psi), float64(winsF)/float64(len(part)))
		s.SetMetric("vks_wins_rls_frac_psi"+forgetG(psi), float64(winsR)/float64(len(part)))
		s.SetMetric("vks_lambda_over_path_psi"+forgetG(psi), results.Median(lks)/leff)
		s.SetMetric("vkf_lambda_over_path_psi"+forgetG(psi), results.Median(lkf)/leff)
		pf, pr := results.SignTestP(winsF, lossF), results.SignTestP(winsR, lossR)
		s.SetMetric("sign_p_vkf_psi"+forgetG(psi), pf)
		s.SetMetric("sign_p_rls_psi"+forgetG(psi), pr)
		s.Judge(crit.Get("fig3.14-vks-vs-vkf").For(lab), mv/mf, fmt.Sprintf("vkS %.3g, vkF %.3g; vkS lower on %d of %d", mv, mf, winsF, len(part)))
		s.Judge(crit.Get("fig3.14-vks-vs-rls").For(lab), mv/mr, fmt.Sprintf("vkS %.3g, RLS %.3g; vkS lower on %d of %d", mv, mr, winsR, len(part)))
		s.Judge(crit.Get("fig3.14-sign-vkf").For(lab), pf, fmt.Sprintf("%d wins, %d losses", winsF, lossF))
		s.Judge(crit.Get("fig3.14-sign-rls").For(lab), pr, fmt.Sprintf("%d wins, %d losses", winsR, lossR))
		s.Judge(crit.Get("fig3.13-vkf-lambda-under").For(lab), float64(under)/float64(len(part)),
			fmt.Sprintf("median ⟨λ⟩ vkF %.3g, vkS %.3g; the path's increments %.3g", results.Median(lkf), results.Median(lks), leff))

		// Fig. 3.16: vkS against its window, vkF against its window.
		var meds []float64
		for j, win := range c.Window.Windows {
			var xs []float64
			for _, cell := range part[:c.Window.DataSets] {
				xs = append(xs, float64(cell.WindowMSE[j]))
			}
			meds = append(meds, results.Median(xs))
			wt.AddRow("vks", psi, win, results.Median(xs), results.Quantile(xs, 0.25), results.Quantile(xs, 0.75))
		}
		for j, win := range c.VKF.Windows {
			var xs []float64
			for _, cell := range part {
				xs = append(xs, float64(cell.VKFWindowMSE[j]))
			}
			wt.AddRow("vkf", psi, win, results.Median(xs), results.Quantile(xs, 0.25), results.Quantile(xs, 0.75))
		}
		nw := len(meds)
		s.Judge(crit.Get("fig3.16-window-helps").For(lab), meds[0]/meds[nw-1],
			fmt.Sprintf("window %d: %.3g, window %d: %.3g", c.Window.Windows[0], meds[0], c.Window.Windows[nw-1], meds[nw-1]))
		s.Judge(crit.Get("fig3.16-saturates").For(lab), (meds[nw-2]-meds[nw-1])/meds[nw-2],
			fmt.Sprintf("window %d: %.3g, window %d: %.3g", c.Window.Windows[nw-2], meds[nw-2], c.Window.Windows[nw-1], meds[nw-1]))

		if tr := part[0].Trace; tr != nil {
			for n := range w {
				tt.AddRow(psi, n+1, w[n], float64(tr.VKS[n]), float64(tr.VKF[n]), float64(tr.RLS[n]), float64(tr.LambdaVKS[n]), float64(tr.LambdaVKF[n]))
			}
		}
	}
	s.Judge(crit.Get("vks-runs-capped"), float64(capped)/float64(max(runs, 1)), fmt.Sprintf("%d of %d", capped, runs))

	// Fig. 3.17.
	ht := results.NewTable("panel", "lambda", "psi", "lag", "ratio_mean", "ratio_seed0")
	hs := results.NewTable("panel", "lambda", "psi", "median_horizon")
	var endDev float64
	medH := map[string][]float64{}
	for i, hc := range c.forgetHorizonCases() {
		var hz []float64
		sum := make([]float64, c.Horizon.Steps)
		for sd := 0; sd < c.Horizon.Seeds; sd++ {
			cell := hcells[i*c.Horizon.Seeds+sd]
			T := len(cell.Ratio)
			endDev = math.Max(endDev, math.Abs(float64(cell.Ratio[T-1])-1))
			hz = append(hz, float64(cell.Horizon))
			for n, v := range cell.Ratio {
				sum[n] += float64(v)
			}
		}
		first := hcells[i*c.Horizon.Seeds].Ratio
		for n := len(sum) - 1; n >= 0; n-- {
			ht.AddRow(hc.panel, hc.lambda, hc.psi, len(sum)-1-n, sum[n]/float64(c.Horizon.Seeds), float64(first[n]))
		}
		hs.AddRow(hc.panel, hc.lambda, hc.psi, results.Median(hz))
		medH[hc.panel] = append(medH[hc.panel], results.Median(hz))
	}
	s.Judge(crit.Get("fig3.17-ratio-one-at-end"), endDev)
	a, b := medH["a"], medH["b"]
	s.Judge(crit.Get("fig3.17-horizon-psi"), a[0]-a[len(a)-1], fmt.Sprintf("horizons %v at ψ_y = %v", a, c.Horizon.NoisePrecisions))
	s.Judge(crit.Get("fig3.17-horizon-lambda"), b[len(b)-1]-b[0], fmt.Sprintf("horizons %v at λ = %v", b, c.Horizon.Lambdas))
	s.Judge(crit.Get("fig3.17-window-covers-horizon"), slices.Max(a)/float64(c.VKS.Window))
	for i, v := range a {
		s.SetMetric("horizon_a_psi"+forgetG(c.Horizon.NoisePrecisions[i]), v)
	}
	for i, v := range b {
		s.SetMetric("horizon_b_lambda"+forgetG(c.Horizon.Lambdas[i]), v)
	}

	// The exact posterior of λ.
	et := results.NewTable("lambda", "psi", "seed", "vb_mean", "exact_mean", "ratio", "gap")
	var ratios []float64
	under, worst := 0, math.Inf(-1)
	i := 0
	for _, l := range c.Exact.Lambdas {
		for _, p := range c.Exact.NoisePrecisions {
			for sd := 0; sd < c.Exact.Seeds; sd++ {
				e := ecells[i]
				i++
				ratio := float64(e.VB) / float64(e.Exact)
				et.AddRow(l, p, sd, float64(e.VB), float64(e.Exact), ratio, float64(e.Gap))
				ratios = append(ratios, ratio)
				if e.VB < e.Exact {
					under++
				}
				worst = math.Max(worst, -float64(e.Gap))
			}
		}
	}
	s.SetMetric("lambda_vb_over_exact_median", results.Median(ratios))
	s.Judge(crit.Get("exact-lambda-under"), float64(under)/float64(len(ecells)),
		fmt.Sprintf("%d of %d; median E_q[λ]/E[λ|y] %.3f (range %.3f-%.3f)", under, len(ecells), results.Median(ratios), slices.Min(ratios), slices.Max(ratios)))
	s.Judge(crit.Get("exact-bound"), worst)

	for name, t := range map[string]*results.Table{
		"forgetting_exact.csv": et, "forgetting_mse.csv": mt, "forgetting_window.csv": wt, "forgetting_trace.csv": tt,
		"forgetting_horizon.csv": ht, "forgetting_horizons.csv": hs} {
		if err := results.WriteCSV(env.Path(name), *t); err != nil {
			return err
		}
	}
	s.Claims = []results.Claim{
		{Artifact: "Figure 3.14", Figures: []string{"dsouza_fig3_14"}, Checks: []string{"fig3.14-vks-vs-vkf", "fig3.14-vks-vs-rls", "fig3.14-sign-vkf", "fig3.14-sign-rls"},
			Statement: "vkS, without the true w, has the lowest MSE at every noise level, significantly (p < 0.05)"},
		{Artifact: "Figure 3.13", Figures: []string{"dsouza_fig3_13"}, Checks: []string{"fig3.13-vkf-lambda-under"},
			Statement: "vkF under-estimates λ against vkS"},
		{Artifact: "Figure 3.16", Figures: []string{"dsouza_fig3_16"}, Checks: []string{"fig3.16-window-helps", "fig3.16-saturates"},
			Statement: "vkS's error falls with the window and saturates"},
		{Artifact: "D'Souza §3.2.1 with Turner & Sahani (2011): q(λ) against the exact posterior", Checks: []string{"exact-lambda-under", "exact-bound"},
			Statement: "the factorised q(w)q(λ) under-estimates E[λ | y]"},
		{Artifact: "Figure 3.17", Figures: []string{"dsouza_fig3_17"}, Checks: []string{"fig3.17-ratio-one-at-end", "fig3.17-horizon-psi", "fig3.17-horizon-lambda", "fig3.17-window-covers-horizon"},
			Statement: "φ_n/ζ_n is 1 at the last step and settles within a horizon that is longer for noisier data and slower drift"},
	}
	s.AddFindingsFromChecks(nil)
	if err := env.WriteSummary(&s, "D'Souza Figs 3.13-3.17 (L1007-1052): forgetting rates of a drifting regression weight, vkS against vkF and RLS."); err != nil {
		return err
	}
	return PlotForgetting(env.Dir)
}

// tally adds one to wins when a < b, to losses when a > b (ties dropped).
func forgetTally(wins, losses int, a, b float64) (int, int) {
	switch {
	case a < b:
		wins++
	case a > b:
		losses++
	}
	return wins, losses
}
