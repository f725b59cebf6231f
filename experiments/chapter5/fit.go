package chapter5

import (
	"fmt"
	"math"
	"slices"

	"github.com/vbworkbench/vbw/core/model/lds"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// MonotoneCheckTol is the tolerance of the "F never decreases" criteria:
// F_i ≥ F_{i−1} − 1e-8·|F_{i−1}| (targets §3.1 criterion 5, §3.4 (i)). The
// runs themselves stop at the stricter [vb] monotone_tol.
const MonotoneCheckTol = 1e-8

// Values of the cross_init keys (lds.CrossInit; targets §1.10, §4 #7).
const (
	CrossIdentity = "identity"
	CrossZero     = "zero"
)

// crossInit maps a cross_init key to the model's setting.
func crossInit(s string) lds.CrossInit {
	if s == CrossZero {
		return lds.CrossZero
	}
	return lds.CrossIdentity
}

// checkCrossInit validates a cross_init key.
func checkCrossInit(key, s string) error {
	if s != CrossIdentity && s != CrossZero {
		return config.FieldError(key, s, `must be "identity" or "zero"`)
	}
	return nil
}

// LDSModel are the [model] keys of the experiments that fit a VB LDS of
// one hidden dimension (chapter5/dimensionality, chapter5/inputs).
type LDSModel struct {
	// K is the hidden dimension of the model, 1 to 10⁴ (the smoother
	// holds k×k matrices at every time step).
	K int `toml:"k" range:"[1,1e4]"`
	// CrossInit is the initial Υ_{t−1,t}: "identity" (the toolbox's,
	// default) or "zero" (targets §4 #7).
	CrossInit string `toml:"cross_init"`
}

func (m LDSModel) validate() error { return checkCrossInit("model.cross_init", m.CrossInit) }

// settings returns the model's lds.Settings with the initial Υ_{t−1,t}
// of cross (a cross_init value: the configured one, or the other for a
// comparison run).
func (m LDSModel) settings(cross string) lds.Settings {
	return lds.Settings{K: m.K, CrossInit: crossInit(cross)}
}

// ARDSettings are the keys of the experiments that fit a VB LDS to each
// sequence and read the hidden dimensions it keeps off its ARD
// hyperparameters (chapter5/dimensionality with M = DimModel,
// chapter5/inputs with M = LDSModel): the [model], its VBEM run ([vb])
// and the [thresholds] of the readout.
type ARDSettings[M any] struct {
	Model      M                  `toml:"model"`
	VB         config.FitSettings `toml:"vb"`
	Thresholds Thresholds         `toml:"thresholds"`
}

// defaultARD returns the thesis's settings for model: maxIterations of
// VBEM with the staged schedule (ldsFit; inputs says whether the model has
// inputs) and the default thresholds.
func defaultARD[M any](model M, maxIterations int, inputs bool) ARDSettings[M] {
	return ARDSettings[M]{Model: model, VB: ldsFit(maxIterations, lds.Variational, inputs), Thresholds: DefaultThresholds()}
}

// FitOutcome is how the fit of a cell ended, as every chapter 5 cell
// records it: the run's status and, if it ended abnormally, the error;
// the bound F after every E step; the wall time of the cell.
type FitOutcome struct {
	Status  string
	Error   string `json:",omitempty"`
	F       []experiments.Float
	Seconds float64
}

func (o FitOutcome) outcome() FitOutcome { return o }

// end records the end of the run res.
func (o *FitOutcome) end(res vb.Result) {
	o.Status = res.Status.String()
	if err := res.Error(); err != nil {
		o.Error = err.Error()
	}
	o.F = floats(res.Trace.F)
}

// runFits computes the named cells (experiments.RunCellsOrdered, cost as
// there) and records each in the manifest, warning of a fit that ended
// abnormally; in a shard it returns no runs.
func runFits[T interface{ outcome() FitOutcome }](env *experiments.Env, names []string, cost []float64, run func(i int) (T, error)) ([]T, error) {
	runs, complete, err := experiments.RunAllCells(env, names, cost, run)
	if err != nil || !complete {
		return nil, err
	}
	for i, r := range runs {
		o := r.outcome()
		env.AddRun(results.RunRecord{Name: names[i], Status: o.Status, WallSeconds: o.Seconds, Iterations: len(o.F)})
		if o.Error != "" {
			env.Warnf("run %s: %s", names[i], o.Error)
		}
	}
	return runs, nil
}

// HyperTrace holds the reciprocal ARD hyperparameters (prior variances)
// 1/α_j, 1/β_c, 1/γ_j, 1/δ_c recorded at every E step: entry i holds the
// values that E step used, which are those after the updates of i
// iterations (entry 0 the initial values, all 1 by default; Figure 5.5's
// "iteration 0"). β and δ are empty without inputs.
type HyperTrace struct {
	Alpha, Beta, Gamma, Delta [][]float64
}

// record appends the model's current hyperparameters.
func (h *HyperTrace) record(m *lds.VB) {
	inv := func(xs []float64) []float64 {
		out := make([]float64, len(xs))
		for i, x := range xs {
			out[i] = 1 / x
		}
		return out
	}
	h.Alpha = append(h.Alpha, inv(m.Hyper.Alpha))
	h.Beta = append(h.Beta, inv(m.Hyper.Beta))
	h.Gamma = append(h.Gamma, inv(m.Hyper.Gamma))
	h.Delta = append(h.Delta, inv(m.Hyper.Delta))
}

// Len returns the number of records.
func (h *HyperTrace) Len() int { return len(h.Alpha) }

// firstBelow returns, for each component of a recorded group, the first
// record index at which the reciprocal falls below thr, or −1.
func firstBelow(tr [][]float64, thr float64) []int {
	if len(tr) == 0 {
		return nil
	}
	out := make([]int, len(tr[0]))
	for j := range out {
		out[j] = -1
		for i, v := range tr {
			if v[j] < thr {
				out[j] = i
				break
			}
		}
	}
	return out
}

// ldsFit returns the [vb] (or [map]) settings of a VB LDS (mode lds.Variational)
// or MAP LDS with or without inputs: maxIterations iterations exactly
// (the thesis's runs have no stop rule) and the staged hyperparameter
// schedule of section 5.4.2, lds.StagedSchedule ("hypit = [10, 20, 30]").
func ldsFit(maxIterations int, mode lds.Mode, inputs bool) config.FitSettings {
	groups := lds.HyperGroupsOf(mode, inputs)
	return config.FitSettings{MaxIterations: maxIterations, MonotoneTol: 1e-9,
		Hyper: config.ScheduleOf(groups, lds.StagedSchedule(groups))}
}

// extendConverger stops a continuation when ΔF < rel·|F| (targets §3.1
// criterion 3: "continuing to 3000 iterations or until ΔF < 1e−6·|F|").
type extendConverger struct{ rel float64 }

func (extendConverger) Init() {}

func (c extendConverger) Converged(_ int, f, delta float64) bool {
	return c.rel > 0 && delta < c.rel*math.Abs(f)
}

// phases runs the model for the settings first, calls snap, and then, if
// total > first's iterations, continues the same run (vb.Continue: the
// schedule and the iterations count on) up to total iterations in all or
// until ΔF < rel·|F|. onE is called after every E step of both phases. It
// returns both results; the second, which holds the whole run, is zero
// when there is no continuation. The bound trace of the whole run is f.
func phases(m *lds.VB, first vb.Settings, total int, rel float64, onE func(), snap func()) (r1, r2 vb.Result, f []float64, extended bool) {
	rec := first.Recorder
	first.Recorder = func(it vb.Iteration) {
		if rec != nil {
			rec(it)
		}
		onE()
	}
	r1 = vb.Run(m, first)
	snap()
	if total <= r1.Iterations || !r1.Status.OK() {
		return r1, r2, slices.Clone(r1.Trace.F), false
	}
	second := first
	second.MaxIterations = total
	second.Converger = extendConverger{rel: rel}
	r2 = vb.Continue(m, r1, second)
	return r1, r2, slices.Clone(r2.Trace.F), true
}

// status returns the status of a run of one or two phases, and an error
// text if it ended abnormally.
func status(r1, r2 vb.Result, extended bool) (string, string) {
	r := r1
	if extended {
		r = r2
	}
	if err := r1.Error(); err != nil {
		return r1.Status.String(), err.Error()
	}
	if err := r.Error(); err != nil {
		return r.Status.String(), err.Error()
	}
	return r.Status.String(), ""
}

// floats converts to the JSON-safe float type of the cells.
func floats(xs []float64) []experiments.Float { return experiments.Floats(xs) }

// unitName names a seed as a unit of the per-seed checks.
func unitName(seed int) string { return fmt.Sprintf("s%d", seed) }
