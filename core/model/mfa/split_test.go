package mfa_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/vb"
)

// splitRun is a VBEM run of the tests, with Ψ and μ*, ν* updated at every
// iteration (the reference code's schedule; the local fits hold them at
// the model's).
func splitRun() vb.Settings {
	return vb.Settings{MaxIterations: 5000, Hyper: mfa.DefaultSchedule(), Converger: &vb.BoundConverge{Relative: 1e-12, Absolute: 1e-8}}
}

// localRun is the run of the local fits: Ψ updated, μ* and ν* held at the
// model's (SplitSettings.Run's default).
func localRun() vb.Settings {
	r := splitRun()
	r.Hyper = vb.Every(mfa.HyperPsi)
	return r
}

func oneAnalyser(t *testing.T, y *mat.Dense, k int) *mfa.VB {
	t.Helper()
	n, _ := y.Dims()
	ones := mat.NewDense(n, 1, nil)
	for i := range n {
		ones.Set(i, 0, 1)
	}
	m, err := mfa.NewVB(y, ones, mfa.Settings{K: k})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSplitLocalTestIsTheModelsBound: with one analyser converged (q and
// Θ), the local fit of one analyser to the points it owns (all of them),
// from the model's Θ, stays at the model's fixed point: the local test's
// evidence is the model's own bound.
func TestSplitLocalTestIsTheModelsBound(t *testing.T) {
	y, _ := clusters(rand.New(rand.NewPCG(1, 2)), [][]float64{{0, 0, 0}}, 1, 200)
	y = zscore(y)
	m := oneAnalyser(t, y, 2)
	r := vb.Run(m, splitRun())
	if !r.Status.OK() {
		t.Fatal(r.Error())
	}
	s := mfa.NewSplitter(m, mfa.SplitSettings{Run: localRun(), Rand: rand.New(rand.NewPCG(3, 4))})
	lt, err := s.Test(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(lt.Points) != 200 || math.Abs(lt.F1-r.F) > 1e-6*math.Abs(r.F) {
		t.Errorf("%d points, F₁ = %.10g; want 200 and the model's F %.10g", len(lt.Points), lt.F1, r.F)
	}
	if lt.Split {
		t.Errorf("one Gaussian votes to split: F₂ %.4f > F₁ %.4f", lt.F2, lt.F1)
	}
	if s.LocalIterations == 0 || s.LocalPointIterations != 200*s.LocalIterations {
		t.Errorf("%d local iterations, %d point-iterations; want some, 200 points each", s.LocalIterations, s.LocalPointIterations)
	}
}

// TestSplitAnalysers: on two separated clusters one analyser votes to split
// and the search ends at two analysers, one a cluster; on one Gaussian it
// proposes nothing; on four clusters from one analyser the search ends at
// four, every accepted split raising F and no state's F below the last.
func TestSplitAnalysers(t *testing.T) {
	for _, c := range []struct {
		centres [][]float64
		want    int
	}{
		{[][]float64{{0, 0, 0}}, 1},
		{[][]float64{{-4, 0, 0}, {4, 0, 0}}, 2},
		{[][]float64{{-4, 0, 0}, {4, 0, 0}, {0, 5, 0}, {0, -2, 5}}, 4},
	} {
		y, labels := clusters(rand.New(rand.NewPCG(5, uint64(len(c.centres)))), c.centres, 0.7, 150)
		y = zscore(y)
		m := oneAnalyser(t, y, 2)
		s := mfa.NewSplitter(m, mfa.SplitSettings{Run: localRun(), Rand: rand.New(rand.NewPCG(6, 7))})
		res := vb.Search(s, vb.SearchSettings{Run: splitRun()})
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		if got := len(m.Counts()); got != c.want {
			t.Errorf("%d clusters: ended with %d analysers (%d moves)", len(c.centres), got, len(res.Moves))
			continue
		}
		f := res.Runs[0].F
		for _, mv := range res.Moves {
			if mv.Accepted {
				if !(mv.FAfter > mv.FBefore) || mv.FBefore != f {
					t.Errorf("%d clusters: accepted %v from %.6f (the state's %.6f) to %.6f", len(c.centres), mv.Move, mv.FBefore, f, mv.FAfter)
				}
				f = mv.FAfter
			}
		}
		if res.F != f {
			t.Errorf("%d clusters: final F %.6f, the last accepted %.6f", len(c.centres), res.F, f)
		}
		// Each analyser holds one cluster: the largest responsibility of
		// every point of a cluster is one analyser's.
		resp := m.Resp()
		owner := map[int]int{}
		for i, l := range labels {
			best := 0
			for a := range c.want {
				if resp.At(i, a) > resp.At(i, best) {
					best = a
				}
			}
			if o, ok := owner[l]; ok && o != best {
				t.Errorf("%d clusters: cluster %d split between analysers %d and %d", len(c.centres), l, o, best)
				break
			}
			owner[l] = best
		}
	}
}
