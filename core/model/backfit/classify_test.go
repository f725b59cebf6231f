package backfit_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/model/backfit"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// classes draws n points of d standard-normal inputs labelled ±1 by the
// sign of 2x_1 − x_2 + noise.
func classes(t testing.TB, n, d int, seed uint64) *backfit.Problem {
	t.Helper()
	rnd := rand.New(rand.NewPCG(seed, 5))
	x, y := make([]float64, n*d), make([]float64, n)
	for i := 0; i < n; i++ {
		for m := 0; m < d; m++ {
			x[i*d+m] = rnd.NormFloat64()
		}
		a := 2*x[i*d] + 0.5*rnd.NormFloat64()
		if d > 1 {
			a -= x[i*d+1]
		}
		y[i] = 1
		if a < 0 {
			y[i] = -1
		}
	}
	p, err := backfit.NewProblem(x, d, y)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestClassifierConformance runs the conformance suite on backfitting
// classification, shared α and ARD, ψ_z fitted and fixed.
func TestClassifierConformance(t *testing.T) {
	prior := backfit.Prior{A: 1e-3, B: 1e-3}
	for _, c := range []struct{ n, d int }{{40, 2}, {60, 8}, {10, 12}} {
		p := classes(t, c.n, c.d, uint64(c.n))
		for _, s := range []backfit.Settings{{}, {ARD: true}, {ARD: true, FixNoise: true}} {
			t.Run(fmt.Sprintf("n=%d,d=%d,ard=%v,fix=%v", c.n, c.d, s.ARD, s.FixNoise), func(t *testing.T) {
				vbtest.CheckModel(t, func() vb.Model {
					m, err := backfit.NewClassifier(p, prior, s)
					if err != nil {
						t.Fatal(err)
					}
					return m
				}, vbtest.CheckOptions{Iterations: 30})
			})
		}
	}
}

// TestClassifierBelowEvidence: for d = 1 with α pinned by a tight prior
// (shape 10⁶) and ψ_z fixed, the exact ln p(y) = ln ∫ N(b; 0, 1/α) Π_i
// ∫ g(y_i u) N(u; b f_i, ψ_z) du db is a nested quadrature; the bound of
// every iteration lies below it, and the gap at convergence (the JJ bound,
// q(Z)q(b) and q(α)'s width) is reported.
func TestClassifierBelowEvidence(t *testing.T) {
	p := classes(t, 15, 1, 3)
	const alpha, psi = 1.0, 0.5
	prior := backfit.Prior{A: 1e6, B: 1e6 / alpha}
	inner := func(mean, y float64) float64 {
		v, err := numeric.Integrate(func(u float64) float64 {
			return math.Exp(approx.LogSigmoid(y*u) - (u-mean)*(u-mean)/(2*psi))
		}, mean-12*math.Sqrt(psi), mean+12*math.Sqrt(psi), numeric.QuadTol{Rel: 1e-12})
		if err != nil {
			t.Fatal(err)
		}
		return math.Log(v / math.Sqrt(2*math.Pi*psi))
	}
	logJoint := func(b float64) float64 {
		l := 0.5*math.Log(alpha/(2*math.Pi)) - 0.5*alpha*b*b
		for i := 0; i < p.N(); i++ {
			l += inner(b*p.Row(i)[0], p.Y()[i])
		}
		return l
	}
	peak := logJoint(0)
	z, err := numeric.Integrate(func(b float64) float64 { return math.Exp(logJoint(b) - peak) }, -10, 10, numeric.QuadTol{Rel: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	lnZ := peak + math.Log(z)
	m, err := backfit.NewClassifier(p, prior, backfit.Settings{FixNoise: true, Noise: backfit.Noise{PsiZ: psi}})
	if err != nil {
		t.Fatal(err)
	}
	r := vb.Run(m, vb.Settings{MaxIterations: 5000, AbsTol: 1e-10, Recorder: func(it vb.Iteration) {
		if it.F > lnZ+1e-9 {
			t.Errorf("iteration %d: F = %.10g above ln p(y) = %.10g", it.Iter, it.F, lnZ)
		}
	}})
	if err := r.Error(); err != nil {
		t.Fatal(err)
	}
	t.Logf("F = %.6f, ln p(y) = %.6f, gap %.4g after %d iterations (b = %.3f)", r.F, lnZ, lnZ-r.F, r.Iterations, m.Mean()[0])
	if lnZ-r.F > 2 {
		t.Errorf("gap %g nats: implausibly loose for 15 points", lnZ-r.F)
	}
}

// TestClassifierSeparates: on 300 points of 10 inputs of which two decide
// the class, ARD classification keeps those two (E[α] < 10) and prunes
// the rest, and classifies the training points with under 10% error.
func TestClassifierSeparates(t *testing.T) {
	p := classes(t, 300, 10, 11)
	m, err := backfit.NewClassifier(p, backfit.Prior{A: 1e-4, B: 1e-4}, backfit.Settings{ARD: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := vb.Run(m, vb.Settings{MaxIterations: 3000}); r.Error() != nil {
		t.Fatal(r.Error())
	}
	errs := 0
	for i := 0; i < p.N(); i++ {
		if _, _, pr := m.Predict(p.Row(i)); (pr > 0.5) != (p.Y()[i] > 0) {
			errs++
		}
	}
	for k := 0; k < 10; k++ {
		if kept := m.Alpha(k) < 10; kept != (k < 2) {
			t.Errorf("input %d: E[α] = %.3g, mean %.3g", k, m.Alpha(k), m.Mean()[k])
		}
	}
	if errs > 30 {
		t.Errorf("%d training errors of 300", errs)
	}
	t.Logf("%d training errors; b = %.3f", errs, m.Mean())
}

// TestPhiIsTanhForm: the φ(ξ) of eq. 4.31 with the targets' erratum,
// tanh(ξ/2)/(4ξ) (L1702 prints tan), is core/approx's JJLambda, (g(ξ) −
// ½)/(2ξ); the printed tan form differs (and is negative past ξ = π). The
// bound itself (≤ ln g everywhere, tight at ξ = ±x) is tested in
// core/approx (TestJJBoundBelowLogSigmoid); here at the ξ = 3, 7 of Fig 4.8.
func TestPhiIsTanhForm(t *testing.T) {
	for xi := 0.01; xi < 20; xi += 0.37 {
		if want := math.Tanh(xi/2) / (4 * xi); math.Abs(approx.JJLambda(xi)-want) > 1e-12*want { // (g − ½)/(2ξ) cancels ~ε/ξ
			t.Errorf("φ(%g) = %.17g, tanh form %.17g", xi, approx.JJLambda(xi), want)
		}
	}
	if math.Tan(4.0/2)/(4*4.0) >= 0 {
		t.Error("the printed tan form should be negative at ξ = 4")
	}
	for _, xi := range []float64{3, 7} {
		for x := -15.0; x <= 15; x += 0.01 {
			if b := approx.JJLogSigmoidBound(x, xi); b > approx.LogSigmoid(x)+1e-13 {
				t.Fatalf("ξ = %g: bound %g above ln g(%g) = %g", xi, b, x, approx.LogSigmoid(x))
			}
		}
		if d := approx.JJLogSigmoidBound(xi, xi) - approx.LogSigmoid(xi); math.Abs(d) > 1e-14 {
			t.Errorf("ξ = %g: not tight at x = ξ (%g)", xi, d)
		}
		if d := approx.JJLogSigmoidBound(-xi, xi) - approx.LogSigmoid(-xi); math.Abs(d) > 1e-14 {
			t.Errorf("ξ = %g: not tight at x = −ξ (%g)", xi, d)
		}
	}
}
