package vb

import "math"

// Converger decides when a run has converged, in the manner of gonum's
// optimize.Converger. Run calls Init once before the first E step and
// Converged after every E step from the second on, with the objective and
// its change since the previous E step; its answer is obeyed once MinIter E
// steps have run. A Converger may keep state between calls; Init resets it.
// Run copies a *BoundConverge, so one value may serve concurrent runs; a
// caller's own stateful Converger must not be shared between them.
type Converger interface {
	Init()
	Converged(it int, f, delta float64) bool
}

// BoundConverge is the default stop rule. It declares convergence when
// every enabled test passes:
//
//   - relative (Relative > 0): ΔF_t < Relative·|F_t|;
//   - absolute (Absolute > 0): F is within Absolute nats of the value the
//     run is converging to. Under linear convergence the changes shrink
//     geometrically, ΔF_{t+1} ≈ r·ΔF_t, so the remaining increase is about
//     ΔF_t·r/(1−r). The test estimates r as the larger of the last two
//     ratios of successive changes and passes when ΔF_t < Absolute and
//     ΔF_t·r/(1−r) < Absolute (never while the changes grow, r ≥ 1). A
//     change at the level of round-off, |ΔF_t| ≤ 1e-12·max(1,|F_t|), always
//     passes it, and so does a change ≤ 0 (a decrease within MonotoneTol).
//
// The relative test alone, the driver's old rule, stops early on problems
// whose F converges slowly: with Relative = 1e-6 and |F| = 300 it accepts
// any step below 3e-4 nats, however many such steps are still to come. The
// absolute test is what makes a reported F comparable across models and
// programs to a stated number of nats. A field ≤ 0 disables its test; with
// both disabled the rule never declares convergence (see FixedIterations).
type BoundConverge struct {
	Relative float64
	Absolute float64

	d1, d2 float64 // the previous two changes (NaN when unknown)
}

// Init forgets the previous changes.
func (c *BoundConverge) Init() { c.d1, c.d2 = math.NaN(), math.NaN() }

// Converged applies the tests above to the change delta of F at f.
func (c *BoundConverge) Converged(_ int, f, delta float64) bool {
	d1, d2 := c.d1, c.d2
	c.d2, c.d1 = d1, delta
	if c.Relative <= 0 && c.Absolute <= 0 {
		return false
	}
	if c.Relative > 0 && !(delta < c.Relative*math.Abs(f)) {
		return false
	}
	if c.Absolute > 0 && !c.absolute(f, delta, d1, d2) {
		return false
	}
	return true
}

// absolute is the absolute test of BoundConverge.
func (c *BoundConverge) absolute(f, d, d1, d2 float64) bool {
	if d <= 0 || d <= 1e-12*math.Max(1, math.Abs(f)) {
		return true
	}
	if !(d < c.Absolute) || !(d1 > 0) {
		return false
	}
	r := d / d1
	if d2 > 0 {
		r = math.Max(r, d1/d2)
	}
	if r >= 1 {
		return false
	}
	return d*r/(1-r) < c.Absolute
}

// RemainingEstimate returns BoundConverge's estimate of how much F would
// still rise, ΔF_t·r/(1−r) from the last three changes of a trace (see
// BoundConverge); +Inf if the changes do not shrink, NaN if the trace is
// too short.
func RemainingEstimate(deltas []float64) float64 {
	n := len(deltas)
	if n < 2 {
		return math.NaN()
	}
	d, d1 := deltas[n-1], deltas[n-2]
	if d <= 0 {
		return 0
	}
	if !(d1 > 0) {
		return math.Inf(1)
	}
	r := d / d1
	if n >= 3 && deltas[n-3] > 0 {
		r = math.Max(r, d1/deltas[n-3])
	}
	if r >= 1 {
		return math.Inf(1)
	}
	return d * r / (1 - r)
}

// FixedIterations never declares convergence, so a run performs exactly
// Settings.MaxIter E steps (unless it fails). It is the mode for benchmarks
// and for comparisons at a fixed budget.
type FixedIterations struct{}

// Init does nothing.
func (FixedIterations) Init() {}

// Converged returns false.
func (FixedIterations) Converged(int, float64, float64) bool { return false }

var (
	_ Converger = (*BoundConverge)(nil)
	_ Converger = FixedIterations{}
)
