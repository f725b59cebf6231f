package vbtest

import (
	"math"
	"testing"
)

// CheckMonotone reports, through t.Errorf, every iteration i ≥ 1 of trace at
// which the objective decreased by more than the tolerance,
//
//	F_i < F_{i−1} − relTol·max(1, |F_i|),
//
// with the iteration and the size of the decrease. This is the test form of
// the run-time check of vb.Run (Settings.MonotoneTol): VBEM, EM and
// hyperparameter optimisation are coordinate ascent, so a recorded F can
// never go down (Beal (2003) Theorem 2.1, Fig. 2.3, eq. (2.79)). A NaN
// anywhere is also reported, as is a fall from a finite value to −Inf (for
// which relTol·|F_i| would be infinite); −Inf at iteration 0 is allowed,
// as vb.Run allows it.
func CheckMonotone(t testing.TB, trace []float64, relTol float64) {
	t.Helper()
	for i, f := range trace {
		if math.IsNaN(f) {
			t.Errorf("vbtest: objective is NaN at iteration %d", i)
			continue
		}
		if i == 0 {
			continue
		}
		prev := trace[i-1]
		if math.IsNaN(prev) {
			continue
		}
		if math.IsInf(f, -1) && !math.IsInf(prev, -1) {
			t.Errorf("vbtest: objective fell from %.17g to −Inf at iteration %d", prev, i)
			continue
		}
		if f < prev-relTol*math.Max(1, math.Abs(f)) {
			t.Errorf("vbtest: objective decreased at iteration %d by %.3g (from %.17g to %.17g; tolerance %.3g)",
				i, prev-f, prev, f, relTol*math.Max(1, math.Abs(f)))
		}
	}
}

// FDGradient returns the central-difference gradient of f at x,
//
//	g_i = (f(x + h e_i) − f(x − h e_i)) / 2h,
//
// whose error is O(h²) for smooth f (gonum's fd.Gradient with the central
// formula). The step h is absolute; choose it relative to the scale of x.
// f is called on a copy of x, so x is never modified. FDGradient panics
// unless h > 0.
func FDGradient(f func([]float64) float64, x []float64, h float64) []float64 {
	if !(h > 0) {
		panic("vbtest: finite-difference step not positive")
	}
	g := make([]float64, len(x))
	x = append([]float64(nil), x...)
	for i, xi := range x {
		x[i] = xi + h
		fp := f(x)
		x[i] = xi - h
		fm := f(x)
		x[i] = xi
		g[i] = (fp - fm) / (2 * h)
	}
	return g
}
