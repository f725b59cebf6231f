package approx

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestMeanFieldFixedPoint runs the MF updates to convergence and compares
// with the closed form (mean μ, variance 1/Λ_ii), the bound with −KL.
func TestMeanFieldFixedPoint(t *testing.T) {
	mf, err := NewMeanField(corr2, []float64{3, -4})
	if err != nil {
		t.Fatal(err)
	}
	res := vb.Run(mf, vb.Settings{MaxIterations: 500, Converger: vb.FixedIterations{}})
	if res.Err != nil || res.Decrease.Iter >= 0 {
		t.Fatalf("run: %v, decrease %+v", res.Err, res.Decrease)
	}
	want, _ := FactorisedKLqp(corr2)
	q := mf.Q()
	for i := range q.Mean {
		near(t, "MF mean", q.Mean[i], want.Mean[i], 1e-6)
	}
	for i := range q.Cov {
		near(t, "MF cov", q.Cov[i], want.Cov[i], 1e-15)
	}
	near(t, "F = −KL(q‖p)", res.F, -KLNormal(q, corr2), 1e-10)
	// The factorised KL(p‖q) minimiser has the marginal variances, broader
	// than the MF ones (PRML Fig. 10.2).
	pq := FactorisedKLpq(corr2)
	for i := range 2 {
		if !(pq.Var(i) > want.Var(i)) {
			t.Errorf("marginal variance %v not above MF variance %v", pq.Var(i), want.Var(i))
		}
	}
}

// TestFactorisedOptimaAreMinima checks the closed-form factorised and
// spherical optima against perturbations: no nearby q of the family has a
// smaller KL.
func TestFactorisedOptimaAreMinima(t *testing.T) {
	mfq, _ := FactorisedKLqp(corr2)
	sq, _ := SphericalKLqp(corr2)
	for _, c := range []struct {
		name string
		q    Normal
		kl   func(Normal) float64
	}{
		{"factorised KL(q‖p)", mfq, func(q Normal) float64 { return KLNormal(q, corr2) }},
		{"factorised KL(p‖q)", FactorisedKLpq(corr2), func(q Normal) float64 { return KLNormal(corr2, q) }},
		{"spherical KL(q‖p)", sq, func(q Normal) float64 { return KLNormal(q, corr2) }},
		{"spherical KL(p‖q)", SphericalKLpq(corr2), func(q Normal) float64 { return KLNormal(corr2, q) }},
	} {
		k0 := c.kl(c.q)
		for _, e := range []float64{1e-3, -1e-3} {
			for _, idx := range []int{0, 3} {
				p := Normal{Mean: c.q.Mean, Cov: append([]float64(nil), c.q.Cov...)}
				p.Cov[idx] *= 1 + e
				if c.name[:9] == "spherical" {
					p.Cov[3-idx] *= 1 + e
				}
				if c.kl(p) < k0 {
					t.Errorf("%s: perturbed KL %v below %v", c.name, c.kl(p), k0)
				}
			}
		}
	}
}

// TestMeanFieldConformance runs vbtest.CheckModel on the MF fit of a
// 6-step AR(1) chain (Turner & Sahani eq. (1.19)). E allocates the terms
// slice header only (0 allocations: the terms live in the model).
func TestMeanFieldConformance(t *testing.T) {
	p := ar1(6, 0.9)
	vbtest.CheckModel(t, func() vb.Model {
		mf, err := NewMeanField(p, []float64{1, -1, 2, 0, 1, 3})
		if err != nil {
			t.Fatal(err)
		}
		return mf
	}, vbtest.CheckOptions{})
}

// ar1 returns the stationary AR(1) chain of n steps with unit marginal
// variance: Cov_ij = λ^|i−j|.
func ar1(n int, lambda float64) Normal {
	q := Normal{Mean: make([]float64, n), Cov: make([]float64, n*n)}
	for i := range n {
		for j := range n {
			q.Cov[i*n+j] = math.Pow(lambda, math.Abs(float64(i-j)))
		}
	}
	return q
}

