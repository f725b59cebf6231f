package gmm_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/model/gmm"
	"github.com/vbworkbench/vbw/core/numeric"
)

// hardResp returns the K×N responsibilities of the assignments z.
func hardResp(z []int, k int) []float64 {
	n := len(z)
	r := make([]float64, k*n)
	for i, c := range z {
		r[c*n+i] = 1
	}
	return r
}

// TestCompletedEvidenceSumsToExact checks CompletedLogEvidence at hard
// assignments against enumeration: ln Σ_Z exp ln p(X, Z) = ln p(X | K)
// (LogEvidenceExact), and at K = 1 against the closed form.
func TestCompletedEvidenceSumsToExact(t *testing.T) {
	x := tiny()[:12] // 6 points
	p := defaultPrior(0.7)
	n, k := 6, 3
	lnp := math.Inf(-1)
	z := make([]int, n)
	for {
		lc, err := gmm.CompletedLogEvidence(x, 2, hardResp(z, k), k, p)
		if err != nil {
			t.Fatal(err)
		}
		lnp = numeric.LogAddExp(lnp, lc)
		i := 0
		for ; i < n; i++ {
			if z[i]++; z[i] < k {
				break
			}
			z[i] = 0
		}
		if i == n {
			break
		}
	}
	want, err := gmm.LogEvidenceExact(x, 2, k, p)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(lnp-want) > 1e-9 {
		t.Errorf("ln Σ_Z p(X, Z) = %.12f, LogEvidenceExact %.12f", lnp, want)
	}
	one, _ := gmm.LogEvidenceOne(x, 2, p)
	lc, err := gmm.CompletedLogEvidence(x, 2, hardResp(make([]int, n), 1), 1, p)
	if err != nil || math.Abs(lc-one) > 1e-10 {
		t.Errorf("K = 1: completed evidence %.12f (%v), closed form %.12f", lc, err, one)
	}
}

// TestCheesemanStutzExactAtK1: at K = 1 the completed data are the data,
// so CS is ln p(X) whatever θ̂.
func TestCheesemanStutzExactAtK1(t *testing.T) {
	x := clusters(rand.New(rand.NewPCG(3, 3)), 40, 1, [2]float64{0, 0})
	p := defaultPrior(1)
	want, _ := gmm.LogEvidenceOne(x, 2, p)
	m := newVB(t, x, 1, p, 1)
	converge(t, m)
	th, err := gmm.PosteriorMean(m)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := gmm.CheesemanStutz(x, 2, p, th, nil)
	if err != nil || math.Abs(cs-want) > 1e-9 {
		t.Errorf("CS at K = 1 = %.12f (%v), ln p(X) = %.12f", cs, err, want)
	}
	mp, _, _, err := gmm.MAPEM(x, 2, p, m.Responsibilities(), 100, 1e-12)
	if err != nil {
		t.Fatal(err)
	}
	if cs, _ := gmm.CheesemanStutz(x, 2, p, mp, nil); math.Abs(cs-want) > 1e-9 {
		t.Errorf("CS at the MAP point, K = 1 = %.12f, ln p(X) = %.12f", cs, want)
	}
}

// TestCheesemanStutzBound: CS at the MAP point of EM (started from VB's
// q(Z)) is below the enumerated ln p(X | K) (Theorem 2.3: it is VB's bound
// at q(Z) = the E step), on the 8-point data set at K = 2, 3 and on 16
// points in two clusters 6 apart at K = 2, where with ln 2! added it is
// within 0.1 nats of it (the modes are separate and the completion is
// nearly hard); CS with VB's own q(Z) at its posterior mean is at least
// VB's F (it is F + Σ KL).
func TestCheesemanStutzBound(t *testing.T) {
	p := defaultPrior(1)
	sep := clusters(rand.New(rand.NewPCG(11, 2)), 16, 0.5, [2]float64{-3, 0}, [2]float64{3, 0})
	for _, c := range []struct {
		x     []float64
		k     int
		close bool
	}{{tiny(), 2, false}, {tiny(), 3, false}, {sep, 2, true}} {
		x, k := c.x, c.k
		exact, err := gmm.LogEvidenceExact(x, 2, k, p)
		if err != nil {
			t.Fatal(err)
		}
		m, f := bestVB(t, x, k, p)
		mp, _, it, err := gmm.MAPEM(x, 2, p, m.Responsibilities(), 1000, 1e-12)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := gmm.CheesemanStutz(x, 2, p, mp, nil)
		if err != nil {
			t.Fatal(err)
		}
		th, _ := gmm.PosteriorMean(m)
		csq, err := gmm.CheesemanStutz(x, 2, p, th, m.Responsibilities())
		if err != nil {
			t.Fatal(err)
		}
		n := len(x) / 2
		t.Logf("N = %d, K = %d: exact %.4f, CS(MAP, %d EM steps) %.4f, CS(VB q) %.4f, F %.4f", n, k, exact, it, cs, csq, f)
		if cs > exact+1e-9 {
			t.Errorf("N = %d, K = %d: CS %.6f above ln p(X) %.6f", n, k, cs, exact)
		}
		if e := math.Abs(cs + gmm.LogFactorial(k) - exact); c.close && e > 0.1 {
			t.Errorf("N = %d, K = %d: |CS + ln K! − ln p(X)| = %.4f, more than 0.1", n, k, e)
		}
		if csq < f-1e-6 {
			t.Errorf("N = %d, K = %d: CS with VB's q(Z) %.8f below F %.8f", n, k, csq, f)
		}
	}
}

