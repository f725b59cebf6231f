package chapter3

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"time"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// ModelOrderID is the registry key of the model-order study (targets
// extension E3-X1): F, BIC and Cheeseman-Stutz as functions of k on the
// synthetic data, with the number of states VB keeps active.
const ModelOrderID = "chapter3/model-order"

// ModelOrderConfig is the config of chapter3/model-order.
type ModelOrderConfig struct {
	experiments.Common
	KSweep
	Analysis Analysis `toml:"analysis"`
}

// DefaultModelOrder returns the settings of targets E3-X1: k = 1..15, 5
// restarts, the thesis's 21 strings and its priors of strength 4, VB
// started from the Cheeseman-Stutz point of each ML solution.
func DefaultModelOrder() ModelOrderConfig {
	s := DefaultSynthetic()
	var ks []int
	for k := 1; k <= 15; k++ {
		ks = append(ks, k)
	}
	return ModelOrderConfig{Common: experiments.Common{Experiment: ModelOrderID, Figures: []string{"model_order"}, Seed: 3003},
		KSweep: defaultKSweep(s.Data, ks), Analysis: s.Analysis}
}

// Validate checks what relates the keys (each key's own range is its tag).
func (c *ModelOrderConfig) Validate() error {
	if c.Data.Datasets != 1 {
		return config.FieldError("data.datasets", c.Data.Datasets, "must be 1 for the model-order study")
	}
	return validateFit(c.Data, c.ML, c.VB)
}

// OrderRun is one (k, restart) cell.
type OrderRun struct {
	K, Restart   int
	MLStatus     string
	MLIterations int
	MLLogLik     experiments.Float
	BIC          experiments.Float
	CS           experiments.Float
	MLActive     int
	VBStatus     string
	VBIterations int
	F            experiments.Float
	VBActive     int
	Traces       []experiments.RunTrace
	Seconds      float64
}

