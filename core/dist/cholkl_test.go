package dist

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/numeric"
)

// cholOfInverse returns the flat lower Cholesky factor of s⁻¹.
func cholOfInverse(t *testing.T, s *mat.SymDense) []float64 {
	t.Helper()
	var inv mat.SymDense
	var c mat.Cholesky
	if !c.Factorize(s) {
		t.Fatal("not SPD")
	}
	if err := c.InverseTo(&inv); err != nil {
		t.Fatal(err)
	}
	return cholOf(t, &inv)
}

// cholOf returns the flat lower Cholesky factor of a.
func cholOf(t *testing.T, a *mat.SymDense) []float64 {
	t.Helper()
	d := a.SymmetricDim()
	l := make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			l[i*d+j] = a.At(i, j)
		}
	}
	if !numeric.CholFactor(l, d) {
		t.Fatal("not SPD")
	}
	return l
}

// TestNormalWishartKLChol checks the flat Normal-Wishart KL against its
// oracles, KLWishart + ExpectedCondKL with E[Λ] = ν_qS_q: for q(μ|Λ) =
// N(m_q, (β_qΛ)⁻¹) the expected conditional KL at Λ is the Gaussian KL with
// Σ = Λ⁻¹/β, whose Λ-dependent Mahalanobis term averages to
// β_p ν_q (m_q−m_p)ᵀS_q(m_q−m_p) and whose other terms do not depend on Λ.
func TestNormalWishartKLChol(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 5))
	for it := 0; it < 60; it++ {
		d := 1 + rnd.IntN(6)
		sq, sp := randSPD(rnd, d, 0.2), randSPD(rnd, d, 0.3)
		nuQ, nuP := float64(d-1)+logUniform(rnd, 0.5, 50), float64(d-1)+logUniform(rnd, 0.5, 10)
		bQ, bP := logUniform(rnd, 0.01, 100), logUniform(rnd, 0.001, 10)
		mq, mp := randVec(rnd, d, 1), randVec(rnd, d, 1)
		want := KLWishart(mustWishart(nuQ, sq), mustWishart(nuP, sp))
		// E KL_N with unit-β Gaussians scaled: ½[Dβ_p/β_q − D + D ln(β_q/β_p)] + ½β_pν_q‖·‖²_{S_q}.
		id := mat.NewSymDense(d, nil)
		for i := 0; i < d; i++ {
			id.SetSym(i, i, 1/bQ)
		}
		idp := mat.NewSymDense(d, nil)
		for i := 0; i < d; i++ {
			idp.SetSym(i, i, 1/bP)
		}
		// The Gaussian KL of N(m_q, I/β_q) against N(m_p, I/β_p) gives the
		// Λ-free terms plus ½β_p‖m_q − m_p‖²; replace the latter by its
		// average under q(Λ).
		gk := ExpectedCondKL(0, mustGaussian(mq, id), mustGaussian(mp, idp))
		var sm mat.VecDense
		dm := mat.NewVecDense(d, nil)
		dm.SubVec(mat.NewVecDense(d, mq), mat.NewVecDense(d, mp))
		sm.MulVec(sq, dm)
		want += gk + 0.5*bP*nuQ*mat.Dot(dm, &sm)
		got := NormalWishartKL(d, NormalWishartChol{Beta: bQ, Nu: nuQ, Mean: mq, L: cholOfInverse(t, sq)},
			NormalWishartChol{Beta: bP, Nu: nuP, Mean: mp, L: cholOfInverse(t, sp)}, make([]float64, d*d+d))
		if !(relErr(got, want) <= 1e-10) {
			t.Errorf("d=%d: NormalWishartKL = %.15g, oracle %.15g", d, got, want)
		}
	}
	// KL(q ‖ q) = 0.
	s := sym(2, 2, 0.5, 0.5, 1)
	q := NormalWishartChol{Beta: 3, Nu: 5, Mean: []float64{1, -1}, L: cholOfInverse(t, s)}
	if kl := NormalWishartKL(2, q, q, make([]float64, 6)); !(kl > -1e-14 && kl < 1e-14) {
		t.Errorf("KL(q‖q) = %v", kl)
	}
}

// TestNormalGammaKLChol checks the flat Normal-gamma KL against
// KLNormalGamma with Σ = P⁻¹.
func TestNormalGammaKLChol(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 6))
	for it := 0; it < 60; it++ {
		d := 1 + rnd.IntN(7)
		pq, pp := randSPD(rnd, d, 0.2), randSPD(rnd, d, 0.3)
		aq, bq := logUniform(rnd, 0.1, 100), logUniform(rnd, 0.01, 10)
		ap, bp := logUniform(rnd, 0.01, 10), logUniform(rnd, 0.001, 10)
		mq, mp := randVec(rnd, d, 1), randVec(rnd, d, 1)
		var sq, sp mat.SymDense
		var c mat.Cholesky
		c.Factorize(pq)
		_ = c.InverseTo(&sq)
		c.Factorize(pp)
		_ = c.InverseTo(&sp)
		want := KLNormalGamma(mustNormalGamma(aq, bq, mq, &sq), mustNormalGamma(ap, bp, mp, &sp))
		got := NormalGammaKL(d, NormalGammaChol{A: aq, B: bq, Mean: mq, L: cholOf(t, pq)},
			NormalGammaChol{A: ap, B: bp, Mean: mp, L: cholOf(t, pp)}, make([]float64, d*d+d))
		if !(relErr(got, want) <= 1e-9) {
			t.Errorf("d=%d: NormalGammaKL = %.15g, KLNormalGamma %.15g", d, got, want)
		}
	}
}

// TestCholKLAllocs checks that the flat KLs do not allocate.
func TestCholKLAllocs(t *testing.T) {
	s := sym(2, 2, 0.5, 0.5, 1)
	l := cholOfInverse(t, s)
	q := NormalWishartChol{Beta: 3, Nu: 5, Mean: []float64{1, -1}, L: l}
	g := NormalGammaChol{A: 2, B: 3, Mean: []float64{1, -1}, L: l}
	w := make([]float64, 6)
	if n := testing.AllocsPerRun(20, func() { NormalWishartKL(2, q, q, w); NormalGammaKL(2, g, g, w) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
