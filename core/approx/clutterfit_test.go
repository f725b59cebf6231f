package approx

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// clutterData draws n points of the clutter problem in d dimensions around
// θ = (2, …, 2).
func clutterData(seed uint64, n, d int, w, a float64) ClutterProblem {
	rnd := rand.New(rand.NewPCG(seed, 77))
	p := ClutterProblem{W: w, A: a, B: 100}
	for range n {
		x := make([]float64, d)
		clut := rnd.Float64() < w
		for i := range x {
			if clut {
				x[i] = math.Sqrt(a) * rnd.NormFloat64()
			} else {
				x[i] = 2 + rnd.NormFloat64()
			}
		}
		p.X = append(p.X, x)
	}
	return p
}

// TestClutterEPMatchesGenericEP: the isotropic ClutterEP is the generic EP
// over ClutterFactors (same order, no damping): the same q after every
// sweep and the same evidence, in one and two dimensions.
func TestClutterEPMatchesGenericEP(t *testing.T) {
	for _, d := range []int{1, 2} {
		p := clutterData(3, 25, d, 0.5, 10)
		ce, err := NewClutterEP(p)
		if err != nil {
			t.Fatal(err)
		}
		var fs []Factor
		for _, x := range p.X {
			fs = append(fs, ClutterFactor{X: x, W: p.W, A: p.A})
		}
		prior := Normal{Mean: make([]float64, d), Cov: make([]float64, d*d)}
		for i := range d {
			prior.Cov[i*d+i] = p.B
		}
		ge, err := NewEP(prior, fs, EPSettings{})
		if err != nil {
			t.Fatal(err)
		}
		for sweep := range 6 {
			ce.Sweep()
			if _, err := ge.Sweep(); err != nil {
				t.Fatal(err)
			}
			q := ge.Q()
			for i, m := range ce.Mean() {
				near(t, "EP mean", m, q.Mean[i], 1e-9*(1+math.Abs(m)))
			}
			near(t, "EP variance", ce.Var(), q.Cov[0], 1e-9*ce.Var())
			if sweep == 5 {
				a, err1 := ce.LogEvidence()
				b, err2 := ge.LogEvidence()
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				near(t, "EP ln Z", a, b, 1e-8*math.Abs(b))
			}
		}
		if ce.Flops <= 0 {
			t.Error("no operations counted")
		}
	}
}

// TestClutterExact checks the quadrature: against the closed form when the
// clutter weight is negligible (w = 1e-60: the posterior is Gaussian and
// p(D) = (1 − w)^N ∫ N(θ|0,bI) Π N(x_n|θ,I) dθ to O(w)), against a plain
// adaptive quadrature of the whole posterior in 1-D, and against a fine
// tensor Gauss–Legendre rule in 2-D.
func TestClutterExact(t *testing.T) {
	tol := numeric.QuadTol{Rel: 1e-10}
	for _, d := range []int{1, 2} {
		p := clutterData(5, 12, d, 0.5, 10)
		p.W = 1e-60
		ex, err := p.Exact(tol, 60)
		if err != nil {
			t.Fatal(err)
		}
		n := float64(len(p.X))
		prec := 1/p.B + n
		var lz float64
		for i := range d {
			var s, s2 float64
			for _, x := range p.X {
				s += x[i]
				s2 += x[i] * x[i]
			}
			m := s / prec
			near(t, "mean (w → 0)", ex.Mean[i], m, 1e-8)
			lz += -0.5*n*math.Log(2*math.Pi) - 0.5*math.Log(p.B*prec) - 0.5*s2 + 0.5*prec*m*m
		}
		near(t, "ln p(D) (w → 0)", ex.LnZ, lz, 1e-8)
	}
	p := clutterData(6, 10, 1, 0.5, 10)
	ex, err := p.Exact(tol, 60)
	if err != nil {
		t.Fatal(err)
	}
	full := Density{LogP: p.LogJoint, Lo: []float64{-150}, Hi: []float64{150}}
	want, err := full.Exact(numeric.QuadTol{Rel: 1e-12, MaxIntervals: 20000})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "1-D ln p(D)", ex.LnZ, want.LnZ, 1e-8)
	near(t, "1-D mean", ex.Mean[0], want.Mean[0], 1e-7)

	p2 := clutterData(7, 6, 2, 0.5, 10)
	ex2, err := p2.Exact(tol, 60)
	if err != nil {
		t.Fatal(err)
	}
	// Tensor 10-point Gauss–Legendre on each of 120² unit squares of
	// [−60, 60]²; the prior's mass beyond is e^-18 of the total, added in
	// closed form with the likelihood there constant, C (to 1e-9).
	gl := newLegendre(10)
	var z, m0, m1 float64
	th := []float64{0, 0}
	for a := -60; a < 60; a++ {
		for b := -60; b < 60; b++ {
			for i, u := range gl.u {
				for j, v := range gl.u {
					th[0], th[1] = float64(a)+0.5+0.5*u, float64(b)+0.5+0.5*v
					w := 0.25 * gl.w[i] * gl.w[j] * math.Exp(p2.LogJoint(th)-ex2.LnZ)
					z += w
					m0 += w * th[0]
					m1 += w * th[1]
				}
			}
		}
	}
	var lc float64
	for _, v := range p2.logClutter() {
		lc += v
	}
	outside := math.Exp(lc-ex2.LnZ) * (1 - math.Pow(math.Erf(60/math.Sqrt(2*p2.B)), 2))
	near(t, "2-D p(D) ratio", z+outside, 1, 1e-8)
	near(t, "2-D mean", ex2.Mean[0], m0, 1e-6)
	near(t, "2-D mean", ex2.Mean[1], m1, 1e-6)
	t.Logf("pieces: 1-D %d, 2-D %d", ex.Pieces, ex2.Pieces)
}