// TestMeanFieldChain checks Turner & Sahani's interior variance (1−λ²)/(1+λ²)
// and the end variance 1−λ² (targets §1.2, Fig. 1.3).
func TestMeanFieldChain(t *testing.T) {
	for _, l := range []float64{0.5, 0.9, 0.99} {
		q, err := FactorisedKLqp(ar1(9, l))
		if err != nil {
			t.Fatal(err)
		}
		near(t, "interior variance", q.Var(4), (1-l*l)/(1+l*l), 1e-9)
		near(t, "end variance", q.Var(0), 1-l*l, 1e-9)
	}
}

// gaussFactor is the Gaussian likelihood factor N(y | aᵀθ, s2), whose EP
// must be exact.
func gaussFactor(a []float64, y, s2 float64) ProjectedFactor {
	return ProjectedFactor{A: a, LogG: func(u float64) float64 {
		return -0.5*math.Log(2*math.Pi*s2) - 0.5*(y-u)*(y-u)/s2
	}}
}

// TestEPExactOnGaussianFactors: with Gaussian factors EP reaches the exact
// posterior and evidence (Bayesian linear regression).
func TestEPExactOnGaussianFactors(t *testing.T) {
	prior := Normal{Mean: []float64{0, 0}, Cov: []float64{2, 0, 0, 2}}
	xs := [][]float64{{1, 0.5}, {1, -1}, {1, 2}}
	ys := []float64{0.3, -0.8, 1.7}
	s2 := 0.5
	var fs []Factor
	for i, x := range xs {
		fs = append(fs, gaussFactor(x, ys[i], s2))
	}
	ep, err := NewEP(prior, fs, EPSettings{Damping: 0.7})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := ep.Run(); !ok || err != nil {
		t.Fatalf("EP did not converge: %v", err)
	}
	// Exact: S⁻¹ = S₀⁻¹ + XᵀX/s2, m = S Xᵀy/s2; ln p(y) = ln N(y | 0, XS₀Xᵀ + s2 I).
	post := Normal{Mean: []float64{0, 0}, Cov: []float64{0.5, 0, 0, 0.5}}
	for i, x := range xs {
		for a := range 2 {
			for b := range 2 {
				post.Cov[a*2+b] += x[a] * x[b] / s2
			}
			post.Mean[a] += x[a] * ys[i] / s2
		}
	}
	cov, _, _ := invertSPD(post.Cov, 2)
	m := []float64{cov[0]*post.Mean[0] + cov[1]*post.Mean[1], cov[2]*post.Mean[0] + cov[3]*post.Mean[1]}
	if k := KLNormal(ep.Q(), Normal{Mean: m, Cov: cov}); !(k < 1e-9) {
		t.Errorf("EP q differs from the exact posterior: KL %g", k)
	}
	marg := Normal{Mean: make([]float64, 3), Cov: make([]float64, 9)}
	for i := range 3 {
		for j := range 3 {
			marg.Cov[i*3+j] = 2 * (xs[i][0]*xs[j][0] + xs[i][1]*xs[j][1])
			if i == j {
				marg.Cov[i*3+j] += s2
			}
		}
	}
	ly, _ := marg.LogDensity()
	lz, err := ep.LogEvidence()
	if err != nil {
		t.Fatal(err)
	}
	near(t, "EP ln Z", lz, ly(ys), 1e-8)
}

// probitClassifier returns logistic factors σ((2t−1)aᵀθ) for a small
// 2-D problem.
func logisticFactors() []Factor {
	xs := [][]float64{{1, 0.5}, {1, -1}, {1, 2}, {1, 0.1}, {1, -0.3}}
	ts := []float64{1, 0, 1, 0, 1}
	var fs []Factor
	for i, x := range xs {
		s := 2*ts[i] - 1
		fs = append(fs, ProjectedFactor{A: x, LogG: func(u float64) float64 { return LogSigmoid(s * u) }})
	}
	return fs
}

