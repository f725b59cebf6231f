package mfa_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/numeric"
)

// faData draws n points of a k-factor analyser in p dimensions: loadings
// lam (p×k row-major), mean mu, noise variances psi.
func faData(rnd *rand.Rand, n, p, k int, lam, mu, psi []float64) *mat.Dense {
	y := mat.NewDense(n, p, nil)
	x := make([]float64, k)
	for i := range n {
		for l := range x {
			x[l] = rnd.NormFloat64()
		}
		for q := range p {
			v := mu[q] + math.Sqrt(psi[q])*rnd.NormFloat64()
			for l := range k {
				v += lam[q*k+l] * x[l]
			}
			y.Set(i, q, v)
		}
	}
	return y
}

func faHyper(p int, a, b float64) mfa.Hyper {
	h := mfa.Hyper{Alpha: 1, A: a, B: b, Mu: make([]float64, p), Nu: make([]float64, p), Psi: make([]float64, p)}
	for q := range p {
		h.Mu[q] = 0.2 * float64(q)
		h.Nu[q] = 0.5 + 0.25*float64(q)
		h.Psi[q] = 0.4 + 0.2*float64(q)
	}
	return h
}

// TestAnnealedLogLikNoFactor checks ln p(y|Λ = 0) against the closed-form
// evidence of the k = 0 analyser (gaussianEvidence, targets §1.13 item 2).
func TestAnnealedLogLikNoFactor(t *testing.T) {
	rnd := rand.New(rand.NewPCG(71, 1))
	for _, pk := range [][2]int{{2, 1}, {4, 2}} {
		p, k := pk[0], pk[1]
		h := faHyper(p, 1.5, 0.7)
		y := faData(rnd, 9, p, k, make([]float64, p*k), []float64{1, -1, 0.5, 2}[:p], h.Psi)
		a, err := mfa.NewAnnealed(y, k, h)
		if err != nil {
			t.Fatal(err)
		}
		want := gaussianEvidence(y, h.Mu, h.Nu, h.Psi)
		if got := a.LogLik(make([]float64, p*k)); math.Abs(got-want) > 1e-10*math.Abs(want) {
			t.Errorf("p=%d k=%d: ln p(y|0) = %.15g, closed form %.15g", p, k, got, want)
		}
	}
}

// TestAnnealedMarginalOverMean checks ln p(Λ) + ln p(y|Λ) against the
// ISTarget's joint ln p(π = 1, Λ̃, y) (eq. (4.116), its own code)
// integrated over the mean μ (2-D adaptive quadrature) at a few Λ.
func TestAnnealedMarginalOverMean(t *testing.T) {
	rnd := rand.New(rand.NewPCG(72, 1))
	const p, k, n = 2, 1, 7
	h := faHyper(p, 2, 0.5)
	y := faData(rnd, n, p, k, []float64{1, 0.7}, []float64{0.5, -0.3}, h.Psi)
	a, err := mfa.NewAnnealed(y, k, h)
	if err != nil {
		t.Fatal(err)
	}
	it, err := mfa.NewISTarget(y, mfa.ISLayout{P: p, Ks: []int{k}}, h)
	if err != nil {
		t.Fatal(err)
	}
	var ybar [2]float64
	for i := range n {
		ybar[0] += y.At(i, 0) / n
		ybar[1] += y.At(i, 1) / n
	}
	for _, lam := range [][]float64{{0.9, 0.6}, {-0.3, 1.2}, {0.05, 0.02}} {
		want := a.LogPrior(lam) + a.LogLik(lam)
		th := []float64{1, lam[0], 0, lam[1], 0}
		// exp(joint − want) integrates to 1 over μ; the box is ±4 (the
		// posterior sd of μ is below 0.6 here).
		v, err := numeric.IntegrateVec2(nil, 1, func(m0, m1 float64, out []float64) {
			th[2], th[4] = m0, m1
			out[0] = math.Exp(it.LogProb(th) - want)
		}, [2]float64{ybar[0] - 4, ybar[1] - 4}, [2]float64{ybar[0] + 4, ybar[1] + 4}, numeric.QuadTol{Rel: 1e-10, Abs: 1e-14})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(math.Log(v[0])) > 1e-8 {
			t.Errorf("Λ = %v: ln ∫ p(π=1, Λ̃, y) dμ − (ln p(Λ) + ln p(y|Λ)) = %.3g", lam, math.Log(v[0]))
		}
	}
}