// legendre is an n-point Gauss–Legendre rule on [−1, 1] (Newton on P_n).
type legendre struct{ u, w []float64 }

func newLegendre(n int) legendre {
	var r legendre
	for i := range n {
		x := math.Cos(math.Pi * (float64(i) + 0.75) / (float64(n) + 0.5))
		var dp float64
		for range 100 {
			p0, p1 := 1.0, x
			for k := 2; k <= n; k++ {
				p0, p1 = p1, ((2*float64(k)-1)*x*p1-(float64(k)-1)*p0)/float64(k)
			}
			dp = float64(n) * (x*p1 - p0) / (x*x - 1)
			dx := p1 / dp
			x -= dx
			if math.Abs(dx) < 1e-15 {
				break
			}
		}
		r.u = append(r.u, x)
		r.w = append(r.w, 2/((1-x*x)*dp*dp))
	}
	return r
}

// TestClutterVBAndLaplace: VB's bound never decreases (vb.Run's check)
// and stays below the exact ln p(D); Laplace's Newton reaches a point of
// zero gradient, and its gradient and Hessian agree with finite
// differences.
func TestClutterVBAndLaplace(t *testing.T) {
	for _, d := range []int{1, 2} {
		p := clutterData(11, 30, d, 0.5, 10)
		ex, err := p.Exact(numeric.QuadTol{Rel: 1e-10}, 60)
		if err != nil {
			t.Fatal(err)
		}
		v, err := NewClutterVB(p)
		if err != nil {
			t.Fatal(err)
		}
		res := vb.Run(v, vb.Settings{MaxIterations: 500, RelTol: -1, AbsTol: 1e-12})
		if res.Status != vb.Converged {
			t.Errorf("VB: status %v", res.Status)
		}
		if !(res.F < ex.LnZ) {
			t.Errorf("VB bound %g above ln p(D) %g", res.F, ex.LnZ)
		}
		l, err := NewClutterLaplace(p)
		if err != nil {
			t.Fatal(err)
		}
		for range 50 {
			if l.Step() < 1e-12 {
				break
			}
		}
		for _, g := range l.grad {
			near(t, "gradient at the mode", g, 0, 1e-8)
		}
		q, lz := l.Result()
		hfd := make([]float64, d*d)
		HessianFD(hfd, p.LogJoint, q.Mean)
		for i := range hfd {
			near(t, "Hessian", l.hess[i], hfd[i], 1e-4*(1+math.Abs(hfd[i])))
		}
		t.Logf("D=%d: exact mean %v ln p %.5f; VB %v F %.5f; Laplace %v ln Z %.5f", d, ex.Mean, ex.LnZ, v.Mean, res.F, q.Mean, lz)
	}
}

// TestClutterFlops checks the counts against their formulas: a first EP
// sweep (every cavity proper) costs N(3D + 2 + tilted + 5D + 6) + N(D + 1),
// a VB iteration N(3D + 19 + 3T) + 2D + 10 + 2T for E and N(2D + 1) + D + 2
// for M.
func TestClutterFlops(t *testing.T) {
	for _, d := range []int{1, 2} {
		p := clutterData(2, 17, d, 0.5, 10)
		n, fd := float64(len(p.X)), float64(d)
		ep, _ := NewClutterEP(p)
		ep.Sweep()
		want := n*(3*fd+2+tiltedFlops(d)+5*fd+6) + n*(fd+1)
		near(t, "EP sweep flops", ep.Flops, want, 0)
		v, _ := NewClutterVB(p)
		f0 := v.Flops
		if _, err := v.E(); err != nil {
			t.Fatal(err)
		}
		v.M()
		tr := float64(TranscendentalFlops)
		near(t, "VB iteration flops", v.Flops-f0, n*(3*fd+19+3*tr)+2*fd+10+2*tr+n*(2*fd+1)+fd+2, 0)
	}
}
