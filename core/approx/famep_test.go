package approx

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
)

// lnB is ln B(α) = Σ ln Γ(α_k) − ln Γ(Σ α_k).
func lnB(alpha []float64) float64 {
	var s, a0 float64
	for _, a := range alpha {
		s += numeric.LogGamma(a)
		a0 += a
	}
	return s - numeric.LogGamma(a0)
}

// latentClass is a Dirichlet prior over a weight row π (K entries) and K
// emission rows (V entries each), with one data point per x: the site of
// point i is Σ_z π_z B_{z,x_i}, a MonomialMixture.
func latentClass(t *testing.T, k, v int, xs []int, lambda float64) (*Dirichlets, []float64, []SiteFactor) {
	t.Helper()
	sizes := []int{k}
	for range k {
		sizes = append(sizes, v)
	}
	fam, err := NewDirichlets(sizes)
	if err != nil {
		t.Fatal(err)
	}
	prior := make([]float64, fam.Dim())
	for i := range prior {
		prior[i] = lambda - 1
	}
	var fs []SiteFactor
	for _, x := range xs {
		f := &MonomialMixture{Fam: fam}
		for z := range k {
			f.Terms = append(f.Terms, Monomial{W: 1, Rows: []int{0, 1 + z}, Index: []int{z, x}})
		}
		fs = append(fs, f)
	}
	return fam, prior, fs
}

// exactLatentClass sums p(x) over every assignment of the hidden classes
// (Kⁿ terms), each a ratio of Dirichlet normalisers.
func exactLatentClass(k, v int, xs []int, lambda float64) float64 {
	n := len(xs)
	z := make([]int, n)
	var terms []float64
	for {
		alpha := make([]float64, k+k*v)
		for i := range alpha {
			alpha[i] = lambda
		}
		for i, x := range xs {
			alpha[z[i]]++
			alpha[k+z[i]*v+x]++
		}
		l := lnB(alpha[:k]) - lnB(onesTimes(k, lambda))
		for c := range k {
			l += lnB(alpha[k+c*v:k+(c+1)*v]) - lnB(onesTimes(v, lambda))
		}
		terms = append(terms, l)
		i := 0
		for ; i < n; i++ {
			z[i]++
			if z[i] < k {
				break
			}
			z[i] = 0
		}
		if i == n {
			break
		}
	}
	return numeric.LogSumExp(terms)
}

func onesTimes(n int, c float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = c
	}
	return v
}

