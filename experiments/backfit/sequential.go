package backfit

// backfit/sequential: D'Souza (2004) Fig. 3.15 (L1019-1032; targets §4.2,
// §7 P6): "Bayesian forgetting rates applied to a high-dimensional
// regression task, in conjunction with the Bayesian backfitting algorithm".
// 5000 pairs (x_i, y_i) are shown one at a time and each y_i is predicted
// from x_i and the past; x lives on a 5-D manifold embedded in 105-D (50
// irrelevant inputs and 50 redundant ones: noisy copies, panels a and c, or
// noisy linear combinations, panels b and d); y is a linear function of the
// 5 true inputs with a fixed (a, b) or a drifting (c, d) regression vector.
// Four predictors: batch regression (least squares on all the past, RLS with
// γ = 1), RLS with 1 − γ = 10⁻⁸ and 2·10⁻², and vkS combined with
// backfitting (core/model/drift.Factorised, online by drift.Smoother on a
// window). The text: batch is best when stationary, vkS when drifting.

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/core/model/drift"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// SequentialID is D'Souza's Fig. 3.15, the sequential protocol.
const SequentialID = "backfit/sequential"

func init() {
	experiments.Add(SequentialID, "D'Souza Fig. 3.15: 5000 sequential pairs in 105-D, fixed and drifting regression vectors, batch regression and RLS against vkS with backfitting",
		DefaultSequential, RunSequential, PlotSequential)
}

// SequentialVKS is the [vks] table: the window of each online run, the
// steps between runs (the estimate is held between them) and the stop
// rule of each run (drift.Smoother), none of which the text gives.
type SequentialVKS struct {
	Window int                `toml:"window" range:"[2,1e6]"`
	Every  int                `toml:"every" range:"[1,1e6]"`
	VB     config.FitSettings `toml:"vb"`
}

// SequentialConfig is the config of backfit/sequential.
type SequentialConfig struct {
	experiments.Common
	// Seeds is the number of runs of each scenario (the text's 50, L1032).
	Seeds int `toml:"seeds" range:"[1,1e4]"`
	// Steps is the length of each sequence (the text's 5000, L1020).
	Steps int `toml:"steps" range:"[10,1e6]"`
	// DriftSD is the sd of each step of the random walk of each true
	// coefficient in the drifting scenarios (ours: the text gives none).
	DriftSD float64 `toml:"drift_sd" range:"(0,1e3]"`
	// JudgeFrom is the first step, as a fraction of Steps, of the errors
	// averaged (the start, before any predictor has seen enough data, is
	// left out; ours).
	JudgeFrom float64 `toml:"judge_from" range:"[0,1)"`
	// OneMinusGamma are the RLS forgetting rates besides batch (γ = 1):
	// the text's 10⁻⁸ and 2·10⁻² (L1029).
	OneMinusGamma []float64 `toml:"one_minus_gamma" range:"(0,1) len=1.. increasing"`
	// Delta is the ridge of RLS's start (drift.RLS.Delta), the prior's ζ_0.
	Delta float64         `toml:"delta" range:"[1e-12,1e12]"`
	Data  RegressionData  `toml:"data"`
	Prior ForgettingPrior `toml:"prior"`
	VKS   SequentialVKS   `toml:"vks"`
}

// DefaultSequential returns the settings of configs/backfit/sequential.toml.
func DefaultSequential() SequentialConfig {
	fit := config.FitSettings{MaxIterations: 20, RelTol: 1e-6, MonotoneTol: 1e-9}
	return SequentialConfig{Common: experiments.Common{Seed: 3150}, Seeds: 50, Steps: 5000, DriftSD: 0.02, JudgeFrom: 0.5,
		OneMinusGamma: []float64{1e-8, 2e-2}, Delta: 1,
		Data:  RegressionData{Relevant: 5, Irrelevant: 50, Redundant: 50, RedundantKind: "copies", RedundantNoise: 0.5, Noise: 0.1},
		Prior: ForgettingPrior{ALambda: 1e-6, BLambda: 1e-6, APsi: 1e-6, BPsi: 1e-6, Zeta0: 1},
		VKS:   SequentialVKS{Window: 200, Every: 50, VB: fit}}
}

// Validate checks what relates keys.
func (c *SequentialConfig) Validate() error {
	if c.Data.RedundantKind != "copies" {
		return config.FieldError("data.redundant_kind", c.Data.RedundantKind, "each scenario sets its own (copies, then combinations): leave the key out")
	}
	if c.VKS.Window > c.Steps {
		return fmt.Errorf("vks.window = %d: longer than steps = %d", c.VKS.Window, c.Steps)
	}
	return c.VKS.VB.Validate("vks.vb", nil)
}

