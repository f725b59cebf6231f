package infer

import (
	"math"
	"math/rand/v2"
	"testing"
)

// logOf returns the chain of the logs of c's weights, each entry shifted:
// Pi by sPi, A by sA and E by sE.
func logOf(c *Chain, sPi, sA, sE float64) *LogChain {
	l := &LogChain{K: c.K, P: c.P, Pi: make([]float64, len(c.Pi)), A: make([]float64, len(c.A)), E: make([]float64, len(c.E))}
	for i, v := range c.Pi {
		l.Pi[i] = math.Log(v) + sPi
	}
	for i, v := range c.A {
		l.A[i] = math.Log(v) + sA
	}
	for i, v := range c.E {
		l.E[i] = math.Log(v) + sE
	}
	return l
}

// expOf returns the weights of l (0 where they underflow).
func expOf(l *LogChain) *Chain {
	c := &Chain{K: l.K, P: l.P, Pi: make([]float64, len(l.Pi)), A: make([]float64, len(l.A)), E: make([]float64, len(l.E))}
	for i, v := range l.Pi {
		c.Pi[i] = math.Exp(v)
	}
	for i, v := range l.A {
		c.A[i] = math.Exp(v)
	}
	for i, v := range l.E {
		c.E[i] = math.Exp(v)
	}
	return c
}

// countsClose reports the first count of got more than tol·max(1, |want|)
// from want.
func countsClose(t *testing.T, what string, got, want *Counts, tol float64) {
	t.Helper()
	for _, pair := range [][2][]float64{{got.Pi, want.Pi}, {got.A, want.A}, {got.E, want.E}} {
		for i := range pair[0] {
			if math.Abs(pair[0][i]-pair[1][i]) > tol*math.Max(1, math.Abs(pair[1][i])) {
				t.Fatalf("%s: count %d = %v, want %v", what, i, pair[0][i], pair[1][i])
			}
		}
	}
}

// TestAddExpectedCountsLogMatchesScaled: on representable weights (dense,
// sub-normalised, and with exact zeros as ML leaves them) the log-domain
// recursion gives the scaled recursion's ln Z and counts, over sequences
// that span several of its chunks.
func TestAddExpectedCountsLogMatchesScaled(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 3))
	for trial := 0; trial < 24; trial++ {
		k, p := 1+trial%4, 2+trial%3
		scale := 1.0
		if trial%2 == 1 {
			scale = 0.6
		}
		c := randomChain(rnd, k, p, scale)
		if trial%3 == 2 && k > 1 {
			c.A[1] = 0 // a forbidden transition
		}
		T := []int{1, 2, 7, 33, 100}[trial%5]
		y := make([]int, T)
		for i := range y {
			y[i] = rnd.IntN(p)
		}
		var w ForwardBackward
		want := NewCounts(k, p)
		lnZ := w.AddExpectedCounts(c, y, want)
		if math.IsInf(lnZ, -1) {
			continue
		}
		got := NewCounts(k, p)
		lnZLog := w.AddExpectedCountsLog(logOf(c, 0, 0, 0), y, got)
		if math.Abs(lnZLog-lnZ) > 1e-12*math.Max(1, math.Abs(lnZ)) {
			t.Errorf("trial %d: ln Z = %v in the log domain, %v scaled", trial, lnZLog, lnZ)
		}
		countsClose(t, "trial", got, want, 1e-11)
	}
}

// TestAddExpectedCountsLogWhereWeightsUnderflow: with every weight scaled
// by e^-800 (transitions), e^-760 (emissions) and e^-900 (initial states)
// the weights are 0 in float64 and the scaled recursion finds the sequence
// impossible; the log-domain recursion gives ln Z shifted by exactly
// −900 − 800(T−1) − 760T and the counts of the unscaled chain, which the
// uniform scaling leaves unchanged (the messages are normalised at every
// step, so each γ and ξ is the exponential of logs near 0, exact to
// rounding).
func TestAddExpectedCountsLogWhereWeightsUnderflow(t *testing.T) {
	rnd := rand.New(rand.NewPCG(12, 3))
	k, p, T := 4, 3, 50
	c := randomChain(rnd, k, p, 0.8)
	y := make([]int, T)
	for i := range y {
		y[i] = rnd.IntN(p)
	}
	var w ForwardBackward
	want := NewCounts(k, p)
	lnZ := w.AddExpectedCounts(c, y, want)
	l := logOf(c, -900, -800, -760)
	under := NewCounts(k, p)
	if got := w.AddExpectedCounts(expOf(l), y, under); !math.IsInf(got, -1) {
		t.Fatalf("the scaled recursion on the underflowed weights gives %v, want -Inf (the case the log domain is for)", got)
	}
	got := NewCounts(k, p)
	shift := -900 - 800*float64(T-1) - 760*float64(T)
	if lnZLog := w.AddExpectedCountsLog(l, y, got); math.Abs(lnZLog-(lnZ+shift)) > 1e-12*math.Abs(lnZ+shift) {
		t.Errorf("ln Z = %v, want %v + %v", lnZLog, lnZ, shift)
	}
	countsClose(t, "underflowed weights", got, want, 1e-12)
	var n float64
	for _, v := range got.E {
		n += v
	}
	if math.Abs(n-float64(T)) > 1e-12*float64(T) {
		t.Errorf("emission counts sum to %v, want %d", n, T)
	}
}

// TestAddExpectedCountsLogImpossible: a sequence impossible under the log
// weights themselves gives −Inf and leaves the counts unchanged.
func TestAddExpectedCountsLogImpossible(t *testing.T) {
	c := &Chain{K: 2, P: 2, Pi: []float64{1, 0}, A: []float64{1, 0, 0, 1}, E: []float64{1, 1, 0, 0}}
	var w ForwardBackward
	acc := NewCounts(2, 2)
	if got := w.AddExpectedCountsLog(logOf(c, 0, 0, 0), []int{0, 1}, acc); !math.IsInf(got, -1) {
		t.Fatalf("AddExpectedCountsLog = %v, want -Inf", got)
	}
	for _, v := range append(append(acc.Pi, acc.A...), acc.E...) {
		if v != 0 {
			t.Fatal("counts changed for an impossible sequence")
		}
	}
}