// TestEPFixedPoint checks EP's fixed point: for every site, the moments of
// the tilted distribution (cavity × factor) equal q's; and EP's evidence
// against the exact one by 2-D quadrature (close, not equal).
func TestEPFixedPoint(t *testing.T) {
	prior := Normal{Mean: []float64{0, 0}, Cov: []float64{4, 0, 0, 4}}
	fs := logisticFactors()
	ep, err := NewEP(prior, fs, EPSettings{Tol: 1e-11})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := ep.Run(); !ok || err != nil {
		t.Fatalf("EP did not converge: %v", err)
	}
	q := ep.Q()
	mean, cov := make([]float64, 2), make([]float64, 4)
	for i, f := range fs {
		cav, ok := ep.Cavity(i)
		if !ok {
			t.Fatalf("cavity %d improper", i)
		}
		if _, err := f.Tilted(cav.Mean, cav.Cov, mean, cov); err != nil {
			t.Fatal(err)
		}
		for k := range mean {
			near(t, "tilted mean", mean[k], q.Mean[k], 1e-8)
		}
		for k := range cov {
			near(t, "tilted cov", cov[k], q.Cov[k], 1e-8)
		}
	}
	lp, _ := prior.LogDensity()
	target := Density{LogP: func(x []float64) float64 {
		v := lp(x)
		for _, f := range fs {
			pf := f.(ProjectedFactor)
			v += pf.LogG(pf.A[0]*x[0] + pf.A[1]*x[1])
		}
		return v
	}, Lo: []float64{-25, -25}, Hi: []float64{25, 25}}
	ex, err := target.Exact(numeric.QuadTol{Rel: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	lz, err := ep.LogEvidence()
	if err != nil {
		t.Fatal(err)
	}
	near(t, "EP ln Z against quadrature", lz, ex.LnZ, 0.05)
	near(t, "EP mean against exact", q.Mean[0], ex.Mean[0], 0.05)
}

// TestEPOneFactorIsMomentMatching: with one factor EP's q is the
// moment-matched Gaussian of the target, and its evidence the exact Z
// (PRML Fig. 10.14's skewed density).
func TestEPOneFactorIsMomentMatching(t *testing.T) {
	prior := Normal{Mean: []float64{0}, Cov: []float64{1}}
	f := ProjectedFactor{A: []float64{1}, LogG: func(u float64) float64 { return LogSigmoid(20*u + 4) }}
	ep, err := NewEP(prior, []Factor{f}, EPSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ep.Run(); err != nil {
		t.Fatal(err)
	}
	p := Density{LogP: func(x []float64) float64 { return -x[0]*x[0]/2 + LogSigmoid(20*x[0]+4) - 0.5*math.Log(2*math.Pi) }, Lo: []float64{-12}, Hi: []float64{12}}
	ex, err := p.Exact(numeric.QuadTol{})
	if err != nil {
		t.Fatal(err)
	}
	q := ep.Q()
	near(t, "EP mean", q.Mean[0], ex.Mean[0], 1e-9)
	near(t, "EP variance", q.Cov[0], ex.Cov[0], 1e-9)
	lz, _ := ep.LogEvidence()
	near(t, "EP ln Z", lz, ex.LnZ, 1e-9)
}

// TestEPNegativeSiteVariance: a factor that pulls q's variance up (a
// broad-tailed clutter-like mixture far from the prior mean) gives a site
// with negative precision while q stays proper.
func TestEPNegativeSiteVariance(t *testing.T) {
	prior := Normal{Mean: []float64{0}, Cov: []float64{100}}
	var fs []Factor
	for _, x := range []float64{1.5, 2.2, 1.9, -3.5, 8} {
		fs = append(fs, ProjectedFactor{A: []float64{1}, LogG: func(u float64) float64 {
			// (1 − w) N(x | u, 1) + w N(x | 0, 10), PRML eq. (10.209), w = 0.5.
			a := math.Log(0.5) - 0.5*math.Log(2*math.Pi) - 0.5*(x-u)*(x-u)
			b := math.Log(0.5) - 0.5*math.Log(2*math.Pi*10) - 0.5*x*x/10
			return numeric.LogAddExp(a, b)
		}})
	}
	ep, err := NewEP(prior, fs, EPSettings{Damping: 0.5, MaxIterations: 200})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ep.Run(); err != nil {
		t.Fatal(err)
	}
	neg := 0
	for i := range fs {
		_, lam := ep.Site(i)
		if lam[0] < 0 {
			neg++
		}
	}
	if neg == 0 || !ep.Q().Valid() {
		t.Errorf("negative sites %d, q valid %v", neg, ep.Q().Valid())
	}
}

// TestGaussVBExact: the direct KL(q‖posterior) equals ln p(x) − F, and the
// closed-form evidence equals a quadrature of the joint.
func TestGaussVBExact(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, 10)
	for i := range x {
		x[i] = 1 + 0.7*rnd.NormFloat64()
	}
	prior := NGPrior{Mu0: 0, Lambda0: 0.5, A0: 2, B0: 1}
	g, err := NewGaussVB(x, prior, -1, 0.5, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	post, _ := g.ExactPosterior()
	for range 5 {
		b, err := g.E()
		if err != nil {
			t.Fatal(err)
		}
		near(t, "KL = ln p − F", g.KLToPosterior(post), post.LogEvidence-b.F, 1e-10)
		g.M()
	}
	joint := Density{LogP: func(v []float64) float64 {
		return post.LogEvidence + post.LogDensity(v[0], v[1])
	}, Lo: []float64{-2, 1e-9}, Hi: []float64{4, 30}}
	ex, err := joint.Exact(numeric.QuadTol{Rel: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	// The joint p(x, μ, τ) computed from the prior and likelihood directly.
	direct := func(v []float64) float64 {
		mu, tau := v[0], v[1]
		s := 0.0
		for _, xi := range x {
			s += (xi - mu) * (xi - mu)
		}
		lik := 0.5*float64(len(x))*math.Log(tau/(2*math.Pi)) - 0.5*tau*s
		pm := 0.5*math.Log(prior.Lambda0*tau/(2*math.Pi)) - 0.5*prior.Lambda0*tau*(mu-prior.Mu0)*(mu-prior.Mu0)
		pt := prior.A0*math.Log(prior.B0) - numeric.LogGamma(prior.A0) + (prior.A0-1)*math.Log(tau) - prior.B0*tau
		return lik + pm + pt
	}
	near(t, "joint matches", direct([]float64{0.7, 1.3}), joint.LogP([]float64{0.7, 1.3}), 1e-10)
	near(t, "ln p(x) by quadrature", ex.LnZ, post.LogEvidence, 1e-8)
}

// TestGaussVBEq1033: under the improper prior μ₀ = a₀ = b₀ = λ₀ = 0 the
// fixed point has 1/E[τ] = Σ(x − x̄)²/(N − 1) (PRML eq. (10.33)).
func TestGaussVBEq1033(t *testing.T) {
	x := []float64{0.3, 1.2, -0.4, 2.2, 0.9, 1.1, 0.05}
	g, err := NewGaussVB(x, NGPrior{}, 0, 1, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	for range 200 {
		g.UpdateMu()
		g.UpdateTau()
	}
	mean, _ := numeric.MeanSD(x)
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	near(t, "1/E[τ]", g.BN/g.AN, ss/float64(len(x)-1), 1e-12)
}

func TestGaussVBConformance(t *testing.T) {
	x := []float64{0.3, 1.2, -0.4, 2.2, 0.9}
	vbtest.CheckModel(t, func() vb.Model {
		g, err := NewGaussVB(x, NGPrior{Mu0: 0.5, Lambda0: 1, A0: 1, B0: 1}, -2, 0.3, 2, 5)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}, vbtest.CheckOptions{})
}

// TestJJBoundBelowLogSigmoid: ln σ(a) ≥ the JJ bound for every a and ξ,
// with equality at a = ±ξ.
func TestJJBoundBelowLogSigmoid(t *testing.T) {
	for a := -12.0; a <= 12; a += 0.25 {
		for xi := -10.0; xi <= 10; xi += 0.125 {
			if b := JJLogSigmoidBound(a, xi); b > LogSigmoid(a)+1e-13 {
				t.Fatalf("bound %v above ln σ(%v) = %v at ξ = %v", b, a, LogSigmoid(a), xi)
			}
		}
		near(t, "tight at ξ = a", JJLogSigmoidBound(a, a), LogSigmoid(a), 1e-12)
		near(t, "tight at ξ = −a", JJLogSigmoidBound(a, -a), LogSigmoid(a), 1e-12)
	}
	near(t, "λ(0)", JJLambda(0), 0.125, 0)
	near(t, "λ continuous at 0", JJLambda(2e-6), JJLambda(1e-6), 1e-12)
}

// logisticData is a small 2-feature data set.
func logisticData() ([][]float64, []int) {
	return [][]float64{{1, 0.5}, {1, -1}, {1, 2}, {1, 0.1}, {1, -0.3}, {1, 1.4}}, []int{1, 0, 1, 0, 1, 1}
}

// TestLogisticBoundBelowEvidence: for fixed α the bound is below the exact
// ln p(t) (2-D quadrature) at every iteration, for any ξ, and ξ's updates
// only raise it.
func TestLogisticBoundBelowEvidence(t *testing.T) {
	phi, tt := logisticData()
	alpha := 0.5
	target := Density{LogP: func(w []float64) float64 {
		v := math.Log(alpha/(2*math.Pi)) - 0.5*alpha*(w[0]*w[0]+w[1]*w[1])
		for n, f := range phi {
			a := f[0]*w[0] + f[1]*w[1]
			v += LogSigmoid((2*float64(tt[n]) - 1) * a)
		}
		return v
	}, Lo: []float64{-20, -20}, Hi: []float64{20, 20}}
	ex, err := target.Exact(numeric.QuadTol{Rel: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	lr, err := NewLogistic(phi, tt, LogisticPrior{Alpha: alpha})
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(5, 6))
	prev := math.Inf(-1)
	for it := range 50 {
		b, err := lr.E()
		if err != nil {
			t.Fatal(err)
		}
		if b.F > ex.LnZ {
			t.Fatalf("iteration %d: bound %v above ln p(t) = %v", it, b.F, ex.LnZ)
		}
		if b.F < prev-1e-12 {
			t.Fatalf("iteration %d: bound fell from %v to %v", it, prev, b.F)
		}
		prev = b.F
		lr.M()
		// Any other ξ gives a bound no higher (the update is the maximiser).
		saved := append([]float64(nil), lr.Xi...)
		for n := range lr.Xi {
			lr.Xi[n] = 5 * rnd.Float64()
		}
		if alt, _ := lr.E(); alt.F > ex.LnZ {
			t.Fatalf("random ξ: bound %v above ln p(t) %v", alt.F, ex.LnZ)
		}
		copy(lr.Xi, saved)
	}
	if gap := ex.LnZ - prev; !(gap > 0 && gap < 0.5) {
		t.Errorf("converged gap %v nats", gap)
	}
}

// TestLogisticConformance: vbtest.CheckModel on the fixed-α and the
// hyperprior fits. E allocates nothing (scratch and terms live in the model).
func TestLogisticConformance(t *testing.T) {
	phi, tt := logisticData()
	for _, p := range []LogisticPrior{{Alpha: 0.5}, {Hyper: true, A0: 1e-2, B0: 1e-2}} {
		vbtest.CheckModel(t, func() vb.Model {
			lr, err := NewLogistic(phi, tt, p)
			if err != nil {
				t.Fatal(err)
			}
			return lr
		}, vbtest.CheckOptions{})
	}
}
