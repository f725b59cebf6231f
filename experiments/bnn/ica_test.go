package bnn

import (
	"math"
	"testing"
)

// TestICAMatch: a permuted, scaled and sign-flipped copy of the sources
// matches at |correlation| 1 with the permutation found; a kept mask that
// leaves too few columns matches nothing.
func TestICAMatch(t *testing.T) {
	const n = 50
	x := make([]float64, n*2)
	est := make([]float64, n*3)
	for a := 0; a < n; a++ {
		x[a*2], x[a*2+1] = math.Sin(float64(a)), math.Cos(3*float64(a))
		est[a*3], est[a*3+1], est[a*3+2] = 0.01*float64(a%7), -5*x[a*2+1], 2*x[a*2]
	}
	c, assign := icaMatch(x, 2, est, 3, []bool{true, true, true})
	if math.Abs(c-1) > 1e-12 || assign[0] != 2 || assign[1] != 1 {
		t.Errorf("icaMatch = %v, %v; want 1, [2 1]", c, assign)
	}
	if c, _ := icaMatch(x, 2, est, 3, []bool{true, false, true}); c > 0.9 {
		t.Errorf("icaMatch without the column of source 2 = %v, want a poor match", c)
	}
	if c, a := icaMatch(x, 2, est, 3, []bool{false, false, true}); c != 0 || a != nil {
		t.Errorf("icaMatch with one kept column = %v, %v; want 0, nil", c, a)
	}
}

// TestICAKeptAndGap: the switched-off sources and the gap of Fig. 6.10.
func TestICAKeptAndGap(t *testing.T) {
	a := []float64{-0.2, 0.6, 3.2}
	if k := icaKept(a, 2); !k[0] || !k[1] || k[2] {
		t.Errorf("icaKept(%v, 2) = %v", a, k)
	}
	if g := icaAlphaGap(a); math.Abs(g-2.6) > 1e-12 {
		t.Errorf("icaAlphaGap(%v) = %v, want 2.6", a, g)
	}
	if g := icaAlphaGap([]float64{3, 3, 0}); g != 0 {
		t.Errorf("icaAlphaGap of a tie = %v, want 0", g)
	}
}
