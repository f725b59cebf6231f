package vbgmm

import (
	"math"
	"testing"
)

// TestCrossWindow: the zoom of dsouza_fig3_2 runs from a grid step before
// the first crossover to one after the last (the crossovers of the full
// run: F 2.08, F + ln 2 2.03, AIS 1.76, IS 1.86 on a grid of step 0.25),
// and is the whole grid when nothing crosses.
func TestCrossWindow(t *testing.T) {
	var sep []float64
	for i := range 25 {
		sep = append(sep, 0.25*float64(i))
	}
	nan := math.NaN()
	lo, hi := crossWindow(sep, []float64{nan, 2.08, 2.03, 1.76, 1.86})
	if sep[lo] != 1.5 || sep[hi] != 2.5 {
		t.Errorf("window [%v, %v], want [1.5, 2.5]", sep[lo], sep[hi])
	}
	if lo, hi := crossWindow(sep, []float64{nan, 0.1}); lo != 0 || hi != 2 {
		t.Errorf("crossing in the first step: window [%d, %d], want [0, 2]", lo, hi)
	}
	if lo, hi := crossWindow(sep, []float64{nan, nan}); lo != 0 || hi != len(sep)-1 {
		t.Errorf("no crossover: window [%d, %d], want the grid", lo, hi)
	}
}
