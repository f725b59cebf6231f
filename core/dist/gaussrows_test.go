package dist

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/numeric"
)

// rowsCase is one GaussianRows built by one of the four constructors.
type rowsCase struct {
	name string
	g    *GaussianRows
}

func mustRows(g *GaussianRows, err error) *GaussianRows {
	if err != nil {
		panic(err)
	}
	return g
}

func randDense(rnd *rand.Rand, r, c int, sd float64) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m.Set(i, j, sd*rnd.NormFloat64())
		}
	}
	return m
}

func randScales(rnd *rand.Rand, r int) []float64 {
	s := make([]float64, r)
	for i := range s {
		s[i] = logUniform(rnd, 0.2, 5)
	}
	return s
}

func randPrecisions(rnd *rand.Rand, d int) []float64 {
	a := make([]float64, d)
	for j := range a {
		a[j] = logUniform(rnd, 0.1, 10)
	}
	return a
}

// rowsCases returns R×D rows from each constructor: shared covariance with
// scales, shared precision with scales, shared precision without scales,
// distinct covariances, distinct precisions.
func rowsCases(rnd *rand.Rand, r, d int) []rowsCase {
	sigmas := make([]mat.Symmetric, r)
	precs := make([]mat.Symmetric, r)
	for i := range sigmas {
		sigmas[i] = randSPD(rnd, d, 0.3)
		precs[i] = randSPD(rnd, d, 0.3)
	}
	return []rowsCase{
		{"shared covariance", mustRows(NewGaussianRows(randDense(rnd, r, d, 1), randSPD(rnd, d, 0.3), randScales(rnd, r)))},
		{"shared precision", mustRows(NewGaussianRowsPrecision(randSPD(rnd, d, 0.3), randDense(rnd, r, d, 1), randScales(rnd, r)))},
		{"shared precision unit scale", mustRows(NewGaussianRowsPrecision(randSPD(rnd, d, 0.3), randDense(rnd, r, d, 1), nil))},
		{"distinct covariances", mustRows(NewGaussianRowsDistinct(randDense(rnd, r, d, 1), sigmas))},
		{"distinct precisions", mustRows(NewGaussianRowsDistinctPrecision(precs, randDense(rnd, r, d, 1)))},
	}
}

// rowGaussian returns row r as a Gaussian, N(μ_r, c_rΣ_r).
func rowGaussian(g *GaussianRows, r int) *Gaussian {
	var c mat.SymDense
	g.CovarianceTo(&c, r)
	return mustGaussian(g.RowMeanTo(nil, r), &c)
}

// denseRows returns q(Λ) as one Gaussian over the row-major vec(Λ), of
// dimension R·D with block-diagonal covariance blockdiag(c_rΣ_r).
func denseRows(g *GaussianRows) *Gaussian {
	r, d := g.Dims()
	mu := make([]float64, 0, r*d)
	cov := mat.NewSymDense(r*d, nil)
	var c mat.SymDense
	for i := 0; i < r; i++ {
		mu = append(mu, g.RowMeanTo(nil, i)...)
		g.CovarianceTo(&c, i)
		for a := 0; a < d; a++ {
			for b := a; b < d; b++ {
				cov.SetSym(i*d+a, i*d+b, c.At(a, b))
			}
		}
	}
	return mustGaussian(mu, cov)
}

// denseARDPrior returns the prior Π_r N(0, c_r diag(α)⁻¹) as one Gaussian
// over vec(Λ).
func denseARDPrior(g *GaussianRows, alpha []float64) *Gaussian {
	r, d := g.Dims()
	cov := mat.NewSymDense(r*d, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < d; j++ {
			cov.SetSym(i*d+j, i*d+j, g.Scale(i)/alpha[j])
		}
	}
	return mustGaussian(make([]float64, r*d), cov)
}

// ardLogPrior returns ln p(Λ | α) = Σ_rj ln N(λ_rj | 0, c_r/α_j).
func ardLogPrior(g *GaussianRows, x *mat.Dense, alpha []float64) float64 {
	r, d := g.Dims()
	var lp float64
	for i := 0; i < r; i++ {
		for j := 0; j < d; j++ {
			v := g.Scale(i) / alpha[j]
			lp -= 0.5 * (ln2Pi + math.Log(v) + x.At(i, j)*x.At(i, j)/v)
		}
	}
	return lp
}

func TestGaussianRowsKLSelfIsZero(t *testing.T) {
	// Posterior equal to the prior: μ = 0 and Σ = diag(α)⁻¹, so that with
	// the shared scale c_r each row is N(0, c_r diag(α)⁻¹) on both sides.
	rnd := rand.New(rand.NewPCG(1, 1))
	for it := 0; it < 20; it++ {
		r, d := 1+rnd.IntN(6), 1+rnd.IntN(5)
		alpha := randPrecisions(rnd, d)
		sigma := mat.NewSymDense(d, nil)
		prec := mat.NewSymDense(d, nil)
		for j, a := range alpha {
			sigma.SetSym(j, j, 1/a)
			prec.SetSym(j, j, a)
		}
		sigmas := make([]mat.Symmetric, r)
		for i := range sigmas {
			sigmas[i] = sigma
		}
		zero := mat.NewDense(r, d, nil)
		for _, c := range []rowsCase{
			{"covariance, unit scale", mustRows(NewGaussianRows(zero, sigma, nil))},
			{"covariance, scales", mustRows(NewGaussianRows(zero, sigma, randScales(rnd, r)))},
			{"precision, scales", mustRows(NewGaussianRowsPrecision(prec, zero, randScales(rnd, r)))},
			{"distinct", mustRows(NewGaussianRowsDistinct(zero, sigmas))},
		} {
			if kl := KLARD(c.g, alpha); math.Abs(kl) > 1e-12 {
				t.Errorf("%s, R=%d D=%d: KLARD(q, q) = %g, want 0", c.name, r, d, kl)
			}
			if kl := KLRowDiag(c.g, r-1, nil, alpha, nil); math.Abs(kl) > 1e-12 {
				t.Errorf("%s: KLRowDiag(q, q) = %g, want 0", c.name, kl)
			}
		}
	}
}

