package vb

import "math"

// Converger decides when a run has converged, in the manner of gonum's
// optimize.Converger. Run calls Init once before the first E step and
// Converged after every E step from the second on, with the objective and
// its change since the previous E step; its answer is obeyed once MinIterations E
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
//     geometrically, ΔF_{t+1} ≈ r·ΔF_t, and the remaining increase is
//     ΔF_t·r/(1−r) (see RemainingEstimate). The estimate is made
//     pessimistic in two ways, because VBEM's rate often slows as fast modes
//     die out and leave a slow one: r is the larger of the last two ratios
//     of successive changes, raised by SlowdownGain times their increase
//     when the latest ratio grew; and the test asks for both ΔF_t and the
//     remaining increase to be below Absolute/Safety. It never passes
//     while the changes grow (r ≥ 1). A change at the level of round-off,
//     |ΔF_t| ≤ 1e-12·max(1,|F_t|), always passes it, and so does a change
//     ≤ 0 (a decrease within MonotoneTol).
//
// The constants were chosen on 300 VB-HMM runs from random starts (k = 2 to
// 12, eight sequences of 30 symbols): continued to a fixed point, every run
// stopped by this rule with Absolute = 1e-3 was within 3e-4 nats of it,
// against 48 runs more than 1e-3 short (worst 0.018) with the plain
// estimate and a worst of 17 nats with the relative test alone. A run that
// sits on a plateau and leaves it hundreds of iterations later (one run in
// 300 there) cannot be told from a converged one by any rule that sees only
// the past.
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

// Constants of the absolute test of BoundConverge.
const (
	// Safety divides Absolute in the absolute test.
	Safety = 10
	// SlowdownGain extrapolates a growing ratio of successive changes.
	SlowdownGain = 10
)

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
	tol := c.Absolute / Safety
	if !(d < tol) || !(d1 > 0) || !(d2 > 0) {
		return false
	}
	return remaining(d, d1, d2) < tol
}

// remaining is the pessimistic estimate of the remaining increase from the
// last three changes d (latest), d1, d2, all positive.
func remaining(d, d1, d2 float64) float64 {
	r, r1 := d/d1, d1/d2
	rate := math.Max(r, r1)
	if r > r1 {
		rate += SlowdownGain * (r - r1)
	}
	if rate >= 1 {
		return math.Inf(1)
	}
	return d * rate / (1 - rate)
}

// RemainingEstimate returns BoundConverge's pessimistic estimate of how
// much F would still rise, from the last three changes of a trace; 0 if the
// last change is ≤ 0, +Inf if the changes do not shrink fast enough, NaN if
// fewer than three changes are given.
func RemainingEstimate(deltas []float64) float64 {
	n := len(deltas)
	if n < 3 {
		return math.NaN()
	}
	d, d1, d2 := deltas[n-1], deltas[n-2], deltas[n-3]
	if d <= 0 {
		return 0
	}
	if !(d1 > 0) || !(d2 > 0) {
		return math.Inf(1)
	}
	return remaining(d, d1, d2)
}

// FixedIterations never declares convergence, so a run performs exactly
// Settings.MaxIterations E steps (unless it fails). It is the mode for benchmarks
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
