package experiments

import (
	"math"

	"github.com/vbworkbench/vbw/core/vb"
)

// FitSettings holds the keys of one coordinate-ascent run (EM, MAP-EM or
// VBEM); the [ml], [map] and [vb] tables of every config embed it, so they
// take the same keys everywhere:
//
//	max_iter     = 2000   # the largest number of iterations (E steps)
//	rel_tol      = 1e-6   # stop when ΔF < rel_tol·|F| ...
//	abs_tol      = 1e-3   # ... and F is within abs_tol nats of its limit
//	monotone_tol = 1e-9   # a decrease beyond monotone_tol·max(1,|F|) is a bug
//
// Both tests must pass (vb.BoundConverge): the relative test alone stops
// short on slowly converging runs, the absolute one estimates the remaining
// increase of F from the shrinking changes, so that a reported F is within
// abs_tol nats of the fixed point the run is heading for. A tolerance of 0
// switches its test off; with both 0 the run performs exactly max_iter
// iterations (the fixed-budget mode for benchmarks).
//
// A decrease of the objective within one run beyond monotone_tol (relative
// to max(1,|F|)) stops it with status bound-decreased: EM, MAP-EM and VBEM
// never decrease their objective, so it is a bug (vb.Settings.MonotoneTol).
type FitSettings struct {
	MaxIterations int     `toml:"max_iter"`
	RelTol        float64 `toml:"rel_tol"`
	AbsTol        float64 `toml:"abs_tol"`
	MonotoneTol   float64 `toml:"monotone_tol"`
}

// DefaultFit returns max_iter, rel_tol = 1e-6, abs_tol = 1e-3 nats and
// monotone_tol = 1e-9.
func DefaultFit(maxIter int) FitSettings {
	return FitSettings{MaxIterations: maxIter, RelTol: 1e-6, AbsTol: 1e-3, MonotoneTol: 1e-9}
}

// Validate checks the settings; prefix is their table, e.g. "vb".
func (r FitSettings) Validate(prefix string) error {
	if r.MaxIterations < 2 {
		return FieldError(prefix+".max_iter", r.MaxIterations, "must be at least 2")
	}
	if !(r.RelTol >= 0) || math.IsInf(r.RelTol, 0) {
		return FieldError(prefix+".rel_tol", r.RelTol, "must be finite and ≥ 0 (0 switches the relative test off)")
	}
	if !(r.AbsTol >= 0) || math.IsInf(r.AbsTol, 0) {
		return FieldError(prefix+".abs_tol", r.AbsTol, "must be finite and ≥ 0 nats (0 switches the absolute test off)")
	}
	return Positive(prefix+".monotone_tol", r.MonotoneTol)
}

// Settings returns the driver settings with the cancellation poll stop and
// the hyperparameter schedule hyper (nil for none). It holds the only
// vb.Settings literal of the experiments.
func (r FitSettings) Settings(stop func() error, hyper []vb.Stage) vb.Settings {
	s := vb.Settings{MaxIterations: r.MaxIterations, MonotoneTol: r.MonotoneTol, Stop: stop, Hyper: hyper}
	switch {
	case r.RelTol == 0 && r.AbsTol == 0:
		s.Converger = vb.FixedIterations{}
	default:
		s.Converger = &vb.BoundConverge{Relative: r.RelTol, Absolute: r.AbsTol}
	}
	return s
}
