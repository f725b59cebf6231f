package vbtest_test

import (
	"math"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/core/vbtest"
)

func TestCheckMonotone(t *testing.T) {
	inf := math.Inf(-1)
	for _, c := range []struct {
		name   string
		trace  []float64
		relTol float64
		want   []string // substrings of the expected errors, in order
	}{
		{"increasing", []float64{-100, -10, -9, -9}, 1e-9, nil},
		{"empty", nil, 1e-9, nil},
		{"decrease", []float64{-10, -9, -9.5, -8}, 1e-9, []string{"iteration 2 by 0.5"}},
		{"two decreases", []float64{-10, -9, -9.5, -8, -8.25}, 1e-9, []string{"iteration 2 by 0.5", "iteration 4 by 0.25"}},
		// The tolerance is relTol·max(1,|F_i|) = 1e-8 at |F| = 10 ...
		{"within relative tolerance", []float64{-10, -10 - 5e-9}, 1e-9, nil},
		{"beyond relative tolerance", []float64{-10, -10 - 2e-8}, 1e-9, []string{"iteration 1 by 2e-08"}},
		// ... and 1e-9 (absolute) for |F| < 1.
		{"within absolute tolerance", []float64{0.1, 0.1 - 5e-10}, 1e-9, nil},
		{"beyond absolute tolerance", []float64{0.1, 0.1 - 2e-9}, 1e-9, []string{"iteration 1 by 2e-09"}},
		{"zero tolerance", []float64{-10, -10 - 1e-14}, 0, []string{"iteration 1"}},
		{"NaN", []float64{-10, math.NaN(), -9}, 1e-9, []string{"NaN at iteration 1"}},
		{"-Inf start", []float64{inf, -10}, 1e-9, nil},
		{"fall to -Inf", []float64{-10, inf}, 1e-9, []string{"−Inf at iteration 1"}},
	} {
		var r recorder
		vbtest.CheckMonotone(&r, c.trace, c.relTol)
		if len(r.errs) != len(c.want) {
			t.Errorf("%s: %d errors %q, want %d", c.name, len(r.errs), r.errs, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(r.errs[i], w) {
				t.Errorf("%s: error %q does not mention %q", c.name, r.errs[i], w)
			}
		}
	}
}

func TestFDGradient(t *testing.T) {
	f := func(x []float64) float64 { return x[0]*x[0]*x[1] + math.Sin(x[1]) + math.Exp(x[2]) }
	x := []float64{1.3, -0.7, 0.2}
	want := []float64{2 * 1.3 * -0.7, 1.3*1.3 + math.Cos(-0.7), math.Exp(0.2)}
	g := vbtest.FDGradient(f, x, 1e-5)
	for i := range want {
		// Central differences: truncation error h²/6·f''' ≈ 2e-11, rounding ≈ ε/h ≈ 1e-11.
		if math.Abs(g[i]-want[i]) > 1e-8 {
			t.Errorf("g[%d] = %.12g, want %.12g", i, g[i], want[i])
		}
	}
	if x[0] != 1.3 || x[1] != -0.7 || x[2] != 0.2 {
		t.Errorf("FDGradient modified x: %v", x)
	}
	// A forward difference would be off by h/2·f'' here; check the central
	// formula really cancels the first-order error.
	sq := func(x []float64) float64 { return x[0] * x[0] }
	if g := vbtest.FDGradient(sq, []float64{3}, 0.1); math.Abs(g[0]-6) > 1e-12 {
		t.Errorf("central difference of x² at 3 with h = 0.1 is %v, want 6", g[0])
	}
}
