package chapter5

import (
	"slices"
	"testing"

	"github.com/vbworkbench/vbw/experiments/config"
)

// TestExtendedEnds: the readout of an extended run classifies every
// dimension by its final 1/α, 1/γ, dates its death as the later of the
// two crossings, finds where the relative stop would have ended the
// continuation, and names the end state.
func TestExtendedEnds(t *testing.T) {
	c := DefaultDimensionality()
	c.Data.Eigenvalues = []float64{0.5, 0.6} // k_true = 2
	c.Extended.CompareHyper = config.HyperSchedule{"alpha": 1, "gamma": 1, "noise": 1, "x0": 1}
	// F after every iteration: the [vb] phase (3 iterations), then a
	// continuation whose increments shrink below 1e-6·|F| at iteration 6.
	f := []float64{-1000, -900, -800, -790, -789, -788.9999, -788.9998, -788}
	run := DimRun{Seed: 3, T: 300, Cross: CrossIdentity, Iterations: 3, FitOutcome: FitOutcome{F: floats(f)},
		Ext: &DimExtended{Iterations: len(f),
			// alive; dynamics only; output only; dead; undecided (1/α between the thresholds).
			InvAlpha:   []float64{0.5, 0.5, 1e-7, 1e-7, 5e-3},
			InvGamma:   []float64{2, 1e-5, 3, 1e-7, 1},
			CrossAlpha: []int{-1, -1, 4, 2, -1},
			CrossGamma: []int{-1, 7, -1, 5, -1}}}
	cmp := run
	cmp.Compare = true
	cmp.Ext = &DimExtended{Iterations: len(f), InvAlpha: []float64{0.5, 0.4, 1e-7, 1e-7, 1e-7}, InvGamma: []float64{2, 1, 1e-7, 1e-7, 1e-7},
		CrossAlpha: []int{-1, -1, 1, 2, 3}, CrossGamma: []int{-1, -1, 6, 5, 4}}
	grid := DimRun{Seed: 3, T: 10} // no extended run
	ends := extendedEnds(&c, []DimRun{cmp, grid, run}, []string{"b", "g", "a"})
	if len(ends) != 2 || ends[0].cas != extVB || ends[1].cas != extCompare || ends[0].run != "a" {
		t.Fatalf("ends %+v: want the continued run, then the comparison run", ends)
	}
	e := ends[0]
	if want := []string{stateAlive, stateDynamics, stateOutput, stateExtinct, stateUndecided}; !slices.Equal(e.states, want) {
		t.Errorf("states %v, want %v", e.states, want)
	}
	if want := []int{-1, -1, -1, 5, -1}; !slices.Equal(e.death, want) {
		t.Errorf("deaths %v, want %v", e.death, want)
	}
	// ΔF at index 5 is 1e-4 < 1e-6·789: the rule stops after 6 iterations.
	if e.relStop != 6 || e.fRelStop != -788.9999 || e.fVB != -800 || e.fEnd != -788 {
		t.Errorf("relStop %d at F %v, F after [vb] %v, at the end %v; want 6, -788.9999, -800, -788", e.relStop, e.fRelStop, e.fVB, e.fEnd)
	}
	if e.end(2) != endLocalOptimum || e.end(1) != endLocalOptimum {
		t.Errorf("end state %q, want %q", e.end(2), endLocalOptimum)
	}
	if e.hyper != "alpha=10 gamma=20 noise=30 x0=30" || ends[1].hyper != "alpha=1 gamma=1 noise=1 x0=1" {
		t.Errorf("schedules %q, %q", e.hyper, ends[1].hyper)
	}
	b := ends[1]
	if b.end(2) != endTrue || b.end(3) == endTrue || !slices.Equal(b.deaths(), []int{4, 5, 6}) {
		t.Errorf("comparison run: end %q (k_true 2), %q (3), deaths %v; want the true structure, not, and [4 5 6]", b.end(2), b.end(3), b.deaths())
	}
	if c.Thresholds.dimState(0.5, 5e-3) != stateUndecided {
		t.Error("1/γ between the thresholds is not undecided")
	}
}
