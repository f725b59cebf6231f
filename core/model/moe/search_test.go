package moe_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/moe"
	"github.com/vbworkbench/vbw/core/vb"
)

// TestSearchGrows runs vb.Search from one component on y = |x₁| + noise
// (two linear regimes): the split search must find at least the two
// experts, never lower F at an accepted move, and end with F above the
// one-component F.
func TestSearchGrows(t *testing.T) {
	const d = 2
	x, y := piecewise(rand.New(rand.NewPCG(3, 1)), 400, d, 0.05)
	m, err := moe.NewVB(x, y, d, 1, moe.DefaultPrior(d), moe.Settings{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := vb.Search(m, vb.SearchSettings{Run: vb.Settings{RelTol: 1e-9, AbsTol: 1e-6}})
	if !res.Status.OK() {
		t.Fatal(res.Err)
	}
	f := res.Runs[0].F
	for _, mv := range res.Moves {
		if mv.Accepted {
			if !(mv.FAfter > mv.FBefore) {
				t.Errorf("%v accepted with F %.6f → %.6f", mv.Move, mv.FBefore, mv.FAfter)
			}
			f = mv.FAfter
		}
	}
	if f != res.F || !(res.F > res.Runs[0].F) {
		t.Errorf("F: first run %.6f, last accepted %.6f, result %.6f", res.Runs[0].F, f, res.F)
	}
	if got := m.Occupied(1); got < 2 {
		t.Errorf("%d occupied components after the search, want ≥ 2 (moves %v)", got, res.Moves)
	}
	// The experts of the two largest components have slopes near −1 and +1.
	slopes := map[int]bool{}
	cnt := m.Counts(nil)
	for k := 0; k < m.K(); k++ {
		if cnt[k] > 100 {
			w := m.Weights(k)
			slopes[int(math.Round(w[0]))] = true
		}
	}
	if !slopes[-1] || !slopes[1] {
		t.Errorf("slopes of the large components %v, want −1 and +1", slopes)
	}
	t.Logf("K = %d, occupied %d, F %.3f → %.3f, %d moves", m.K(), m.Occupied(1), res.Runs[0].F, res.F, len(res.Moves))
}