// TestUnconstrainedJacobian checks the log Jacobian of Unconstrained
// against the log determinant of a finite-difference Jacobian of the map
// u ↦ (π_1…π_{K−1}, μ, Λ's upper triangles), the coordinates of Target's
// density: LogProb(u) − Target.LogProb(θ(u)) = ln|∂θ/∂u|.
func TestUnconstrainedJacobian(t *testing.T) {
	x := tiny()
	p := defaultPrior(1.3)
	k, d := 3, 2
	un, err := gmm.NewUnconstrained(x, d, k, p)
	if err != nil {
		t.Fatal(err)
	}
	tg, _ := gmm.NewTarget(x, d, k, p)
	rnd := rand.New(rand.NewPCG(9, 9))
	dim := un.Dim()
	theta := func(u []float64) []float64 { // the flat θ of Target (ln π, μ, Λ upper)
		th := un.Unpack(u)
		v := make([]float64, 0, gmm.ParamDim(k, d))
		for _, w := range th.Weights {
			v = append(v, math.Log(w))
		}
		v = append(v, th.Means...)
		for c := range k {
			for a := range d {
				for b := a; b < d; b++ {
					v = append(v, th.Precisions[c*d*d+a*d+b])
				}
			}
		}
		return v
	}
	coords := func(u []float64) []float64 { // (π_1…π_{K−1}, μ, Λ upper)
		v := theta(u)
		out := make([]float64, 0, dim)
		for c := 0; c < k-1; c++ {
			out = append(out, math.Exp(v[c]))
		}
		return append(out, v[k:]...)
	}
	for range 3 {
		u := make([]float64, dim)
		for i := range u {
			u[i] = 0.5 * rnd.NormFloat64()
		}
		jac := mat.NewDense(dim, dim, nil)
		h := 1e-6
		for j := range dim {
			up, um := append([]float64(nil), u...), append([]float64(nil), u...)
			up[j] += h
			um[j] -= h
			cp, cm := coords(up), coords(um)
			for i := range dim {
				jac.Set(i, j, (cp[i]-cm[i])/(2*h))
			}
		}
		var lu mat.LU
		lu.Factorize(jac)
		logDet, _ := lu.LogDet()
		got := un.LogProb(u) - tg.LogProb(theta(u))
		if math.Abs(got-logDet) > 1e-6 {
			t.Errorf("ln|∂θ/∂u| = %.9f, finite differences %.9f", got, logDet)
		}
	}
}

// bestVB is the VB fit of the highest F of 5 starts.
func bestVB(t *testing.T, x []float64, k int, p gmm.Prior) (*gmm.VB, float64) {
	t.Helper()
	var best *gmm.VB
	f := math.Inf(-1)
	for seed := range uint64(5) {
		m := newVB(t, x, k, p, seed+1)
		if r := converge(t, m); r.F > f {
			best, f = m, r.F
		}
	}
	return best, f
}

// laplaceGMM is Laplace's ln p(X | K) at the mode nearest the posterior
// mean of VB's best fit, ln K! added.
func laplaceGMM(t *testing.T, x []float64, k int, p gmm.Prior) float64 {
	t.Helper()
	m, _ := bestVB(t, x, k, p)
	th, err := gmm.PosteriorMean(m)
	if err != nil {
		t.Fatal(err)
	}
	un, _ := gmm.NewUnconstrained(x, 2, k, p)
	u0, err := un.Pack(th)
	if err != nil {
		t.Fatal(err)
	}
	r, err := approx.Laplace(approx.Func{LogP: un.LogProb, Grad: func(dst, u []float64) { un.Grad(dst, u) }, Hess: un.Hess}, u0)
	if err != nil {
		t.Fatal(err)
	}
	return r.LnZ + gmm.LogFactorial(k)
}

