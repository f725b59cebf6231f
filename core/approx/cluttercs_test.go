package approx

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// TestClutterCSExactWithoutClutter: at w = 0 there are no hidden
// variables, every indicator is signal, and CS is the Gaussian evidence
// ln N(x | 0, I + b11ᵀ) per coordinate, at any θ̂ (in one and two
// dimensions).
func TestClutterCSExactWithoutClutter(t *testing.T) {
	for _, d := range []int{1, 2} {
		p := clutterData(4, 12, d, 0.3, 10)
		p.W = 0
		var want float64
		n := float64(len(p.X))
		for i := range d {
			var s, ss float64
			for _, x := range p.X {
				s += x[i]
				ss += x[i] * x[i]
			}
			// |I + b11ᵀ| = 1 + bN; (I + b11ᵀ)⁻¹ = I − b11ᵀ/(1 + bN).
			want += -0.5*n*math.Log(2*math.Pi) - 0.5*math.Log1p(p.B*n) - 0.5*(ss-p.B*s*s/(1+p.B*n))
		}
		for _, th := range [][]float64{make([]float64, d), {1.7, -3}} {
			cs, _, err := p.CheesemanStutz(th[:d], nil)
			if err != nil || math.Abs(cs-want) > 1e-10*math.Abs(want) {
				t.Errorf("D = %d, θ̂ = %v: CS = %.12f (%v), ln p(D) = %.12f", d, th[:d], cs, err, want)
			}
		}
	}
}

// TestClutterCSAgainstQuadrature: on small data sets (n = 5, 20; w = 0.2,
// 0.5), CS at the MAP point with the E step there is a lower bound on ln
// p(D) by quadrature (Theorem 2.3) and within 0.5 nats of it; with VB's
// own q(z) at VB's mean it is at least VB's bound F. The completed-data
// evidence at hard indicators, summed over all 2⁵ of them, is ln p(D).
func TestClutterCSAgainstQuadrature(t *testing.T) {
	for _, c := range []struct {
		n int
		w float64
	}{{5, 0.2}, {5, 0.5}, {20, 0.2}, {20, 0.5}} {
		p := clutterData(6, c.n, 1, c.w, 10)
		ex, err := p.Exact(numeric.QuadTol{Rel: 1e-11}, 40)
		if err != nil {
			t.Fatal(err)
		}
		l, err := NewClutterLaplace(p)
		if err != nil {
			t.Fatal(err)
		}
		for range 50 {
			l.Step()
		}
		cs, _, err := p.CheesemanStutz(l.Theta, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := NewClutterVB(p)
		res := vb.Run(v, vb.Settings{MaxIterations: 500, RelTol: 1e-13, AbsTol: 1e-12})
		csq, _, err := p.CheesemanStutz(v.Mean, v.R)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("n = %d, w = %g: ln p(D) %.5f, CS(MAP) %.5f, CS(VB q) %.5f, F %.5f", c.n, c.w, ex.LnZ, cs, csq, res.F)
		if cs > ex.LnZ+1e-8 || ex.LnZ-cs > 0.5 {
			t.Errorf("n = %d, w = %g: CS %.6f against ln p(D) %.6f: above it or more than 0.5 below", c.n, c.w, cs, ex.LnZ)
		}
		if csq < res.F-1e-8 {
			t.Errorf("n = %d, w = %g: CS with VB's q(z) %.8f below F %.8f", c.n, c.w, csq, res.F)
		}
		if c.n != 5 {
			continue
		}
		lnp := math.Inf(-1)
		r := make([]float64, c.n)
		for z := range 1 << c.n {
			for i := range r {
				r[i] = float64(z >> i & 1)
			}
			lc, err := p.CompletedLogEvidence(r)
			if err != nil {
				t.Fatal(err)
			}
			lnp = numeric.LogAddExp(lnp, lc)
		}
		if math.Abs(lnp-ex.LnZ) > 1e-8 {
			t.Errorf("n = 5, w = %g: ln Σ_z p(D, z) = %.10f, quadrature %.10f", c.w, lnp, ex.LnZ)
		}
	}
}
