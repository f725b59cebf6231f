package mfa_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestSearchThreeClusters runs vb.Search with births and deaths (targets
// §1.9) from one analyser (k = 2) on three well-separated Gaussian clusters
// in 4-D, for several seeds of the data and of the birth directions, with
// both ways of initialising the children (MaxTries = 3, the digits
// setting). In every run F must never decrease within any VBEM run
// (vb.Search stops with BoundDecreased otherwise, and every run's trace is
// checked again here), every accepted move must raise F and every rejected
// one leave it as it was. At least 4 of every 5 searches must end with three
// analysers, each holding one cluster (the style of the targets' acceptance
// criteria, "S = 18 in ≥ 8 of 10 seeds"): a birth heuristic can miss, and
// the search then stops at a local optimum — with inherited loadings, at
// two analysers one of which covers two clusters with a factor (see
// InheritLoadings). On 20 seeds we saw 17 (inherited) and 19 (PCA) of 20.
func TestSearchThreeClusters(t *testing.T) {
	seeds := 10
	if testing.Short() {
		seeds = 5
	}
	centres := [][]float64{{0, 0, 0, 0}, {8, 0, 0, 2}, {0, 8, -2, 0}}
	for _, children := range []mfa.ChildInit{mfa.InheritLoadings, mfa.PCALoadings} {
		found := 0
		for seed := range uint64(seeds) {
			y, labels := clusters(rand.New(rand.NewPCG(71, seed)), centres, 1, 40)
			z, _ := mfa.Standardize(y)
			m, err := mfa.NewRandom(z, 1, mfa.Settings{K: 2}, rand.New(rand.NewPCG(72, seed)))
			if err != nil {
				t.Fatal(err)
			}
			m.Moves = mfa.MoveSettings{Rand: rand.New(rand.NewPCG(73, seed)), MaxTries: 3, Children: children}
			res := vb.Search(m, vb.SearchSettings{Run: vb.Settings{Hyper: mfa.DefaultSchedule()}})
			if res.Err != nil {
				t.Fatalf("children %d, seed %d: %v", children, seed, res.Err)
			}
			for i, r := range res.Runs {
				vbtest.CheckMonotone(t, r.Trace.F, 1e-9)
				if !r.Status.OK() {
					t.Errorf("children %d, seed %d: run %d ended %v", children, seed, i, r.Status)
				}
			}
			f := res.Runs[0].F
			for _, mv := range res.Moves {
				if mv.FBefore != f {
					t.Errorf("children %d, seed %d: %v tried from F = %.6f, the current F is %.6f", children, seed, mv.Move, mv.FBefore, f)
				}
				if mv.Accepted {
					if !(mv.FAfter > mv.FBefore) {
						t.Errorf("children %d, seed %d: accepted %v from F = %.4f to %.4f", children, seed, mv.Move, mv.FBefore, mv.FAfter)
					}
					f = mv.FAfter
				}
			}
			if f != res.F {
				t.Errorf("children %d, seed %d: F = %.6f at the end, the last accepted move gave %.6f", children, seed, res.F, f)
			}
			if m.Size() == 3 && oneClusterEach(m, labels, 3) {
				found++
			} else {
				t.Logf("children %d, seed %d: the search ended with %d analysers, F = %.3f", children, seed, m.Size(), res.F)
			}
		}
		t.Logf("children %d: %d of %d searches found the three clusters", children, found, seeds)
		if found < seeds*4/5 {
			t.Errorf("children %d: only %d of %d searches found the three clusters", children, found, seeds)
		}
	}
}

// oneClusterEach reports whether each analyser holds (almost) all the
// points of one cluster, a different one for each.
func oneClusterEach(m *mfa.Model, labels []int, clusters int) bool {
	resp := m.Resp()
	size := make([]float64, clusters)
	for _, l := range labels {
		size[l]++
	}
	seen := map[int]bool{}
	for s := 0; s < m.Size(); s++ {
		mass := make([]float64, clusters)
		for i, l := range labels {
			mass[l] += resp.At(i, s)
		}
		best := 0
		for l := range mass {
			if mass[l] > mass[best] {
				best = l
			}
		}
		if math.Abs(mass[best]-size[best]) > 0.5 || seen[best] {
			return false
		}
		seen[best] = true
	}
	return true
}

// TestDeathMove checks the death move on its own: an analyser started with
// almost no responsibility is proposed for removal first, the move is
// accepted by vb.Search (F rises), and the search ends with the other two.
func TestDeathMove(t *testing.T) {
	y, labels := clusters(rand.New(rand.NewPCG(74, 75)), [][]float64{{0, 0}, {8, 0}}, 1, 30)
	resp := labelResp(labels, 3, 0.998)
	m, err := mfa.New(y, resp, mfa.Settings{K: 1})
	if err != nil {
		t.Fatal(err)
	}
	res := vb.Search(m, vb.SearchSettings{Run: vb.Settings{Hyper: mfa.DefaultSchedule()}})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(res.Moves) == 0 || res.Moves[0].Kind != mfa.MoveDeath || !res.Moves[0].Accepted {
		t.Fatalf("moves %+v: want an accepted death first", res.Moves)
	}
	if m.Size() != 2 {
		t.Errorf("S = %d after the search, want 2", m.Size())
	}
}
