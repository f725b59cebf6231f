package backfit_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/backfit"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// design returns F and y of p as gonum values.
func design(p *backfit.Problem) (*mat.Dense, *mat.VecDense) {
	f := mat.NewDense(p.N(), p.D(), nil)
	for i := 0; i < p.N(); i++ {
		f.SetRow(i, p.Row(i))
	}
	return f, mat.NewVecDense(p.N(), append([]float64(nil), p.Y()...))
}

// TestEMConvergesToOLS: probabilistic backfitting's fixed point is the OLS
// solution (section 4.3.3, eqs. 4.20-4.23), here computed by QR, to 1e-6
// in every coefficient, on full-rank problems with independent and with
// correlated inputs (x_2 = x_1 + 0.5 ε).
func TestEMConvergesToOLS(t *testing.T) {
	for _, c := range []struct {
		n, d, rel int
		corr      bool
	}{{100, 5, 3, false}, {200, 20, 5, false}, {150, 8, 4, true}} {
		p := synth(t, c.n, c.d, c.rel, 0.5, uint64(3*c.n+c.d))
		if c.corr { // rebuild with column 1 strongly correlated with column 0
			x := make([]float64, c.n*c.d)
			y := append([]float64(nil), p.Y()...)
			for i := 0; i < c.n; i++ {
				copy(x[i*c.d:], p.Row(i))
				x[i*c.d+1] = x[i*c.d] + 0.5*x[i*c.d+1]
			}
			var err error
			if p, err = backfit.NewProblem(x, c.d, y); err != nil {
				t.Fatal(err)
			}
		}
		ols, err := p.OLS()
		if err != nil {
			t.Fatal(err)
		}
		m, err := backfit.NewEM(p, backfit.Noise{})
		if err != nil {
			t.Fatal(err)
		}
		r := vb.Run(m, vb.Settings{MaxIterations: 20000, Converger: vb.FixedIterations{}})
		if err := r.Error(); err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for k, b := range m.Coef() {
			worst = math.Max(worst, math.Abs(b-ols[k]))
		}
		t.Logf("n=%d d=%d corr=%v: %d iterations, max |b − b_OLS| = %.2g", c.n, c.d, c.corr, r.Iterations, worst)
		if worst > 1e-6 {
			t.Errorf("n=%d d=%d: EM differs from OLS by %g", c.n, c.d, worst)
		}
		// The log likelihood at the fixed point is that of OLS with the ML
		// noise variance s = Σr²/N (eq. 4.14).
		f, y := design(p)
		var res mat.VecDense
		res.MulVec(f, mat.NewVecDense(c.d, ols))
		res.SubVec(y, &res)
		s := mat.Dot(&res, &res) / float64(c.n)
		want := -0.5 * float64(c.n) * (math.Log(2*math.Pi*s) + 1)
		if math.Abs(r.F-want) > 1e-8*math.Abs(want) {
			t.Errorf("n=%d d=%d: ln p(y) at the fixed point %.12g, OLS's %.12g", c.n, c.d, r.F, want)
		}
	}
}

// logMarginal returns ln N(y; 0, sI + FFᵀ/α), the likelihood of eq. 4.24's
// model with b and Z integrated out (y | b ~ N(Fb, sI), b ~ N(0, I/α)).
func logMarginal(f *mat.Dense, y *mat.VecDense, s, alpha float64) float64 {
	n, _ := f.Dims()
	var c mat.SymDense
	c.SymOuterK(1/alpha, f)
	for i := 0; i < n; i++ {
		c.SetSym(i, i, c.At(i, i)+s)
	}
	var ch mat.Cholesky
	if !ch.Factorize(&c) {
		panic("not positive definite")
	}
	var z mat.VecDense
	if err := ch.SolveVecTo(&z, y); err != nil {
		panic(err)
	}
	return -0.5*(float64(n)*math.Log(2*math.Pi)+ch.LogDet()) - 0.5*mat.Dot(y, &z)
}