func TestGaussianRowsKLNonNegative(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 50; it++ {
		r, d := 1+rnd.IntN(5), 1+rnd.IntN(4)
		alpha := randPrecisions(rnd, d)
		ga := make([]Gamma, d)
		for j := range ga {
			ga[j] = NewGammaShapeRate(logUniform(rnd, 0.5, 20), logUniform(rnd, 0.5, 20))
		}
		for _, c := range rowsCases(rnd, r, d) {
			if kl := KLARD(c.g, alpha); !(kl >= 0) {
				t.Errorf("%s: KLARD = %g < 0", c.name, kl)
			}
			if kl := ExpectedKLARD(c.g, ga); !(kl >= 0) {
				t.Errorf("%s: ExpectedKLARD = %g < 0", c.name, kl)
			}
		}
	}
}

// TestGaussianRowsDense checks every closed form of GaussianRows against the
// same distribution written as one dense Gaussian of dimension R·D.
func TestGaussianRowsDense(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 3))
	for it := 0; it < 10; it++ {
		r, d := 1+rnd.IntN(5), 1+rnd.IntN(4)
		alpha := randPrecisions(rnd, d)
		for _, c := range rowsCases(rnd, r, d) {
			g := c.g
			dense := denseRows(g)
			if got, want := KLARD(g, alpha), KLGaussian(dense, denseARDPrior(g, alpha)); relErr(got, want) > 1e-10 {
				t.Errorf("%s: KLARD = %.15g, dense KLGaussian = %.15g", c.name, got, want)
			}
			if got, want := g.Entropy(), dense.Entropy(); math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
				t.Errorf("%s: Entropy = %.15g, dense = %.15g", c.name, got, want)
			}
			x := g.Rand(nil, rnd)
			if got, want := g.LogProb(x), dense.LogProb(x.RawMatrix().Data); math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
				t.Errorf("%s: LogProb = %.15g, dense = %.15g", c.name, got, want)
			}
			var sumLogDet float64
			for i := 0; i < r; i++ {
				sumLogDet += g.LogDetCov(i)
			}
			if want := dense.LogDetCov(); math.Abs(sumLogDet-want) > 1e-10*math.Max(1, math.Abs(want)) {
				t.Errorf("%s: Σ_r LogDetCov = %.15g, dense ln|Σ| = %.15g", c.name, sumLogDet, want)
			}

			// Second moments: E[λ_rλ_rᵀ] = c_rΣ_r + μ_rμ_rᵀ built with mat.
			w := randVec(rnd, r, 1)
			want := mat.NewSymDense(d, nil)
			wantCol := make([]float64, d)
			var got, cov mat.SymDense
			for i := 0; i < r; i++ {
				g.CovarianceTo(&cov, i)
				mu := mat.NewVecDense(d, g.RowMeanTo(nil, i))
				var rowWant mat.SymDense
				rowWant.SymOuterK(1, mu)
				rowWant.AddSym(&rowWant, &cov)
				g.RowSecondMomentTo(&got, i)
				if !mat.EqualApprox(&got, &rowWant, 1e-13) {
					t.Errorf("%s: RowSecondMomentTo(%d) = %v, want %v", c.name, i, mat.Formatted(&got), mat.Formatted(&rowWant))
				}
				var scaled mat.SymDense
				scaled.ScaleSym(w[i], &rowWant)
				want.AddSym(want, &scaled)
				for j := range wantCol {
					wantCol[j] += rowWant.At(j, j) / g.Scale(i)
				}
			}
			g.SecondMomentTo(&got, w)
			if !mat.EqualApprox(&got, want, 1e-12) {
				t.Errorf("%s: SecondMomentTo = %v, want %v", c.name, mat.Formatted(&got), mat.Formatted(want))
			}
			col := g.ColumnSecondMomentsTo(nil)
			for j := range col {
				if relErr(col[j], wantCol[j]) > 1e-13 {
					t.Errorf("%s: ColumnSecondMomentsTo[%d] = %v, want %v", c.name, j, col[j], wantCol[j])
				}
			}
			// nil weights are unit weights.
			ones := make([]float64, r)
			for i := range ones {
				ones[i] = 1
			}
			var a, b mat.SymDense
			g.SecondMomentTo(&a, nil)
			g.SecondMomentTo(&b, ones)
			if !mat.Equal(&a, &b) {
				t.Errorf("%s: SecondMomentTo(nil) differs from unit weights", c.name)
			}
		}
	}
}

