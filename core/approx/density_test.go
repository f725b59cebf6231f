package approx

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
)

// corr2 is a correlated 2-D Gaussian, the target of PRML Fig. 10.2.
var corr2 = Normal{Mean: []float64{0.3, -0.5}, Cov: []float64{1, 0.9, 0.9, 1.2}}

// gaussDensity returns N(q) scaled by e^{lnC} as a Density on a ±12 sd box.
func gaussDensity(t *testing.T, q Normal, lnC float64) Density {
	t.Helper()
	f, err := q.LogDensity()
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := q.Box(12)
	return Density{LogP: func(x []float64) float64 { return lnC + f(x) }, Lo: lo, Hi: hi}
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.12g, want %.12g (±%g)", what, got, want, tol)
	}
}

// TestExactOnGaussians checks the quadrature's Z, moments and entropy
// against the closed forms, in one and two dimensions.
func TestExactOnGaussians(t *testing.T) {
	for _, q := range []Normal{{Mean: []float64{1.5}, Cov: []float64{0.3}}, corr2} {
		ex, err := gaussDensity(t, q, 2.5).Exact(numeric.QuadTol{})
		if err != nil {
			t.Fatal(err)
		}
		near(t, "ln Z", ex.LnZ, 2.5, 1e-9)
		near(t, "entropy", ex.Entropy, q.Entropy(), 1e-9)
		for i := range q.Mean {
			near(t, "mean", ex.Mean[i], q.Mean[i], 1e-9)
		}
		for i := range q.Cov {
			near(t, "cov", ex.Cov[i], q.Cov[i], 1e-9)
		}
	}
}

// TestKLQuadratureAgainstClosedForm checks KLqp and KLpq by quadrature
// against KLNormal, and KL(q,q) = 0.
func TestKLQuadratureAgainstClosedForm(t *testing.T) {
	p := corr2
	pd := gaussDensity(t, p, -1)
	ex, err := pd.Exact(numeric.QuadTol{})
	if err != nil {
		t.Fatal(err)
	}
	q := Normal{Mean: []float64{0, 0}, Cov: []float64{0.5, 0.1, 0.1, 0.4}}
	kqp, err := KLqp(q, pd, ex, numeric.QuadTol{})
	if err != nil {
		t.Fatal(err)
	}
	kpq, err := KLpq(pd, ex, q, numeric.QuadTol{})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "KL(q‖p)", kqp, KLNormal(q, p), 1e-8)
	near(t, "KL(p‖q)", kpq, KLNormal(p, q), 1e-8)
	self, err := Compare(p, pd, ex, numeric.QuadTol{})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "KL(p‖p) forward", self.KLqp, 0, 1e-9)
	near(t, "KL(p‖p) reverse", self.KLpq, 0, 1e-9)
	near(t, "KLNormal(p, p)", KLNormal(p, p), 0, 1e-14)
}

// TestKLNormalMonteCarlo checks the closed-form KL against a Monte Carlo
// average of ln q − ln p under q (10⁵ draws; 5 standard errors).
func TestKLNormalMonteCarlo(t *testing.T) {
	q := Normal{Mean: []float64{1, 0}, Cov: []float64{0.5, 0.2, 0.2, 0.4}}
	p := corr2
	lq, _ := q.LogDensity()
	lp, _ := p.LogDensity()
	l, _ := q.chol()
	rnd := rand.New(rand.NewPCG(1, 2))
	const n = 100000
	var s, s2 float64
	x := make([]float64, 2)
	for range n {
		z0, z1 := rnd.NormFloat64(), rnd.NormFloat64()
		x[0] = q.Mean[0] + l[0]*z0
		x[1] = q.Mean[1] + l[2]*z0 + l[3]*z1
		v := lq(x) - lp(x)
		s += v
		s2 += v * v
	}
	mean := s / n
	se := math.Sqrt((s2/n - mean*mean) / n)
	near(t, "KL by Monte Carlo", mean, KLNormal(q, p), 5*se)
}

// TestMethodsExactOnGaussians: on a Gaussian p, Laplace, the KL(q‖p) fit
// and moment matching must all return p itself, and Laplace's ln Z is
// exact.
func TestMethodsExactOnGaussians(t *testing.T) {
	for _, p := range []Normal{{Mean: []float64{-0.7}, Cov: []float64{2.5}}, corr2} {
		pd := gaussDensity(t, p, 0.8)
		ex, err := pd.Exact(numeric.QuadTol{})
		if err != nil {
			t.Fatal(err)
		}
		lap, err := Laplace(Func{LogP: pd.LogP}, make([]float64, p.Dim()))
		if err != nil {
			t.Fatal(err)
		}
		near(t, "Laplace ln Z", lap.LnZ, 0.8, 1e-6)
		init := Normal{Mean: make([]float64, p.Dim()), Cov: make([]float64, p.Dim()*p.Dim())}
		for i := range p.Dim() {
			init.Cov[i*p.Dim()+i] = 1
		}
		vb, err := FitKLqp(pd.LogP, init, FitSettings{})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []struct {
			name string
			q    Normal
		}{{"laplace", lap.Q}, {"KL(q‖p) fit", vb.Q}, {"moments", ex.Moments()}} {
			if k := KLNormal(q.q, p); !(k < 1e-9) {
				t.Errorf("%s: KL to p = %g, mean %v cov %v", q.name, k, q.q.Mean, q.q.Cov)
			}
		}
		near(t, "objective + ln Z", vb.Objective+0.8, 0, 1e-8)
	}
}
