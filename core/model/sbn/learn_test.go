package sbn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/vb"
)

// fdCheck compares an analytic gradient of bound(net) with central finite
// differences in every weight and bias (step 1e-5; the bound is smooth in
// W at fixed q, so the error is O(h²) plus rounding, well below 1e-6).
func fdCheck(t *testing.T, n *Net, gw [][]float64, gb []float64, bound func(*Net) float64) {
	t.Helper()
	const h = 1e-5
	zw, zb := n.zeroGradient()
	check := func(name string, i, j int, g float64) {
		plus, err := n.Step(h, zw, zb)
		if err != nil {
			t.Fatal(err)
		}
		minus, _ := n.Step(-h, zw, zb)
		fd := (bound(plus) - bound(minus)) / (2 * h)
		if math.Abs(fd-g) > 1e-6*math.Max(1, math.Abs(fd)) {
			t.Errorf("%s[%d][%d]: gradient %.10g, finite difference %.10g", name, i, j, g, fd)
		}
	}
	for i := range zw {
		for j := range zw[i] {
			zw[i][j] = 1
			check("w", i, j, gw[i][j])
			zw[i][j] = 0
		}
		zb[i] = 1
		check("b", i, 0, gb[i])
		zb[i] = 0
	}
}

// lambdaBrute is Σ_i [μ_i⟨z_i⟩ − ξ_i⟨z_i⟩ − ln⟨e^{−ξ_i z_i} + e^{(1−ξ_i)z_i}⟩]
// (Λ of eq. 2.13) of net n at means mu and parameters xi, every
// expectation by enumerating the unit's parents under the factorised q.
func lambdaBrute(n *Net, mu, xi []float64) float64 {
	s := make([]float64, n.Units())
	l := 0.0
	for i := range n.Units() {
		lo, hi := n.parents(i)
		var ez, e float64
		for c := range 1 << (hi - lo) {
			p := 1.0
			for j := lo; j < hi; j++ {
				s[j] = float64((c >> (j - lo)) & 1)
				p *= s[j]*mu[j] + (1-s[j])*(1-mu[j])
			}
			z := n.field(i, s)
			ez += p * z
			e += p * (math.Exp(-xi[i]*z) + math.Exp((1-xi[i])*z))
		}
		l += mu[i]*ez - xi[i]*ez - math.Log(e)
	}
	return l
}

// TestGradientFiniteDifferences checks MeanField.Gradient and
// Mixture.Gradient against finite differences of Σ_m Q(m)Λ_m (the part of
// the bounds of eqs. 2.15, 2.25 that depends on W) at fixed variational
// parameters, Λ by brute-force enumeration (and equal to the bound's
// "<lnP>" term), on a 2-4-6 net at span 2 with a mixed visible pattern,
// after a few iterations (the gradient holds at any q, converged or not).
func TestGradientFiniteDifferences(t *testing.T) {
	n := randomNet(t, 2, 11)
	v := []float64{1, 0, 0, 1, 1, 0}
	r := rand.New(rand.NewPCG(5, 5))
	mf, err := NewMeanField(n, v, r)
	if err != nil {
		t.Fatal(err)
	}
	vb.Run(mf, vb.Settings{MaxIterations: 3, AbsTol: -1, RelTol: -1})
	if l, b := lambdaBrute(n, mf.c.mu, mf.c.xi), mf.Bound().Terms[0].Value; math.Abs(l-b) > 1e-10 {
		t.Fatalf("Λ by enumeration %v, the bound's <lnP> %v", l, b)
	}
	gw, gb := mf.Gradient()
	fdCheck(t, n, gw, gb, func(p *Net) float64 { return lambdaBrute(p, mf.c.mu, mf.c.xi) })
	x, err := NewMixture(n, v, 3, r)
	if err != nil {
		t.Fatal(err)
	}
	vb.Run(x, vb.Settings{MaxIterations: 3, AbsTol: -1, RelTol: -1})
	mix := func(p *Net) float64 {
		l := 0.0
		for m, c := range x.comps {
			l += x.q[m] * lambdaBrute(p, c.mu, c.xi)
		}
		return l
	}
	if l, b := mix(n), x.Bound().Terms[0].Value; math.Abs(l-b) > 1e-10 {
		t.Fatalf("Σ_m Q(m)Λ_m by enumeration %v, the bound's <lnP> %v", l, b)
	}
	gw, gb = x.Gradient()
	fdCheck(t, n, gw, gb, mix)
}

// TestExactMeans checks ExactMeans's ln P(V) against ExactLogLik and each
// mean against the ratio of the enumerated sums with the unit clamped on.
func TestExactMeans(t *testing.T) {
	n := randomNet(t, 1.5, 4)
	v := []float64{0, 1, 1, 0, 1, 0}
	means, l, err := n.ExactMeans(v)
	if err != nil {
		t.Fatal(err)
	}
	L, _ := n.ExactLogLik(v)
	if math.Abs(l-L) > 1e-12 {
		t.Errorf("ExactMeans ln P(V) %v, ExactLogLik %v", l, L)
	}
	s := make([]float64, n.Units())
	copy(s[n.Hidden():], v)
	for k := range n.Hidden() {
		on := 0.0
		for c := range 1 << n.Hidden() {
			for j := range n.Hidden() {
				s[j] = float64((c >> j) & 1)
			}
			if s[k] == 1 {
				on += math.Exp(n.LogJoint(s) - L)
			}
		}
		if math.Abs(on-means[k]) > 1e-12 {
			t.Errorf("unit %d: mean %v, enumeration %v", k, means[k], on)
		}
	}
}

// TestLearnStepRaisesLikelihood presents one pattern repeatedly: gradient
// ascent on the bound must raise its exact ln P(V) (from a random net at
// span 1, 30 steps at rate 0.2, mean field and a two-component mixture).
func TestLearnStepRaisesLikelihood(t *testing.T) {
	v := []float64{1, 1, 0, 1, 0, 0}
	for _, M := range []int{0, 2} {
		n := randomNet(t, 1, 9)
		before, _ := n.ExactLogLik(v)
		r := rand.New(rand.NewPCG(2, uint64(M)))
		for range 30 {
			var err error
			if n, _, err = LearnStep(n, v, Settings{Components: M}, 0.2, r); err != nil {
				t.Fatal(err)
			}
		}
		after, _ := n.ExactLogLik(v)
		if !(after > before+0.5) {
			t.Errorf("M = %d: ln P(V) %v before, %v after 30 steps", M, before, after)
		}
	}
}