// TestGaussianRowsNoiseLinked checks the scale convention against the
// normal-gamma rows of C: with c_s = 1/ρ̄_s, KLARD is Σ_s ExpectedCondKL(ρ̄_s,
// N(μ_s, Σ), N(0, diag(γ)⁻¹)) (Appendix C.3), and the moments weighted by ρ̄
// are ⟨CᵀR⁻¹C⟩ = ⟨C⟩ᵀdiag(ρ̄)⟨C⟩ + pΣ (eq. (5.63) with no D).
func TestGaussianRowsNoiseLinked(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 4))
	const p, k = 4, 3
	gamma := randPrecisions(rnd, k)
	rhoBar := randScales(rnd, p)
	scale := make([]float64, p)
	for s, r := range rhoBar {
		scale[s] = 1 / r
	}
	sigma := randSPD(rnd, k, 0.3)
	mean := randDense(rnd, p, k, 1)
	g := mustRows(NewGaussianRows(mean, sigma, scale))
	priorCov := mat.NewSymDense(k, nil)
	for j, v := range gamma {
		priorCov.SetSym(j, j, 1/v)
	}
	prior := mustGaussian(make([]float64, k), priorCov)
	var want float64
	for s := 0; s < p; s++ {
		want += ExpectedCondKL(rhoBar[s], mustGaussian(mat.Row(nil, s, mean), sigma), prior)
	}
	if got := KLARD(g, gamma); relErr(got, want) > 1e-12 {
		t.Errorf("KLARD with c = 1/ρ̄: %.15g, Σ_s ExpectedCondKL = %.15g", got, want)
	}
	var got mat.SymDense
	g.SecondMomentTo(&got, rhoBar)
	wantM := mat.NewSymDense(k, nil)
	var md mat.Dense
	md.Mul(mean.T(), mat.NewDiagDense(p, rhoBar))
	var mm mat.Dense
	mm.Mul(&md, mean)
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			wantM.SetSym(i, j, mm.At(i, j)+p*sigma.At(i, j))
		}
	}
	if !mat.EqualApprox(&got, wantM, 1e-12) {
		t.Errorf("ρ̄-weighted SecondMomentTo = %v, want ⟨C⟩ᵀdiag(ρ̄)⟨C⟩ + pΣ = %v", mat.Formatted(&got), mat.Formatted(wantM))
	}
	// The ARD update is then γ_j = p/[⟨CᵀR⁻¹C⟩]_jj (targets ch5 §1.7).
	upd := g.ARDPrecisionTo(nil)
	for j := range upd {
		if w := p / wantM.At(j, j); relErr(upd[j], w) > 1e-12 {
			t.Errorf("ARDPrecisionTo[%d] = %v, want p/[⟨CᵀR⁻¹C⟩]_jj = %v", j, upd[j], w)
		}
	}
}

func TestGaussianRowsPrecisionMatchesCovariance(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 5))
	const r, d = 4, 3
	prec := randSPD(rnd, d, 0.2)
	b := randDense(rnd, r, d, 2)
	scale := randScales(rnd, r)
	gp := mustRows(NewGaussianRowsPrecision(prec, b, scale))

	// Σ = P⁻¹ and μ_r = Σb_r, computed with mat.
	var sigma mat.SymDense
	var chol mat.Cholesky
	if !chol.Factorize(prec) {
		t.Fatal("test precision not positive definite")
	}
	if err := chol.InverseTo(&sigma); err != nil {
		t.Fatal(err)
	}
	var mean mat.Dense
	mean.Mul(b, &sigma)
	gc := mustRows(NewGaussianRows(&mean, &sigma, scale))

	// The same precision passed as a *mat.Cholesky (as numeric.CholeskySPD
	// returns it) is used as is.
	jc, jitter, err := numeric.CholeskySPD(prec)
	if err != nil || jitter != 0 {
		t.Fatalf("CholeskySPD: jitter %v, err %v", jitter, err)
	}
	gj := mustRows(NewGaussianRowsPrecision(jc, b, scale))
	precs := make([]mat.Symmetric, r)
	sigmas := make([]mat.Symmetric, r)
	for i := range precs {
		var pi, si mat.SymDense
		pi.ScaleSym(1/scale[i], prec)
		si.ScaleSym(scale[i], &sigma)
		precs[i], sigmas[i] = &pi, &si
	}
	// Distinct rows with P_r = P/c_r and b_r/c_r are the same distribution.
	bs := mat.DenseCopyOf(b)
	for i := 0; i < r; i++ {
		for j := 0; j < d; j++ {
			bs.Set(i, j, b.At(i, j)/scale[i])
		}
	}
	gdp := mustRows(NewGaussianRowsDistinctPrecision(precs, bs))
	gdc := mustRows(NewGaussianRowsDistinct(&mean, sigmas))

	alpha := randPrecisions(rnd, d)
	x := gc.Rand(nil, rnd)
	for _, c := range []rowsCase{{"precision", gp}, {"precision from Cholesky", gj}, {"distinct precision", gdp}, {"distinct covariance", gdc}} {
		var m1, m2 mat.Dense
		c.g.MeanTo(&m1)
		gc.MeanTo(&m2)
		if !mat.EqualApprox(&m1, &m2, 1e-12) {
			t.Errorf("%s: means %v, want %v", c.name, mat.Formatted(&m1), mat.Formatted(&m2))
		}
		for i := 0; i < r; i++ {
			var s1, s2 mat.SymDense
			c.g.CovarianceTo(&s1, i)
			gc.CovarianceTo(&s2, i)
			if !mat.EqualApprox(&s1, &s2, 1e-12) {
				t.Errorf("%s: covariance of row %d %v, want %v", c.name, i, mat.Formatted(&s1), mat.Formatted(&s2))
			}
			if a, b := c.g.LogDetCov(i), gc.LogDetCov(i); math.Abs(a-b) > 1e-12 {
				t.Errorf("%s: LogDetCov(%d) = %v, want %v", c.name, i, a, b)
			}
		}
		// The prior carries the row scale: distinct rows have c_r = 1, so
		// their prior precision α/c_r gives the same KL.
		for i := 0; i < r; i++ {
			prior := make([]float64, d)
			for j := range prior {
				prior[j] = alpha[j] * c.g.Scale(i) / gc.Scale(i)
			}
			if a, b := KLRowDiag(c.g, i, nil, prior, nil), KLRowDiag(gc, i, nil, alpha, nil); relErr(a, b) > 1e-12 {
				t.Errorf("%s: KLRowDiag(%d) = %v, want %v", c.name, i, a, b)
			}
		}
		if a, b := c.g.LogProb(x), gc.LogProb(x); math.Abs(a-b) > 1e-11 {
			t.Errorf("%s: LogProb = %v, want %v", c.name, a, b)
		}
	}
	if gp.Shared() != true || gdp.Shared() != false {
		t.Error("Shared reports the wrong storage")
	}
}

