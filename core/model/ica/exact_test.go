package ica

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// pin sets q(W), q(β) and q(μ) to near point masses at W, β and μ (variances
// 10⁻¹⁴ of their scale), so that q(x) is the exact posterior p(x | t, W, β,
// μ) and the x-part of the bound is ln p(t | W, β, μ).
func pin(t *testing.T, m *VB, w []float64, beta float64, mu []float64) {
	t.Helper()
	const big = 1e14
	k, p := m.k, m.p
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			v := 0.0
			if a == b {
				v = big
			}
			m.wPrec.SetSym(a, b, v)
		}
	}
	for q := 0; q < p; q++ {
		for a := 0; a < k; a++ {
			m.wB.Set(q, a, big*w[q*k+a])
		}
	}
	if err := m.qw.SetDistinctPrecision(m.wPrecs, m.wB); err != nil {
		t.Fatal(err)
	}
	m.cacheW()
	m.qb = dist.Gamma{Alpha: big, Beta: big / beta}
	for q := 0; q < p; q++ {
		m.muPrec.SetSym(q, q, big)
		m.muB.Set(0, q, big*mu[q])
	}
	if err := m.qmu.SetDistinctPrecision(m.muPrcs, m.muB); err != nil {
		t.Fatal(err)
	}
	m.cacheMu()
}

// exactPosterior returns ln p(t_n | W, β, μ) and the posterior moments of
// x_n by enumerating the M^I components and conditioning the joint Gaussian
// of (x, t) given each in covariance form (Kalman gain), a route
// independent of Appendix D's information form.
func exactPosterior(src Sources, k int, tn, w []float64, beta float64, mu []float64) (logp float64, ex []float64, exx *mat.Dense) {
	p := len(tn)
	M := len(src.Weights)
	comps := 1
	for range k {
		comps *= M
	}
	W := mat.NewDense(p, k, w)
	logw := make([]float64, comps)
	means := make([]*mat.VecDense, comps)
	covs := make([]*mat.Dense, comps)
	for c := 0; c < comps; c++ {
		idx := c
		B := mat.NewDense(k, k, nil)
		mm := mat.NewVecDense(k, nil)
		lw := 0.0
		for i := 0; i < k; i++ {
			j := idx % M
			idx /= M
			B.Set(i, i, src.Variances[j])
			mm.SetVec(i, src.Means[j])
			lw += math.Log(src.Weights[j])
		}
		// S = W B Wᵀ + β⁻¹I, the covariance of t given the component.
		var WB, S mat.Dense
		WB.Mul(W, B)
		S.Mul(&WB, W.T())
		for q := 0; q < p; q++ {
			S.Set(q, q, S.At(q, q)+1/beta)
		}
		var pred mat.VecDense
		pred.MulVec(W, mm)
		dev := mat.NewVecDense(p, nil)
		for q := 0; q < p; q++ {
			dev.SetVec(q, tn[q]-pred.AtVec(q)-mu[q])
		}
		var Sinv mat.Dense
		if err := Sinv.Inverse(&S); err != nil {
			panic(err)
		}
		var sd mat.VecDense
		sd.MulVec(&Sinv, dev)
		lw += -0.5*float64(p)*math.Log(2*math.Pi) - 0.5*math.Log(mat.Det(&S)) - 0.5*mat.Dot(dev, &sd)
		logw[c] = lw
		// K = B Wᵀ S⁻¹; mean m + K dev, covariance B − K W B.
		var K, KWB mat.Dense
		K.Mul(WB.T(), &Sinv)
		var kd mat.VecDense
		kd.MulVec(&K, dev)
		mean := mat.NewVecDense(k, nil)
		mean.AddVec(mm, &kd)
		KWB.Mul(&K, &WB)
		cov := mat.NewDense(k, k, nil)
		cov.Sub(B, &KWB)
		means[c], covs[c] = mean, cov
	}
	r := make([]float64, comps)
	logp = numeric.NormalizeLogTo(r, logw)
	ex = make([]float64, k)
	exx = mat.NewDense(k, k, nil)
	for c := 0; c < comps; c++ {
		for a := 0; a < k; a++ {
			ex[a] += r[c] * means[c].AtVec(a)
			for b := 0; b < k; b++ {
				exx.Set(a, b, exx.At(a, b)+r[c]*(covs[c].At(a, b)+means[c].AtVec(a)*means[c].AtVec(b)))
			}
		}
	}
	return logp, ex, exx
}

