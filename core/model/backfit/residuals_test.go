package backfit

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestResidualsGramEqualsPass: where 2N > d the Gram form of residuals
// (after gramAfter passes) gives the pass over the design's g and Σr² to
// rounding, on a noisy fit and on a nearly exact one (which falls back to
// the pass); where 2N ≤ d it never builds FᵀF.
func TestResidualsGramEqualsPass(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		name  string
		n, d  int
		noise float64
	}{{"noisy", 60, 7, 1}, {"square", 7, 7, 1}, {"wide", 7, 14, 1}, {"nearly exact", 60, 7, 1e-9}} {
		x := make([]float64, tc.n*tc.d)
		for i := range x {
			x[i] = r.NormFloat64()
		}
		b := make([]float64, tc.d)
		for m := range b {
			b[m] = r.NormFloat64()
		}
		y := make([]float64, tc.n)
		for i := range y {
			for m := range b {
				y[i] += x[i*tc.d+m] * b[m]
			}
			y[i] += tc.noise * r.NormFloat64()
		}
		p, err := NewProblem(x, tc.d, y)
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		for it := 0; it < 2*tc.d; it++ {
			c := make([]float64, tc.d)
			for m := range c {
				c[m] = b[m] * float64(it) / float64(2*tc.d)
			}
			g1, g2 := make([]float64, tc.d), make([]float64, tc.d)
			rr1, rr2 := p.residuals(c, g1, &calls), p.pass(c, g2)
			if math.Abs(rr1-rr2) > 1e-10*rr2 {
				t.Errorf("%s: Σr² %.17g (residuals) against %.17g (pass)", tc.name, rr1, rr2)
			}
			scale := math.Sqrt(p.yy * rr2)
			for m := range g1 {
				if math.Abs(g1[m]-g2[m]) > 1e-10*scale {
					t.Errorf("%s: g_%d %.17g against %.17g", tc.name, m, g1[m], g2[m])
				}
			}
		}
		if built := p.gram != nil; built != (2*tc.n > tc.d) {
			t.Errorf("%s: Gram built %v at N = %d, d = %d", tc.name, built, tc.n, tc.d)
		}
		if after := p.gramAfter(); after >= 0 && calls != after && tc.noise == 1 {
			t.Errorf("%s: %d passes before the Gram form, want %d", tc.name, calls, after)
		}
	}
}
