package mfa_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// eAllocs is the number of heap allocations that one E call makes in the
// steady state, stated as part of the model's contract: none. Each q(Λ̃^s)
// is overwritten in place (dist.GaussianRows.SetDistinctPrecision, which
// does not allocate), the returned Bound.Terms is the model's own slice,
// and everything else of E, and all of M and UpdateHyper, reuses the
// model's buffers (see also TestSweepAllocs).
const eAllocs = 0

// TestModelConformance runs the conformance suite of core/vbtest (every E,
// M and hyperparameter step never lowers F, the terms sum to F with unique
// names, the same construction gives the same numbers bit for bit, M does
// not allocate, and Save, a move and Restore round-trip) on a few shapes,
// among them one analyser without factors, analysers with different k_s,
// and a birth as the move (MoveSettings.Rand set; a responsibility or a
// spatial split) or a death (DeathAsMove, one analyser started with almost
// no responsibility), a death inside E (the default DeathInSweep: an
// analyser started with a little responsibility falls below one point
// at the sixth E step, a jump the suite leaves out of its monotonicity
// check, as vb.Run does; the test checks that it happens), and models that have just had a spatial birth
// (the suite then starts from the state Apply left).
func TestModelConformance(t *testing.T) {
	cases := []struct {
		name   string
		S, per int
		ks     []int
		birth  bool
		split  mfa.BirthMode
		born   bool    // apply a birth from analyser 0 before the suite (S+1 analysers)
		starve float64 // if > 0, give analyser S−1 this responsibility on every point
		move   bool    // deaths as moves (DeathAsMove)
		sd     float64 // cluster spread (default 1: well separated)
	}{
		{name: "S=1,k=0", S: 1, per: 20, ks: []int{0}},
		{name: "S=1,k=2,birth", S: 1, per: 20, ks: []int{2}, birth: true},
		{name: "S=3,k=1", S: 3, per: 15, ks: []int{1, 1, 1}, birth: true},
		{name: "S=3,k=(2,0,1)", S: 3, per: 15, ks: []int{2, 0, 1}},
		{name: "S=3,death move", S: 3, per: 15, ks: []int{1, 1, 1}, starve: 1e-3, move: true},
		{name: "S=3,death in the sweep", S: 3, per: 15, ks: []int{1, 1, 1}, starve: 0.05},
		{name: "S=3,k=1,overlapping", S: 3, per: 15, ks: []int{1, 1, 1}, sd: 3},
		{name: "S=4,k=2,overlapping", S: 4, per: 12, ks: []int{2, 2, 2, 2}, sd: 3, birth: true},
		{name: "S=1,k=2,spatial birth", S: 1, per: 20, ks: []int{2}, birth: true, split: mfa.SpatialSplit},
		{name: "S=3,k=(2,0,1),spatial birth", S: 3, per: 15, ks: []int{2, 0, 1}, birth: true, split: mfa.SpatialSplit},
		{name: "S=1,k=2,after a spatial birth", S: 1, per: 20, ks: []int{2}, birth: true, split: mfa.SpatialSplit, born: true},
		{name: "S=3,k=(2,0,1),after a spatial birth", S: 3, per: 15, ks: []int{2, 0, 1}, birth: true, split: mfa.SpatialSplit, born: true},
		{name: "S=3,k=1,overlapping,after a spatial birth", S: 3, per: 15, ks: []int{1, 1, 1}, sd: 3, birth: true, split: mfa.SpatialSplit, born: true},
	}
	centres := [][]float64{{0, 0, 0}, {6, 0, 1}, {0, 6, -1}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sd := c.sd
			if sd == 0 {
				sd = 1
			}
			y, labels := clusters(rand.New(rand.NewPCG(7, uint64(c.S))), centres, sd, c.per)
			n, _ := y.Dims()
			var built []*mfa.VB
			vbtest.CheckModel(t, func() vb.Model {
				var m *mfa.VB
				var err error
				set := mfa.Settings{Ks: c.ks}
				if c.S == 1 {
					m, err = mfa.NewVBRandom(y, 1, set, rand.New(rand.NewPCG(1, 2)))
				} else {
					r := labelResp(labels, c.S, 0.8)
					if c.starve > 0 {
						for i := 0; i < n; i++ {
							r.Set(i, c.S-1, c.starve)
						}
					}
					m, err = mfa.NewVB(y, r, set)
				}
				if err != nil {
					t.Fatal(err)
				}
				if c.move {
					m.Moves.Death = mfa.DeathAsMove
				}
				built = append(built, m)
				if c.birth {
					m.Moves.Rand = rand.New(rand.NewPCG(3, 4))
					m.Moves.Birth = c.split
				}
				if c.born {
					for range 3 {
						if _, err := m.E(); err != nil {
							t.Fatal(err)
						}
						m.M()
					}
					if err := m.Apply(vb.Move{Kind: mfa.MoveBirth, Component: 0, Other: -1}); err != nil {
						t.Fatal(err)
					}
				}
				return m
			}, vbtest.CheckOptions{EAllocs: eAllocs, Iterations: 12, Tol: 1e-11})
			if c.starve > 0 && !c.move {
				if d := built[0].Deaths(); len(d) == 0 || d[0].ESteps < 1 {
					t.Errorf("deaths %+v: want one after the first E step, where the suite checks F", d)
				}
			}
		})
	}
}