// TestFamilyEPConjugate: sites in the family (a Beta prior and Bernoulli
// observations, each a one-term monomial) make EP exact after one sweep:
// q is the posterior and the evidence the Beta–binomial closed form.
func TestFamilyEPConjugate(t *testing.T) {
	fam, _ := NewDirichlets([]int{2})
	prior := []float64{2 - 1, 3 - 1}
	xs := []int{1, 0, 0, 1, 1, 1, 0}
	var fs []SiteFactor
	counts := []float64{0, 0}
	for _, x := range xs {
		fs = append(fs, &MonomialMixture{Fam: fam, Terms: []Monomial{{W: 1, Rows: []int{0}, Index: []int{x}}}})
		counts[x]++
	}
	e, err := NewFamilyEP(fam, prior, fs, EPSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := e.Run(); err != nil || !ok {
		t.Fatalf("Run: converged %v, %v", ok, err)
	}
	if e.Iterations != 2 {
		t.Errorf("%d sweeps, want 2 (the second moves nothing)", e.Iterations)
	}
	q := e.Q()
	for j := range q {
		if want := prior[j] + counts[j]; math.Abs(q[j]-want) > 1e-9 {
			t.Errorf("q's η = %v, want prior + counts %v", q, counts)
		}
	}
	got, err := e.LogEvidence()
	if err != nil {
		t.Fatal(err)
	}
	want := lnB([]float64{2 + counts[0], 3 + counts[1]}) - lnB([]float64{2, 3})
	if math.Abs(got-want) > 1e-10 {
		t.Errorf("ln Z_EP = %.12g, Beta–binomial %.12g", got, want)
	}
}

// TestFamilyEPStartAt: started at a q away from the prior, EP with
// conjugate sites still lands on the posterior and the exact evidence.
func TestFamilyEPStartAt(t *testing.T) {
	fam, _ := NewDirichlets([]int{3})
	prior := []float64{0, 1, 2}
	xs := []int{0, 2, 2, 1, 0, 2}
	var fs []SiteFactor
	post := append([]float64(nil), prior...)
	for _, x := range xs {
		fs = append(fs, &MonomialMixture{Fam: fam, Terms: []Monomial{{W: 1, Rows: []int{0}, Index: []int{x}}}})
		post[x]++
	}
	e, _ := NewFamilyEP(fam, prior, fs, EPSettings{})
	if err := e.StartAt([]float64{9, 0.5, 3}); err != nil {
		t.Fatal(err)
	}
	if err := e.StartAt([]float64{-1, 0, 0}); err == nil {
		t.Error("an improper start accepted")
	}
	if _, err := e.Run(); err != nil {
		t.Fatal(err)
	}
	q := e.Q()
	for j := range q {
		if math.Abs(q[j]-post[j]) > 1e-9 {
			t.Fatalf("q = %v, want the posterior %v", q, post)
		}
	}
	got, _ := e.LogEvidence()
	a := func(eta []float64) []float64 {
		v := make([]float64, len(eta))
		for i, x := range eta {
			v[i] = 1 + x
		}
		return v
	}
	if want := lnB(a(post)) - lnB(a(prior)); math.Abs(got-want) > 1e-10 {
		t.Errorf("ln Z_EP = %.12g, Dirichlet–multinomial %.12g", got, want)
	}
}

// TestFamilyEPOneSite: with one site the cavity is the prior, so EP's
// evidence is the tilted normaliser, exact: here Σ_z π̄_z B̄_{z,x}.
func TestFamilyEPOneSite(t *testing.T) {
	fam, prior, fs := latentClass(t, 3, 4, []int{2}, 0.7)
	e, err := NewFamilyEP(fam, prior, fs, EPSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(); err != nil {
		t.Fatal(err)
	}
	got, _ := e.LogEvidence()
	if want := exactLatentClass(3, 4, []int{2}, 0.7); math.Abs(got-want) > 1e-10 {
		t.Errorf("ln Z_EP = %.12g, exact %.12g", got, want)
	}
}

// TestFamilyEPLatentClass runs EP with mixture sites (Minka & Lafferty
// 2002) on latent class models whose evidence is a sum over the Kⁿ
// hidden assignments. At EP's fixed point every site's projection of its
// tilted density is q itself (the moment-matching condition). The
// evidence is an approximation: the errors observed on these data are
// 0.03–0.09 nats (EP stays at the relabelling-symmetric fixed point from
// the symmetric prior), the bound is 0.2, and EP must beat the prior's
// predictive Π_i p(x_i) (errors 0.12–0.7 nats), so the test fails if the
// sites did nothing.
func TestFamilyEPLatentClass(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for trial := range 6 {
		k, v := 2, 3
		n := 6 + trial
		xs := make([]int, n)
		for i := range xs {
			if i < n/2 {
				xs[i] = rnd.IntN(2)
			} else {
				xs[i] = 2
			}
		}
		fam, prior, fs := latentClass(t, k, v, xs, 1)
		e, err := NewFamilyEP(fam, prior, fs, EPSettings{MaxIterations: 500, Tol: 1e-11})
		if err != nil {
			t.Fatal(err)
		}
		ok, err := e.Run()
		if err != nil || !ok {
			t.Fatalf("trial %d: converged %v (%d sweeps, %d skipped), %v", trial, ok, e.Iterations, e.Skipped, err)
		}
		q := e.Q()
		for i, f := range fs {
			cav := e.Q()
			s := e.Site(i)
			for j := range cav {
				cav[j] -= s[j]
			}
			proj := make([]float64, len(q))
			if _, err := f.Project(proj, cav); err != nil {
				t.Fatal(err)
			}
			for j := range q {
				if math.Abs(proj[j]-q[j]) > 1e-7*(1+math.Abs(q[j])) {
					t.Fatalf("trial %d site %d: projection %v is not q %v at the fixed point", trial, i, proj, q)
				}
			}
		}
		got, err := e.LogEvidence()
		if err != nil {
			t.Fatal(err)
		}
		exact := exactLatentClass(k, v, xs, 1)
		// Π_i p(x_i) under the prior: each x has probability 1/V.
		naive := float64(n) * math.Log(1/float64(v))
		t.Logf("trial %d (n = %d): EP %.5f, exact %.5f, error %.4f; prior predictive error %.3f", trial, n, got, exact, got-exact, naive-exact)
		if math.Abs(got-exact) > 0.2 {
			t.Errorf("trial %d: ln Z_EP = %.5f, exact %.5f", trial, got, exact)
		}
		if math.Abs(got-exact) >= math.Abs(naive-exact) {
			t.Errorf("trial %d: EP's error %.4f is no better than the prior predictive's %.4f", trial, got-exact, naive-exact)
		}
	}
}

// TestBernoullisLogPartition: A(η) = Σ ln(1 + e^η) against a sum over the
// 2ⁿ states.
func TestBernoullisLogPartition(t *testing.T) {
	eta := []float64{-2, 0.5, 40, -40}
	got, ok := Bernoullis(4).LogPartition(eta)
	if !ok {
		t.Fatal("improper")
	}
	var terms []float64
	for s := range 16 {
		var l float64
		for j := range 4 {
			if s>>j&1 == 1 {
				l += eta[j]
			}
		}
		terms = append(terms, l)
	}
	if want := numeric.LogSumExp(terms); math.Abs(got-want) > 1e-12 {
		t.Errorf("A = %.15g, want %.15g", got, want)
	}
	if _, ok := Bernoullis(1).LogPartition([]float64{math.Inf(1)}); ok {
		t.Error("η = +Inf reported proper")
	}
}

// TestMonomialMixturePowers: a site with repeated entries, f(θ) = 2θ₀² +
// θ₁θ₂ under Dir(α): Z = [2α₀(α₀+1) + α₁α₂]/(A(A+1)), and the projection's
// expected logs are the mixture's, each component's by digammas directly.
func TestMonomialMixturePowers(t *testing.T) {
	fam, _ := NewDirichlets([]int{3})
	alpha := []float64{1.5, 0.7, 2.2}
	cav := []float64{alpha[0] - 1, alpha[1] - 1, alpha[2] - 1}
	f := &MonomialMixture{Fam: fam, Terms: []Monomial{
		{W: 2, Rows: []int{0, 0}, Index: []int{0, 0}},
		{W: 1, Rows: []int{0, 0}, Index: []int{1, 2}},
	}}
	dst := make([]float64, 3)
	lnZ, err := f.Project(dst, cav)
	if err != nil {
		t.Fatal(err)
	}
	A := alpha[0] + alpha[1] + alpha[2]
	z1, z2 := 2*alpha[0]*(alpha[0]+1)/(A*(A+1)), alpha[1]*alpha[2]/(A*(A+1))
	if want := math.Log(z1 + z2); math.Abs(lnZ-want) > 1e-13 {
		t.Errorf("ln Z = %.15g, want %.15g", lnZ, want)
	}
	mean := func(al []float64) []float64 {
		var a0 float64
		for _, v := range al {
			a0 += v
		}
		out := make([]float64, len(al))
		for k, v := range al {
			out[k] = numeric.Digamma(v) - numeric.Digamma(a0)
		}
		return out
	}
	m1 := mean([]float64{alpha[0] + 2, alpha[1], alpha[2]})
	m2 := mean([]float64{alpha[0], alpha[1] + 1, alpha[2] + 1})
	got := mean([]float64{1 + dst[0], 1 + dst[1], 1 + dst[2]})
	for k := range got {
		want := (z1*m1[k] + z2*m2[k]) / (z1 + z2)
		if math.Abs(got[k]-want) > 1e-11 {
			t.Errorf("E[ln θ_%d] of the projection %.12g, the mixture's %.12g", k, got[k], want)
		}
	}
}

// TestLogDistinctRelabellings: two Dirichlet rows swapped by the one
// relabelling of a binary label: ln 2 when the rows are concentrated far
// apart (BC below e^−100), 0 when they are equal, and for a single
// overlapping pair ln 2 − ln(1 + BC) with BC from the Beta normalisers.
func TestLogDistinctRelabellings(t *testing.T) {
	fam, _ := NewDirichlets([]int{2, 2})
	perms := [][]int{{0, 1, 2, 3}, {2, 3, 0, 1}}
	for _, c := range []struct {
		eta  []float64
		want float64
	}{
		{[]float64{1e4, 1, 1, 1e4}, math.Log(2)},
		{[]float64{3, 1, 3, 1}, 0},
	} {
		got, err := LogDistinctRelabellings(fam, c.eta, perms)
		if err != nil || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("η = %v: ln S_eff = %v (%v), want %v", c.eta, got, err, c.want)
		}
	}
	a, b := []float64{3, 2}, []float64{2, 3} // α of the two rows
	mid := []float64{2.5, 2.5}
	lbc := 2 * (lnB(mid) - lnB(a)/2 - lnB(b)/2)
	want := math.Log(2) - math.Log1p(math.Exp(lbc))
	got, _ := LogDistinctRelabellings(fam, []float64{2, 1, 1, 2}, perms)
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("overlapping rows: ln S_eff = %.15g, want %.15g", got, want)
	}
	if _, err := LogDistinctRelabellings(fam, []float64{-2, 1, 1, 2}, perms); err == nil {
		t.Error("an improper q accepted")
	}
}
