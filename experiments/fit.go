package experiments

import (
	"math"

	"github.com/vbworkbench/vbw/core/vb"
)

// StopRule holds the keys that end one coordinate-ascent run (EM, MAP-EM or
// VBEM); the [ml], [map] and [vb] tables of every config embed it:
//
//	max_iter = 2000   # the largest number of iterations (E steps)
//	rel_tol  = 1e-6   # stop when ΔF < rel_tol·|F| ...
//	abs_tol  = 1e-3   # ... and F is within abs_tol nats of its limit
//
// Both tests must pass (vb.BoundConverge): the relative test alone stops
// short on slowly converging runs, the absolute one estimates the remaining
// increase of F from the shrinking changes, so that a reported F is within
// abs_tol nats of the fixed point the run is heading for. A tolerance of 0
// switches its test off; with both 0 the run performs exactly max_iter
// iterations (the fixed-budget mode for benchmarks).
type StopRule struct {
	MaxIter int     `toml:"max_iter"`
	RelTol  float64 `toml:"rel_tol"`
	AbsTol  float64 `toml:"abs_tol"`
}

// DefaultStopRule returns max_iter, rel_tol = 1e-6 and abs_tol = 1e-3 nats.
func DefaultStopRule(maxIter int) StopRule {
	return StopRule{MaxIter: maxIter, RelTol: 1e-6, AbsTol: 1e-3}
}

// Validate checks the rule; prefix is its table, e.g. "vb".
func (r StopRule) Validate(prefix string) error {
	if r.MaxIter < 2 {
		return FieldError(prefix+".max_iter", r.MaxIter, "must be at least 2")
	}
	if !(r.RelTol >= 0) || math.IsInf(r.RelTol, 0) {
		return FieldError(prefix+".rel_tol", r.RelTol, "must be finite and ≥ 0 (0 switches the relative test off)")
	}
	if !(r.AbsTol >= 0) || math.IsInf(r.AbsTol, 0) {
		return FieldError(prefix+".abs_tol", r.AbsTol, "must be finite and ≥ 0 nats (0 switches the absolute test off)")
	}
	return nil
}

// Settings returns the driver settings of the rule with the given monotone
// tolerance (relative to max(1,|F|)) and cancellation poll.
func (r StopRule) Settings(monotoneTol float64, stop func() error) vb.Settings {
	s := vb.Settings{MaxIter: r.MaxIter, MonotoneTol: monotoneTol, Stop: stop}
	switch {
	case r.RelTol == 0 && r.AbsTol == 0:
		s.Converger = vb.FixedIterations{}
	default:
		s.Converger = &vb.BoundConverge{Relative: r.RelTol, Absolute: r.AbsTol}
	}
	return s
}
