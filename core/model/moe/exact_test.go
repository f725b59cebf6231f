package moe_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/linreg"
	"github.com/vbworkbench/vbw/core/model/moe"
)

// logMultiGamma is ln Γ_d(a) = d(d−1)/4 ln π + Σ_i ln Γ(a + (1−i)/2),
// written out here so that the test does not lean on the model's numeric.
func logMultiGamma(a float64, d int) float64 {
	s := float64(d*(d-1)) / 4 * math.Log(math.Pi)
	for i := 1; i <= d; i++ {
		lg, _ := math.Lgamma(a + float64(1-i)/2)
		s += lg
	}
	return s
}

func logDet(a mat.Symmetric) float64 {
	var c mat.Cholesky
	if !c.Factorize(a) {
		panic("not SPD")
	}
	return c.LogDet()
}

// nwEvidence is ln p(X) of the points under one Gaussian with the
// Normal-Wishart prior of p (Murphy 2007, "Conjugate Bayesian analysis of
// the Gaussian distribution", eq. (266), with his Λ the inverse scale W⁻¹):
//
//	p(X) = π^(−nD/2) Γ_D(ν_n/2)/Γ_D(ν₀/2) |W₀⁻¹|^(ν₀/2)/|W_n⁻¹|^(ν_n/2) (β₀/β_n)^(D/2).
func nwEvidence(x []float64, d int, p moe.Prior) float64 {
	n := len(x) / d
	X := mat.NewDense(n, d, x)
	xbar := make([]float64, d)
	for i := 0; i < n; i++ {
		for a := 0; a < d; a++ {
			xbar[a] += x[i*d+a] / float64(n)
		}
	}
	w0 := mat.NewSymDense(d, append([]float64(nil), p.W0...))
	var w0inv mat.SymDense
	var c mat.Cholesky
	c.Factorize(w0)
	_ = c.InverseTo(&w0inv)
	wn := mat.NewSymDense(d, nil)
	wn.CopySym(&w0inv)
	for i := 0; i < n; i++ {
		r := make([]float64, d)
		for a := range r {
			r[a] = X.At(i, a) - xbar[a]
		}
		wn.SymRankOne(wn, 1, mat.NewVecDense(d, r))
	}
	dm := make([]float64, d)
	for a := range dm {
		dm[a] = xbar[a] - p.M0[a]
	}
	bn := p.Beta0 + float64(n)
	wn.SymRankOne(wn, p.Beta0*float64(n)/bn, mat.NewVecDense(d, dm))
	nn := p.Nu0 + float64(n)
	df := float64(d)
	return -float64(n)*df/2*math.Log(math.Pi) + logMultiGamma(nn/2, d) - logMultiGamma(p.Nu0/2, d) +
		p.Nu0/2*logDet(&w0inv) - nn/2*logDet(wn) + df/2*math.Log(p.Beta0/bn)
}

// ngEvidence is ln p(y | X) of the Bayesian linear regression on φ = (x, 1)
// with w | ψ ~ N(0, (ψκ₀I)⁻¹), ψ ~ Ga(a₀, b₀) (Bishop 2006, PRML exercise
// 3.12–3.13 form; Murphy 2012 eq. (7.75)):
//
//	p(y) = (2π)^(−n/2) (|κ₀I|/|Λ_n|)^(1/2) b₀^a₀/b_n^a_n Γ(a_n)/Γ(a₀),
//
// Λ_n = κ₀I + ΦᵀΦ, a_n = a₀ + n/2, b_n = b₀ + ½(yᵀy − m_nᵀΛ_n m_n).
func ngEvidence(x, y []float64, d int, p moe.Prior) float64 {
	n := len(y)
	pp := d + 1
	phi := mat.NewDense(n, pp, nil)
	for i := 0; i < n; i++ {
		for a := 0; a < d; a++ {
			phi.Set(i, a, x[i*d+a])
		}
		phi.Set(i, d, 1)
	}
	ln := mat.NewSymDense(pp, nil)
	ln.SymOuterK(1, phi.T())
	for a := 0; a < pp; a++ {
		ln.SetSym(a, a, ln.At(a, a)+p.Kappa0)
	}
	yv := mat.NewVecDense(n, y)
	var g, mn mat.VecDense
	g.MulVec(phi.T(), yv)
	var c mat.Cholesky
	c.Factorize(ln)
	_ = c.SolveVecTo(&mn, &g)
	an := p.A0 + float64(n)/2
	bn := p.B0 + 0.5*(mat.Dot(yv, yv)-mat.Dot(&mn, &g))
	la, _ := math.Lgamma(an)
	l0, _ := math.Lgamma(p.A0)
	return -float64(n)/2*math.Log(2*math.Pi) + 0.5*(float64(pp)*math.Log(p.Kappa0)-logDet(ln)) +
		p.A0*math.Log(p.B0) - an*math.Log(bn) + la - l0
}

