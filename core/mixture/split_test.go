package mixture

import (
	"errors"
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/vb"
)

// TestSplitRespKeepsEachPointsMass: the split moves 1 − ρ of j's share of
// the listed points to the new component and nothing else, so every point
// still sums to 1 and r is not modified.
func TestSplitRespKeepsEachPointsMass(t *testing.T) {
	n := 4
	r := []float64{0.5, 1, 0.2, 0, 0.5, 0, 0.8, 1} // S = 2
	orig := append([]float64(nil), r...)
	out := SplitResp(r, n, 0, []int{0, 2}, []float64{0.25, 1})
	want := []float64{0.125, 1, 0.2, 0, 0.5, 0, 0.8, 1, 0.375, 0, 0, 0}
	for i := range want {
		if math.Abs(out[i]-want[i]) > 1e-15 {
			t.Fatalf("SplitResp = %v, want %v", out, want)
		}
	}
	for i := 0; i < n; i++ {
		if s := out[i] + out[n+i] + out[2*n+i]; math.Abs(s-1) > 1e-15 {
			t.Errorf("point %d sums to %g", i, s)
		}
	}
	for i := range r {
		if r[i] != orig[i] {
			t.Fatalf("r modified: %v", r)
		}
	}
}

// TestSplitCacheComputesOncePerState: a test is computed once per (state,
// component), again after the fingerprint changes, and never cached when
// it fails.
func TestSplitCacheComputesOncePerState(t *testing.T) {
	var c SplitCache[int]
	calls := 0
	f := func() (int, error) { calls++; return calls, nil }
	a, _ := c.Test([]float64{1}, 0, f)
	b, _ := c.Test([]float64{1}, 0, f)
	if a != 1 || b != 1 || calls != 1 {
		t.Errorf("same state: %d, %d after %d calls; want 1, 1 after 1", a, b, calls)
	}
	if v, _ := c.Test([]float64{1}, 1, f); v != 2 {
		t.Errorf("another component: %d, want 2", v)
	}
	if v, _ := c.Test([]float64{2}, 0, f); v != 3 {
		t.Errorf("new state: %d, want 3", v)
	}
	bad := errors.New("bad")
	if _, err := c.Test([]float64{2}, 5, func() (int, error) { return 0, bad }); err != bad {
		t.Errorf("error %v, want %v", err, bad)
	}
	if v, _ := c.Test([]float64{2}, 5, f); v != 4 {
		t.Errorf("after a failure: %d, want a new test (4)", v)
	}
}

// TestProposeSplitSkipsTried: the first favoured component not tried
// since the last accepted move, none when all are tried.
func TestProposeSplitSkipsTried(t *testing.T) {
	fav := func(j int) bool { return j == 1 || j == 3 }
	mv, ok := ProposeSplit("split", 4, fav, nil)
	if !ok || mv != (vb.Move{Kind: "split", Component: 1, Other: -1}) {
		t.Fatalf("ProposeSplit = %v, %v", mv, ok)
	}
	log := []vb.MoveRecord{{Move: mv}}
	if mv, ok = ProposeSplit("split", 4, fav, log); !ok || mv.Component != 3 {
		t.Errorf("after 1 tried: %v, %v; want component 3", mv, ok)
	}
	log = append(log, vb.MoveRecord{Move: mv})
	if _, ok = ProposeSplit("split", 4, fav, log); ok {
		t.Error("all tried, still a proposal")
	}
}

// TestCheckResponsibilities: a distribution per point passes; the wrong
// length, a negative or NaN entry and a column off 1 are refused.
func TestCheckResponsibilities(t *testing.T) {
	ok := []float64{0.25, 1, 0.75, 0} // S = 2, n = 2
	if err := CheckResponsibilities(ok, 2, 2); err != nil {
		t.Errorf("valid: %v", err)
	}
	for _, c := range []struct {
		r    []float64
		want string
	}{
		{[]float64{1, 1, 0}, "3 responsibilities, want K·N = 4"},
		{[]float64{-0.1, 1, 1.1, 0}, "responsibility of point 0 not a probability"},
		{[]float64{0.5, math.NaN(), 0.5, 0}, "responsibility of point 1 not a probability"},
		{[]float64{0.5, 1, 0.4, 0}, "responsibilities of point 0 sum to 0.9"},
	} {
		if err := CheckResponsibilities(c.r, 2, 2); err == nil || err.Error() != c.want {
			t.Errorf("%v: error %v, want %q", c.r, err, c.want)
		}
	}
}