// TestGaussianRowsMonteCarlo checks KLARD, KLRowDiag, the means and the row
// second moments against 1e5 draws from q, within 4 standard errors.
func TestGaussianRowsMonteCarlo(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 6))
	n := mcSamples()
	const r, d = 3, 3
	alpha := randPrecisions(rnd, d)
	m := randVec(rnd, d, 1)
	for _, c := range rowsCases(rnd, r, d) {
		g := c.g
		kls := make([]float64, n)
		rowKLs := make([]float64, n)
		// mom[r][a][b] holds the draws of λ_ra λ_rb; means[r][a] of λ_ra.
		mom := make([][]float64, r*d*d)
		means := make([][]float64, r*d)
		for i := range mom {
			mom[i] = make([]float64, n)
		}
		for i := range means {
			means[i] = make([]float64, n)
		}
		x := mat.NewDense(r, d, nil)
		prior := mat.NewSymDense(d, nil)
		for j, a := range alpha {
			prior.SetSym(j, j, g.Scale(1)/a)
		}
		rowPrior := mustGaussian(m, prior)
		rowQ := rowGaussian(g, 1)
		for s := 0; s < n; s++ {
			g.Rand(x, rnd)
			kls[s] = g.LogProb(x) - ardLogPrior(g, x, alpha)
			row := x.RawRowView(1)
			rowKLs[s] = rowQ.LogProb(row) - rowPrior.LogProb(row)
			for i := 0; i < r; i++ {
				for a := 0; a < d; a++ {
					means[i*d+a][s] = x.At(i, a)
					for b := 0; b < d; b++ {
						mom[(i*d+a)*d+b][s] = x.At(i, a) * x.At(i, b)
					}
				}
			}
		}
		if mean, se := meanSE(kls); !(math.Abs(mean-KLARD(g, alpha)) <= 4*se) {
			t.Errorf("%s: MC KL = %.6g ± %.2g, KLARD = %.6g", c.name, mean, se, KLARD(g, alpha))
		}
		if mean, se := meanSE(rowKLs); !(math.Abs(mean-KLRowDiag(g, 1, m, alpha, nil)) <= 4*se) {
			t.Errorf("%s: MC KL of row 1 = %.6g ± %.2g, KLRowDiag = %.6g", c.name, mean, se, KLRowDiag(g, 1, m, alpha, nil))
		}
		var mo mat.SymDense
		for i := 0; i < r; i++ {
			g.RowSecondMomentTo(&mo, i)
			mu := g.RowMeanTo(nil, i)
			for a := 0; a < d; a++ {
				if got, se := meanSE(means[i*d+a]); !(math.Abs(got-mu[a]) <= 4*se) {
					t.Errorf("%s: MC E[λ_%d%d] = %.6g ± %.2g, mean %.6g", c.name, i, a, got, se, mu[a])
				}
				for b := a; b < d; b++ {
					if got, se := meanSE(mom[(i*d+a)*d+b]); !(math.Abs(got-mo.At(a, b)) <= 4*se) {
						t.Errorf("%s: MC E[λ_%d%d λ_%d%d] = %.6g ± %.2g, RowSecondMomentTo %.6g", c.name, i, a, i, b, got, se, mo.At(a, b))
					}
				}
			}
		}
	}
}

