package backfit_test

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/backfit"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestStudentTConformance runs the conformance suite on the alternative
// factorisation Q(Z)Q(b, α), shared α and ARD, ψ fitted and fixed.
func TestStudentTConformance(t *testing.T) {
	prior := backfit.Prior{A: 1e-2, B: 1e-2}
	for _, c := range []struct{ n, d, rel int }{{30, 3, 2}, {50, 12, 3}, {8, 15, 2}} {
		p := synth(t, c.n, c.d, c.rel, 0.3, uint64(c.n+2*c.d))
		for _, s := range []backfit.Settings{{}, {ARD: true}, {FixNoise: true}, {ARD: true, FixNoise: true}} {
			t.Run(fmt.Sprintf("n=%d,d=%d,ard=%v,fix=%v", c.n, c.d, s.ARD, s.FixNoise), func(t *testing.T) {
				vbtest.CheckModel(t, func() vb.Model {
					m, err := backfit.NewStudentT(p, prior, s)
					if err != nil {
						t.Fatal(err)
					}
					return m
				}, vbtest.CheckOptions{Iterations: 30})
			})
		}
	}
}

// TestStudentTMarginal: the Student-t marginal of b_k (MarginalB) is
// ∫ N(b; μ_bk, σ̃²_k/α) Gamma(α; â, b̂) dα, computed by quadrature at
// points across its bulk and tails, for shared α and ARD.
func TestStudentTMarginal(t *testing.T) {
	p := synth(t, 20, 3, 2, 0.5, 4)
	for _, ard := range []bool{false, true} {
		m, err := backfit.NewStudentT(p, backfit.Prior{A: 1, B: 1}, backfit.Settings{ARD: ard})
		if err != nil {
			t.Fatal(err)
		}
		if r := vb.Run(m, vb.Settings{MaxIterations: 200}); r.Error() != nil {
			t.Fatal(r.Error())
		}
		for k := 0; k < 3; k++ {
			qa := m.QAlpha(k)
			_, loc, s2 := m.MarginalB(k)
			for _, z := range []float64{-6, -2, -0.5, 0, 0.3, 1, 4, 10} {
				b := loc + z*math.Sqrt(s2)
				f := func(u float64) float64 { // α = e^u
					a := math.Exp(u)
					v := m.CondVar(k) / a
					return math.Exp(qa.LogProb(a) + u - 0.5*math.Log(2*math.Pi*v) - (b-m.Mean()[k])*(b-m.Mean()[k])/(2*v))
				}
				c := math.Log(qa.Mean())
				var breaks []float64 // unit pieces: the integrand is narrow in ln α
				for u := c - 30; u <= c+30; u++ {
					breaks = append(breaks, u)
				}
				want, _, err := numeric.IntegrateBreaks(f, breaks, numeric.QuadTol{Rel: 1e-12})
				if err != nil {
					t.Fatal(err)
				}
				got := math.Exp(m.LogMarginalB(k, b))
				if math.Abs(got-want) > 1e-9*want {
					t.Errorf("ard=%v b_%d at z = %g: t density %.12g, quadrature %.12g", ard, k, z, got, want)
				}
			}
		}
	}
}

// TestStudentTBelowEvidence: with ψ fixed and a shared α, the model of eq.
// 4.30 has y | α ~ N(0, (ψ_y + Σψ_z/α)I + FFᵀ/α); ln p(y|ψ) by quadrature
// over α bounds F at every iteration.
func TestStudentTBelowEvidence(t *testing.T) {
	prior := backfit.Prior{A: 2, B: 0.5}
	for _, c := range []struct{ n, d int }{{20, 1}, {25, 4}} {
		p := synth(t, c.n, c.d, 1, 0.4, uint64(c.n*3+c.d))
		psiY, psiZ := 0.1, 0.06/float64(c.d)
		f, y := design(p)
		g := dist.Gamma{Alpha: prior.A, Beta: prior.B}
		lf := func(u float64) float64 {
			a := math.Exp(u)
			var cov mat.SymDense
			cov.SymOuterK(1/a, f)
			for i := 0; i < c.n; i++ {
				cov.SetSym(i, i, cov.At(i, i)+psiY+float64(c.d)*psiZ/a)
			}
			var ch mat.Cholesky
			if !ch.Factorize(&cov) {
				panic("not positive definite")
			}
			var z mat.VecDense
			if err := ch.SolveVecTo(&z, y); err != nil {
				panic(err)
			}
			return -0.5*(float64(c.n)*math.Log(2*math.Pi)+ch.LogDet()) - 0.5*mat.Dot(y, &z) + g.LogProb(a) + u
		}
		peak := math.Inf(-1)
		for u := -20.0; u <= 20; u += 0.05 {
			peak = math.Max(peak, lf(u))
		}
		v, err := numeric.Integrate(func(u float64) float64 { return math.Exp(lf(u) - peak) }, -20, 20, numeric.QuadTol{Rel: 1e-10})
		if err != nil {
			t.Fatal(err)
		}
		lnZ := peak + math.Log(v)
		m, err := backfit.NewStudentT(p, prior, backfit.Settings{Noise: backfit.Noise{PsiY: psiY, PsiZ: psiZ}, FixNoise: true})
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
		t.Logf("n=%d d=%d: F = %.6f, ln p(y|ψ) = %.6f, gap %.4g after %d iterations", c.n, c.d, r.F, lnZ, lnZ-r.F, r.Iterations)
	}
}