// TestQxIsExactPosterior: with q(W), q(β), q(μ) point masses, the q(x) of
// Appendix D is the exact posterior of the sources (its moments D.15-D.16
// match enumeration of the components with Gaussian conditioning), and the
// x-part of the bound, TermData + TermSources, is the exact log likelihood
// Σ_n ln p(t_n | W, β, μ) of eq. 6.5, every constant included.
func TestQxIsExactPosterior(t *testing.T) {
	for _, c := range []struct {
		p, k int
		src  Sources
	}{
		{3, 2, toySources()},
		{2, 2, Sources{Weights: []float64{0.3, 0.7}, Means: []float64{-1, 0.5}, Variances: []float64{0.5, 2}}},
		{3, 3, Sources{Weights: []float64{0.2, 0.5, 0.3}, Means: []float64{-1, 0, 2}, Variances: []float64{0.3, 1, 0.6}}},
	} {
		rnd := rand.New(rand.NewPCG(uint64(c.p*10+c.k), 1))
		data, w, _ := mixed(rnd, 6, c.p, c.k, c.src, 0.2)
		m, err := NewVB(data, c.p, c.src, DefaultPrior(), Settings{Sources: c.k})
		if err != nil {
			t.Fatal(err)
		}
		mu := make([]float64, c.p)
		for q := range mu {
			mu[q] = 0.3 * float64(q+1)
		}
		const beta = 2.5
		pin(t, m, w, beta, mu)
		if err := m.updateX(); err != nil {
			t.Fatal(err)
		}
		b := m.Objective()
		var want float64
		for i := 0; i < m.n; i++ {
			sm := m.secondMoment(i)
			lp, ex, exx := exactPosterior(c.src, c.k, data[i*c.p:(i+1)*c.p], w, beta, mu)
			want += lp
			for a := 0; a < c.k; a++ {
				if d := math.Abs(m.ex[i*c.k+a] - ex[a]); d > 1e-9*(1+math.Abs(ex[a])) {
					t.Errorf("p=%d I=%d point %d: E[x_%d] = %.12g, enumeration %.12g", c.p, c.k, i, a, m.ex[i*c.k+a], ex[a])
				}
				for bb := 0; bb < c.k; bb++ {
					got := sm[a*c.k+bb]
					if d := math.Abs(got - exx.At(a, bb)); d > 1e-9*(1+math.Abs(exx.At(a, bb))) {
						t.Errorf("p=%d I=%d point %d: E[x_%d x_%d] = %.12g, enumeration %.12g", c.p, c.k, i, a, bb, got, exx.At(a, bb))
					}
				}
			}
		}
		got := b.Terms[0].Value + b.Terms[1].Value
		if math.Abs(got-want) > 1e-6*math.Abs(want) {
			t.Errorf("p=%d I=%d: data + sources terms = %.10g, exact ln p(t|W,beta,mu) = %.10g", c.p, c.k, got, want)
		}
	}
}

