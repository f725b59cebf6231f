package dist

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestNormalGammaChainRuleMC(t *testing.T) {
	// KL(q(c,ρ) ‖ p(c,ρ)) = KL(q(ρ) ‖ p(ρ)) + E_q(ρ)[KL(q(c|ρ) ‖ p(c|ρ))]
	// (Beal (2003) eqs. (C.18)–(C.23)): average the conditional Gaussian KL
	// over draws of ρ.
	for _, qp := range [][2]*NormalGamma{
		{mustNormalGamma(3, 2, []float64{1, -2}, sym(2, 2, 0.5, 0.5, 1)),
			mustNormalGamma(2, 1, []float64{0, -1}, sym(2, 1, 0, 0, 3))},
		{mustNormalGamma(0.8, 0.3, []float64{0.5, 1.2, -0.8}, sym(3, 1.5, 0.3, -0.2, 0.3, 1, 0.4, -0.2, 0.4, 2)),
			mustNormalGamma(5, 4, []float64{0, 1, 0}, sym(3, 1, 0.2, 0, 0.2, 2, 0.1, 0, 0.1, 1))},
	} {
		q, p := qp[0], qp[1]
		rnd := rand.New(rand.NewPCG(1, 1))
		n := mcSamples()
		vals := make([]float64, n)
		for i := range vals {
			rho := q.Rho().Rand(rnd)
			vals[i] = KLGaussian(q.Conditional(rho), p.Conditional(rho))
		}
		mean, se := meanSE(vals)
		want := KLNormalGamma(q, p) - KLGamma(q.Rho(), p.Rho())
		if !(math.Abs(mean-want) <= 4*se) {
			t.Errorf("MC E[KL(c|ρ)] = %.6g ± %.2g, ExpectedCondKL = %.6g", mean, se, want)
		}
		if got := ExpectedCondKL(q.MeanRho(), q.cond, p.cond); math.Abs(got-want) > 1e-14*math.Max(1, want) {
			t.Errorf("ExpectedCondKL = %v, KLNormalGamma − KLGamma = %v", got, want)
		}
	}
}

func TestExpectedCondKLReducesToGaussianKL(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 14))
	for i := 0; i < 100; i++ {
		d := 1 + rnd.IntN(4)
		q := mustGaussian(randVec(rnd, d, 2), randSPD(rnd, d, 0.2))
		p := mustGaussian(randVec(rnd, d, 2), randSPD(rnd, d, 0.2))
		if a, b := ExpectedCondKL(1, q, p), KLGaussian(q, p); math.Abs(a-b) > 1e-14*math.Max(1, b) {
			t.Errorf("ExpectedCondKL(1, q, p) = %v, KLGaussian = %v", a, b)
		}
		// Only the Mahalanobis term scales with E[ρ]: with equal means the
		// expected conditional KL does not depend on E[ρ] (Appendix C.3).
		p2 := mustGaussian(q.Mean(nil), randSPD(rnd, d, 0.2))
		if a, b := ExpectedCondKL(0.01, q, p2), ExpectedCondKL(100, q, p2); math.Abs(a-b) > 1e-13*math.Max(1, b) {
			t.Errorf("equal means: ExpectedCondKL depends on E[ρ]: %v vs %v", a, b)
		}
	}
}

func TestNormalGammaMoments(t *testing.T) {
	ng := mustNormalGamma(6, 3, []float64{1, -2}, sym(2, 2, 0.5, 0.5, 1))
	if ng.MeanRho() != 2 {
		t.Errorf("E[ρ] = %v, want 2", ng.MeanRho())
	}
	rc := ng.MeanRhoC(nil)
	if rc[0] != 2 || rc[1] != -4 {
		t.Errorf("E[ρc] = %v, want (2, −4)", rc)
	}
	var o mat.SymDense
	ng.MeanRhoOuter(&o)
	if want := sym(2, 4, -3.5, -3.5, 9); !mat.EqualApprox(&o, want, 1e-15) {
		t.Errorf("E[ρccᵀ] = %v", mat.Formatted(&o))
	}
	// Marginal covariance of c (Student-t): b/(a−1)·Σ = 0.6Σ. Monte Carlo
	// with the known mean: the mean of (c_i − m_i)(c_j − m_j).
	var cov mat.SymDense
	if !ng.MarginalCovariance(&cov) {
		t.Fatal("MarginalCovariance not defined for a = 6")
	}
	rnd := rand.New(rand.NewPCG(1, 1))
	n := mcSamples()
	prod := [3][]float64{make([]float64, n), make([]float64, n), make([]float64, n)}
	c := make([]float64, 2)
	for s := 0; s < n; s++ {
		ng.Rand(c, rnd)
		d0, d1 := c[0]-1, c[1]+2
		prod[0][s], prod[1][s], prod[2][s] = d0*d0, d0*d1, d1*d1
	}
	for k, ij := range [][2]int{{0, 0}, {0, 1}, {1, 1}} {
		mean, se := meanSE(prod[k])
		if want := cov.At(ij[0], ij[1]); !(math.Abs(mean-want) <= 4*se) {
			t.Errorf("Cov[c]_%v = %.5g ± %.2g by MC, b/(a−1)Σ = %.5g", ij, mean, se, want)
		}
	}
	if mustNormalGamma(1, 1, []float64{0}, sym(1, 1)).MarginalCovariance(&mat.SymDense{}) {
		t.Error("MarginalCovariance defined for a = 1")
	}
	if !panics(func() { ng.Conditional(0) }) {
		t.Error("Conditional(0) did not panic")
	}
	if !panics(func() { KLNormalGamma(ng, mustNormalGamma(1, 1, []float64{0}, sym(1, 1))) }) {
		t.Error("KLNormalGamma across dimensions did not panic")
	}
}
