package chapter5

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/model/lds"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
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
		return experiments.FieldError(key, s, `must be "identity" or "zero"`)
	}
	return nil
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
func (h *HyperTrace) record(m *lds.Model) {
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

// afterIters returns the stages of sched as they continue after n
// iterations have run (a stage that began at From > n now begins at
// From − n).
func afterIters(sched []vb.Stage, n int) []vb.Stage {
	out := make([]vb.Stage, len(sched))
	for i, s := range sched {
		from, every := max(s.From, 1), max(s.Every, 1)
		if from > n {
			s.From = from - n
		} else {
			// The next due iteration after n, counted from the restart.
			s.From = every - (n-from)%every
		}
		out[i] = s
	}
	return out
}

// extendConverger stops a continuation when ΔF < rel·|F| (targets §3.1
// criterion 3: "continuing to 3000 iterations or until ΔF < 1e−6·|F|").
type extendConverger struct{ rel float64 }

func (extendConverger) Init() {}

func (c extendConverger) Converged(_ int, f, delta float64) bool {
	return c.rel > 0 && delta < c.rel*math.Abs(f)
}

// phases runs the model for the settings first, calls snap, and then, if
// total > first's iterations, continues the same run (the schedule shifted
// by the iterations done) up to total iterations in all or until ΔF <
// rel·|F|. onE is called after every E step of both phases except the
// continuation's first, which repeats the last E step of the first phase
// (same q(θ), same F). It returns both results; the second is zero when
// there is no continuation. The bound traces are joined in f.
func phases(m *lds.Model, first vb.Settings, total int, rel float64, onE func(), snap func()) (r1, r2 vb.Result, f []float64, extended bool) {
	rec := first.Recorder
	first.Recorder = func(it vb.Iteration) {
		if rec != nil {
			rec(it)
		}
		onE()
	}
	r1 = vb.Run(m, first)
	snap()
	f = append(f, r1.Trace.F...)
	if total <= r1.Iterations || !r1.Status.OK() {
		return r1, r2, f, false
	}
	second := first
	second.MaxIterations = total - r1.Iterations + 1
	second.Hyper = afterIters(first.Hyper, r1.Iterations-1)
	second.Converger = extendConverger{rel: rel}
	second.Recorder = func(it vb.Iteration) {
		if it.Iter > 0 {
			onE()
		}
	}
	r2 = vb.Run(m, second)
	if len(r2.Trace.F) > 1 {
		f = append(f, r2.Trace.F[1:]...)
	}
	return r1, r2, f, true
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