func runOrderCell(c *ModelOrderConfig, data hmm.Data, k, restart, workers int, stop func() error) (OrderRun, error) {
	start := time.Now()
	p := data.P
	rnd := rng.New(c.Seed, c.Experiment, "init", fmt.Sprint(k), fmt.Sprint(restart))
	r := OrderRun{K: k, Restart: restart}
	fit := &fitter{workers: workers, stop: stop, traces: true}
	name := fmt.Sprintf("k%02d-r%02d", k, restart)
	ml, mr := fit.ml(name+"/ML", data, hmm.RandomParams(k, p, rnd), c.ML.FitSettings)
	if mr.Status == vb.Canceled {
		return r, mr.Err
	}
	r.MLStatus, r.MLIterations, r.MLLogLik = mr.Status.String(), mr.Iterations, experiments.Float(mr.F)
	r.MLActive = len(Active(ml.Counts().Occupancy(), c.Analysis.ActiveThreshold))
	u := c.Prior.prior(k, p)
	r.BIC = experiments.Float(hmm.BIC(data, ml.Params))
	r.CS = experiments.Float(hmm.CheesemanStutz(data, ml.Params, u))
	m, vr, err := fit.vbFrom(name+"/VB", data, u, c.VB, ml.Params, rnd)
	if err != nil {
		return r, err
	}
	if vr.Status == vb.Canceled {
		return r, vr.Err
	}
	r.VBStatus, r.VBIterations, r.F = vr.Status.String(), vr.Iterations, experiments.Float(vr.F)
	r.VBActive = len(Active(m.Counts().Occupancy(), c.Analysis.ActiveThreshold))
	r.Traces = fit.kept
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// RunModelOrder runs every (k, restart) cell and writes order.csv,
// order_best.csv and summary.json.
func RunModelOrder(env *experiments.Env, c *ModelOrderConfig) error {
	sets, err := loadSyntheticData(env, c.Data, c.Seed, c.Experiment)
	if err != nil {
		return err
	}
	data := sets[0]
	if err := data.Validate(); err != nil {
		return err
	}
	maxLen, nSeq := dataShape(data)
	kMax := slices.Max(c.Model.K)
	if err := env.CheckMemory(hmmMemory{k: kMax, p: data.P, maxLen: maxLen, nSeq: nSeq,
		workers: env.Workers, cells: satMul(len(c.Model.K), c.Restarts), fits: 2, params: 2,
		resultWords: 32 + traceWords(c.ML.MaxIterations, 1) + traceWords(c.VB.MaxIterations, 4)}.need()); err != nil {
		return err
	}
	type cell struct{ k, r int }
	var cells []cell
	var names []string
	var cost []float64
	for _, k := range c.Model.K {
		for r := 0; r < c.Restarts; r++ {
			cells = append(cells, cell{k, r})
			names = append(names, fmt.Sprintf("k%02d-r%02d", k, r))
			cost = append(cost, float64(k*k))
		}
	}
	runs, complete, err := experiments.RunAllCells(env, names, cost, func(i int) (OrderRun, error) {
		return runOrderCell(c, data, cells[i].k, cells[i].r, env.CellWorkers(len(cells)), env.Stop)
	})
	if err != nil || !complete {
		return err
	}
	t := results.NewTable("k", "restart", "ml_status", "ml_iterations", "ml_loglik", "bic", "cs", "ml_active",
		"vb_status", "vb_iterations", "F", "vb_active", "seconds")
	for i, r := range runs {
		for _, st := range []string{r.MLStatus, r.VBStatus} {
			if s, _ := vb.ParseStatus(st); !s.OK() {
				env.Warnf("run k=%d restart %d ended with status %s", r.K, r.Restart, st)
			}
		}
		env.AddRun(results.RunRecord{Name: names[i], Status: r.MLStatus + "/" + r.VBStatus, WallSeconds: r.Seconds,
			Iterations: r.MLIterations + r.VBIterations, Seed: rng.Derive(c.Seed, c.Experiment, "init", fmt.Sprint(r.K), fmt.Sprint(r.Restart))})
		t.AddRow(r.K, r.Restart, r.MLStatus, r.MLIterations, float64(r.MLLogLik), float64(r.BIC), float64(r.CS), r.MLActive,
			r.VBStatus, r.VBIterations, float64(r.F), r.VBActive, r.Seconds)
	}
	if err := results.WriteCSV(env.Path("order.csv"), *t); err != nil {
		return err
	}
	var traces []experiments.RunTrace
	for _, r := range runs {
		traces = append(traces, r.Traces...)
	}
	if err := experiments.WriteTraces(env.Dir, traces); err != nil {
		return err
	}
	return writeOrderSummary(env, c, runs)
}

// orderBest holds, for one k, each score at its best restart.
type orderBest struct {
	K                  int
	F, BIC, CS, LogL   float64
	VBActive, MLActive int
}

func bestByK(c *ModelOrderConfig, runs []OrderRun) []orderBest {
	var out []orderBest
	for _, k := range c.Model.K {
		b := orderBest{K: k, F: math.Inf(-1), BIC: math.Inf(-1), CS: math.Inf(-1), LogL: math.Inf(-1)}
		for _, r := range runs {
			if r.K != k {
				continue
			}
			if float64(r.F) > b.F {
				b.F, b.VBActive = float64(r.F), r.VBActive
			}
			if float64(r.MLLogLik) > b.LogL {
				b.LogL, b.MLActive = float64(r.MLLogLik), r.MLActive
			}
			b.BIC = math.Max(b.BIC, float64(r.BIC))
			b.CS = math.Max(b.CS, float64(r.CS))
		}
		out = append(out, b)
	}
	return out
}

func argmaxK(bs []orderBest, f func(orderBest) float64) int {
	best := 0
	for i := range bs {
		if f(bs[i]) > f(bs[best]) {
			best = i
		}
	}
	return bs[best].K
}

func writeOrderSummary(env *experiments.Env, c *ModelOrderConfig, runs []OrderRun) error {
	bs := bestByK(c, runs)
	t := results.NewTable("k", "F", "BIC", "CS", "ml_loglik", "vb_active", "ml_active")
	for _, b := range bs {
		t.AddRow(b.K, b.F, b.BIC, b.CS, b.LogL, b.VBActive, b.MLActive)
	}
	if err := results.WriteCSV(env.Path("order_best.csv"), *t); err != nil {
		return err
	}
	s := &results.Summary{Experiment: c.Experiment, ConfigHash: env.Hash, Quick: env.Quick, Criteria: modelOrderCriteria}
	s.SetMetric("k_best_F", float64(argmaxK(bs, func(b orderBest) float64 { return b.F })))
	s.SetMetric("k_best_BIC", float64(argmaxK(bs, func(b orderBest) float64 { return b.BIC })))
	s.SetMetric("k_best_CS", float64(argmaxK(bs, func(b orderBest) float64 { return b.CS })))
	s.SetMetric("F_best", slices.MaxFunc(bs, func(a, b orderBest) int { return cmp.Compare(a.F, b.F) }).F)

	bad, csAbove := 0, 0
	for _, r := range runs {
		if r.MLStatus == vb.BoundDecreased.String() || r.VBStatus == vb.BoundDecreased.String() {
			bad++
		}
		if float64(r.CS) > float64(r.F)+1e-9*math.Max(1, math.Abs(float64(r.F))) {
			csAbove++
		}
	}
	crit := modelOrderCriteria.Get
	s.Judge(crit("order-monotone"), float64(bad))
	if c.VB.Init == "from-cs" {
		s.Judge(crit("order-cs-le-f"), float64(csAbove))
	} else {
		s.NotJudged(crit("order-cs-le-f"), fmt.Sprintf("VB is not started from the CS point (vb.init = %q), so Corollary 2.5 does not order them", c.VB.Init))
	}
	bestAbove := 0
	lo, hi := math.MaxInt, 0
	for _, b := range bs {
		if b.CS > b.F+1e-9*math.Abs(b.F) {
			bestAbove++
		}
		if b.K >= 7 {
			lo, hi = min(lo, b.VBActive), max(hi, b.VBActive)
		}
	}
	s.Judge(crit("order-best-cs-le-f"), float64(bestAbove))
	if hi > 0 {
		s.SetMetric("vb_active_min_k_ge_7", float64(lo))
		s.SetMetric("vb_active_max_k_ge_7", float64(hi))
		s.Judge(crit("order-vb-active-7"), math.Max(float64(7-lo), float64(hi-7)))
	} else {
		s.NotJudged(crit("order-vb-active-7"), "model.k has no k >= 7")
	}
	s.Claims = modelOrderClaims
	s.AddFindingsFromChecks(nil)
	return env.WriteSummary(s, "")
}

// PlotModelOrder draws model_order.svg/png from order_best.csv: (a) F, BIC
// and CS against k; (b) the active states of VB's best-F run and ML's
// best run against k.
func PlotModelOrder(dir string) error {
	t, err := results.ReadCSV(filepath.Join(dir, "order_best.csv"))
	if err != nil {
		return err
	}
	col := func(name string) ([]float64, error) { return t.Floats(name) }
	var cols [6][]float64
	for i, name := range []string{"k", "F", "BIC", "CS", "vb_active", "ml_active"} {
		if cols[i], err = col(name); err != nil {
			return err
		}
	}
	k := cols[0]
	pa, _, err := plots.Lines(plots.Axes{Title: "(a) model scores against k (best restart each)", XLabel: "k (hidden states)", YLabel: "nats", IntegerX: true},
		plots.Series{Name: "F (VB)", X: k, Y: cols[1], Points: true},
		plots.Series{Name: "BIC", X: k, Y: cols[2], Points: true},
		plots.Series{Name: "Cheeseman-Stutz", X: k, Y: cols[3], Points: true})
	if err != nil {
		return err
	}
	pb, _, err := plots.Lines(plots.Axes{Title: "(b) active states (occupancy >= 1%)", XLabel: "k (hidden states)", YLabel: "states", IntegerX: true},
		plots.Series{Name: "VB (best F)", X: k, Y: cols[4], Points: true},
		plots.Series{Name: "ML (best ln p)", X: k, Y: cols[5], Points: true})
	if err != nil {
		return err
	}
	return experiments.SaveFigure(dir, "model_order", plots.Figure{Rows: 1, Cols: 2, Panels: []*plot.Plot{pa, pb},
		Width: 2 * plots.PanelWidth * 1.1, Height: plots.PanelHeight * 1.2,
		Title: "Model order on the synthetic strings: VB's F against BIC and Cheeseman-Stutz"})
}

func init() {
	experiments.Add(ModelOrderID, "model order on the synthetic strings: F, BIC and Cheeseman-Stutz against k (extension E3-X1)", DefaultModelOrder, RunModelOrder, PlotModelOrder)
}