// Estimate counts RLS's d² per step for each predictor and vkS's runs of
// window × d smoother steps (about 30 operations each) per iteration.
func (c *SequentialConfig) Estimate() experiments.Cost {
	d := float64(c.Data.inputs())
	seeds := experiments.Key("seeds", c.Seeds)
	scen := experiments.Fixed(4, "scenarios")
	steps := experiments.Key("steps", c.Steps)
	dim := experiments.KeyN("data.irrelevant", c.Data.Irrelevant, d, "inputs (relevant + irrelevant + redundant)")
	runs := experiments.KeyN("steps", c.Steps, float64(c.Steps)/float64(c.VKS.Every), "vkS runs (steps / vks.every)")
	return experiments.Cost{Cells: []experiments.Factor{seeds, scen},
		CellMemory: []experiments.Part{experiments.Words("the sequence, RLS's P and the estimates", steps, dim, experiments.Fixed(4, "copies")),
			experiments.Words("RLS's P", dim, dim)},
		Work: []experiments.Part{
			experiments.Ops("RLS", 4, seeds, scen, steps, dim, dim, experiments.Fixed(float64(len(c.OneMinusGamma)+1), "predictors")),
			experiments.Ops("vkS runs", 30, seeds, scen, runs, experiments.Key("vks.window", c.VKS.Window), dim, experiments.Key("vks.vb.max_iterations", c.VKS.VB.MaxIterations))}}
}

// sequentialScenarios are the four panels of Fig. 3.15.
var sequentialScenarios = []struct {
	name, kind string
	drifting   bool
}{{"copies-fixed", "copies", false}, {"combinations-fixed", "combinations", false}, {"copies-drifting", "copies", true}, {"combinations-drifting", "combinations", true}}

func (c *SequentialConfig) methods() []string {
	m := []string{"batch"}
	for _, g := range c.OneMinusGamma {
		m = append(m, "rls_"+strconv.FormatFloat(g, 'g', -1, 64))
	}
	return append(m, "vks")
}

// Criteria states the criteria a run of the config judges.
func (c *SequentialConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return sequentialCriteria(), nil
}

func sequentialCriteria() results.Criteria {
	return results.Criteria{
		results.Criterion{ID: "fig3.15-stationary-batch-best", Text: "in both stationary scenarios, batch regression's median prediction MSE is below every other predictor's, each by a one-sided sign test over the runs at p < 0.05 (a predictor whose MSE is batch's to 0.1 % on every run, RLS at 1 − γ = 10⁻⁸, is not compared)", Target: results.Holds}.
			AsClaim("\"In the case where the underlying process is indeed stationary, the batch algorithm does the best job\" (p < 0.05)", "L1031"),
		results.Criterion{ID: "fig3.15-drifting-vks-best", Text: "in both drifting scenarios, vkS's median prediction MSE is below every other predictor's, each by a one-sided sign test over the runs at p < 0.05", Target: results.Holds}.
			AsClaim("\"a marked improvement on the performance of the variational Kalman smoother when the process is indeed drifting\" (p < 0.05)", "L1032"),
		results.Criterion{ID: "sequential-vks-finite", Text: "vkS runs that failed or gave a non-finite prediction", Target: results.Equal(0)}.AsSanity(),
	}
}

// SequentialCell is one run of one scenario: each predictor's mean squared
// prediction error from judge_from on, and its running mean at a few
// steps for the figure.
type SequentialCell struct {
	MSE     []experiments.Float   `json:"mse"`
	Curve   [][]experiments.Float `json:"curve"`
	Capped  int                   `json:"capped"`
	Runs    int                   `json:"runs"`
	LambdaT experiments.Float     `json:"lambda_last"`
}

// curvePoints is the number of steps at which a cell keeps its running
// mean squared error.
const curvePoints = 20

func (c *SequentialConfig) sequence(seed int, sc int) (drift.Data, error) {
	s := sequentialScenarios[sc]
	d := c.Data
	d.RedundantKind = s.kind
	r := rng.New(c.Seed, c.Experiment, "data", s.kind, strconv.Itoa(seed))
	g := newGenerator(d, r)
	x, y := g.draw(c.Steps, r)
	if s.drifting {
		walk := rng.New(c.Seed, c.Experiment, "drift", strconv.Itoa(seed))
		noise := rng.New(c.Seed, c.Experiment, "noise", strconv.Itoa(seed))
		b := append([]float64(nil), g.coef...)
		p := d.inputs()
		for n := range y {
			y[n] = d.Noise * noise.NormFloat64()
			for j := range b {
				b[j] += c.DriftSD * walk.NormFloat64()
				y[n] += b[j] * x[n*p+j]
			}
		}
	}
	return drift.Data{X: x, Y: y, D: d.inputs()}, nil
}