// TestExpectedKLARDMonteCarlo checks E_q(α)[KL(q(Λ) ‖ p(Λ | α))] against the
// average of KLARD over 1e5 draws α_j ~ Ga(a_j, b_j), within 4 standard
// errors, and KLRowDiag with random and fixed precisions against the
// average of the dense KLGaussian.
func TestExpectedKLARDMonteCarlo(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 7))
	n := mcSamples()
	const r, d = 4, 3
	ga := []Gamma{NewGammaShapeRate(2, 3), NewGammaShapeRate(0.7, 0.2), NewGammaShapeRate(15, 4)}
	for _, c := range rowsCases(rnd, r, d) {
		g := c.g
		vals := make([]float64, n)
		alpha := make([]float64, d)
		for s := range vals {
			for j := range alpha {
				alpha[j] = ga[j].Rand(rnd)
			}
			vals[s] = KLARD(g, alpha)
		}
		want := ExpectedKLARD(g, ga)
		if mean, se := meanSE(vals); !(math.Abs(mean-want) <= 4*se) {
			t.Errorf("%s: MC E[KLARD] = %.6g ± %.2g, ExpectedKLARD = %.6g", c.name, mean, se, want)
		}
		// Through KLRowDiag with E[α] and E[ln α].
		var sum float64
		mp, mlp := make([]float64, d), make([]float64, d)
		for j, a := range ga {
			mp[j], mlp[j] = a.Mean(), a.MeanLog()
		}
		for i := 0; i < r; i++ {
			sum += KLRowDiag(g, i, nil, mp, mlp)
		}
		if relErr(sum, want) > 1e-12 {
			t.Errorf("%s: Σ_r KLRowDiag = %.15g, ExpectedKLARD = %.15g", c.name, sum, want)
		}
	}

	// The augmented factor-loading row of MFA: Gamma precisions on the
	// first k columns, a fixed precision ν* and mean μ* on the last.
	g := rowsCases(rnd, 2, 3)[4].g
	nuStar, muStar := 2.5, -0.7
	m := []float64{0, 0, muStar}
	mp := []float64{ga[0].Mean(), ga[1].Mean(), nuStar}
	mlp := []float64{ga[0].MeanLog(), ga[1].MeanLog(), math.Log(nuStar)}
	want := KLRowDiag(g, 1, m, mp, mlp)
	q := rowGaussian(g, 1)
	vals := make([]float64, n)
	prior := mat.NewSymDense(3, nil)
	for s := range vals {
		prior.SetSym(0, 0, 1/ga[0].Rand(rnd))
		prior.SetSym(1, 1, 1/ga[1].Rand(rnd))
		prior.SetSym(2, 2, 1/nuStar)
		vals[s] = KLGaussian(q, mustGaussian(m, prior))
	}
	if mean, se := meanSE(vals); !(math.Abs(mean-want) <= 4*se) {
		t.Errorf("augmented row: MC E[KL] = %.6g ± %.2g, KLRowDiag = %.6g", mean, se, want)
	}
}

// TestARDPrecisionIsMaximiser checks that α_j = R/m_j maximises −KLARD in α
// with q fixed: the derivative in ln α_j vanishes (central differences) and
// moving α_j by a factor 1 ± 1e-3 raises the KL.
func TestARDPrecisionIsMaximiser(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 8))
	for _, c := range rowsCases(rnd, 5, 4) {
		g := c.g
		alpha := g.ARDPrecisionTo(nil)
		kl0 := KLARD(g, alpha)
		trial := make([]float64, len(alpha))
		at := func(j int, f float64) float64 {
			copy(trial, alpha)
			trial[j] *= f
			return KLARD(g, trial)
		}
		const h = 1e-5
		for j := range alpha {
			// d KL/d ln α_j = ½(α_j m_j − R); the central difference has
			// truncation error ~h²R/12 and rounding ~|KL|·ε/h.
			if deriv := (at(j, math.Exp(h)) - at(j, math.Exp(-h))) / (2 * h); math.Abs(deriv) > 1e-8 {
				t.Errorf("%s: ∂KL/∂ln α_%d = %g at the ARD update, want 0", c.name, j, deriv)
			}
			for _, f := range []float64{1 - 1e-3, 1 + 1e-3} {
				if kl := at(j, f); !(kl > kl0) {
					t.Errorf("%s: KL(α_%d·%v) = %.17g ≤ KL at the update %.17g", c.name, j, f, kl, kl0)
				}
			}
		}
	}

	// Floor and ceiling: a column with enormous means (m_j = R·1e12) is
	// floored at 1e-10; a column with Σ_jj = 1e-17 and zero mean (m_j =
	// R·1e-17) is capped at 1e15.
	prec := mat.NewSymDense(2, []float64{1e17, 0, 0, 1})
	mean := mat.NewDense(3, 2, []float64{0, 1e6, 0, -1e6, 0, 1e6})
	sigma := mat.NewSymDense(2, []float64{1 / prec.At(0, 0), 0, 0, 1})
	g := mustRows(NewGaussianRows(mean, sigma, nil))
	if got := g.ARDPrecisionTo(nil); got[0] != ARDPrecisionCeil || got[1] != ARDPrecisionFloor {
		t.Errorf("ARDPrecisionTo = %v, want [%g %g]", got, ARDPrecisionCeil, ARDPrecisionFloor)
	}
	if got := ARDPrecision(3, 0); got != ARDPrecisionCeil {
		t.Errorf("ARDPrecision(3, 0) = %v, want the ceiling", got)
	}
	if got := ARDPrecision(3, math.NaN()); !math.IsNaN(got) {
		t.Errorf("ARDPrecision(3, NaN) = %v, want NaN", got)
	}
}

// TestARDGammaIsMaximiser checks that q(α_j) = Ga(a₀ + R/2, b₀ + m_j/2)
// maximises −ExpectedKLARD − Σ_j KLGamma(q(α_j) ‖ Ga(a₀, b₀)) with q(Λ)
// fixed: zero derivatives in ln a_j and ln b_j, and a lower objective at
// a_j or b_j moved by a factor 1 ± 1e-3.
func TestARDGammaIsMaximiser(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 9))
	prior := NewGammaShapeRate(1.5, 0.8)
	for _, c := range rowsCases(rnd, 5, 3) {
		g := c.g
		best := g.ARDGammaTo(nil, prior)
		obj := func(qa []Gamma) float64 {
			f := -ExpectedKLARD(g, qa)
			for _, a := range qa {
				f -= KLGamma(a, prior)
			}
			return f
		}
		f0 := obj(best)
		trial := make([]Gamma, len(best))
		at := func(j, which int, f float64) float64 {
			copy(trial, best)
			if which == 0 {
				trial[j].Alpha *= f
			} else {
				trial[j].Beta *= f
			}
			return obj(trial)
		}
		const h = 1e-5
		for j := range best {
			for which, name := range []string{"shape", "rate"} {
				if deriv := (at(j, which, math.Exp(h)) - at(j, which, math.Exp(-h))) / (2 * h); math.Abs(deriv) > 1e-8 {
					t.Errorf("%s: ∂F/∂ln %s_%d = %g at the update, want 0", c.name, name, j, deriv)
				}
				for _, f := range []float64{1 - 1e-3, 1 + 1e-3} {
					if v := at(j, which, f); !(v < f0) {
						t.Errorf("%s: F with %s_%d·%v = %.17g ≥ F at the update %.17g", c.name, name, j, f, v, f0)
					}
				}
			}
		}
	}
}