// TestAnnealedGradients checks GradLogPrior and GradLogLik against central
// differences.
func TestAnnealedGradients(t *testing.T) {
	rnd := rand.New(rand.NewPCG(73, 1))
	for _, pk := range [][2]int{{2, 1}, {3, 2}, {4, 3}} {
		p, k := pk[0], pk[1]
		h := faHyper(p, 1.3, 0.8)
		lam := make([]float64, p*k)
		for i := range lam {
			lam[i] = rnd.NormFloat64()
		}
		y := faData(rnd, 12, p, k, lam, make([]float64, p), h.Psi)
		a, err := mfa.NewAnnealed(y, k, h)
		if err != nil {
			t.Fatal(err)
		}
		th := make([]float64, p*k)
		for i := range th {
			th[i] = lam[i] + 0.3*rnd.NormFloat64()
		}
		gp, gl := make([]float64, len(th)), make([]float64, len(th))
		a.GradLogPrior(gp, th)
		a.GradLogLik(gl, th)
		x := append([]float64(nil), th...)
		const e = 1e-6
		for i := range th {
			x[i] = th[i] + e
			p1, l1 := a.LogPrior(x), a.LogLik(x)
			x[i] = th[i] - e
			p0, l0 := a.LogPrior(x), a.LogLik(x)
			x[i] = th[i]
			if fd := (p1 - p0) / (2 * e); math.Abs(fd-gp[i]) > 1e-6*(1+math.Abs(fd)) {
				t.Errorf("p=%d k=%d coord %d: ∂ ln p(Λ) = %v, difference %v", p, k, i, gp[i], fd)
			}
			if fd := (l1 - l0) / (2 * e); math.Abs(fd-gl[i]) > 1e-6*(1+math.Abs(fd)) {
				t.Errorf("p=%d k=%d coord %d: ∂ ln p(y|Λ) = %v, difference %v", p, k, i, gl[i], fd)
			}
		}
	}
}