// TestStudentTLongForm: StudentT.E's closed form equals the bound written
// out term by term, E[ln p(y|Z)] + E[ln p(Z|b,α)] + E[ln p(b|α)] + E[ln p(α)]
// + H[q(Z)] + H[q(b,α)], with q(Z) in full (Σ_z = Ψ̃ − ψ̃ψ̃ᵀ/s̃) and H[q(b,α)] =
// H[q(α)] + Σ_m E_α H[N(μ_bm, σ̃²_m/α)], after a few iterations.
func TestStudentTLongForm(t *testing.T) {
	prior := backfit.Prior{A: 1.5, B: 0.7}
	for _, ard := range []bool{false, true} {
		p := synth(t, 12, 4, 2, 0.3, 7)
		m, err := backfit.NewStudentT(p, prior, backfit.Settings{ARD: ard})
		if err != nil {
			t.Fatal(err)
		}
		for it := 0; it < 6; it++ {
			if _, err := m.E(); err != nil {
				t.Fatal(err)
			}
			m.M()
		}
		b, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		n, d := p.N(), p.D()
		psi, py, mu := m.PsiZ(), m.PsiY(), m.Mean()
		ea := func(k int) float64 { return m.QAlpha(k).Mean() }
		el := func(k int) float64 { return m.QAlpha(k).MeanLog() }
		pt := make([]float64, d)
		s := py
		for k := range pt {
			pt[k] = psi[k] / ea(k)
			s += pt[k]
		}
		sig := mat.NewSymDense(d, nil)
		one := 0.0
		for a := 0; a < d; a++ {
			for c := a; c < d; c++ {
				v := -pt[a] * pt[c] / s
				if a == c {
					v += pt[a]
				}
				sig.SetSym(a, c, v)
			}
		}
		for a := 0; a < d; a++ {
			for c := 0; c < d; c++ {
				one += sig.At(a, c)
			}
		}
		var ch mat.Cholesky
		ch.Factorize(sig)
		f := 0.0
		for i := 0; i < n; i++ {
			row := p.Row(i)
			r := p.Y()[i]
			for k := range row {
				r -= mu[k] * row[k]
			}
			sum := 0.0
			for k := range row {
				z := mu[k]*row[k] + pt[k]*r/s
				sum += z
				e := ea(k)*((z-mu[k]*row[k])*(z-mu[k]*row[k])+sig.At(k, k)) + row[k]*row[k]*m.CondVar(k)
				f += 0.5*el(k) - 0.5*math.Log(2*math.Pi*psi[k]) - e/(2*psi[k])
			}
			f += -0.5*math.Log(2*math.Pi*py) - ((p.Y()[i]-sum)*(p.Y()[i]-sum)+one)/(2*py)
			f += 0.5 * (float64(d)*(1+math.Log(2*math.Pi)) + ch.LogDet())
		}
		pr := dist.Gamma{Alpha: prior.A, Beta: prior.B}
		for k := 0; k < d; k++ {
			v := m.CondVar(k)
			f += 0.5*el(k) - 0.5*math.Log(2*math.Pi) - 0.5*(ea(k)*mu[k]*mu[k]+v) // E ln p(b|α)
			f += 0.5*(1+math.Log(2*math.Pi*v)) - 0.5*el(k)                       // E_α H[q(b|α)]
		}
		na := 1
		if ard {
			na = d
		}
		for k := 0; k < na; k++ {
			qa := m.QAlpha(k)
			f += (pr.Alpha-1)*qa.MeanLog() - pr.Beta*qa.Mean() - pr.LogNormalizer() + qa.Entropy()
		}
		if math.Abs(b.F-f) > 1e-10*math.Abs(f) {
			t.Errorf("ard=%v: F = %.12g, long form %.12g", ard, b.F, f)
		}
	}
}
