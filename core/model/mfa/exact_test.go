package mfa_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/vb"
)

// gaussianEvidence returns the exact log marginal likelihood of y (n×p)
// under y_iq ~ N(μ_q, ψ_q) independently with μ_q ~ N(μ*_q, 1/ν*_q)
// (targets ch4-mfa.md §1.13 item 2): per dimension,
//
//	−(n/2) ln 2π − ((n−1)/2) ln ψ − ½ ln(ψ + n/ν*)
//	  − ½[Σ_i (y_i − ȳ)²/ψ + n(ȳ − μ*)²/(ψ + n/ν*)].
func gaussianEvidence(y mat.Matrix, mu, nu, psi []float64) float64 {
	n, p := y.Dims()
	fn := float64(n)
	var lp float64
	for q := 0; q < p; q++ {
		var ybar float64
		for i := 0; i < n; i++ {
			ybar += y.At(i, q)
		}
		ybar /= fn
		var ss float64
		for i := 0; i < n; i++ {
			d := y.At(i, q) - ybar
			ss += d * d
		}
		v := psi[q] + fn/nu[q]
		lp += -0.5*fn*math.Log(2*math.Pi) - 0.5*(fn-1)*math.Log(psi[q]) - 0.5*math.Log(v) -
			0.5*(ss/psi[q]+fn*(ybar-mu[q])*(ybar-mu[q])/v)
	}
	return lp
}

// TestExactGaussian checks exactness (targets §1.13 item 2): one analyser
// without factors (k = 0) and frozen hyperparameters is the conjugate model
// y_i ~ N(μ, Ψ), μ_q ~ N(μ*_q, 1/ν*_q), whose q(μ) after one E step is the
// exact posterior, so F must equal the closed-form log evidence — and stay
// there through further M and E steps.
func TestExactGaussian(t *testing.T) {
	rnd := rand.New(rand.NewPCG(31, 32))
	for _, c := range []struct{ n, p int }{{1, 1}, {5, 3}, {40, 4}} {
		y := mat.NewDense(c.n, c.p, nil)
		for i := 0; i < c.n; i++ {
			for q := 0; q < c.p; q++ {
				y.Set(i, q, 2+float64(q)+1.5*rnd.NormFloat64())
			}
		}
		h := mfa.Hyper{Alpha: 2, Mu: make([]float64, c.p), Nu: make([]float64, c.p), Psi: make([]float64, c.p)}
		for q := 0; q < c.p; q++ {
			h.Mu[q] = 0.5 * float64(q)
			h.Nu[q] = 0.1 + 0.3*float64(q)
			h.Psi[q] = 0.7 + 0.5*float64(q)
		}
		want := gaussianEvidence(y, h.Mu, h.Nu, h.Psi)
		m, err := mfa.NewVBRandom(y, 1, mfa.Settings{K: 0, Hyper: h}, rnd)
		if err != nil {
			t.Fatal(err)
		}
		r := vb.Run(m, vb.Settings{MaxIterations: 4, Converger: vb.FixedIterations{}})
		if err := r.Error(); err != nil {
			t.Fatal(err)
		}
		for it, f := range r.Trace.F {
			if d := math.Abs(f - want); d > 1e-9*math.Abs(want) {
				t.Errorf("n=%d p=%d: F = %.15g at iteration %d, exact log evidence %.15g (difference %.3g)", c.n, c.p, f, it, want, d)
			}
		}
	}
}
