package gmm_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/gmm"
	"github.com/vbworkbench/vbw/core/vb"
)

// TestLocalTestEvidence: the local test's F₁ is the model's own bound
// when the model is one Gaussian (VB is exact at K = 1) and equals the
// closed-form Normal-Wishart evidence of the points; on 8 points F₂ is
// below the exact evidence of two Gaussians by enumeration of the 2⁸
// assignments (a bound).
func TestLocalTestEvidence(t *testing.T) {
	x := tiny()
	p := defaultPrior(1)
	m := newVB(t, x, 1, p, 1)
	r := converge(t, m)
	s := gmm.NewSplitter(m, gmm.SplitSettings{})
	lt, err := s.Test(0)
	if err != nil {
		t.Fatal(err)
	}
	exact1, err := gmm.LogEvidenceOne(x, 2, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(lt.Points) != 8 {
		t.Fatalf("component 0 owns %d points, want all 8", len(lt.Points))
	}
	if math.Abs(lt.F1-r.F) > 1e-9*math.Abs(r.F) || math.Abs(lt.F1-exact1) > 1e-9*math.Abs(exact1) {
		t.Errorf("F₁ = %.12g, the model's F %.12g, the exact evidence %.12g: want all equal", lt.F1, r.F, exact1)
	}
	exact2, err := gmm.LogEvidenceExact(x, 2, 2, p)
	if err != nil {
		t.Fatal(err)
	}
	if !(lt.F2 <= exact2+1e-9) {
		t.Errorf("F₂ = %.9g above ln p(X | K = 2) = %.9g", lt.F2, exact2)
	}
	if w := lt.Weights[0] + lt.Weights[1]; math.Abs(w-1) > 1e-12 {
		t.Errorf("weights %v sum to %v", lt.Weights, w)
	}
}

// TestLocalTestOfAComponent: in a converged two-component model, each
// component's F₁ is the exact evidence of the points it owns.
func TestLocalTestOfAComponent(t *testing.T) {
	x := clusters(rand.New(rand.NewPCG(3, 4)), 200, 1, [2]float64{-4, 0}, [2]float64{4, 0})
	p := defaultPrior(1)
	m := newVB(t, x, 2, p, 2)
	converge(t, m)
	s := gmm.NewSplitter(m, gmm.SplitSettings{})
	owned := m.Owned()
	for j := range 2 {
		lt, err := s.Test(j)
		if err != nil {
			t.Fatal(err)
		}
		var xj []float64
		for _, i := range owned[j] {
			xj = append(xj, x[2*i], x[2*i+1])
		}
		want, err := gmm.LogEvidenceOne(xj, 2, p)
		if err != nil {
			t.Fatal(err)
		}
		if len(lt.Points) != len(owned[j]) || math.Abs(lt.F1-want) > 1e-9*math.Abs(want) {
			t.Errorf("component %d: %d points, F₁ = %.12g; want %d and %.12g", j, len(lt.Points), lt.F1, len(owned[j]), want)
		}
		if lt.Split {
			t.Errorf("component %d (one cluster) votes to split: F₂ %.4f > F₁ %.4f", j, lt.F2, lt.F1)
		}
	}
}

// TestSplitAcceptedOnTwoClusters: one Gaussian on two clusters 8 sd apart
// votes to split, the search accepts it and ends at K = 2 with F higher.
func TestSplitAcceptedOnTwoClusters(t *testing.T) {
	x := clusters(rand.New(rand.NewPCG(5, 6)), 200, 1, [2]float64{-4, 0}, [2]float64{4, 0})
	m := newVB(t, x, 1, defaultPrior(1), 1)
	s := gmm.NewSplitter(m, gmm.SplitSettings{})
	converge(t, m)
	lt, err := s.Test(0)
	if err != nil {
		t.Fatal(err)
	}
	if !lt.Split || !(lt.F2 > lt.F1+10) {
		t.Errorf("local test: F₂ = %.3f, F₁ = %.3f, split %v; want a split by many nats", lt.F2, lt.F1, lt.Split)
	}
	res := vb.Search(s, vb.SearchSettings{Run: vb.Settings{MaxIterations: 500}})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	acc, _ := res.MoveCounts()
	if m.K() != 2 || acc != 1 || !(res.F > res.Runs[0].F) {
		t.Errorf("search ended at K = %d with %d accepted moves, F %.3f from %.3f; want K = 2, 1, a rise", m.K(), acc, res.F, res.Runs[0].F)
	}
	for _, c := range m.Counts(nil) {
		if math.Abs(c-100) > 5 {
			t.Errorf("counts %v, want about 100 each", m.Counts(nil))
		}
	}
}

// TestSplitRejectedOnOneGaussian: on 300 points of one Gaussian the local
// test votes against a split, Propose offers nothing and the search ends at
// K = 1 without a move.
func TestSplitRejectedOnOneGaussian(t *testing.T) {
	x := clusters(rand.New(rand.NewPCG(7, 8)), 300, 1, [2]float64{0, 0})
	m := newVB(t, x, 1, defaultPrior(1), 1)
	s := gmm.NewSplitter(m, gmm.SplitSettings{})
	res := vb.Search(s, vb.SearchSettings{Run: vb.Settings{MaxIterations: 500}})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	lt, err := s.Test(0)
	if err != nil {
		t.Fatal(err)
	}
	if lt.Split || m.K() != 1 || len(res.Moves) != 0 {
		t.Errorf("F₂ = %.3f, F₁ = %.3f (split %v); search at K = %d after %d moves; want no split", lt.F2, lt.F1, lt.Split, m.K(), len(res.Moves))
	}
}

// TestSplitSearchNeverLowersF: grown from one component on five clusters,
// the search ends at K = 5, every accepted split raised F, F of the
// accepted states never falls, and a rejected move left F as it was.
func TestSplitSearchNeverLowersF(t *testing.T) {
	x := clusters(rand.New(rand.NewPCG(9, 10)), 500, 0.6, [2]float64{0, 0}, [2]float64{4, 0}, [2]float64{8, 1}, [2]float64{0, 5}, [2]float64{5, 5})
	m := newVB(t, x, 1, defaultPrior(1), 1)
	s := gmm.NewSplitter(m, gmm.SplitSettings{})
	res := vb.Search(s, vb.SearchSettings{Run: vb.Settings{MaxIterations: 1000}})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if m.K() != 5 {
		t.Errorf("ended at K = %d, want 5 (%d moves)", m.K(), len(res.Moves))
	}
	f := res.Runs[0].F
	for _, mv := range res.Moves {
		if mv.Kind != gmm.MoveSplit || mv.FBefore != f {
			t.Errorf("move %v from F %.6f, want a split from the accepted state's %.6f", mv.Move, mv.FBefore, f)
		}
		if mv.Accepted {
			if !(mv.FAfter > mv.FBefore) {
				t.Errorf("accepted %v lowered F: %.6f → %.6f", mv.Move, mv.FBefore, mv.FAfter)
			}
			f = mv.FAfter
		}
	}
	if res.F != f || res.F < res.Runs[0].F {
		t.Errorf("final F %.6f, the last accepted %.6f, the first run's %.6f", res.F, f, res.Runs[0].F)
	}
	// Save, Apply and Restore leave the model where it was.
	before, _ := m.E()
	fb := before.F
	snap := s.Save()
	lt, _ := s.Test(0)
	if lt.Resp != nil {
		if err := s.Apply(vb.Move{Kind: gmm.MoveSplit, Component: 0, Other: -1}); err != nil {
			t.Fatal(err)
		}
		s.Restore(snap)
		after, _ := m.E()
		if math.Abs(after.F-fb) > 1e-8*math.Abs(fb) || m.K() != 5 {
			t.Errorf("after Apply and Restore: K = %d, F %.9g, want 5 and %.9g", m.K(), after.F, fb)
		}
	}
	if err := s.Apply(vb.Move{Kind: gmm.MoveBirth, Component: 0, Other: -1}); err == nil {
		t.Error("the splitter applied a birth")
	}
}