func (c *SequentialConfig) runCell(env *experiments.Env, seed, sc int) (SequentialCell, error) {
	var cell SequentialCell
	data, err := c.sequence(seed, sc)
	if err != nil {
		return cell, err
	}
	d, T := data.D, data.T()
	from := int(c.JudgeFrom * float64(T))
	if from < 1 {
		from = 1
	}
	score := func(w []float64) (float64, []experiments.Float) {
		curve := make([]experiments.Float, 0, curvePoints)
		se, cum := 0.0, 0.0
		for n := 1; n < T; n++ {
			f := 0.0
			for k := 0; k < d; k++ {
				f += data.X[n*d+k] * w[(n-1)*d+k]
			}
			e := (data.Y[n] - f) * (data.Y[n] - f)
			cum += e
			if n >= from {
				se += e
			}
			if (n+1)%(T/curvePoints) == 0 && len(curve) < curvePoints {
				curve = append(curve, experiments.Float(cum/float64(n)))
			}
		}
		return se / float64(T-from), curve
	}
	gammas := append([]float64{0}, c.OneMinusGamma...)
	for _, g := range gammas {
		w, err := drift.RLS{Gamma: 1 - g, Delta: c.Delta}.Track(data)
		if err != nil {
			return cell, err
		}
		mse, curve := score(w)
		cell.MSE, cell.Curve = append(cell.MSE, experiments.Float(mse)), append(cell.Curve, curve)
	}
	prior := c.Prior.prior()
	prior.W0 = make([]float64, d) // w_0 ~ N(w0, 1/zeta0) for every input
	for k := range prior.W0 {
		prior.W0[k] = c.Prior.W0
	}
	sm := drift.Smoother{Window: c.VKS.Window, Every: c.VKS.Every, Factorised: true, VB: c.VKS.VB.Settings(env.Stop, nil)}
	est, err := sm.Track(data, prior, drift.Settings{})
	if err != nil {
		return cell, err
	}
	mse, curve := score(est.W)
	cell.MSE, cell.Curve = append(cell.MSE, experiments.Float(mse)), append(cell.Curve, curve)
	cell.Capped, cell.Runs, cell.LambdaT = est.Capped, est.Runs, experiments.Float(est.Lambda[T-1])
	return cell, nil
}