func TestGaussianRowsNotPositiveDefinite(t *testing.T) {
	// [[1,2],[2,1]] is indefinite: its second pivot is 1 − 4 = −3.
	indef := mat.NewSymDense(2, []float64{1, 2, 2, 1})
	spd := mat.NewSymDense(2, []float64{2, 0, 0, 1})
	b := mat.NewDense(3, 2, nil)
	for _, tc := range []struct {
		name   string
		err    error
		matrix string
		index  int
	}{
		{"shared precision", second(NewGaussianRowsPrecision(indef, b, nil)), "shared row precision", 1},
		{"shared covariance", second(NewGaussianRows(b, indef, nil)), "shared row covariance", 1},
		{"distinct precision", second(NewGaussianRowsDistinctPrecision([]mat.Symmetric{spd, spd, indef}, b)), "precision of row 2", 1},
		{"distinct covariance", second(NewGaussianRowsDistinct(b, []mat.Symmetric{spd, indef, spd})), "covariance of row 1", 1},
	} {
		var pd *NotPositiveDefiniteError
		if !errors.As(tc.err, &pd) {
			t.Errorf("%s: error %v is not a *NotPositiveDefiniteError", tc.name, tc.err)
			continue
		}
		if !errors.Is(tc.err, numeric.ErrNotPositiveDefinite) {
			t.Errorf("%s: error does not wrap numeric.ErrNotPositiveDefinite", tc.name)
		}
		if pd.Matrix != tc.matrix || pd.Index != tc.index || pd.Pivot != -3 {
			t.Errorf("%s: error %+v, want matrix %q, pivot %d = −3", tc.name, *pd, tc.matrix, tc.index)
		}
		msg := tc.err.Error()
		if !strings.HasPrefix(msg, "dist: ") || !strings.Contains(msg, tc.matrix) || !strings.Contains(msg, "not positive definite") {
			t.Errorf("%s: message %q does not name the matrix", tc.name, msg)
		}
		// A model adds the parameter's name by wrapping.
		wrapped := fmt.Errorf("lds: q(A): %w", tc.err)
		if !errors.Is(wrapped, numeric.ErrNotPositiveDefinite) {
			t.Errorf("%s: wrapped error lost its cause", tc.name)
		}
	}
	nan := mat.NewSymDense(2, []float64{1, 0, 0, math.NaN()})
	_, err := NewGaussianRowsPrecision(nan, b, nil)
	if !errors.Is(err, numeric.ErrNotFinite) || !strings.Contains(fmt.Sprint(err), "non-finite") {
		t.Errorf("NaN precision: error %v, want one wrapping numeric.ErrNotFinite", err)
	}
	// A singular but jittered precision goes through numeric.CholeskySPD.
	sing := mat.NewSymDense(2, []float64{1, 1, 1, 1})
	if _, err := NewGaussianRowsPrecision(sing, b, nil); err == nil {
		t.Error("singular precision accepted without jitter")
	}
	chol, jitter, err := numeric.CholeskySPD(sing)
	if err != nil || !(jitter > 0) {
		t.Fatalf("CholeskySPD: jitter %v, err %v", jitter, err)
	}
	if _, err := NewGaussianRowsPrecision(chol, b, nil); err != nil {
		t.Errorf("jittered Cholesky rejected: %v", err)
	}

	for name, fn := range map[string]func(){
		"scale length":       func() { NewGaussianRows(b, spd, []float64{1, 1}) },
		"zero scale":         func() { NewGaussianRows(b, spd, []float64{1, 0, 1}) },
		"covariance size":    func() { NewGaussianRows(b, mat.NewSymDense(3, nil), nil) },
		"precision size":     func() { NewGaussianRowsPrecision(mat.NewSymDense(3, nil), b, nil) },
		"distinct count":     func() { NewGaussianRowsDistinct(b, []mat.Symmetric{spd}) },
		"alpha length":       func() { KLARD(mustRows(NewGaussianRows(b, spd, nil)), []float64{1}) },
		"alpha not positive": func() { KLARD(mustRows(NewGaussianRows(b, spd, nil)), []float64{1, 0}) },
		"weights length":     func() { mustRows(NewGaussianRows(b, spd, nil)).SecondMomentTo(nil, []float64{1}) },
		"dst size":           func() { mustRows(NewGaussianRows(b, spd, nil)).MeanTo(mat.NewDense(2, 2, nil)) },
	} {
		if !panics(fn) {
			t.Errorf("%s: no panic", name)
		}
	}
}

func second(_ *GaussianRows, err error) error { return err }