// TestSourcesTermByQuadrature checks the term the text says it cannot
// evaluate (L2532): E_q[ln p(x)] + H[q(x)], with q(x_n) a mixture of M^I
// Gaussians, computed by brute force, a 2-D quadrature of q ln p − q ln q
// over a grid with q normalised numerically from its definition exp(A_n)
// p(x) (eq. D.5), after q(W) and q(β) have moved on (so q(x) is no longer
// their optimum). The closed form ln Z_n − E[A_n] must agree, and so must
// E[x_n].
func TestSourcesTermByQuadrature(t *testing.T) {
	src := Sources{Weights: []float64{0.4, 0.6}, Means: []float64{-1, 1}, Variances: []float64{0.6, 1.5}}
	rnd := rand.New(rand.NewPCG(5, 5))
	const p, k, n = 2, 2, 3
	data, _, _ := mixed(rnd, n, p, k, src, 1)
	m, err := NewVB(data, p, src, DefaultPrior(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	m.qb = dist.Gamma{Alpha: m.qb.Alpha, Beta: m.qb.Alpha * 1.0} // E[β] = 1: a broad q(x)
	for range 3 {
		if _, err := m.E(); err != nil {
			t.Fatal(err)
		}
		m.M()
	}
	// The coefficients of q(x) at its update: Λ and b_n.
	if _, err := m.E(); err != nil {
		t.Fatal(err)
	}
	lam := append([]float64(nil), m.lam...)
	beta := m.qb.Mean()
	bn := make([]float64, n*k)
	for i := 0; i < n; i++ {
		for q := 0; q < p; q++ {
			r := data[i*p+q] - m.mmu[q]
			for a := 0; a < k; a++ {
				bn[i*k+a] += beta * m.ew.At(q, a) * r
			}
		}
	}
	m.M()
	m.UpdateHyper(GroupBeta)
	m.UpdateHyper(GroupAlpha)
	got := m.Objective().Terms[1].Value

	logPrior := func(x float64) float64 {
		l := make([]float64, len(src.Weights))
		for j := range l {
			d := x - src.Means[j]
			l[j] = math.Log(src.Weights[j]) - 0.5*math.Log(2*math.Pi*src.Variances[j]) - 0.5*d*d/src.Variances[j]
		}
		return numeric.LogSumExp(l)
	}
	const lo, hi, g = -14.0, 14.0, 1401
	h := (hi - lo) / (g - 1)
	lp := make([]float64, g)
	for i := range lp {
		lp[i] = logPrior(lo + float64(i)*h)
	}
	var want float64
	for i := 0; i < n; i++ {
		// ln q̃(x) = A_n(x) + ln p(x); trapezoid weights (the integrand
		// vanishes at the edges, so the rule is spectrally accurate).
		lq := make([]float64, g*g)
		mx := math.Inf(-1)
		for u := 0; u < g; u++ {
			x0 := lo + float64(u)*h
			for v := 0; v < g; v++ {
				x1 := lo + float64(v)*h
				a := -0.5*(lam[0]*x0*x0+2*lam[1]*x0*x1+lam[3]*x1*x1) + bn[i*k]*x0 + bn[i*k+1]*x1
				lq[u*g+v] = a + lp[u] + lp[v]
				mx = math.Max(mx, lq[u*g+v])
			}
		}
		var z, e0, elp, elq float64
		for u := 0; u < g; u++ {
			x0 := lo + float64(u)*h
			for v := 0; v < g; v++ {
				q := math.Exp(lq[u*g+v] - mx)
				z += q
				e0 += q * x0
				elp += q * (lp[u] + lp[v])
				elq += q * lq[u*g+v]
			}
		}
		lnZ := mx + math.Log(z*h*h)
		// E[ln p] + H = E[ln p] − E[ln q̃] + ln Z.
		want += elp/z - elq/z + lnZ
		if d := math.Abs(e0/z - m.ex[i*k]); d > 1e-8 {
			t.Errorf("point %d: E[x_0] = %.10g, quadrature %.10g", i, m.ex[i*k], e0/z)
		}
	}
	if math.Abs(got-want) > 1e-8*(1+math.Abs(want)) {
		t.Errorf("E[ln p(x)] + H[q(x)] = %.12g, quadrature %.12g", got, want)
	}
}

// TestResidualWithoutCancellation: sqResid, the residual Σ_n E‖t_n − Wx_n −
// μ‖² of eq. 6.28 in its rearranged form (block sums of the covariances
// and means of q(x) kept apart), equals the sum over the points of
// ‖t_n − E[W]E[x_n] − E[μ]‖² + tr(E[WᵀW]Cov(x_n)) + E[x_n]ᵀ(PΣ_w)E[x_n] +
// P s_μ, each point's term computed directly from D.15-D.16, here with
// large nearly antiparallel columns of E[W] at the toy's noise.
func TestResidualWithoutCancellation(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 8))
	data, _, _ := mixed(rnd, 100, 3, 2, toySources(), 1e-4)
	m, err := NewVB(data, 3, toySources(), DefaultPrior(), Settings{Sources: 2, InitW: []float64{36, -43, 117, -146, 78, -96}})
	if err != nil {
		t.Fatal(err)
	}
	m.qb = dist.Gamma{Alpha: m.qb.Alpha, Beta: m.qb.Alpha * 1e-4}
	for range 5 {
		if err := m.updateMu(); err != nil {
			t.Fatal(err)
		}
		if err := m.updateX(); err != nil {
			t.Fatal(err)
		}
	}
	k, p := m.k, m.p
	var want float64
	for i := 0; i < m.n; i++ {
		sm := m.secondMoment(i)
		x := m.ex[i*k : (i+1)*k]
		for q := 0; q < p; q++ {
			r := m.t[i*p+q] - m.mmu[q]
			for a := 0; a < k; a++ {
				r -= m.ew.At(q, a) * x[a]
			}
			want += r * r
		}
		for a := 0; a < k; a++ {
			for b := 0; b < k; b++ {
				want += m.ewtwR[a*k+b]*(sm[a*k+b]-x[a]*x[b]) + float64(p)*m.wCov.At(a, b)*x[a]*x[b]
			}
		}
		want += float64(p) * m.smu
	}
	if got := m.sqResid(); math.Abs(got-want) > 1e-9*want {
		t.Errorf("sqResid = %.15g, per-point sum %.15g (relative %.2g)", got, want, math.Abs(got-want)/want)
	}
}