// RunSequential runs every scenario's runs and writes sequential_mse.csv
// (one row per run, scenario and predictor), sequential_curves.csv (the
// median running MSE), the summary and dsouza_fig3_15.
func RunSequential(env *experiments.Env, c *SequentialConfig) error {
	var names []string
	for s := range c.Seeds {
		for _, sc := range sequentialScenarios {
			names = append(names, sc.name+"/seed="+strconv.Itoa(s))
		}
	}
	ns := len(sequentialScenarios)
	cells, complete, err := experiments.RunAllCells(env, names, nil, func(i int) (SequentialCell, error) { return c.runCell(env, i/ns, i%ns) })
	if err != nil || !complete {
		return err
	}
	methods := c.methods()
	mt := results.NewTable("scenario", "seed", "method", "mse")
	ct := results.NewTable("scenario", "method", "step", "running_mse_median")
	crit := sequentialCriteria()
	s := results.Summary{Criteria: crit}
	bad := 0
	stationaryOK, driftingOK := true, true
	var notes []string
	for sci, sc := range sequentialScenarios {
		per := make([][]float64, len(methods))
		for seed := range c.Seeds {
			cell := cells[seed*ns+sci]
			for j, v := range cell.MSE {
				mt.AddRow(sc.name, seed, methods[j], float64(v))
				per[j] = append(per[j], float64(v))
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					bad++
				}
			}
		}
		for j := range methods {
			for q := range curvePoints {
				var vals []float64
				for seed := range c.Seeds {
					if cv := cells[seed*ns+sci].Curve[j]; q < len(cv) {
						vals = append(vals, float64(cv[q]))
					}
				}
				if len(vals) > 0 {
					ct.AddRow(sc.name, methods[j], (q+1)*(c.Steps/curvePoints), results.Median(vals))
				}
			}
			s.SetMetric(fmt.Sprintf("seq_mse_%s_%s", methods[j], sc.name), results.Median(per[j]))
		}
		// The winner: the lowest median, and below every other predictor
		// by a one-sided sign test over the runs.
		want := 0 // batch
		if sc.drifting {
			want = len(methods) - 1 // vks
		}
		ok := true
		for j := range methods {
			if j == want {
				continue
			}
			if same(per[want], per[j]) {
				notes = append(notes, fmt.Sprintf("%s: %s and %s predict alike (every run's MSE within 0.1%%): not compared", sc.name, methods[want], methods[j]))
				continue
			}
			wins, n := 0, 0
			for r := range per[want] {
				if per[want][r] != per[j][r] {
					n++
					if per[want][r] < per[j][r] {
						wins++
					}
				}
			}
			pval := results.SignTestP(wins, n-wins)
			if !(results.Median(per[want]) < results.Median(per[j])) || !(pval < 0.05) {
				ok = false
				notes = append(notes, fmt.Sprintf("%s: %s (median MSE %.4g) against %s (%.4g): %d of %d runs lower, sign test p = %.2g",
					sc.name, methods[want], results.Median(per[want]), methods[j], results.Median(per[j]), wins, n, pval))
			}
		}
		if sc.drifting {
			driftingOK = driftingOK && ok
		} else {
			stationaryOK = stationaryOK && ok
		}
	}
	for name, t := range map[string]*results.Table{"sequential_mse.csv": mt, "sequential_curves.csv": ct} {
		if err := results.WriteCSV(env.Path(name), *t); err != nil {
			return err
		}
	}
	capped, runs := 0, 0
	for _, cell := range cells {
		capped, runs = capped+cell.Capped, runs+cell.Runs
	}
	s.SetMetric("seq_vks_capped_frac", float64(capped)/float64(max(runs, 1)))
	s.JudgeBool(crit.Get("fig3.15-stationary-batch-best"), stationaryOK)
	s.JudgeBool(crit.Get("fig3.15-drifting-vks-best"), driftingOK)
	s.Judge(crit.Get("sequential-vks-finite"), float64(bad))
	s.Claims = []results.Claim{{Artifact: "Figure 3.15", Figures: []string{"dsouza_fig3_15"}, Checks: []string{"fig3.15-stationary-batch-best", "fig3.15-drifting-vks-best"},
		Statement: "batch regression predicts best when the regression vector is fixed, vkS with backfitting when it drifts"}}
	s.Findings = append(s.Findings, notes...)
	s.Findings = append(s.Findings, fmt.Sprintf("vkS: %d of %d window runs stopped at vks.vb.max_iterations = %d", capped, runs, c.VKS.VB.MaxIterations))
	s.AddFindingsFromChecks(nil)
	if err := env.WriteSummary(&s, "D'Souza Fig. 3.15 (L1019-1032): sequential prediction in 105-D, batch regression and RLS against vkS with backfitting."); err != nil {
		return err
	}
	return PlotSequential(env.Dir)
}

// same reports whether two predictors' MSEs agree to 0.1 % on every run:
// RLS with 1 − γ = 10⁻⁸ forgets a fraction 5·10⁻⁵ of its past over 5000
// steps and is batch regression to within rounding.
func same(a, b []float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-3*math.Abs(a[i]) {
			return false
		}
	}
	return true
}

// PlotSequential draws dsouza_fig3_15: per scenario, each predictor's
// running mean squared prediction error (median over the runs) against
// the step, on log axes as the text's.
func PlotSequential(dir string) error {
	ct := results.ReadColumns(filepath.Join(dir, "sequential_curves.csv"))
	scen, meth, step, val := ct.Strings("scenario"), ct.Strings("method"), ct.Floats("step"), ct.Floats("running_mse_median")
	if err := ct.Err(); err != nil {
		return err
	}
	var panels []*plot.Plot
	for i, sc := range sequentialScenarios {
		var series []plots.Series
		idx := map[string]int{}
		for r := range scen {
			if scen[r] != sc.name {
				continue
			}
			j, ok := idx[meth[r]]
			if !ok {
				j = len(series)
				idx[meth[r]] = j
				series = append(series, plots.Series{Name: meth[r]})
			}
			series[j].X = append(series[j].X, step[r])
			series[j].Y = append(series[j].Y, val[r])
		}
		p, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("(%c) %s", 'a'+i, sc.name), XLabel: "step", YLabel: "running mean squared prediction error", LogY: true}, series...)
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	return experiments.SaveFigure(dir, "dsouza_fig3_15", plots.Figure{Rows: 2, Cols: 2, Panels: panels,
		Title: "D'Souza Fig. 3.15: sequential prediction in 105-D, fixed (a, b) and drifting (c, d) regression vectors"})
}