func TestGaussianRowsNoAlloc(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 10))
	const r, d = 6, 4
	alpha := randPrecisions(rnd, d)
	ga := make([]Gamma, d)
	for j := range ga {
		ga[j] = NewGammaShapeRate(2, 1)
	}
	w := randVec(rnd, r, 1)
	m := randVec(rnd, d, 1)
	dstSym := mat.NewSymDense(d, nil)
	dstDense := mat.NewDense(r, d, nil)
	vec := make([]float64, d)
	gam := make([]Gamma, d)
	for _, c := range rowsCases(rnd, r, d) {
		g := c.g
		var sink float64
		if a := testing.AllocsPerRun(50, func() {
			g.MeanTo(dstDense)
			g.RowMeanTo(vec, 1)
			g.CovarianceTo(dstSym, 2)
			g.RowSecondMomentTo(dstSym, 3)
			g.SecondMomentTo(dstSym, w)
			g.SecondMomentTo(dstSym, nil)
			g.ColumnSecondMomentsTo(vec)
			g.ARDPrecisionTo(vec)
			g.ARDGammaTo(gam, ga[0])
			sink += KLARD(g, alpha) + ExpectedKLARD(g, ga) + KLRowDiag(g, 0, m, alpha, nil) + g.Entropy() + g.LogDetCov(0)
		}); a != 0 {
			t.Errorf("%s: the To methods and KL functions allocate %v times per call", c.name, a)
		}
		_ = sink
	}
}

func BenchmarkGaussianRowsSecondMomentTo(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 11))
	const r, d = 64, 8
	g := mustRows(NewGaussianRowsPrecision(randSPD(rnd, d, 0.3), randDense(rnd, r, d, 1), randScales(rnd, r)))
	w := randVec(rnd, r, 1)
	dst := mat.NewSymDense(d, nil)
	b.ReportAllocs()
	for b.Loop() {
		g.SecondMomentTo(dst, w)
	}
}

// TestSecondMomentToOnePass checks that SecondMomentTo of distinct rows,
// which adds each row's w_r Σ_r and w_r μ_rμ_rᵀ in one pass, gives the bits
// of addScaledSym followed by blas64.Syr row by row, with zero weights and
// zero mean elements among the rows.
func TestSecondMomentToOnePass(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 15))
	const r, d = 7, 6
	covs := make([]mat.Symmetric, r)
	for i := range covs {
		covs[i] = randSPD(rnd, d, 0.3)
	}
	mean := randDense(rnd, r, d, 1)
	mean.Set(2, 3, 0)
	mean.Set(4, 0, 0)
	g := mustRows(NewGaussianRowsDistinct(mean, covs))
	w := randVec(rnd, r, 1)
	w[5] = 0
	got := g.SecondMomentTo(nil, w).RawSymmetric()
	want := mat.NewSymDense(d, nil)
	raw := want.RawSymmetric()
	for i := 0; i < r; i++ {
		if w[i] == 0 {
			continue
		}
		addScaledSym(raw, w[i]*g.scale[i], g.sigma[i].RawSymmetric())
		blas64.Syr(w[i], blas64.Vector{N: d, Inc: 1, Data: g.mean.RawRowView(i)}, raw)
	}
	for a := 0; a < d; a++ {
		for b := a; b < d; b++ {
			if math.Float64bits(got.Data[a*got.Stride+b]) != math.Float64bits(raw.Data[a*raw.Stride+b]) {
				t.Errorf("element (%d, %d): %v, two passes %v", a, b, got.Data[a*got.Stride+b], raw.Data[a*raw.Stride+b])
			}
		}
	}
}

// BenchmarkGaussianRowsSetDistinctPrecision times the VBM step of the
// loadings of one analyser of the digits (Beal (2003) section 4.6: p = 64
// rows of order k+1 = 6); the flops counted per row are those of the
// factorisation (n³/3), the inverse (2n³/3) and the two solves (2n²).
func BenchmarkGaussianRowsSetDistinctPrecision(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 13))
	const r, d = 64, 6
	precs := make([]mat.Symmetric, r)
	for i := range precs {
		precs[i] = randSPD(rnd, d, 0.3)
	}
	lin := randDense(rnd, r, d, 1)
	g := mustRows(NewGaussianRowsDistinctPrecision(precs, lin))
	b.ReportAllocs()
	for b.Loop() {
		if err := g.SetDistinctPrecision(precs, lin); err != nil {
			b.Fatal(err)
		}
	}
	flops := float64(r) * (float64(d*d*d) + 2*float64(d*d))
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/r, "ns/row")
}

// BenchmarkGaussianRowsSecondMomentToDistinct times ⟨Λ̃ᵀΨ⁻¹Λ̃⟩ of one
// analyser of the digits (64 rows with distinct covariances of order 6).
func BenchmarkGaussianRowsSecondMomentToDistinct(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 16))
	const r, d = 64, 6
	covs := make([]mat.Symmetric, r)
	for i := range covs {
		covs[i] = randSPD(rnd, d, 0.3)
	}
	g := mustRows(NewGaussianRowsDistinct(randDense(rnd, r, d, 1), covs))
	w := randVec(rnd, r, 1)
	dst := mat.NewSymDense(d, nil)
	b.ReportAllocs()
	for b.Loop() {
		g.SecondMomentTo(dst, w)
	}
}

