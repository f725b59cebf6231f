package mfa_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/vb"
)

// TestLabelPermutation checks that F does not depend on the labels of the
// analysers (STYLE.md §2.6): two models started from the same
// responsibilities with the columns (and the analysers' k_s) permuted give
// the same F and terms at every iteration of E, M and every hyperparameter
// group, up to the rounding of sums taken in another order.
func TestLabelPermutation(t *testing.T) {
	y, labels := clusters(rand.New(rand.NewPCG(61, 62)), [][]float64{{0, 0, 0}, {4, 0, 1}, {0, 4, -1}}, 1.5, 15)
	resp := labelResp(labels, 3, 0.6)
	ks := []int{2, 0, 1}
	perm := []int{2, 0, 1} // analyser s of the second model is perm[s] of the first
	n, _ := y.Dims()
	resp2 := mat.NewDense(n, 3, nil)
	ks2 := make([]int, 3)
	for s, src := range perm {
		ks2[s] = ks[src]
		for i := 0; i < n; i++ {
			resp2.Set(i, s, resp.At(i, src))
		}
	}
	m1, err := mfa.NewVB(y, resp, mfa.Settings{Ks: ks})
	if err != nil {
		t.Fatal(err)
	}
	m2, err := mfa.NewVB(y, resp2, mfa.Settings{Ks: ks2})
	if err != nil {
		t.Fatal(err)
	}
	for it := 0; it < 20; it++ {
		b1, err1 := m1.E()
		b2, err2 := m2.E()
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		tol := 1e-10 * math.Abs(b1.F)
		if math.Abs(b1.F-b2.F) > tol {
			t.Fatalf("iteration %d: F = %.15g and %.15g after permuting the labels", it, b1.F, b2.F)
		}
		for j := range b1.Terms {
			if math.Abs(b1.Terms[j].Value-b2.Terms[j].Value) > tol {
				t.Errorf("iteration %d: term %s = %.15g and %.15g", it, b1.Terms[j].Name, b1.Terms[j].Value, b2.Terms[j].Value)
			}
		}
		for _, m := range []*mfa.VB{m1, m2} {
			m.M()
			for _, g := range m.HyperGroups() {
				m.UpdateHyper(g)
			}
		}
	}
	c1, c2 := m1.Counts(), m2.Counts()
	for s, src := range perm {
		if math.Abs(c2[s]-c1[src]) > 1e-8 {
			t.Errorf("N_%d = %v of the permuted model, N_%d = %v of the original", s, c2[s], src, c1[src])
		}
	}
}

// TestSameSeed checks that the same construction and seed give the same F
// trace, bit for bit, through vb.Run with every hyperparameter group, and
// through vb.Search with its births (STYLE.md §2.6 "repeatable").
func TestSameSeed(t *testing.T) {
	y, _ := clusters(rand.New(rand.NewPCG(63, 64)), [][]float64{{0, 0}, {5, 0}, {0, 5}}, 1, 20)
	run := func() ([]float64, int) {
		m, err := mfa.NewVBRandom(y, 2, mfa.Settings{K: 1}, rand.New(rand.NewPCG(65, 66)))
		if err != nil {
			t.Fatal(err)
		}
		m.Moves.Rand = rand.New(rand.NewPCG(67, 68))
		res := vb.Search(m, vb.SearchSettings{Run: vb.Settings{Hyper: vb.Every(m.HyperGroups()...), MaxIterations: 300}, MaxMoves: 6})
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		var trace []float64
		for _, r := range res.Runs {
			trace = append(trace, r.Trace.F...)
		}
		return trace, m.Size()
	}
	a, sa := run()
	b, sb := run()
	if len(a) != len(b) || sa != sb {
		t.Fatalf("two runs from the same seed ran %d and %d E steps and ended with %d and %d analysers", len(a), len(b), sa, sb)
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			t.Fatalf("two runs from the same seed differ at E step %d: %.17g and %.17g", i, a[i], b[i])
		}
	}
}
