package mfa_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestSearchThreeClusters runs vb.Search with births and deaths (targets
// §1.9) from one analyser (k = 2) on three well-separated Gaussian clusters
// in 4-D, for several seeds of the data and of the birth directions, with
// responsibility splits under both ways of initialising the children and
// with spatial splits (MaxTries = 3, the digits setting). In every run F must never decrease within any VBEM run
// (vb.Search stops with BoundDecreased otherwise, and every run's trace is
// checked again here), every accepted move must raise F and every rejected
// one leave it as it was. At least 4 of every 5 searches must end with three
// analysers, each holding one cluster (the style of the targets' acceptance
// criteria, "S = 18 in ≥ 8 of 10 seeds"): a birth heuristic can miss, and
// the search then stops at a local optimum — with inherited loadings, at
// two analysers one of which covers two clusters with a factor (see
// InheritLoadings). On 20 seeds we saw 17 (inherited) and 19 (PCA) of 20
// with responsibility splits. Spatial splits miss more often (15 of 20), so
// for them 3 of every 5 must succeed: their children clone a parent whose
// factors span the clusters, so each child can explain every point by
// moving x̄, and the points are shared between them by the small
// differences of the prior term ‖x̄‖² and of the residual along the part of
// d outside the factors, often with little regard to the clusters.
func TestSearchThreeClusters(t *testing.T) {
	seeds := 10
	if testing.Short() {
		seeds = 5
	}
	centres := [][]float64{{0, 0, 0, 0}, {8, 0, 0, 2}, {0, 8, -2, 0}}
	for _, mode := range []struct {
		birth    mfa.BirthMode
		children mfa.ChildInit
		need     int // searches in 5 that must find the clusters
	}{{mfa.ResponsibilitySplit, mfa.InheritLoadings, 4}, {mfa.ResponsibilitySplit, mfa.PCALoadings, 4}, {mfa.SpatialSplit, mfa.InheritLoadings, 3}} {
		birth, children := mode.birth, mode.children
		found := 0
		for seed := range uint64(seeds) {
			y, labels := clusters(rand.New(rand.NewPCG(71, seed)), centres, 1, 40)
			z := zscore(y)
			m, err := mfa.NewVBRandom(z, 1, mfa.Settings{K: 2}, rand.New(rand.NewPCG(72, seed)))
			if err != nil {
				t.Fatal(err)
			}
			m.Moves = mfa.MoveSettings{Rand: rand.New(rand.NewPCG(73, seed)), MaxTries: 3, Birth: birth, Children: children}
			res := vb.Search(m, vb.SearchSettings{Run: vb.Settings{Hyper: mfa.DefaultSchedule()}})
			if res.Err != nil {
				t.Fatalf("%v births, children %d, seed %d: %v", birth, children, seed, res.Err)
			}
			for i, r := range res.Runs {
				vbtest.CheckMonotone(t, r.Trace.F, 1e-9)
				if !r.Status.OK() {
					t.Errorf("%v births, children %d, seed %d: run %d ended %v", birth, children, seed, i, r.Status)
				}
			}
			f := res.Runs[0].F
			for _, mv := range res.Moves {
				if mv.FBefore != f {
					t.Errorf("%v births, children %d, seed %d: %v tried from F = %.6f, the current F is %.6f", birth, children, seed, mv.Move, mv.FBefore, f)
				}
				if mv.Accepted {
					if !(mv.FAfter > mv.FBefore) {
						t.Errorf("%v births, children %d, seed %d: accepted %v from F = %.4f to %.4f", birth, children, seed, mv.Move, mv.FBefore, mv.FAfter)
					}
					f = mv.FAfter
				}
			}
			if f != res.F {
				t.Errorf("%v births, children %d, seed %d: F = %.6f at the end, the last accepted move gave %.6f", birth, children, seed, res.F, f)
			}
			if m.Size() == 3 && oneClusterEach(m, labels, 3) {
				found++
			} else {
				t.Logf("%v births, children %d, seed %d: the search ended with %d analysers, F = %.3f", birth, children, seed, m.Size(), res.F)
			}
		}
		t.Logf("%v births, children %d: %d of %d searches found the three clusters", birth, children, found, seeds)
		if found < seeds*mode.need/5 {
			t.Errorf("%v births, children %d: only %d of %d searches found the three clusters", birth, children, found, seeds)
		}
	}
}

// oneClusterEach reports whether each analyser holds (almost) all the
// points of one cluster, a different one for each.
func oneClusterEach(m *mfa.VB, labels []int, clusters int) bool {
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

// TestDeathMove checks the death move of the ablation (DeathAsMove) on its
// own: an analyser started with almost no responsibility is proposed for
// removal first, the move is accepted by vb.Search (F rises), and the
// search ends with the other two.
func TestDeathMove(t *testing.T) {
	y, labels := clusters(rand.New(rand.NewPCG(74, 75)), [][]float64{{0, 0}, {8, 0}}, 1, 30)
	resp := labelResp(labels, 3, 0.998)
	m, err := mfa.NewVB(y, resp, mfa.Settings{K: 1})
	if err != nil {
		t.Fatal(err)
	}
	m.Moves.Death = mfa.DeathAsMove
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

// TestDeathInSweep checks the thesis's death rule, the default (section
// 4.3.1, L2637): the same starved analyser as in TestDeathMove is removed by
// E itself within a plain vb.Run, which ends normally with S = 2; the
// removal is logged (Deaths) with its mass below one point and the jump of
// F that the run's bound reported (vb.Bound.Jump, recorded with the
// iteration); after it F never decreases; and Propose then offers no death.
// With a negative DeathThreshold nothing dies.
func TestDeathInSweep(t *testing.T) {
	y, labels := clusters(rand.New(rand.NewPCG(74, 75)), [][]float64{{0, 0}, {8, 0}}, 1, 30)
	resp := labelResp(labels, 3, 0.998)
	m, err := mfa.NewVB(y, resp, mfa.Settings{K: 1})
	if err != nil {
		t.Fatal(err)
	}
	var jumps []float64
	var at []int
	res := vb.Run(m, vb.Settings{Hyper: mfa.DefaultSchedule(), Recorder: func(it vb.Iteration) {
		if it.Jump != 0 {
			jumps, at = append(jumps, it.Jump), append(at, it.Iter)
		}
	}})
	if !res.Status.OK() {
		t.Fatal(res.Error())
	}
	if m.Size() != 2 {
		t.Fatalf("S = %d after the run, want 2", m.Size())
	}
	d := m.Deaths()
	if len(d) != 1 || !slices.Equal(d[0].Analysers, []int{2}) || !(d[0].Mass[0] < 1) {
		t.Fatalf("deaths %+v: want analyser 2, below one point", d)
	}
	if len(jumps) != 1 || at[0] != d[0].ESteps || math.Abs(jumps[0]-(d[0].FAfter-d[0].FBefore)) > 1e-12*math.Abs(d[0].FBefore) {
		t.Fatalf("jumps %v at iterations %v; the log says %+v", jumps, at, d[0])
	}
	if at[0] < 1 {
		t.Fatalf("the death came at the first E step: nothing to compare F with")
	}
	if f := res.Trace.F; f[at[0]]-jumps[0] < f[at[0]-1]-1e-9*math.Abs(f[at[0]]) {
		t.Errorf("F − jump = %v at the death, below the previous F %v", f[at[0]]-jumps[0], f[at[0]-1])
	}
	for i := at[0] + 1; i < len(res.Trace.F); i++ {
		if res.Trace.DeltaF[i] < -1e-9*math.Abs(res.Trace.F[i]) {
			t.Errorf("F decreased at iteration %d by %v", i, -res.Trace.DeltaF[i])
		}
	}
	m.Moves.Rand = nil
	if mv, ok := m.Propose(nil); ok {
		t.Errorf("Propose offers %v under DeathInSweep without births", mv)
	}

	keep, err := mfa.NewVB(y, resp, mfa.Settings{K: 1})
	if err != nil {
		t.Fatal(err)
	}
	keep.Moves.DeathThreshold = -1
	if r := vb.Run(keep, vb.Settings{Hyper: mfa.DefaultSchedule(), MaxIterations: 50}); !r.Status.OK() || keep.Size() != 3 || len(keep.Deaths()) != 0 {
		t.Errorf("deaths disabled: status %v, S = %d, %d deaths", r.Status, keep.Size(), len(keep.Deaths()))
	}
}

// TestSpatialBirth checks a spatial birth (targets §1.9 steps 1–5) from
// the outside: the new analyser is a copy of the parent (loadings, their
// covariances, q(ν)) except for the means, which sit symmetrically about the
// parent's, E[μ^{s′}] + E[μ^t] = 2E[μ_parent]; the parent's Dirichlet count
// is halved between the two; every point's q_is′ is shared between the two
// children, and the other analysers keep theirs. Over many births from the
// same state the displacement d = (E[μ^t] − E[μ^{s′}])/2 has mean 0 and
// covariance E[Λ]E[Λ]ᵀ + Ψ (step 1), checked within 5 standard errors.
func TestSpatialBirth(t *testing.T) {
	y, labels := clusters(rand.New(rand.NewPCG(91, 92)), [][]float64{{0, 0, 0}, {6, 0, 1}, {0, 6, -1}}, 1.5, 20)
	m, err := mfa.NewVB(y, labelResp(labels, 2, 0.9), mfa.Settings{K: 2})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if _, err := m.E(); err != nil {
			t.Fatal(err)
		}
		m.M()
		m.UpdateHyper(mfa.HyperPsi)
		m.UpdateHyper(mfa.HyperMuNu)
	}
	m.Moves = mfa.MoveSettings{Rand: rand.New(rand.NewPCG(93, 94)), Birth: mfa.SpatialSplit}
	const sp = 1
	n, p := m.N(), m.P()
	k := m.Dim(sp)
	before := m.Loadings(sp)
	mean0 := before.MeanTo(nil)
	ard0 := m.ARD(sp)
	omega0 := m.Pi().Alpha
	resp0 := m.Resp()
	psi := append([]float64(nil), m.Hyper.Psi...)
	snap := m.Save()

	const draws = 4000
	ds := mat.NewDense(draws, p, nil)
	for b := range draws {
		if err := m.Apply(vb.Move{Kind: mfa.MoveBirth, Component: sp, Other: -1}); err != nil {
			t.Fatal(err)
		}
		if m.Size() != 3 {
			t.Fatalf("S = %d after a birth from S = 2", m.Size())
		}
		par, child := m.Loadings(sp), m.Loadings(2)
		mp, mc := par.MeanTo(nil), child.MeanTo(nil)
		for q := 0; q < p; q++ {
			for l := 0; l < k; l++ {
				if mp.At(q, l) != mean0.At(q, l) || mc.At(q, l) != mean0.At(q, l) {
					t.Fatalf("birth %d: E[Λ_%d%d] = %v and %v, the parent's was %v", b, q, l, mp.At(q, l), mc.At(q, l), mean0.At(q, l))
				}
			}
			if mid := (mp.At(q, k) + mc.At(q, k)) / 2; math.Abs(mid-mean0.At(q, k)) > 1e-12 {
				t.Fatalf("birth %d: the children's means %v, %v are not symmetric about the parent's %v", b, mp.At(q, k), mc.At(q, k), mean0.At(q, k))
			}
			ds.Set(b, q, (mc.At(q, k)-mp.At(q, k))/2)
		}
		if b == 0 {
			for q := 0; q < p; q++ {
				c0 := before.CovarianceTo(nil, q)
				if !mat.EqualApprox(par.CovarianceTo(nil, q), c0, 1e-12) || !mat.EqualApprox(child.CovarianceTo(nil, q), c0, 1e-12) {
					t.Errorf("row %d: the children's covariances differ from the parent's", q)
				}
			}
			for s, a := range [][]dist.Gamma{m.ARD(sp), m.ARD(2)} {
				for l := range a {
					if a[l] != ard0[l] {
						t.Errorf("child %d: q(ν_%d) = %v, the parent's was %v", s, l, a[l], ard0[l])
					}
				}
			}
			omega := m.Pi().Alpha
			if omega[0] != omega0[0] || omega[sp] != omega0[sp]/2 || omega[2] != omega0[sp]/2 {
				t.Errorf("ω = %v after the birth, %v before", omega, omega0)
			}
			resp := m.Resp()
			var shared, childMass float64
			for i := 0; i < n; i++ {
				if resp.At(i, 0) != resp0.At(i, 0) {
					t.Fatalf("point %d: q(s=0) changed from %v to %v", i, resp0.At(i, 0), resp.At(i, 0))
				}
				if d := resp.At(i, sp) + resp.At(i, 2) - resp0.At(i, sp); math.Abs(d) > 1e-15 {
					t.Fatalf("point %d: the children hold %v + %v of the parent's %v", i, resp.At(i, sp), resp.At(i, 2), resp0.At(i, sp))
				}
				childMass += resp.At(i, 2)
				shared += resp0.At(i, sp)
			}
			if !(childMass > 0.05*shared && childMass < 0.95*shared) {
				t.Errorf("the new child holds %.3g of the parent's %.3g: not a split", childMass, shared)
			}
		}
		m.Restore(snap)
	}
	// d ~ N(0, E[Λ]E[Λ]ᵀ + Ψ).
	want := mat.NewSymDense(p, nil)
	lam := mean0.Slice(0, p, 0, k)
	want.SymOuterK(1, lam)
	for q := 0; q < p; q++ {
		want.SetSym(q, q, want.At(q, q)+psi[q])
	}
	var got mat.SymDense
	stat.CovarianceMatrix(&got, ds, nil)
	for a := 0; a < p; a++ {
		mean := stat.Mean(ds.ColView(a).(*mat.VecDense).RawVector().Data, nil)
		if se := math.Sqrt(want.At(a, a) / draws); math.Abs(mean) > 5*se {
			t.Errorf("E[d_%d] = %.4g, want 0 (s.e. %.3g)", a, mean, se)
		}
		for b := a; b < p; b++ {
			se := math.Sqrt((want.At(a, a)*want.At(b, b) + want.At(a, b)*want.At(a, b)) / draws)
			if math.Abs(got.At(a, b)-want.At(a, b)) > 5*se {
				t.Errorf("Cov(d)_%d%d = %.4g, want %.4g (s.e. %.3g)", a, b, got.At(a, b), want.At(a, b), se)
			}
		}
	}
}