// sameRows reports the first difference, bit for bit, between everything
// that a and b expose: means, covariances, log-determinants, log-densities
// of a random matrix (through the stored factor) and draws from the same
// stream.
func sameRows(a, b *GaussianRows, rnd *rand.Rand) string {
	r, d := a.Dims()
	if rb, db := b.Dims(); rb != r || db != d {
		return "shape"
	}
	eq := func(x, y []float64) bool {
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				return false
			}
		}
		return len(x) == len(y)
	}
	if !eq(a.MeanTo(nil).RawMatrix().Data, b.MeanTo(nil).RawMatrix().Data) {
		return "means"
	}
	for i := 0; i < r; i++ {
		if !eq(a.CovarianceTo(nil, i).RawSymmetric().Data, b.CovarianceTo(nil, i).RawSymmetric().Data) {
			return fmt.Sprintf("covariance of row %d", i)
		}
		if math.Float64bits(a.LogDetCov(i)) != math.Float64bits(b.LogDetCov(i)) || a.Scale(i) != b.Scale(i) {
			return fmt.Sprintf("log-determinant or scale of row %d", i)
		}
	}
	x := randDense(rnd, r, d, 1)
	if math.Float64bits(a.LogProb(x)) != math.Float64bits(b.LogProb(x)) {
		return "LogProb"
	}
	seed := rnd.Uint64()
	if !eq(a.Rand(nil, rand.New(rand.NewPCG(seed, 1))).RawMatrix().Data, b.Rand(nil, rand.New(rand.NewPCG(seed, 1))).RawMatrix().Data) {
		return "Rand"
	}
	return ""
}

// TestGaussianRowsSetDistinctPrecision checks the in-place setter against
// the constructor it mirrors: from rows built by either distinct
// constructor, SetDistinctPrecision gives the same rows bit for bit as
// NewGaussianRowsDistinctPrecision, allocating nothing; a precision that
// is not positive definite gives the constructor's error, and the rows can
// be set again afterwards; a shape mismatch or shared rows panic.
func TestGaussianRowsSetDistinctPrecision(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 12))
	const r, d = 5, 4
	newPrecs := func() []mat.Symmetric {
		p := make([]mat.Symmetric, r)
		for i := range p {
			p[i] = randSPD(rnd, d, 0.3)
		}
		return p
	}
	covs := make([]mat.Symmetric, r)
	for i := range covs {
		covs[i] = randSPD(rnd, d, 0.3)
	}
	for _, start := range []struct {
		name string
		g    *GaussianRows
	}{
		{"from distinct covariances", mustRows(NewGaussianRowsDistinct(randDense(rnd, r, d, 1), covs))},
		{"from distinct precisions", mustRows(NewGaussianRowsDistinctPrecision(newPrecs(), randDense(rnd, r, d, 1)))},
	} {
		g := start.g
		for round := range 3 {
			precs, b := newPrecs(), randDense(rnd, r, d, 2)
			if err := g.SetDistinctPrecision(precs, b); err != nil {
				t.Fatalf("%s, round %d: %v", start.name, round, err)
			}
			want := mustRows(NewGaussianRowsDistinctPrecision(precs, b))
			if diff := sameRows(g, want, rnd); diff != "" {
				t.Errorf("%s, round %d: the %s differ from the constructor's", start.name, round, diff)
			}
		}
		// SetDistinctPrecision does not allocate.
		precs, b := newPrecs(), randDense(rnd, r, d, 1)
		if a := testing.AllocsPerRun(50, func() { g.SetDistinctPrecision(precs, b) }); a != 0 {
			t.Errorf("%s: SetDistinctPrecision allocates %v times per call, want 0", start.name, a)
		}

		// Row 3 indefinite: the constructor's error, then a valid set.
		bad := newPrecs()
		bad[3] = mat.NewSymDense(d, []float64{1, 2, 0, 0, 2, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1})
		err := g.SetDistinctPrecision(bad, b)
		_, wantErr := NewGaussianRowsDistinctPrecision(bad, b)
		var pd *NotPositiveDefiniteError
		if !errors.As(err, &pd) || !errors.Is(err, numeric.ErrNotPositiveDefinite) || err.Error() != wantErr.Error() {
			t.Errorf("%s: indefinite precision: error %v, want %v", start.name, err, wantErr)
		}
		nan := newPrecs()
		nan[0] = mat.NewSymDense(d, []float64{1, 0, 0, 0, 0, math.NaN(), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1})
		if err := g.SetDistinctPrecision(nan, b); !errors.Is(err, numeric.ErrNotFinite) || !strings.Contains(err.Error(), "precision of row 0") {
			t.Errorf("%s: NaN precision: error %v, want one wrapping numeric.ErrNotFinite naming row 0", start.name, err)
		}
		if err := g.SetDistinctPrecision(precs, b); err != nil {
			t.Fatal(err)
		}
		if diff := sameRows(g, mustRows(NewGaussianRowsDistinctPrecision(precs, b)), rnd); diff != "" {
			t.Errorf("%s: after an error and a valid set, the %s differ from the constructor's", start.name, diff)
		}
	}

	g := mustRows(NewGaussianRowsDistinctPrecision(newPrecs(), randDense(rnd, r, d, 1)))
	shared := mustRows(NewGaussianRowsPrecision(randSPD(rnd, d, 0.3), randDense(rnd, r, d, 1), nil))
	for name, fn := range map[string]func(){
		"shared rows":     func() { shared.SetDistinctPrecision(newPrecs(), randDense(rnd, r, d, 1)) },
		"rows of b":       func() { g.SetDistinctPrecision(newPrecs(), randDense(rnd, r+1, d, 1)) },
		"columns of b":    func() { g.SetDistinctPrecision(newPrecs(), randDense(rnd, r, d-1, 1)) },
		"precision count": func() { g.SetDistinctPrecision(newPrecs()[:r-1], randDense(rnd, r, d, 1)) },
		"precision order": func() {
			p := newPrecs()
			p[2] = randSPD(rnd, d+1, 0.3)
			g.SetDistinctPrecision(p, randDense(rnd, r, d, 1))
		},
	} {
		if !panics(fn) {
			t.Errorf("%s: no panic", name)
		}
	}
}
