package vb

import (
	"math"
	"slices"
	"testing"
)

// creeper is a model whose F keeps rising by ever smaller steps, F_t =
// −1/t after t E steps, like a VBEM run that has not converged; its only
// move changes nothing.
type creeper struct {
	t     int
	moves int
}

func (c *creeper) E() (Bound, error) {
	c.t++
	f := -1 / float64(c.t)
	return Bound{F: f, Terms: []Term{{Name: "F", Value: f}}}, nil
}
func (c *creeper) M() {}
func (c *creeper) Propose(log []MoveRecord) (Move, bool) {
	return Move{Kind: "noop", Component: -1, Other: -1}, len(log) < c.moves
}
func (c *creeper) Apply(Move) error { return nil }
func (c *creeper) Save() any        { return c.t }
func (c *creeper) Restore(x any)    { c.t = x.(int) }
func (c *creeper) Size() int        { return 1 }

// A move that changes nothing is accepted against the unmoved model's old
// F when the model is still creeping up, and rejected against a matched
// reference run; the rejected state is the reference run's.
func TestSearchMatchedReference(t *testing.T) {
	run := Settings{MaxIterations: 5, Converger: FixedIterations{}}
	plain := Search(&creeper{moves: 3}, SearchSettings{Run: run})
	for _, mv := range plain.Moves {
		if !mv.Accepted {
			t.Errorf("unmatched: no-op move %+v rejected; want the creep to be credited to it", mv)
		}
	}
	c := &creeper{moves: 3}
	res := Search(c, SearchSettings{Run: run, Matched: true})
	if len(res.Moves) != 3 {
		t.Fatalf("%d moves, want 3", len(res.Moves))
	}
	for i, mv := range res.Moves {
		if mv.Accepted {
			t.Errorf("matched: no-op move %d accepted (F %v against reference %v)", i, mv.FAfter, mv.FReference)
		}
		if mv.FAfter != mv.FReference || mv.RefIterations != 5 {
			t.Errorf("move %d: F after %v, reference %v after %d iterations; want equal after 5", i, mv.FAfter, mv.FReference, mv.RefIterations)
		}
	}
	// 5 first + 3 × (5 moved + 5 reference) E steps; the model keeps the
	// reference runs: t = 5 + 3×5.
	if res.Iterations != 35 || c.t != 20 {
		t.Errorf("iterations %d, model at t = %d; want 35 and 20", res.Iterations, c.t)
	}
	if want := -1.0 / 20; math.Abs(res.F-want) > 1e-15 {
		t.Errorf("F = %v, want the reference run's %v", res.F, want)
	}
}

// Under a budget the reference run gets at most what is left.
func TestSearchMatchedBudget(t *testing.T) {
	run := Settings{MaxIterations: 5, Converger: FixedIterations{}}
	res := Search(&creeper{moves: 10}, SearchSettings{Run: run, Matched: true, MaxTotalIterations: 12})
	if res.Iterations != 12 {
		t.Errorf("iterations %d, want the budget 12", res.Iterations)
	}
	last := res.Moves[len(res.Moves)-1]
	if last.RefIterations != 2 {
		t.Errorf("last reference run %d iterations, want the 2 left", last.RefIterations)
	}
}

// With the default run settings (no MaxIterations, no budget) the reference run
// takes as many iterations as the moved model's converged run.
func TestSearchMatchedDefaults(t *testing.T) {
	res := Search(&creeper{moves: 2}, SearchSettings{Matched: true})
	for i, mv := range res.Moves {
		if mv.Accepted || mv.RefIterations != res.Runs[i+1].Iterations || mv.RefIterations == 0 {
			t.Errorf("move %d: accepted %v, reference %d iterations, moved run %d", i, mv.Accepted, mv.RefIterations, res.Runs[i+1].Iterations)
		}
	}
}

func TestSearchMoveCounts(t *testing.T) {
	r := SearchResult{Moves: []MoveRecord{{Accepted: true}, {}, {}, {Accepted: true}, {}}}
	if a, rj := r.MoveCounts(); a != 2 || rj != 3 {
		t.Errorf("MoveCounts = %d, %d; want 2, 3", a, rj)
	}
}

// staged is a creeper with one hyperparameter group that logs, for every
// update, the iteration it follows counted from the start of its VBEM run
// (the Recorder's Iter + 1).
type staged struct {
	creeper
	last    int
	updates []int
}

func (s *staged) UpdateHyper(string)    { s.updates = append(s.updates, s.last+1) }
func (s *staged) HyperGroups() []string { return []string{"h"} }

// TestSearchScheduleRestartsEachEpoch: every VBEM run of a search (the
// first, each move's, each matched reference run) starts the schedule
// afresh, as SearchSettings.Run documents: with From = 3 and runs of 5
// iterations, every run updates after its own iterations 3 and 4 only.
func TestSearchScheduleRestartsEachEpoch(t *testing.T) {
	for _, matched := range []bool{false, true} {
		m := &staged{creeper: creeper{moves: 2}}
		run := Settings{MaxIterations: 5, Converger: FixedIterations{}, Hyper: []Stage{{Group: "h", From: 3}},
			Recorder: func(it Iteration) { m.last = it.Iter }}
		res := Search(m, SearchSettings{Run: run, Matched: matched})
		runs := 1 + len(res.Moves)
		if matched {
			runs += len(res.Moves) // a reference run per move
		}
		if len(res.Moves) != 2 || res.Iterations != 5*runs {
			t.Fatalf("matched %v: %d moves, %d iterations; want 2 and %d", matched, len(res.Moves), res.Iterations, 5*runs)
		}
		want := slices.Repeat([]int{3, 4}, runs)
		if !slices.Equal(m.updates, want) {
			t.Errorf("matched %v: updates after the runs' iterations %v, want %v", matched, m.updates, want)
		}
	}
}
