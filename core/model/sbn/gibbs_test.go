package sbn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
)

// TestPosteriorTerms: LogPrior + LogLik is LogJoint, the prior sums to one
// over the latent states, prior × likelihood sums to P(V) (eq. 2.6), and
// SamplePrior's frequencies match the prior within 5 standard errors.
func TestPosteriorTerms(t *testing.T) {
	n := randomNet(t, 2, 21)
	v := []float64{1, 0, 1, 1, 0, 0}
	p, err := NewPosterior(n, v)
	if err != nil {
		t.Fatal(err)
	}
	h := n.Hidden()
	s := make([]float64, n.Units())
	copy(s[h:], v)
	lp, lj := make([]float64, 1<<h), make([]float64, 1<<h)
	for c := range lp {
		for j := range h {
			s[j] = float64((c >> j) & 1)
		}
		lp[c] = p.LogPrior(s)
		lj[c] = lp[c] + p.LogLik(s)
		if d := lj[c] - n.LogJoint(s); math.Abs(d) > 1e-12 {
			t.Fatalf("state %d: LogPrior + LogLik − LogJoint = %v", c, d)
		}
	}
	if z := numeric.LogSumExp(lp); math.Abs(z) > 1e-12 {
		t.Errorf("ln Σ_H P(H) = %v, want 0", z)
	}
	L, _ := n.ExactLogLik(v)
	if z := numeric.LogSumExp(lj); math.Abs(z-L) > 1e-12 {
		t.Errorf("ln Σ_H P(H)P(V|H) = %v, ExactLogLik %v", z, L)
	}
	r := rand.New(rand.NewPCG(1, 1))
	const draws = 100000
	count := make([]float64, 1<<h)
	var x []float64
	for range draws {
		x = p.SamplePrior(x, r)
		c := 0
		for j := range h {
			c |= int(x[j]) << j
		}
		count[c]++
		for j := h; j < n.Units(); j++ {
			if x[j] != v[j-h] {
				t.Fatal("SamplePrior changed a visible unit")
			}
		}
	}
	for c := range count {
		q := math.Exp(lp[c])
		if d := math.Abs(count[c]/draws - q); d > 5*math.Sqrt(q*(1-q)/draws)+1e-12 {
			t.Errorf("state %d: frequency %v, prior %v", c, count[c]/draws, q)
		}
	}
}

// TestSweepConditional: the log-odds each Sweep draws from equal the
// differences of the tempered log-density ln P(H) + β ln P(V|H) at β = 0,
// 0.3 and 1, at every latent unit of random states; and a long chain at β
// = 1 reproduces the exact posterior means within 5 standard errors (each
// mean's variance ≤ 1/4, integrated autocorrelation time taken ≤ 10).
func TestSweepConditional(t *testing.T) {
	n := randomNet(t, 2, 22)
	v := []float64{0, 1, 1, 0, 1, 0}
	p, _ := NewPosterior(n, v)
	r := rand.New(rand.NewPCG(2, 2))
	s := p.SamplePrior(nil, r)
	for range 20 {
		for _, beta := range []float64{0, 0.3, 1} {
			for k := range n.Hidden() {
				if a, b := p.logOdds(k, s, beta), p.logOddsExact(k, s, beta); math.Abs(a-b) > 1e-12 {
					t.Errorf("unit %d β=%v: logOdds %v, exact %v", k, beta, a, b)
				}
			}
		}
		s = p.SamplePrior(s, r)
	}
	means, _, _ := n.ExactMeans(v)
	const sweeps = 100000
	got := make([]float64, n.Hidden())
	for it := range sweeps + 1000 {
		s = p.Sweep(s, 1, r)
		if it >= 1000 {
			for k := range got {
				got[k] += s[k] / sweeps
			}
		}
	}
	tol := 5 * math.Sqrt(10*0.25/sweeps)
	for k := range got {
		if math.Abs(got[k]-means[k]) > tol {
			t.Errorf("unit %d: Gibbs mean %v, exact %v (tolerance %v)", k, got[k], means[k], tol)
		}
	}
}

// TestOps counts the 2-4-6 net by hand: 32 weights; a sweep touches, for
// each top unit, its 4 children's 2 parents (8) and, for each middle unit,
// its own 2 parents and its 6 children's 4 (26): 2·8 + 4·26 = 120.
func TestOps(t *testing.T) {
	n := randomNet(t, 1, 1)
	if got := n.parentTerms(); got != 32 {
		t.Errorf("parentTerms %d, want 32", got)
	}
	if got := n.SweepOps(); got != 120 {
		t.Errorf("SweepOps %d, want 120", got)
	}
	if got := n.StepOps(); got != 152 {
		t.Errorf("StepOps %d, want 152", got)
	}
	if got, want := n.IterationOps(0), 120+96; got != want {
		t.Errorf("IterationOps(0) %d, want %d", got, want)
	}
	if got, want := n.IterationOps(2), 2*216+(1+smoothingRounds)*4*36+smoothingRounds*4*6; got != want {
		t.Errorf("IterationOps(2) %d, want %d", got, want)
	}
}
