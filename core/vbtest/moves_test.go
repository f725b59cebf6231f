package vbtest_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// checkSearch checks the invariants of a search: every VBEM run ends
// normally (F never decreases inside a run), accepted moves raise F,
// rejected ones leave it, the log is consistent with the runs, and sizes
// follow the moves.
func checkSearch(t *testing.T, res vb.SearchResult, k0 int) {
	t.Helper()
	if !res.Status.OK() {
		t.Fatalf("search ended with %v: %v", res.Status, res.Err)
	}
	if len(res.Runs) != len(res.Moves)+1 {
		t.Fatalf("%d runs for %d moves", len(res.Runs), len(res.Moves))
	}
	f, size, iters := res.Runs[0].F, k0, res.Runs[0].Iterations
	for i, mv := range res.Moves {
		r := res.Runs[i+1]
		if !r.Status.OK() {
			t.Fatalf("move %d (%v): VBEM run ended with %v", i, mv.Move, r.Status)
		}
		vbtest.CheckMonotone(t, r.Trace.F, 1e-9)
		if mv.FBefore != f || mv.FAfter != r.F || mv.Iter != iters {
			t.Fatalf("move %d (%v): logged F %v → %v at iteration %d, runs say %v → %v at %d", i, mv.Move, mv.FBefore, mv.FAfter, mv.Iter, f, r.F, iters)
		}
		iters += r.Iterations
		switch {
		case mv.Accepted && !(mv.FAfter > mv.FBefore):
			t.Fatalf("move %d (%v) accepted with F %v → %v", i, mv.Move, mv.FBefore, mv.FAfter)
		case !mv.Accepted && mv.FAfter > mv.FBefore:
			t.Fatalf("move %d (%v) rejected with F %v → %v", i, mv.Move, mv.FBefore, mv.FAfter)
		}
		if mv.Accepted {
			f = mv.FAfter
			if mv.Kind == vbtest.MoveBirth {
				size++
			} else {
				size--
			}
		}
		if mv.SizeAfter != size {
			t.Fatalf("move %d (%v): size after %d, want %d", i, mv.Move, mv.SizeAfter, size)
		}
	}
	if res.F != f || res.Iterations != iters {
		t.Fatalf("result F %v after %d iterations, log says %v after %d", res.F, res.Iterations, f, iters)
	}
}

// TestBirthDeathMoveSearch: on three well-separated clusters, a search
// started with one component grows by accepted births, one started with
// eight shrinks by accepted deaths; both end at three components, with F
// never decreasing inside a VBEM run and rejected moves undone.
func TestBirthDeathMoveSearch(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 2))
	x := vbtest.MixtureData(rnd, 300, []float64{1, 1, 1}, []float64{-6, 0, 6}, []float64{1, 1, 1})
	prior := vbtest.MixturePrior{Alpha0: 1, M0: 0, Beta0: 0.05, A0: 1.5, B0: 1}
	for _, k0 := range []int{1, 8} {
		m := vbtest.NewGaussianMixture(x, k0, prior, rand.New(rand.NewPCG(5, uint64(k0))))
		res := vb.Search(m, vb.SearchSettings{Run: vb.Settings{MaxIterations: 5000, RelTol: 1e-10}})
		checkSearch(t, res, k0)
		if m.Size() != 3 {
			t.Errorf("k0 = %d: search ended with %d components, want 3", k0, m.Size())
		}
		acc, rej := map[string]int{}, 0
		for _, mv := range res.Moves {
			if mv.Accepted {
				acc[mv.Kind]++
			} else {
				rej++
			}
		}
		want := vbtest.MoveBirth
		if k0 > 3 {
			want = vbtest.MoveDeath
		}
		if acc[want] == 0 || rej == 0 {
			t.Errorf("k0 = %d: accepted %v, rejected %d; want accepted %ss and some rejections", k0, acc, rej, want)
		}
		// The model is left in its last accepted state: one more E step
		// gives the reported F.
		if b, _ := m.E(); math.Abs(b.F-res.F) > 1e-9*math.Abs(res.F) {
			t.Errorf("k0 = %d: model left with F %v, search reports %v", k0, b.F, res.F)
		}
	}
}

// TestMoveErrorIsRejection: a move that cannot be applied is logged with
// its error and undone, and the search goes on.
func TestMoveErrorIsRejection(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 3))
	x := vbtest.MixtureData(rnd, 100, []float64{1}, []float64{0}, []float64{1})
	m := &badMover{GaussianMixture: vbtest.NewGaussianMixture(x, 1, vbtest.MixturePrior{Alpha0: 1, Beta0: 0.05, A0: 1.5, B0: 1}, rnd)}
	res := vb.Search(m, vb.SearchSettings{Run: vb.Settings{MaxIterations: 500}})
	if len(res.Moves) == 0 || res.Moves[0].Err == nil || res.Moves[0].Accepted || m.Size() != 1 {
		t.Fatalf("bad move: %+v, size %d", res.Moves, m.Size())
	}
	checkSearchStatus(t, res)
}

func checkSearchStatus(t *testing.T, res vb.SearchResult) {
	t.Helper()
	if !res.Status.OK() {
		t.Fatalf("status %v", res.Status)
	}
}

// badMover proposes a move on a component that does not exist first.
type badMover struct{ *vbtest.GaussianMixture }

func (b *badMover) Propose(log []vb.MoveRecord) (vb.Move, bool) {
	if len(log) == 0 {
		return vb.Move{Kind: vbtest.MoveDeath, Component: 7, Other: -1}, true
	}
	return b.GaussianMixture.Propose(log)
}

// TestMoveSearchIterationBudget: MaxTotalIterations bounds the E steps of the
// whole search.
func TestMoveSearchIterationBudget(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 2))
	x := vbtest.MixtureData(rnd, 300, []float64{1, 1, 1}, []float64{-6, 0, 6}, []float64{1, 1, 1})
	prior := vbtest.MixturePrior{Alpha0: 1, M0: 0, Beta0: 0.05, A0: 1.5, B0: 1}
	for _, budget := range []int{5, 40, 200} {
		m := vbtest.NewGaussianMixture(x, 1, prior, rand.New(rand.NewPCG(5, 1)))
		res := vb.Search(m, vb.SearchSettings{Run: vb.Settings{MaxIterations: 5000, RelTol: 1e-10}, MaxTotalIterations: budget})
		if res.Iterations > budget {
			t.Errorf("budget %d: %d iterations", budget, res.Iterations)
		}
		if !res.Status.OK() {
			t.Errorf("budget %d: %v", budget, res.Status)
		}
	}
}
