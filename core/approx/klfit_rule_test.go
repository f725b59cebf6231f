package approx

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
)

// TestFitKLqpStationary: on PRML Fig. 10.1's density, exp(−z²/2)σ(20z + 4)
// (its sigmoid rises within a tenth of q's standard deviation), the default
// one-dimensional fit is a stationary point of KL(q‖p) computed
// independently by adaptive quadrature: the central-difference gradient in
// the mean and the log variance is below 1e-6. The control, a fit under 64
// Gauss–Hermite nodes (the earlier default), is off its optimum by a
// gradient above 1e-3, so the test can tell the rules apart.
func TestFitKLqpStationary(t *testing.T) {
	lp := func(x []float64) float64 { z := x[0]; return -z*z/2 + LogSigmoid(20*z+4) }
	p := Density{LogP: lp, Lo: []float64{-12}, Hi: []float64{12}}
	tol := numeric.QuadTol{Rel: 1e-13}
	ex, err := p.Exact(tol)
	if err != nil {
		t.Fatal(err)
	}
	kl := func(m, lv float64) float64 {
		v, err := KLqp(Normal{Mean: []float64{m}, Cov: []float64{math.Exp(lv)}}, p, ex, tol)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	grad := func(order int) float64 {
		f, err := FitKLqp(lp, Normal{Mean: []float64{0}, Cov: []float64{1}}, FitSettings{Order: order})
		if err != nil {
			t.Fatal(err)
		}
		m, lv, h := f.Q.Mean[0], math.Log(f.Q.Cov[0]), 1e-4
		gm := (kl(m+h, lv) - kl(m-h, lv)) / (2 * h)
		gv := (kl(m, lv+h) - kl(m, lv-h)) / (2 * h)
		return math.Hypot(gm, gv)
	}
	if g := grad(0); g > 1e-6 {
		t.Errorf("default rule: |∇KL(q‖p)| = %.3g at the fit, want < 1e-6", g)
	}
	if g := grad(64); g < 1e-3 {
		t.Errorf("64 Gauss–Hermite nodes: |∇KL(q‖p)| = %.3g, expected above 1e-3 (the control no longer differs)", g)
	}
}
