package dist

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmat"
)

func TestWishartGolden(t *testing.T) {
	// Golden values of ../shared/targets/ch3-hmm.md §0.2 (mpmath, 30 digits;
	// a Monte Carlo run with 4·10⁵ samples gave KL ≈ 2.383).
	w := mustWishart(5, sym(2, 2, 0.5, 0.5, 1))
	if got, want := w.MeanLogDet(), 3.0718511247990236; !(relErr(got, want) <= 1e-12) {
		t.Errorf("E ln|W| = %.17g, want %.17g", got, want)
	}
	if got, want := w.Entropy(), 7.6499720612368789; !(relErr(got, want) <= 1e-12) {
		t.Errorf("H = %.17g, want %.17g", got, want)
	}
	p := mustWishart(3, sym(2, 1, 0, 0, 1))
	if got, want := KLWishart(w, p), 2.3810521857324119; !(relErr(got, want) <= 1e-12) {
		t.Errorf("KL(W(5,S) ‖ W(3,I)) = %.17g, want %.17g", got, want)
	}
	var m mat.SymDense
	w.Mean(&m)
	if !mat.Equal(&m, sym(2, 10, 2.5, 2.5, 5)) {
		t.Errorf("E[W] = %v, want νS", mat.Formatted(&m))
	}
}

func TestWishartLogProbGonum(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 13))
	for i := 0; i < 100; i++ {
		k := 1 + rnd.IntN(4)
		nu := float64(k-1) + logUniform(rnd, 0.1, 30)
		s := randSPD(rnd, k, 0.2)
		w := mustWishart(nu, s)
		g, ok := distmat.NewWishart(s, nu, nil)
		if !ok {
			t.Fatal("distmat.NewWishart failed")
		}
		var x mat.SymDense
		w.Rand(&x, rnd)
		if got, want := w.LogProb(&x), g.LogProbSym(&x); math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
			t.Errorf("k=%d ν=%g: LogProb = %.15g, distmat.Wishart = %.15g", k, nu, got, want)
		}
	}
	w := mustWishart(3, sym(2, 1, 0, 0, 1))
	if v := w.LogProb(sym(2, 1, 2, 2, 1)); !math.IsInf(v, -1) {
		t.Errorf("LogProb of an indefinite matrix = %v, want −Inf", v)
	}
}

func TestWishartPanics(t *testing.T) {
	s := sym(2, 1, 0, 0, 1)
	for name, fn := range map[string]func(){
		"ν ≤ k−1":    func() { NewWishart(1, s) },
		"ν NaN":      func() { NewWishart(math.NaN(), s) },
		"LogProb":    func() { mustWishart(3, s).LogProb(sym(1, 1)) },
		"KL dims":    func() { KLWishart(mustWishart(3, s), mustWishart(3, sym(1, 1))) },
		"Mean size":  func() { mustWishart(3, s).Mean(mat.NewSymDense(3, nil)) },
		"LogProbVec": func() { mustWishart(3, s).LogProbVec(make([]float64, 3)) },
	} {
		if !panics(fn) {
			t.Errorf("%s: no panic", name)
		}
	}
	if _, ok := NewWishart(3, sym(2, 1, 2, 2, 1)); ok {
		t.Error("NewWishart accepted an indefinite scale")
	}
}
