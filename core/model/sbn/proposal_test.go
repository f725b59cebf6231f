package sbn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
)

// TestBernoulliProposal checks the product of Bernoullis against
// enumeration of the 2^6 latent states of a 2-4-6 net: ln Q sums to one,
// RandLogProb returns LogProb of its draw and its frequencies match Q
// within 5 standard errors, a state off the pattern has probability 0, the
// exact importance sum Σ_H Q(H) P(H,V)/Q(H) is P(V) (eq. 2.6, ExactLogLik),
// and with Q the exact posterior (a 1-latent-unit net) every weight is P(V).
func TestBernoulliProposal(t *testing.T) {
	n := randomNet(t, 1.5, 31)
	v := []float64{0, 1, 1, 0, 0, 1}
	p, err := NewPosterior(n, v)
	if err != nil {
		t.Fatal(err)
	}
	mu := []float64{0.1, 0.8, 0.5, 0.3, 0.95, 0.6}
	q, err := p.Bernoulli(mu)
	if err != nil {
		t.Fatal(err)
	}
	h := n.Hidden()
	if q.Dim() != n.Units() {
		t.Fatalf("Dim %d, want %d", q.Dim(), n.Units())
	}
	s := make([]float64, n.Units())
	copy(s[h:], v)
	lq, lw := make([]float64, 1<<h), make([]float64, 1<<h)
	for c := range lq {
		for j := range h {
			s[j] = float64((c >> j) & 1)
		}
		lq[c] = q.LogProb(s)
		// Σ_H Q(H) · w(H) with w = P(H,V)/Q(H): ln Q + ln w = ln P(H,V).
		lw[c] = lq[c] + (p.LogProb(s) - lq[c])
		if d := p.LogProb(s) - n.LogJoint(s); math.Abs(d) > 1e-12 {
			t.Fatalf("Posterior.LogProb − LogJoint = %v", d)
		}
	}
	if z := numeric.LogSumExp(lq); math.Abs(z) > 1e-12 {
		t.Errorf("ln Σ_H Q(H) = %v, want 0", z)
	}
	L, _ := n.ExactLogLik(v)
	if z := numeric.LogSumExp(lw); math.Abs(z-L) > 1e-12 {
		t.Errorf("ln Σ_H Q(H) w(H) = %v, ExactLogLik %v", z, L)
	}
	s[h] = 1 - v[0]
	if l := q.LogProb(s); !math.IsInf(l, -1) {
		t.Errorf("a visible unit off the pattern: ln Q = %v, want −Inf", l)
	}
	r := rand.New(rand.NewPCG(3, 4))
	const draws = 200000
	count := make([]float64, 1<<h)
	x := make([]float64, n.Units())
	for range draws {
		l := q.RandLogProb(x, r)
		if d := l - q.LogProb(x); math.Abs(d) > 1e-12 {
			t.Fatalf("RandLogProb − LogProb = %v", d)
		}
		c := 0
		for j := range h {
			c |= int(x[j]) << j
		}
		count[c]++
		for j := range v {
			if x[h+j] != v[j] {
				t.Fatal("RandLogProb changed a visible unit")
			}
		}
	}
	for c := range count {
		pc := math.Exp(lq[c])
		if se := math.Sqrt(pc * (1 - pc) / draws); math.Abs(count[c]/draws-pc) > 5*se+1e-12 {
			t.Errorf("state %d: frequency %v, Q %v (SE %v)", c, count[c]/draws, pc, se)
		}
	}
	if _, err := p.Bernoulli(mu[:5]); err == nil {
		t.Error("5 means for 6 latent units accepted")
	}
	if _, err := p.Bernoulli([]float64{0.1, 0.8, 0.5, 0.3, 1.2, 0.6}); err == nil {
		t.Error("a mean of 1.2 accepted")
	}

	// One latent unit: Q at the exact posterior mean is the posterior, so
	// every log weight is ln P(V).
	n1, err := NewNet([]int{1, 2}, [][]float64{{}, {0.7}, {-1.3}}, []float64{0.2, -0.4, 0.9})
	if err != nil {
		t.Fatal(err)
	}
	v1 := []float64{1, 0}
	p1, _ := NewPosterior(n1, v1)
	m1, L1, err := n1.ExactMeans(v1)
	if err != nil {
		t.Fatal(err)
	}
	q1, err := p1.Bernoulli(m1)
	if err != nil {
		t.Fatal(err)
	}
	x1 := make([]float64, 3)
	for range 20 {
		lq := q1.RandLogProb(x1, r)
		if d := p1.LogProb(x1) - lq - L1; math.Abs(d) > 1e-12 {
			t.Errorf("exact proposal: ln w − ln P(V) = %v", d)
		}
	}
	if got, want := n.DrawOps(), n.parentTerms()+3*h; got != want || got != 8+24+18 {
		t.Errorf("DrawOps = %d, want %d (= 50)", got, want)
	}
}