// logEvidence returns ln p(y | ψ) = ln ∫ N(y; 0, sI + FFᵀ/α) Gam(α) dα by
// adaptive quadrature over u = ln α.
func logEvidence(t *testing.T, p *backfit.Problem, s float64, prior backfit.Prior) float64 {
	f, y := design(p)
	g := dist.Gamma{Alpha: prior.A, Beta: prior.B}
	lf := func(u float64) float64 { a := math.Exp(u); return logMarginal(f, y, s, a) + g.LogProb(a) + u }
	peak := math.Inf(-1)
	for u := -25.0; u <= 25; u += 0.05 {
		peak = math.Max(peak, lf(u))
	}
	v, err := numeric.Integrate(func(u float64) float64 { return math.Exp(lf(u) - peak) }, -25, 25, numeric.QuadTol{Rel: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	return peak + math.Log(v)
}

// TestBoundBelowEvidence: with ψ held fixed, Bayesian backfitting with a
// shared α bounds ln p(y | ψ), which is a one-dimensional integral over α
// (computed by quadrature), at every iteration; for d = 1, where q(b)q(α)
// is the only approximation besides q(Z) and q(Z) is exact given b, the
// converged gap is small. The same holds for ARD at d = 1 (one α).
func TestBoundBelowEvidence(t *testing.T) {
	prior := backfit.Prior{A: 2, B: 0.5}
	for _, c := range []struct {
		n, d int
		ard  bool
	}{{20, 1, false}, {20, 1, true}, {25, 4, false}, {10, 6, false}} {
		p := synth(t, c.n, c.d, 1, 0.4, uint64(c.n*7+c.d))
		noise := backfit.Noise{PsiY: 0.1, PsiZ: 0.06 / float64(c.d)}
		lnZ := logEvidence(t, p, 0.16, prior)
		m, err := backfit.NewVB(p, prior, backfit.Settings{ARD: c.ard, Noise: noise, FixNoise: true})
		if err != nil {
			t.Fatal(err)
		}
		r := vb.Run(m, vb.Settings{AbsTol: 1e-11, RelTol: -1, MaxIterations: 100000, Recorder: func(it vb.Iteration) {
			if it.F > lnZ+1e-9 {
				t.Errorf("n=%d d=%d: F = %.10g above ln p(y|ψ) = %.10g at iteration %d", c.n, c.d, it.F, lnZ, it.Iter)
			}
		}})
		if err := r.Error(); err != nil {
			t.Fatal(err)
		}
		t.Logf("n=%d d=%d ard=%v: F = %.6f, ln p(y|ψ) = %.6f, gap %.4g after %d iterations", c.n, c.d, c.ard, r.F, lnZ, lnZ-r.F, r.Iterations)
	}
}

// TestVBFixedPointIsRidge: at VB's fixed point with ψ fixed, the means of
// q(b) solve (FᵀF + s diag⟨α⟩) μ = Fᵀy (eqs. 4.26, 4.29 at rest: ridge
// regression with the ridge s⟨α_m⟩ inferred), for the shared α and ARD.
func TestVBFixedPointIsRidge(t *testing.T) {
	p := synth(t, 60, 8, 3, 0.5, 5)
	f, y := design(p)
	for _, ard := range []bool{false, true} {
		noise := backfit.Noise{PsiY: 0.2, PsiZ: 0.01}
		m, err := backfit.NewVB(p, backfit.Prior{A: 1e-3, B: 1e-3}, backfit.Settings{ARD: ard, Noise: noise, FixNoise: true})
		if err != nil {
			t.Fatal(err)
		}
		r := vb.Run(m, vb.Settings{MaxIterations: 20000, Converger: vb.FixedIterations{}})
		if err := r.Error(); err != nil {
			t.Fatal(err)
		}
		s := 0.2 + 8*0.01
		var a mat.SymDense
		a.SymOuterK(1, f.T())
		for k := 0; k < 8; k++ {
			a.SetSym(k, k, a.At(k, k)+s*m.Alpha(k))
		}
		var rhs, mu mat.VecDense
		rhs.MulVec(f.T(), y)
		var ch mat.Cholesky
		if !ch.Factorize(&a) {
			t.Fatal("not positive definite")
		}
		if err := ch.SolveVecTo(&mu, &rhs); err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 8; k++ {
			if d := math.Abs(mu.AtVec(k) - m.Mean()[k]); d > 1e-7*(1+math.Abs(mu.AtVec(k))) {
				t.Errorf("ard=%v: μ_%d = %.10g, ridge %.10g", ard, k, m.Mean()[k], mu.AtVec(k))
			}
		}
	}
}
