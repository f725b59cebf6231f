package config

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/vbworkbench/vbw/core/vb"
)

// FitSettings holds the keys of one coordinate-ascent run (EM, MAP-EM or
// VBEM); the [ml], [map] and [vb] tables of every config embed it, so they
// take the same keys everywhere:
//
//	max_iterations = 2000   # the largest number of iterations (one E and one M step each)
//	min_iterations = 0      # the fewest before the stop rule may end the run (0: 2)
//	rel_tol        = 1e-6   # stop when ΔF < rel_tol·|F| ...
//	abs_tol        = 1e-3   # ... and F is within abs_tol nats of its limit
//	monotone_tol   = 1e-9   # a decrease beyond monotone_tol·max(1,|F|) is a bug
//	[vb.hyper]              # the hyperparameter schedule (HyperSchedule)
//	alpha = 10              # group = the first iteration after which it is updated; 0: never
//
// Both tests must pass (vb.BoundConverge): the relative test alone stops
// short on slowly converging runs, the absolute one estimates the remaining
// increase of F from the shrinking changes, so that a reported F is within
// abs_tol nats of the fixed point the run is heading for. A tolerance of 0
// switches its test off; with both 0 the run performs exactly
// max_iterations iterations (the fixed-budget mode for benchmarks).
//
// A decrease of the objective within one run beyond monotone_tol (relative
// to max(1,|F|)) stops it with status bound-decreased: EM, MAP-EM and VBEM
// never decrease their objective, so it is a bug (vb.Settings.MonotoneTol).
//
// The vocabulary of every config: an iteration is one pass of
// a coordinate-ascent algorithm (an E step and an M step: VBEM, EM, MAP-EM,
// K-means); a cap on iterations is max_<scope>iterations (max_iterations
// of one run, max_total_iterations of a whole search or continuation,
// max_final_iterations, max_kmeans_iterations), a floor
// min_<scope>iterations, and an iteration number <what>_iteration. The
// retired spellings (max_iter, sweeps, iters) are refused with the new
// name (see retiredKeys).
type FitSettings struct {
	MaxIterations int `toml:"max_iterations" range:"[2,1e8]"`
	// MinIterations is the fewest iterations before the stop rule may end
	// the run; 0 means 2 (vb.Settings.MinIterations).
	MinIterations int     `toml:"min_iterations" range:"[0,1e8]"`
	RelTol        float64 `toml:"rel_tol" range:"[0,1)"`
	AbsTol        float64 `toml:"abs_tol" range:"[0,1e6]"`
	MonotoneTol   float64 `toml:"monotone_tol" range:"(0,1)"`
	// Hyper is the hyperparameter schedule of the run ([vb.hyper]); nil
	// (absent) for a model without hyperparameters.
	Hyper HyperSchedule `toml:"hyper" range:"[0,1e8]"`
}

// DefaultFit returns max_iterations, rel_tol = 1e-6, abs_tol = 1e-3 nats
// and monotone_tol = 1e-9, without hyperparameter updates.
func DefaultFit(maxIterations int) FitSettings {
	return FitSettings{MaxIterations: maxIterations, RelTol: 1e-6, AbsTol: 1e-3, MonotoneTol: 1e-9}
}

// FixedBudget returns the settings of a run of exactly n iterations (both
// tolerances 0) with the default monotone_tol: the run of a fixed budget
// that an experiment compares methods at, such as iterations against
// counted operations.
func FixedBudget(n int) FitSettings { return FitSettings{MaxIterations: n, MonotoneTol: 1e-9} }

// Validate checks the settings; prefix is their table, e.g. "vb", and
// groups are the hyperparameter groups of the model the table runs (nil
// for a model without any: then [prefix.hyper] must be empty).
func (r FitSettings) Validate(prefix string, groups []string) error {
	if r.MinIterations > r.MaxIterations {
		return FieldError(prefix+".min_iterations", r.MinIterations, fmt.Sprintf("must be at most max_iterations (%d)", r.MaxIterations))
	}
	return r.Hyper.Validate(prefix+".hyper", groups)
}

