package lds

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestHyperStationary checks that each hyperparameter update of
// UpdateHyper is a stationary point of F with q(x) and q(θ) fixed (targets
// §1.13 item 9): after the update of a group, the central-difference
// gradient of the uncollapsed bound (fullBound) with respect to the
// group's hyperparameters vanishes to 1e-6 — in ln α_j, ln β_c, ln γ_j,
// ln δ_c, ln a, ln b, μ_0 and the log-diagonal of Σ_0 (the Σ_0 form of
// Sigma0Diagonal) — and the noise hyperparameters satisfy (5.138),
// ψ(a) − ln a = c − ln e and b = a/e, to 1e-12.
func TestHyperStationary(t *testing.T) {
	rnd := rand.New(rand.NewPCG(41, 0))
	data := simulateAll(rnd, randomParams(rnd, 2, 4, 2), []int{30, 18})
	m := mustNew(t, data, Settings{K: 3}, 6)
	iterate(t, m, 4)
	mustE(t, m)
	m.M()
	const h, tol = 1e-5, 1e-6
	logParam := func(s []float64) func([]float64) float64 {
		return func(x []float64) float64 {
			old := append([]float64(nil), s...)
			for j := range s {
				s[j] = math.Exp(x[j])
			}
			f := fullBound(m)
			copy(s, old)
			return f
		}
	}
	logs := func(s []float64) []float64 {
		x := make([]float64, len(s))
		for j, v := range s {
			x[j] = math.Log(v)
		}
		return x
	}
	check := func(group string, f func([]float64) float64, x []float64) {
		t.Helper()
		for j, g := range vbtest.FDGradient(f, x, h) {
			if math.Abs(g) > tol {
				t.Errorf("%s: ∂F/∂x_%d = %.3g after the update, want 0", group, j, g)
			}
		}
	}
	for _, g := range []struct {
		group string
		s     []float64
	}{{HyperAlpha, m.Hyper.Alpha}, {HyperBeta, m.Hyper.Beta}, {HyperGamma, m.Hyper.Gamma}, {HyperDelta, m.Hyper.Delta}} {
		m.UpdateHyper(g.group)
		check(g.group, logParam(g.s), logs(g.s))
	}

	m.UpdateHyper(HyperNoise)
	ab := []float64{m.Hyper.NoiseShape, m.Hyper.NoiseRate}
	check(HyperNoise, func(x []float64) float64 {
		a, b := m.Hyper.NoiseShape, m.Hyper.NoiseRate
		m.Hyper.NoiseShape, m.Hyper.NoiseRate = math.Exp(x[0]), math.Exp(x[1])
		f := fullBound(m)
		m.Hyper.NoiseShape, m.Hyper.NoiseRate = a, b
		return f
	}, logs(ab))
	var c, e float64
	for _, q := range m.rho {
		c += q.MeanLog() / float64(m.p)
		e += q.Mean() / float64(m.p)
	}
	a := m.Hyper.NoiseShape
	if r := numeric.Digamma(a) - math.Log(a) - (c - math.Log(e)); math.Abs(r) > 1e-12 {
		t.Errorf("noise: ψ(a) − ln a − (c − ln e) = %.3g", r)
	}
	if r := m.Hyper.NoiseRate - a/e; math.Abs(r) > 1e-12*m.Hyper.NoiseRate {
		t.Errorf("noise: b − a/e = %.3g", r)
	}

	m.UpdateHyper(HyperX0)
	k := m.k
	check("x0 (μ_0)", func(x []float64) float64 {
		old := append([]float64(nil), m.Hyper.Mu0...)
		copy(m.Hyper.Mu0, x)
		f := fullBound(m)
		copy(m.Hyper.Mu0, old)
		return f
	}, append([]float64(nil), m.Hyper.Mu0...))
	diag := make([]float64, k)
	for j := range diag {
		diag[j] = -math.Log(m.Hyper.Lambda0[j*k+j]) // ln Σ_0,jj
	}
	check("x0 (Σ_0)", func(x []float64) float64 {
		old := append([]float64(nil), m.Hyper.Lambda0...)
		for j := range x {
			m.Hyper.Lambda0[j*k+j] = math.Exp(-x[j])
		}
		f := fullBound(m)
		copy(m.Hyper.Lambda0, old)
		return f
	}, diag)
}

// TestX0OneSequence checks eq. 5.137: with one sequence the x_0 update
// sets μ_0 = ω_0 and Σ_0 = Υ_{0,0} exactly (Sigma0Full), the scatter
// term of (5.151) vanishing.
func TestX0OneSequence(t *testing.T) {
	rnd := rand.New(rand.NewPCG(42, 0))
	data := simulateAll(rnd, randomParams(rnd, 2, 3, 0), []int{40})
	m := mustNew(t, data, Settings{K: 2, Sigma0Update: Sigma0Full}, 7)
	iterate(t, m, 3)
	mustE(t, m)
	m.UpdateHyper(HyperX0)
	post := m.Posterior(0)
	for j := range post.X0 {
		if m.Hyper.Mu0[j] != post.X0[j] {
			t.Errorf("μ_0[%d] = %v, ω_0 = %v", j, m.Hyper.Mu0[j], post.X0[j])
		}
	}
	s := m.Sigma0()
	for i := 0; i < 2; i++ {
		for j := 0; j < 2; j++ {
			if v := post.V0[i*2+j]; math.Abs(s.At(i, j)-v) > 1e-13*math.Abs(post.V0[i*2+i]) {
				t.Errorf("Σ_0[%d,%d] = %v, Υ_00 = %v", i, j, s.At(i, j), v)
			}
		}
	}
}
