package boltzmann_test

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/model/boltzmann"
	"github.com/vbworkbench/vbw/core/rng"
)

// states returns the 2^n states of n ±1 units.
func states(n int) [][]float64 {
	out := make([][]float64, 1<<n)
	for k := range out {
		out[k] = make([]float64, n)
		for i := range n {
			out[k][i] = float64(2*((k>>i)&1) - 1)
		}
	}
	return out
}

// TestProduct: Q sums to 1 over {±1}^4 (to rounding, 1e-12), its means
// are μ exactly (Σ_s Q(s) s_i), RandLogProb returns LogProb of its draw,
// LogProb is −Inf off the support, and the draws' means are μ within 5
// standard errors (each sd ≤ 1, 2·10⁵ draws).
func TestProduct(t *testing.T) {
	mu := []float64{0.3, -0.9, 0, 1}
	p, err := boltzmann.NewProduct(mu)
	if err != nil {
		t.Fatal(err)
	}
	var tot float64
	mean := make([]float64, 4)
	for _, s := range states(4) {
		q := math.Exp(p.LogProb(s))
		tot += q
		for i := range s {
			mean[i] += q * s[i]
		}
	}
	if math.Abs(tot-1) > 1e-12 {
		t.Errorf("Σ Q = %v", tot)
	}
	for i := range mu {
		if math.Abs(mean[i]-mu[i]) > 1e-12 {
			t.Errorf("⟨s_%d⟩ = %v, want %v", i, mean[i], mu[i])
		}
	}
	if l := p.LogProb([]float64{1, 0, 1, 1}); !math.IsInf(l, -1) {
		t.Errorf("LogProb off the support %v", l)
	}
	r := rng.New(1, "boltzmann", "product")
	const n = 200000
	s := make([]float64, 4)
	emp := make([]float64, 4)
	for range n {
		l := p.RandLogProb(s, r)
		if math.Abs(l-p.LogProb(s)) > 1e-12 {
			t.Fatalf("RandLogProb %v, LogProb %v at %v", l, p.LogProb(s), s)
		}
		for i := range s {
			emp[i] += s[i] / n
		}
	}
	for i := range mu {
		if math.Abs(emp[i]-mu[i]) > 5/math.Sqrt(n) {
			t.Errorf("draws' ⟨s_%d⟩ = %v, want %v", i, emp[i], mu[i])
		}
	}
	if _, err := boltzmann.NewProduct([]float64{1.5}); err == nil {
		t.Error("a mean of 1.5 was accepted")
	}
}

// TestGibbsISTarget: the uniform Product's importance weights exp(φ/T)/Q
// average to Z exactly over the states (Σ_s Q(s) w(s) = Σ_s exp(φ(s)/T),
// Gibbs.LogProb the unnormalised target; to rounding), and SamplePrior
// keeps clamped units and draws free ones ±1 with mean 0 (within 5/√n).
func TestGibbsISTarget(t *testing.T) {
	m := boltzmann.NewRandom(5, 1, rng.New(2, "boltzmann", "is-target"))
	m.T = 0.7
	ex, _ := m.Exact(nil)
	g := boltzmann.Gibbs{M: m}
	u, _ := boltzmann.NewProduct(make([]float64, 5))
	var z float64
	for _, s := range states(5) {
		z += math.Exp(u.LogProb(s)) * math.Exp(g.LogProb(s)-u.LogProb(s))
	}
	if math.Abs(math.Log(z)-ex.LogZ) > 1e-12 {
		t.Errorf("ln Σ Q w = %.15g, ln Z = %.15g", math.Log(z), ex.LogZ)
	}
	gc := boltzmann.Gibbs{M: m, C: boltzmann.Clamp{0, 1, 0, -1, 0}}
	r := rng.New(3, "boltzmann", "prior")
	const n = 100000
	var mean float64
	var x []float64
	for range n {
		x = gc.SamplePrior(x, r)
		if x[1] != 1 || x[3] != -1 || len(x) != 5 {
			t.Fatalf("prior draw %v", x)
		}
		for _, i := range []int{0, 2, 4} {
			if x[i] != 1 && x[i] != -1 {
				t.Fatalf("prior draw %v", x)
			}
			mean += x[i] / (3 * n)
		}
	}
	if math.Abs(mean) > 5/math.Sqrt(3*n) {
		t.Errorf("free units' mean %v", mean)
	}
}