func testPrior(d int) moe.Prior {
	p := moe.DefaultPrior(d)
	p.Beta0, p.Kappa0, p.A0, p.B0 = 0.5, 0.3, 2, 0.1
	p.M0[0] = 0.2
	p.W0[0] = 0.8
	if d > 1 {
		p.W0[1], p.W0[d] = 0.1, 0.1
	}
	return p
}

// TestOneComponentExact checks that with K = 1 the bound is the exact log
// evidence, ln p(X) under the Normal-Wishart prior plus ln p(y | X) of the
// Normal-gamma linear regression, computed here independently with gonum:
// with one component q(s) is certain and every other factor is the exact
// posterior.
func TestOneComponentExact(t *testing.T) {
	for _, d := range []int{1, 2, 5} {
		x, y := piecewise(rand.New(rand.NewPCG(uint64(d), 1)), 40, d, 0.2)
		p := testPrior(d)
		m, err := moe.NewVB(x, y, d, 1, p, moe.Settings{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		want := nwEvidence(x, d, p) + ngEvidence(x, y, d, p)
		if math.Abs(b.F-want) > 1e-9*math.Abs(want) {
			t.Errorf("D=%d: F = %.12f, exact ln p(X, y) = %.12f", d, b.F, want)
		}
	}
}

// TestOneExpertIsLinreg compares the expert's evidence with core/model/linreg
// where the two models meet: linreg's noise precision β is known, which is
// the limit a₀ → ∞ of ψ ~ Ga(a₀, a₀/β); w | ψ ~ N(0, (ψκ₀)⁻¹I) is then
// N(0, α⁻¹I) with α = βκ₀. The expert's part of F (F less the input
// evidence) must approach linreg's ln p(t | α) as a₀ grows, the gap falling
// like 1/a₀.
func TestOneExpertIsLinreg(t *testing.T) {
	const d, beta, alpha = 2, 20.0, 0.5
	x, y := piecewise(rand.New(rand.NewPCG(9, 1)), 30, d, 0.2)
	phi := mat.NewDense(len(y), d+1, nil)
	for i := range y {
		phi.Set(i, 0, x[i*d])
		phi.Set(i, 1, x[i*d+1])
		phi.Set(i, 2, 1)
	}
	prob, err := linreg.NewProblem(phi, y, beta)
	if err != nil {
		t.Fatal(err)
	}
	want := prob.LogLik(alpha)
	var prevGap float64
	for i, a0 := range []float64{1e4, 1e6} {
		p := testPrior(d)
		p.A0, p.B0, p.Kappa0 = a0, a0/beta, alpha/beta
		m, err := moe.NewVB(x, y, d, 1, p, moe.Settings{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := m.E()
		gap := math.Abs(b.F - nwEvidence(x, d, p) - want)
		if i > 0 && !(gap < prevGap/50) {
			t.Errorf("a0=%g: gap %.3g did not fall like 1/a0 from %.3g", a0, gap, prevGap)
		}
		prevGap = gap
	}
	if prevGap > 1e-4 {
		t.Errorf("expert evidence at a0=1e6 is %.3g from linreg's ln p(t|α) = %.9f", prevGap, want)
	}
}

// TestPredictOneComponent checks E[y | x] at K = 1 against the Bayesian
// linear regression's posterior mean m_n = Λ_n⁻¹Φᵀy computed with gonum.
func TestPredictOneComponent(t *testing.T) {
	const d = 3
	x, y := piecewise(rand.New(rand.NewPCG(2, 7)), 50, d, 0.1)
	p := testPrior(d)
	m, err := moe.NewVB(x, y, d, 1, p, moe.Settings{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := len(y)
	phi := mat.NewDense(n, d+1, nil)
	for i := 0; i < n; i++ {
		for a := 0; a < d; a++ {
			phi.Set(i, a, x[i*d+a])
		}
		phi.Set(i, d, 1)
	}
	ln := mat.NewSymDense(d+1, nil)
	ln.SymOuterK(1, phi.T())
	for a := 0; a <= d; a++ {
		ln.SetSym(a, a, ln.At(a, a)+p.Kappa0)
	}
	var g, mn mat.VecDense
	g.MulVec(phi.T(), mat.NewVecDense(n, y))
	var c mat.Cholesky
	c.Factorize(ln)
	_ = c.SolveVecTo(&mn, &g)
	q := []float64{0.3, -0.2, 0.5}
	want := mn.AtVec(d)
	for a, v := range q {
		want += mn.AtVec(a) * v
	}
	if got := m.Predict(q, make([]float64, 1)); math.Abs(got-want) > 1e-12 {
		t.Errorf("Predict = %.15f, posterior mean %.15f", got, want)
	}
}