// TestLaplaceKnownAnswers: at K = 1 Laplace's error against the closed form
// shrinks as N grows (it is O(1/N)); on 12, 16 and 20 points in two
// clusters 6 apart at K = 2, with ln 2! added (the two modes are
// separate), its error against the enumerated evidence shrinks too, and is
// below 0.7 nats.
func TestLaplaceKnownAnswers(t *testing.T) {
	p := defaultPrior(1)
	prev := math.Inf(1)
	for _, n := range []int{20, 80, 320} {
		x := clusters(rand.New(rand.NewPCG(7, 7)), n, 1, [2]float64{0.5, -0.5})
		want, _ := gmm.LogEvidenceOne(x, 2, p)
		e := math.Abs(laplaceGMM(t, x, 1, p) - want)
		t.Logf("K = 1, N = %d: |Laplace − ln p(X)| = %.4f", n, e)
		if e >= prev || e > 1 {
			t.Errorf("K = 1, N = %d: |error| %.4f not below %.4f (the smaller N's) or above 1 nat", n, e, prev)
		}
		prev = e
	}
	if testing.Short() {
		t.Skip("the enumerations of 2^20 assignments")
	}
	prev = math.Inf(1)
	for _, n := range []int{12, 16, 20} {
		x := clusters(rand.New(rand.NewPCG(11, 2)), n, 0.5, [2]float64{-3, 0}, [2]float64{3, 0})
		want, err := gmm.LogEvidenceExact(x, 2, 2, p)
		if err != nil {
			t.Fatal(err)
		}
		e := math.Abs(laplaceGMM(t, x, 2, p) - want)
		t.Logf("K = 2, N = %d: |Laplace + ln 2 − ln p(X)| = %.4f", n, e)
		if e >= prev || e > 0.7 {
			t.Errorf("K = 2, N = %d: |error| %.4f not below %.4f (the smaller N's) or above 0.7 nats", n, e, prev)
		}
		prev = e
	}
}

// TestUnconstrainedGradHess checks Grad against central differences of
// LogProb (and its returned value against LogProb), and Hess against
// approx.HessianFD of LogProb, at random points for K = 1, 2, 3 under a
// prior with m₀ ≠ 0, β₀ ≠ 1, ν₀ ≠ D and a non-diagonal W₀.
func TestUnconstrainedGradHess(t *testing.T) {
	x := tiny()
	p := gmm.Prior{Alpha0: 1.7, Beta0: 0.6, Nu0: 3.5, M0: []float64{0.3, -0.2}, W0: []float64{1.2, 0.4, 0.4, 0.8}}
	rnd := rand.New(rand.NewPCG(4, 4))
	for _, k := range []int{1, 2, 3} {
		un, err := gmm.NewUnconstrained(x, 2, k, p)
		if err != nil {
			t.Fatal(err)
		}
		n := un.Dim()
		g, fdg := make([]float64, n), make([]float64, n)
		h, fdh := make([]float64, n*n), make([]float64, n*n)
		for range 3 {
			u := make([]float64, n)
			for i := range u {
				u[i] = 0.5 * rnd.NormFloat64()
			}
			if lp := un.Grad(g, u); math.Abs(lp-un.LogProb(u)) > 1e-10*math.Abs(lp) {
				t.Errorf("K = %d: Grad's value %.12f, LogProb %.12f", k, lp, un.LogProb(u))
			}
			fd.Gradient(fdg, un.LogProb, u, &fd.Settings{Formula: fd.Central, Step: 1e-5})
			for i := range g {
				if math.Abs(g[i]-fdg[i]) > 1e-5*(1+math.Abs(fdg[i])) {
					t.Errorf("K = %d: ∂/∂u_%d = %.9f, finite differences %.9f", k, i, g[i], fdg[i])
				}
			}
			un.Hess(h, u)
			// The four-point rule on LogProb at step 1e-4 (error ~1e-8
			// from the fourth derivatives, ~1e-7 from round-off).
			const e = 1e-4
			at := func(i int, si float64, j int, sj float64) float64 {
				v := append([]float64(nil), u...)
				v[i] += si
				v[j] += sj
				return un.LogProb(v)
			}
			for i := range n {
				for j := range n {
					fdh[i*n+j] = (at(i, e, j, e) - at(i, e, j, -e) - at(i, -e, j, e) + at(i, -e, j, -e)) / (4 * e * e)
				}
			}
			for i := range h {
				if math.Abs(h[i]-fdh[i]) > 1e-5*(1+math.Abs(fdh[i])) {
					t.Errorf("K = %d: ∂²/∂u∂u [%d] = %.7f, finite differences %.7f", k, i, h[i], fdh[i])
				}
			}
		}
	}
}