// Settings returns the driver settings with the cancellation poll stop,
// for the model m (its hyperparameter groups order the schedule's
// updates). It holds the only vb.Settings literal of the experiments.
func (r FitSettings) Settings(stop func() error, m vb.Model) vb.Settings {
	var order []string
	if h, ok := m.(vb.HyperUpdater); ok {
		order = h.HyperGroups()
	}
	s := vb.Settings{MaxIterations: r.MaxIterations, MinIterations: r.MinIterations, MonotoneTol: r.MonotoneTol, Stop: stop, Hyper: r.Hyper.Stages(order)}
	switch {
	case r.RelTol == 0 && r.AbsTol == 0:
		s.Converger = vb.FixedIterations{}
	default:
		s.Converger = &vb.BoundConverge{Relative: r.RelTol, Absolute: r.AbsTol}
	}
	return s
}

// HyperSchedule is a [<run>.hyper] table: when each group of a model's
// hyperparameters starts to be optimised by maximising F (Beal 2003 eq.
// 2.79), as group = first iteration. The group is updated after the M step
// of that iteration and of every one after it (vb.Stage{From, Every: 1});
// 0 keeps it at its initial value throughout. Iterations count from the
// start of the run (vb.Continue keeps counting; each epoch of a search
// starts afresh, vb.SearchSettings.Run). The schedules of the thesis:
//
//	[vb.hyper]   # chapter 5's VB LDS, staged ("hypit = [10, 20, 30]", section 5.4.2)
//	alpha = 10   # α (columns of A) and β (of B, with inputs)
//	beta  = 10
//	gamma = 20   # γ (columns of C) and δ (of D, with inputs)
//	delta = 20
//	noise = 30   # a, b of the noise precisions' prior
//	x0    = 30   # μ₀, Σ₀ of the initial state's prior
//
//	[vb.hyper]   # chapter 4's VBMFA (the reference code's)
//	psi   = 1    # Ψ and μ*, ν* at every iteration
//	mu_nu = 1
//	ab    = 0    # a*, b* and α* fixed (section 4.2.5's optional updates)
//	alpha = 0
//
//	[vb.hyper]   # chapter 3's VB HMM: the prior strengths fixed (L2083)
//	u_pi = 0
//	u_A  = 0
//	u_C  = 0
//
// Groups absent from the table are never updated; a table given in a
// config is merged key by key into the experiment's default.
type HyperSchedule map[string]int

// Validate checks that every group is one of the model's groups (none if
// groups is empty) and every first iteration is ≥ 0; key is the table,
// e.g. "vb.hyper".
func (h HyperSchedule) Validate(key string, groups []string) error {
	for _, g := range h.groups() {
		if !slices.Contains(groups, g) {
			if len(groups) == 0 {
				return FieldError(key+"."+g, h[g], "this run's model has no hyperparameters to schedule")
			}
			return FieldError(key+"."+g, h[g], fmt.Sprintf("unknown group (the model's groups are %s)", quoteList(groups)))
		}
	}
	return nil
}

// Stages returns the schedule as vb.Stage values: the groups with a first
// iteration > 0 in the order of order (the model's HyperGroups, the order
// of their updates within an iteration), then any other group of h in
// name order (vb.Run refuses a group its model does not have).
func (h HyperSchedule) Stages(order []string) []vb.Stage {
	var s []vb.Stage
	for _, g := range order {
		if from := h[g]; from > 0 {
			s = append(s, vb.Stage{Group: g, From: from, Every: 1})
		}
	}
	for _, g := range h.groups() {
		if from := h[g]; from > 0 && !slices.Contains(order, g) {
			s = append(s, vb.Stage{Group: g, From: from, Every: 1})
		}
	}
	return s
}

// Fixed reports whether no group is ever updated.
func (h HyperSchedule) Fixed() bool {
	for _, from := range h {
		if from > 0 {
			return false
		}
	}
	return true
}

// ScheduleOf returns the schedule of the stages: each group at its first
// iteration. Every stage must update at every iteration from then on
// (Every ≤ 1); the groups not among the stages are set to 0.
func ScheduleOf(groups []string, stages []vb.Stage) HyperSchedule {
	h := make(HyperSchedule, len(groups))
	for _, g := range groups {
		h[g] = 0
	}
	for _, st := range stages {
		if st.Every > 1 {
			panic(fmt.Sprintf("experiments: ScheduleOf: stage %+v updates every %d iterations; [vb.hyper] has no key for a period", st, st.Every))
		}
		h[st.Group] = max(st.From, 1)
	}
	return h
}

// groups returns the groups of h in name order.
func (h HyperSchedule) groups() []string {
	g := make([]string, 0, len(h))
	for k := range h {
		g = append(g, k)
	}
	sort.Strings(g)
	return g
}

// quoteList writes names as `"a", "b" or "c"`.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
