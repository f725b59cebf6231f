package sbn

import (
	"fmt"
	"github.com/vbworkbench/vbw/core/rng"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

var shape = []int{2, 4, 6}

func randomNet(t testing.TB, span float64, seed uint64) *Net {
	t.Helper()
	n, err := Random(shape, span, rand.New(rand.NewPCG(seed, 7)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

var zeros = make([]float64, 6)

// TestExactNormalised checks Σ_V P(V) = 1 over the 64 visible patterns and
// LogConditional against differences of LogJoint.
func TestExactNormalised(t *testing.T) {
	n := randomNet(t, 2, 1)
	lps := make([]float64, 64)
	v := make([]float64, 6)
	for c := range lps {
		for j := range v {
			v[j] = float64((c >> j) & 1)
		}
		var err error
		if lps[c], err = n.ExactLogLik(v); err != nil {
			t.Fatal(err)
		}
	}
	if z := numeric.LogSumExp(lps); math.Abs(z) > 1e-12 {
		t.Errorf("ln Σ_V P(V) = %v, want 0", z)
	}
	s := []float64{1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1}
	for k := range n.Hidden() {
		s[k] = 1
		a := n.LogJoint(s)
		s[k] = 0
		b := n.LogJoint(s)
		if d := n.LogConditional(k, s); math.Abs(d-(a-b)) > 1e-12 {
			t.Errorf("unit %d: LogConditional %v, LogJoint difference %v", k, d, a-b)
		}
	}
}

// logMoments returns ln⟨e^{−ξ z_i}⟩ and ln⟨e^{(1−ξ) z_i}⟩ under the
// factorised q of the parents (eqs. A.5, A.7), sums of logarithms with an
// exponential per parent: the reference for the cached products.
func (n *Net) logMoments(i int, mu []float64, xi float64) (la, lb float64) {
	lo, _ := n.parents(i)
	la, lb = -xi*n.b[i], (1-xi)*n.b[i]
	for j, w := range n.w[i] {
		m := mu[lo+j]
		la += math.Log(1 - m + m*math.Exp(-xi*w))
		lb += math.Log(1 - m + m*math.Exp((1-xi)*w))
	}
	return
}

// upper is the SJJ bound of eq. 2.12 at ξ and its ξ-derivatives from
// freshly computed exponentials.
func (n *Net) upper(i int, mu []float64, xi float64) (u, du, d2u float64) {
	ea, eb := make([]float64, len(n.w[i])), make([]float64, len(n.w[i]))
	setExps(n, i, xi, ea, eb)
	u, du, d2u, _, _ = n.sjj(i, mu, xi, ea, eb)
	return
}

// TestSJJAgainstBruteForce enumerates a unit's parents under a factorised q:
// the moments of eqs. A.5-A.7 equal the brute-force expectations, and the
// bound of eq. 2.12 lies above ⟨ln(1 + e^z)⟩ for every ξ.
func TestSJJAgainstBruteForce(t *testing.T) {
	n := randomNet(t, 3, 2)
	r := rand.New(rand.NewPCG(3, 3))
	mu := make([]float64, n.Units())
	for k := range n.Hidden() {
		mu[k] = r.Float64()
	}
	s := make([]float64, n.Units())
	for i := 2; i < n.Hidden(); i++ { // the second layer: 2 parents
		lo, hi := n.parents(i)
		for _, xi := range []float64{-0.5, 0, 0.3, 0.7, 1, 1.6} {
			var ea, eb, esp float64
			for c := range 1 << (hi - lo) {
				p := 1.0
				for j := lo; j < hi; j++ {
					s[j] = float64((c >> (j - lo)) & 1)
					p *= s[j]*mu[j] + (1-s[j])*(1-mu[j])
				}
				z := n.field(i, s)
				ea += p * math.Exp(-xi*z)
				eb += p * math.Exp((1-xi)*z)
				esp += p * softplus(z)
			}
			la, lb := n.logMoments(i, mu, xi)
			if math.Abs(math.Exp(la)-ea) > 1e-12*ea || math.Abs(math.Exp(lb)-eb) > 1e-12*eb {
				t.Errorf("unit %d ξ=%v: moments %v %v, brute force %v %v", i, xi, math.Exp(la), math.Exp(lb), ea, eb)
			}
			u, _, _ := n.upper(i, mu, xi)
			if u < esp-1e-12 {
				t.Errorf("unit %d ξ=%v: SJJ bound %v below ⟨ln(1+e^z)⟩ = %v", i, xi, u, esp)
			}
			if want := xi*(n.meanField(i, mu)) + numeric.LogAddExp(la, lb); math.Abs(u-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Errorf("unit %d ξ=%v: SJJ bound from products %v, from sums of logs %v", i, xi, u, want)
			}
		}
	}
}

// elbo is Σ_H Q(H)[ln P(H,V) − ln Q(H)] by enumeration, for a q given as
// the log-probabilities of the 2^Hidden latent states.
func elbo(n *Net, v []float64, lq func(s []float64) float64) float64 {
	h := n.Hidden()
	s := make([]float64, n.Units())
	copy(s[h:], v)
	f := 0.0
	for c := range 1 << h {
		for j := range h {
			s[j] = float64((c >> j) & 1)
		}
		l := lq(s)
		f += math.Exp(l) * (n.LogJoint(s) - l)
	}
	return f
}

func lnProduct(mu []float64, s []float64, h int) float64 {
	l := 0.0
	for j := range h {
		if s[j] == 1 {
			l += math.Log(mu[j])
		} else {
			l += math.Log1p(-mu[j])
		}
	}
	return l
}

// TestBoundsBelowExact: on random nets of spans 1 and 4, every bound —
// mean field and mixtures of 1 to 5 components — lies below the exact ELBO
// of its own q (by enumeration), which lies below the exact ln P(V).
func TestBoundsBelowExact(t *testing.T) {
	for seed := range uint64(20) {
		span := 1.0
		if seed%2 == 1 {
			span = 4
		}
		n := randomNet(t, span, 100+seed)
		L, _ := n.ExactLogLik(zeros)
		for M := range 6 {
			r := rand.New(rand.NewPCG(seed, uint64(M)))
			var m vb.Model
			if M == 0 {
				m, _ = NewMeanField(n, zeros, r)
			} else {
				m, _ = NewMixture(n, zeros, M, r)
			}
			res := vb.Run(m, vb.Settings{MaxIterations: 300, AbsTol: 1e-9, RelTol: -1})
			if err := res.Error(); err != nil {
				t.Fatalf("seed %d M=%d: %v", seed, M, err)
			}
			var own float64
			switch x := m.(type) {
			case *MeanField:
				own = elbo(n, zeros, func(s []float64) float64 { return lnProduct(x.c.mu, s, n.Hidden()) })
			case *Mixture:
				lq := make([]float64, M)
				own = elbo(n, zeros, func(s []float64) float64 {
					for k := range M {
						lq[k] = math.Log(x.q[k]) + lnProduct(x.comps[k].mu, s, n.Hidden())
					}
					return numeric.LogSumExp(lq)
				})
			}
			if res.F > own+1e-10 || own > L+1e-10 {
				t.Errorf("seed %d span %v M=%d: bound %v, ELBO of its q %v, exact %v", seed, span, M, res.F, own, L)
			}
		}
	}
}

// TestMutualInformationBound: the mixture's 𝓘 (eq. 2.24) lies below the
// exact I(m, H) of eq. 2.21 and is positive after the fit on a net where
// the components differ.
func TestMutualInformationBound(t *testing.T) {
	n := randomNet(t, 4, 9)
	x, _ := NewMixture(n, zeros, 3, rand.New(rand.NewPCG(1, 2)))
	for range 200 {
		x.E()
		x.M()
	}
	b := x.Bound()
	var I float64
	for _, tm := range b.Terms[2:] {
		I += tm.Value
	}
	if exact := x.MutualInformation(); I > exact+1e-10 || I < 0 {
		t.Errorf("𝓘 = %v, exact I = %v", I, exact)
	}
}

// TestOneComponentIsMeanField: a one-component mixture from the same
// random numbers follows mean field's trajectory; its 𝓘 stays 0.
func TestOneComponentIsMeanField(t *testing.T) {
	for seed := range uint64(10) {
		n := randomNet(t, 1+float64(seed%4), 200+seed)
		mf, _ := NewMeanField(n, zeros, rand.New(rand.NewPCG(seed, 1)))
		x, _ := NewMixture(n, zeros, 1, rand.New(rand.NewPCG(seed, 1)))
		for it := range 50 {
			a, _ := mf.E()
			b, _ := x.E()
			if math.Abs(a.F-b.F) > 1e-12*math.Max(1, math.Abs(a.F)) {
				t.Fatalf("seed %d iteration %d: mean field %v, M=1 mixture %v", seed, it, a.F, b.F)
			}
			mf.M()
			x.M()
		}
	}
}

// TestUpdatesNeverLower checks the bound after every single coordinate
// update (each μ, each ξ, and the mixture's R, λ, Q(m) in one E step) on
// wide-span nets, where the fixed point of eq. 2.18 alone can lower it.
func TestUpdatesNeverLower(t *testing.T) {
	for seed := range uint64(10) {
		n := randomNet(t, 4, 300+seed)
		mf, _ := NewMeanField(n, zeros, rand.New(rand.NewPCG(seed, 5)))
		prev := mf.Bound().F
		check := func(what string) {
			f := mf.Bound().F
			if f < prev-1e-12*math.Max(1, math.Abs(prev)) {
				t.Fatalf("seed %d: %s lowered the bound from %v to %v", seed, what, prev, f)
			}
			prev = f
		}
		for range 30 {
			for k := range n.Hidden() {
				n.updateMu(k, mf.c, 0, mf.wk)
				check("a μ update")
			}
			for i := range n.Units() {
				n.updateXi(i, mf.c, mf.wk)
				check("a ξ update")
			}
		}
		x, _ := NewMixture(n, zeros, 4, rand.New(rand.NewPCG(seed, 6)))
		prev = x.Bound().F
		for it := range 60 {
			b, _ := x.E()
			if b.F < prev-1e-12*math.Max(1, math.Abs(prev)) {
				t.Fatalf("seed %d iteration %d: E lowered the mixture bound %v → %v", seed, it, prev, b.F)
			}
			x.M()
			f := x.Bound().F
			if f < b.F-1e-12*math.Max(1, math.Abs(b.F)) {
				t.Fatalf("seed %d iteration %d: M lowered the mixture bound %v → %v", seed, it, b.F, f)
			}
			prev = f
		}
	}
}

// TestDerivativesFiniteDifferences checks the ξ derivatives of the SJJ
// bound and the slope of the one-dimensional μ objective against central
// differences.
func TestDerivativesFiniteDifferences(t *testing.T) {
	n := randomNet(t, 2, 11)
	r := rand.New(rand.NewPCG(4, 4))
	mu := make([]float64, n.Units())
	for k := range n.Hidden() {
		mu[k] = r.Float64()
	}
	const h = 1e-5
	for i := 2; i < n.Units(); i++ {
		for _, xi := range []float64{-0.3, 0.2, 0.5, 0.9, 1.4} {
			_, du, d2u := n.upper(i, mu, xi)
			up, dup, _ := n.upper(i, mu, xi+h)
			um, dum, _ := n.upper(i, mu, xi-h)
			if fd := (up - um) / (2 * h); math.Abs(fd-du) > 1e-7*math.Max(1, math.Abs(du)) {
				t.Errorf("unit %d ξ=%v: dU/dξ %v, finite difference %v", i, xi, du, fd)
			}
			if fd := (dup - dum) / (2 * h); math.Abs(fd-d2u) > 1e-6*math.Max(1, math.Abs(d2u)) {
				t.Errorf("unit %d ξ=%v: d²U/dξ² %v, finite difference %v", i, xi, d2u, fd)
			}
		}
	}
	c := newComponent(n, zeros)
	copy(c.mu, mu)
	for i := range c.xi {
		c.xi[i] = r.Float64()
	}
	n.refresh(c)
	for k := range n.Hidden() {
		wk := newWork(n)
		lin := n.muCoefficients(k, c, 0.3, wk)
		beta := wk.beta
		for _, th := range []float64{-3, -0.5, 0, 1, 2.5} {
			g, dg := muSlope(th, lin, beta)
			m := sigmoid(th)
			fd := (muObjective(th+h, lin, beta) - muObjective(th-h, lin, beta)) / (2 * h)
			if math.Abs(fd-m*(1-m)*g) > 1e-7 {
				t.Errorf("unit %d θ=%v: df/dθ %v, finite difference %v", k, th, m*(1-m)*g, fd)
			}
			g1, _ := muSlope(th+h, lin, beta)
			g0, _ := muSlope(th-h, lin, beta)
			if fd := (g1 - g0) / (2 * h); math.Abs(fd-dg) > 1e-6 {
				t.Errorf("unit %d θ=%v: slope derivative %v, finite difference %v", k, th, dg, fd)
			}
		}
		// the one-dimensional objective moves with the bound: changing μ_k
		// changes both by the same amount.
		c.mu[k] = 0.2
		n.refresh(c)
		f0 := muObjective(logit(0.2), lin-0.3, beta)
		l0, h0 := n.bound(c)
		c.mu[k] = 0.7
		n.refresh(c)
		f1 := muObjective(logit(0.7), lin-0.3, beta)
		l1, h1 := n.bound(c)
		if d := (l1 + h1) - (l0 + h0); math.Abs(d-(f1-f0)) > 1e-10 {
			t.Errorf("unit %d: bound moved %v, one-dimensional objective %v", k, d, f1-f0)
		}
		c.mu[k] = mu[k]
		n.refresh(c)
	}
}

// TestCachesConsistent: after every E and M step of mean field and of a
// mixture, each component's cached exponentials and products equal those
// recomputed from its μ and ξ.
func TestCachesConsistent(t *testing.T) {
	n := randomNet(t, 3, 17)
	check := func(what string, c component) {
		t.Helper()
		d := newComponent(n, zeros)
		copy(d.mu, c.mu)
		copy(d.xi, c.xi)
		n.refresh(d)
		for i := range n.Units() {
			if math.Abs(c.pa[i]-d.pa[i]) > 1e-12*d.pa[i] || math.Abs(c.pb[i]-d.pb[i]) > 1e-12*d.pb[i] {
				t.Fatalf("%s unit %d: cached products %v %v, recomputed %v %v", what, i, c.pa[i], c.pb[i], d.pa[i], d.pb[i])
			}
			for j := range c.ea[i] {
				if c.ea[i][j] != d.ea[i][j] || c.eb[i][j] != d.eb[i][j] {
					t.Fatalf("%s unit %d parent %d: cached exponentials differ", what, i, j)
				}
			}
		}
	}
	mf, _ := NewMeanField(n, zeros, rand.New(rand.NewPCG(1, 9)))
	x, _ := NewMixture(n, zeros, 3, rand.New(rand.NewPCG(2, 9)))
	for it := range 20 {
		mf.E()
		check(fmt.Sprint("MF E ", it), mf.c)
		mf.M()
		check(fmt.Sprint("MF M ", it), mf.c)
		x.E()
		for _, c := range x.comps {
			check(fmt.Sprint("mixture E ", it), c)
		}
		x.M()
		for _, c := range x.comps {
			check(fmt.Sprint("mixture M ", it), c)
		}
	}
}

// TestVariantsBelowExact: every Variant and the mean-field start give a
// bound below the exact ELBO of its own q (by enumeration), below ln P(V);
// a shared ξ stays shared.
func TestVariantsBelowExact(t *testing.T) {
	variants := []Settings{
		{Variant: Variant{SharedXi: true}}, {Variant: Variant{FixR: true}}, {Variant: Variant{FixLambda: true}},
		{Variant: Variant{RawFixedPoint: true}}, {Variant: Variant{TextMuSmoothing: true}}, {Variant: Variant{TextQSign: true}},
		{StartFromMeanField: true},
	}
	for seed := range uint64(6) {
		n := randomNet(t, 1+3*float64(seed%2), 400+seed)
		L, _ := n.ExactLogLik(zeros)
		for vi, s := range variants {
			s.Components = 3
			s.VB = vb.Settings{MaxIterations: 200}
			r := rand.New(rand.NewPCG(seed, uint64(vi)))
			var x *Mixture
			var err error
			if s.StartFromMeanField {
				mf, _ := NewMeanField(n, zeros, r)
				vb.Run(mf, vb.Settings{MaxIterations: 100})
				x, err = NewMixtureFromMeanField(mf, 3, r)
			} else {
				x, err = NewMixture(n, zeros, 3, r)
			}
			if err != nil {
				t.Fatal(err)
			}
			x.SetVariant(s.Variant)
			for range 100 {
				x.E()
				x.M()
			}
			F := x.Bound().F
			lq := make([]float64, 3)
			own := elbo(n, zeros, func(st []float64) float64 {
				for k := range 3 {
					lq[k] = math.Log(x.q[k]) + lnProduct(x.comps[k].mu, st, n.Hidden())
				}
				return numeric.LogSumExp(lq)
			})
			if F > own+1e-10 || own > L+1e-10 {
				t.Errorf("seed %d variant %+v: bound %v, ELBO of its q %v, exact %v", seed, s, F, own, L)
			}
			if s.Variant.SharedXi {
				for _, c := range x.comps[1:] {
					for i := range c.xi {
						if c.xi[i] != x.comps[0].xi[i] {
							t.Fatalf("seed %d: ξ of unit %d not shared", seed, i)
						}
					}
				}
			}
			if _, err := FitPattern(n, zeros, s, rand.New(rand.NewPCG(seed, 99))); err != nil {
				t.Errorf("seed %d variant %+v: %v", seed, s, err)
			}
		}
	}
}

// TestSaturatedUnit: a net of span 4 (mixq/sbn-span's net w4-n00363) on
// which a unit's μ reaches 1 in floating point in every component, so both
// coefficients of its R(h_j = 0|m) in eq. 2.36 are 0; the fit stays finite
// and below ln P(V).
func TestSaturatedUnit(t *testing.T) {
	n, err := Random(shape, 4, rng.New(26, "mixq/sbn-span", "net", "w4-n00363"))
	if err != nil {
		t.Fatal(err)
	}
	L, _ := n.ExactLogLik(zeros)
	for _, M := range []int{2, 3} {
		f, err := FitPattern(n, zeros, Settings{Components: M, VB: vb.Settings{MaxIterations: 500}}, rng.New(26, "mixq/sbn-span", "start", "w4-n00363"))
		if err != nil || !(f.Bound <= L+1e-10) {
			t.Errorf("M=%d: bound %v (exact %v), %v", M, f.Bound, L, err)
		}
	}
}