// TestAnnealedPrior checks that p(Λ) integrates to 1 (p = 2, k = 1, by
// quadrature) and that SamplePrior's draws have E[Λ_q²] = b*/(a*−1) (the
// mean of 1/ν, a* > 1) within 4 standard errors of 40000 draws.
func TestAnnealedPrior(t *testing.T) {
	h := faHyper(2, 3, 2)
	y := mat.NewDense(2, 2, []float64{0.1, 0.2, -0.3, 0.4})
	a, err := mfa.NewAnnealed(y, 1, h)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, 2)
	v, err := numeric.IntegrateVec2(nil, 1, func(u, w float64, out []float64) {
		// Λ = tan-map of (u, w) ∈ (−π/2, π/2)², Jacobian sec² each.
		x[0], x[1] = math.Tan(u), math.Tan(w)
		c0, c1 := math.Cos(u), math.Cos(w)
		out[0] = math.Exp(a.LogPrior(x)) / (c0 * c0 * c1 * c1)
	}, [2]float64{-math.Pi / 2, -math.Pi / 2}, [2]float64{math.Pi / 2, math.Pi / 2}, numeric.QuadTol{Rel: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(v[0]-1) > 1e-8 {
		t.Errorf("∫ p(Λ) dΛ = %.12g", v[0])
	}
	rnd := rand.New(rand.NewPCG(74, 1))
	const m = 40000
	var s, s2 float64
	var th []float64
	for range m {
		th = a.SamplePrior(th, rnd)
		v := th[0] * th[0]
		s += v
		s2 += v * v
	}
	mean := s / m
	se := math.Sqrt((s2/m - mean*mean) / m)
	if want := h.B / (h.A - 1); math.Abs(mean-want) > 4*se {
		t.Errorf("E[Λ²] = %v ± %v, want b/(a−1) = %v", mean, se, want)
	}
}

// TestLogEvidenceQuadMonteCarlo checks the quadrature against simple Monte
// Carlo from the full hierarchical prior, ν ~ Ga(a*, b*), Λ | ν ~ N(0,
// I/ν), μ ~ N(μ*, 1/ν*), with p(y | Λ, μ) from ISTarget.LogLik (code
// independent of Annealed), on a tiny data set (n = 4, where the prior is
// a usable proposal): within 4 standard errors of 4·10⁵ draws.
func TestLogEvidenceQuadMonteCarlo(t *testing.T) {
	rnd := rand.New(rand.NewPCG(75, 1))
	const p, k, n = 2, 1, 4
	h := faHyper(p, 2, 1)
	y := faData(rnd, n, p, k, []float64{1.2, 0.9}, []float64{0, 0.2}, h.Psi)
	a, err := mfa.NewAnnealed(y, k, h)
	if err != nil {
		t.Fatal(err)
	}
	q, err := a.LogEvidenceQuad(mfa.QuadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	it, err := mfa.NewISTarget(y, mfa.ISLayout{P: p, Ks: []int{k}}, h)
	if err != nil {
		t.Fatal(err)
	}
	const m = 400000
	lw := make([]float64, m)
	th := []float64{1, 0, 0, 0, 0}
	for i := range lw {
		nu := dist.Gamma{Alpha: h.A, Beta: h.B}.Rand(rnd)
		th[1], th[3] = rnd.NormFloat64()/math.Sqrt(nu), rnd.NormFloat64()/math.Sqrt(nu)
		th[2] = h.Mu[0] + rnd.NormFloat64()/math.Sqrt(h.Nu[0])
		th[4] = h.Mu[1] + rnd.NormFloat64()/math.Sqrt(h.Nu[1])
		lw[i] = it.LogLik(th)
	}
	top := math.Inf(-1)
	for _, v := range lw {
		top = math.Max(top, v)
	}
	var s, s2 float64
	for _, v := range lw {
		w := math.Exp(v - top)
		s += w
		s2 += w * w
	}
	mean := s / m
	sd := math.Sqrt(s2/m - mean*mean)
	lnZ, se := top+math.Log(mean), sd/(mean*math.Sqrt(m))
	if d := math.Abs(q.LnZ - lnZ); d > 4*se {
		t.Errorf("quadrature ln p(y) = %.6f, Monte Carlo %.6f ± %.6f (difference %.2g SE)", q.LnZ, lnZ, se, d/se)
	}
	if q.ErrEst > 1e-6 || q.EdgeGap < 40 {
		t.Errorf("quadrature error estimate %v, edge gap %v", q.ErrEst, q.EdgeGap)
	}
}

// TestLogEvidenceQuadBox checks that the evidence does not move when the
// box is wider (margin 60 nats, bulk 18 sd) and the breaks finer (step
// 0.4 sd), on a data set of 40 points with well-separated modes, and that
// E[ΛΛᵀ] is close to Λ̂Λ̂ᵀ there.
func TestLogEvidenceQuadBox(t *testing.T) {
	rnd := rand.New(rand.NewPCG(76, 1))
	h := faHyper(2, 1, 1)
	y := faData(rnd, 40, 2, 1, []float64{1, 0.8}, []float64{0, 0.2}, h.Psi)
	a, err := mfa.NewAnnealed(y, 1, h)
	if err != nil {
		t.Fatal(err)
	}
	q1, err := a.LogEvidenceQuad(mfa.QuadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	q2, err := a.LogEvidenceQuad(mfa.QuadSettings{Margin: 60, Bulk: 18, Step: 0.4})
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(q1.LnZ - q2.LnZ); d > 1e-8 {
		t.Errorf("ln p(y) = %.12f on the default box, %.12f on the wider one", q1.LnZ, q2.LnZ)
	}
	if q2.Half[0] <= q1.Half[0] {
		t.Errorf("the wider margin did not widen the box: %v, %v", q1.Half, q2.Half)
	}
	m := q1.Mode
	for i, v := range []float64{m[0] * m[0], m[0] * m[1], m[1] * m[0], m[1] * m[1]} {
		if math.Abs(q1.Second[i]-v) > 0.2*math.Abs(v)+0.05 {
			t.Errorf("E[ΛΛᵀ]_%d = %v, Λ̂Λ̂ᵀ = %v", i, q1.Second[i], v)
		}
	}
}

// TestMaxLikelihood checks that the closed-form ML point is a maximum of
// ln p(y | Λ, μ, Ψ) (ISTarget.LogLik, independent code): no small step in
// any of 200 random directions of (Λ, μ) raises it, and the value agrees.
func TestMaxLikelihood(t *testing.T) {
	rnd := rand.New(rand.NewPCG(77, 1))
	h := faHyper(2, 1, 1)
	y := faData(rnd, 30, 2, 1, []float64{1, -0.8}, []float64{0.3, 0.2}, h.Psi)
	a, err := mfa.NewAnnealed(y, 1, h)
	if err != nil {
		t.Fatal(err)
	}
	lam, mu, ll, err := a.MaxLikelihood()
	if err != nil {
		t.Fatal(err)
	}
	it, err := mfa.NewISTarget(y, mfa.ISLayout{P: 2, Ks: []int{1}}, h)
	if err != nil {
		t.Fatal(err)
	}
	th := []float64{1, lam[0], mu[0], lam[1], mu[1]}
	if got := it.LogLik(th); math.Abs(got-ll) > 1e-10*math.Abs(ll) {
		t.Fatalf("ML log-likelihood %v, ISTarget %v", ll, got)
	}
	x := make([]float64, 5)
	for range 200 {
		x[0] = 1
		for i := 1; i < 5; i++ {
			x[i] = th[i] + 1e-3*rnd.NormFloat64()
		}
		if v := it.LogLik(x); v > ll+1e-12*math.Abs(ll) {
			t.Fatalf("ln p(y | %v) = %v above the ML value %v", x, v, ll)
		}
	}
}