// TestEMConformance runs the same suite on the ML baseline EM (eqs.
// 4.10-4.13 with Ψ floored; targets ch4-mfa.md §2 item 1): E and M never
// lower the log-likelihood, nor BIC (eq. 4.88) with the number of analysers
// fixed; the terms sum to F; the same construction gives the same numbers;
// Save, a responsibility-split birth and Restore round-trip (the birth
// grows the workspace that E resizes, the Restore shrinks it). The shapes
// cover S = 1 and 3, k = 0, 1 and 2, both objectives, with and without
// births. E and M allocate nothing in the steady state: eAllocs = 0 holds
// for EM as for VB, since its workspace (emWork) is made by NewEM and
// resized only when S changes, and the returned Bound.Terms is EM's own
// slice.
func TestEMConformance(t *testing.T) {
	centres := [][]float64{{0, 0, 0}, {6, 0, 1}, {0, 6, -1}}
	for _, c := range []struct {
		name  string
		S, k  int
		obj   mfa.Objective
		birth bool
	}{
		{"S=1,k=0,loglik", 1, 0, mfa.LogLikelihood, false},
		{"S=1,k=1,loglik", 1, 1, mfa.LogLikelihood, false},
		{"S=3,k=1,loglik", 3, 1, mfa.LogLikelihood, false},
		{"S=3,k=2,loglik,birth", 3, 2, mfa.LogLikelihood, true},
		{"S=1,k=2,BIC", 1, 2, mfa.BICObjective, false},
		{"S=1,k=2,BIC,birth", 1, 2, mfa.BICObjective, true},
		{"S=3,k=0,BIC,birth", 3, 0, mfa.BICObjective, true},
		{"S=3,k=1,BIC,birth", 3, 1, mfa.BICObjective, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			y, _ := clusters(rand.New(rand.NewPCG(7, uint64(c.S))), centres, 1, 20)
			newModel := func() *mfa.EM {
				m, err := mfa.NewEM(y, c.S, c.k, 1e-5, rand.New(rand.NewPCG(1, 3)))
				if err != nil {
					t.Fatal(err)
				}
				m.Objective = c.obj
				if c.birth {
					m.Moves = mfa.EMMoveSettings{Rand: rand.New(rand.NewPCG(3, 4)), MaxTries: 3}
				}
				return m
			}
			if c.birth {
				// The suite ignores a failed Apply; make sure that the
				// birth it tries after the same steps succeeds.
				m := newModel()
				for range 13 {
					if _, err := m.E(); err != nil {
						t.Fatal(err)
					}
					m.M()
				}
				if _, err := m.E(); err != nil {
					t.Fatal(err)
				}
				mv, ok := m.Propose(nil)
				if !ok {
					t.Fatal("no birth proposed")
				}
				if err := m.Apply(mv); err != nil || m.Size() != c.S+1 {
					t.Fatalf("the suite's birth fails: %v (S = %d)", err, m.Size())
				}
			}
			vbtest.CheckModel(t, func() vb.Model { return newModel() }, vbtest.CheckOptions{EAllocs: eAllocs, Iterations: 12, Tol: 1e-11})
		})
	}
}
