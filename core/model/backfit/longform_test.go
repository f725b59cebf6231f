package backfit_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/backfit"
)

// longForm returns F = E[ln p(y|Z)] + E[ln p(Z|b)] + E[ln p(b|α)] + E[ln p(α)]
// + H[q(Z)] + H[q(b)] + H[q(α)] term by term from the q's of m, with q(Z)
// written out in full: ⟨z_i⟩ and the d×d covariance Σ_z = Ψ − ψψᵀ/s of eqs.
// B.15-B.16 (⟨b⟩ for b), its entropy from a log-determinant.
func longForm(p *backfit.Problem, m *backfit.VB, prior backfit.Prior) float64 {
	n, d := p.N(), p.D()
	psi, py := m.PsiZ(), m.PsiY()
	s := py
	for _, v := range psi {
		s += v
	}
	sig := mat.NewSymDense(d, nil)
	for a := 0; a < d; a++ {
		for b := a; b < d; b++ {
			v := -psi[a] * psi[b] / s
			if a == b {
				v += psi[a]
			}
			sig.SetSym(a, b, v)
		}
	}
	oneSig1 := 0.0
	for a := 0; a < d; a++ {
		for b := 0; b < d; b++ {
			oneSig1 += sig.At(a, b)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(sig) {
		panic("Σ_z not positive definite")
	}
	f := 0.0
	mu, v := m.Mean(), m.Var()
	for i := 0; i < n; i++ {
		row := p.Row(i)
		r := p.Y()[i]
		for k := range row {
			r -= mu[k] * row[k]
		}
		sumZ := 0.0
		for k := range row {
			z := mu[k]*row[k] + psi[k]*r/s
			sumZ += z
			e := (z-mu[k]*row[k])*(z-mu[k]*row[k]) + sig.At(k, k) + v[k]*row[k]*row[k]
			f += -0.5*math.Log(2*math.Pi*psi[k]) - e/(2*psi[k])
		}
		e := (p.Y()[i]-sumZ)*(p.Y()[i]-sumZ) + oneSig1
		f += -0.5*math.Log(2*math.Pi*py) - e/(2*py)
		f += 0.5 * (float64(d)*(1+math.Log(2*math.Pi)) + ch.LogDet())
	}
	pr := dist.Gamma{Alpha: prior.A, Beta: prior.B}
	nAlpha := 1
	if m.ARD() {
		nAlpha = d
	}
	for k := 0; k < d; k++ {
		qa := m.QAlpha(k)
		f += -0.5*math.Log(2*math.Pi) + 0.5*qa.MeanLog() - 0.5*qa.Mean()*(mu[k]*mu[k]+v[k])
		f += 0.5 * math.Log(2*math.Pi*math.E*v[k])
	}
	for k := 0; k < nAlpha; k++ {
		qa := m.QAlpha(k)
		f += (pr.Alpha-1)*qa.MeanLog() - pr.Beta*qa.Mean() - pr.LogNormalizer() + qa.Entropy()
	}
	return f
}

// TestBoundLongForm: the closed form of VB.E equals the bound written out
// term by term with q(Z) in full, after a few iterations (so that q(b),
// q(α) and ψ are away from their start), shared α and ARD.
func TestBoundLongForm(t *testing.T) {
	prior := backfit.Prior{A: 1.5, B: 0.2}
	for _, ard := range []bool{false, true} {
		p := synth(t, 12, 4, 2, 0.3, 99)
		m, err := backfit.NewVB(p, prior, backfit.Settings{ARD: ard})
		if err != nil {
			t.Fatal(err)
		}
		for it := 0; it < 7; it++ {
			if _, err := m.E(); err != nil {
				t.Fatal(err)
			}
			m.M()
		}
		b, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		want := longForm(p, m, prior)
		if math.Abs(b.F-want) > 1e-10*math.Abs(want) {
			t.Errorf("ard=%v: F = %.12g, long form %.12g", ard, b.F, want)
		}
		sum := 0.0
		for _, tm := range b.Terms {
			sum += tm.Value
		}
		if math.Abs(sum-b.F) > 1e-12*math.Abs(b.F) {
			t.Errorf("terms sum to %v, F %v", sum, b.F)
		}
	}
}
