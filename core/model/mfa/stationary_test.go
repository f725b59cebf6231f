package mfa

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// testModel returns a model on 3 overlapping clusters in 3-D with analysers
// of different k, after a few iterations of every step.
func testModel(t *testing.T) *VB {
	t.Helper()
	rnd := rand.New(rand.NewPCG(41, 42))
	const per, p = 12, 3
	centres := [][]float64{{0, 0, 0}, {3, 0, 1}, {0, 3, -1}}
	y := mat.NewDense(per*len(centres), p, nil)
	resp := mat.NewDense(per*len(centres), 3, nil)
	for c, mu := range centres {
		for j := 0; j < per; j++ {
			i := c*per + j
			for q := 0; q < p; q++ {
				y.Set(i, q, mu[q]+1.5*rnd.NormFloat64())
			}
			for s := 0; s < 3; s++ {
				resp.Set(i, s, 0.2)
			}
			resp.Set(i, c, 0.6)
		}
	}
	m, err := NewVB(y, resp, Settings{Ks: []int{2, 1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := m.E(); err != nil {
			t.Fatal(err)
		}
		m.M()
		for _, g := range m.HyperGroups() {
			m.UpdateHyper(g)
		}
	}
	return m
}

// stationary checks that the finite-difference gradient of F (with every
// other quantity fixed) in the parameters that set writes is zero at x,
// where an update has just put them: each update is the exact maximiser of
// F in its block (Beal (2003) section 4.2.4, line 2438). The gradient must
// be below 1e-5 of the gradient at a point shifted by 20% (so that a wrong
// update, with a gradient of that size, fails), or below the rounding noise
// of the central difference, 20ε|F|/h, whichever is larger; the shifted
// gradient must stand well above that noise, or the check has no power.
func stationary(t *testing.T, m *VB, name string, x []float64, set func([]float64), h float64) {
	t.Helper()
	f := func(v []float64) float64 {
		set(v)
		return m.Bound().F
	}
	g := vbtest.FDGradient(f, x, h)
	away := append([]float64(nil), x...)
	for i := range away {
		away[i] += 0.2 * math.Max(math.Abs(x[i]), 0.05)
	}
	gAway := vbtest.FDGradient(f, away, h)
	set(x)
	var norm, normAway float64
	for i := range g {
		norm = math.Max(norm, math.Abs(g[i]))
		normAway = math.Max(normAway, math.Abs(gAway[i]))
	}
	noise := 20 * 0x1p-52 * math.Abs(m.Bound().F) / h
	if normAway < 100*noise {
		t.Errorf("%s: the check has no power: |∂F| = %.3g nearby, rounding noise %.3g", name, normAway, noise)
	}
	if !(norm <= math.Max(1e-5*normAway, noise)) {
		t.Errorf("%s: |∂F| = %.3g at the update, %.3g nearby, noise %.3g (gradient %.3g)", name, norm, normAway, noise, g)
	}
}

// TestUpdatesStationary checks every update of the sweep and every
// hyperparameter update against finite differences of F: at the updated
// value the gradient of F in the updated block vanishes.
func TestUpdatesStationary(t *testing.T) {
	m := testModel(t)
	n := m.n
	m.prepPsi()

	// q(x|s): after updateX, ∂F/∂x̄_i = 0 and ∂F/∂Σ = 0 (entries of Σ
	// perturbed symmetrically; ln|Σ| and tr Σ recomputed).
	for s, c := range m.comps {
		if err := m.updateX(c); err != nil {
			t.Fatal(err)
		}
		if c.k == 0 {
			continue
		}
		for _, i := range []int{0, 17} {
			x := make([]float64, c.k)
			for l := range x {
				x[l] = c.xT[l*n+i]
			}
			stationary(t, m, fmt.Sprintf("q(x|s=%d) mean of point %d", s, i), x, func(v []float64) {
				for l, vl := range v {
					c.xT[l*n+i] = vl
				}
			}, 1e-5)
		}
		sig := append([]float64(nil), c.sigma...)
		stationary(t, m, fmt.Sprintf("q(x|s=%d) covariance", s), sig, func(v []float64) {
			k := c.k
			for a := 0; a < k; a++ {
				for b := 0; b < k; b++ {
					c.sigma[a*k+b] = 0.5 * (v[a*k+b] + v[b*k+a])
				}
			}
			var ch mat.Cholesky
			if !ch.Factorize(mat.NewSymDense(k, append([]float64(nil), c.sigma...))) {
				t.Fatal("perturbed Σ not positive definite")
			}
			c.logDetSigma = ch.LogDet()
			c.traceSigma = 0
			for l := 0; l < k; l++ {
				c.traceSigma += c.sigma[l*k+l]
			}
		}, 1e-6)
	}

	// q(Λ̃^s): after updateLoadings, ∂F/∂m_q = 0 for every row mean.
	for s, c := range m.comps {
		if err := m.updateLoadings(s, c); err != nil {
			t.Fatal(err)
		}
		rows := c.rows
		mean := rows.MeanTo(nil)
		covs := make([]mat.Symmetric, m.p)
		for q := range covs {
			covs[q] = rows.CovarianceTo(nil, q)
		}
		stationary(t, m, fmt.Sprintf("q(Λ̃^%d) means", s), mean.RawMatrix().Data, func(v []float64) {
			r, err := dist.NewGaussianRowsDistinct(mat.NewDense(m.p, c.d, append([]float64(nil), v...)), covs)
			if err != nil {
				t.Fatal(err)
			}
			c.rows = r
		}, 1e-6)
		c.rows = rows
	}

	// q(s): after updateS, F is stationary on the simplex of every row:
	// the directional derivative along e_a − e_b vanishes.
	m.computeT()
	if err := m.updateS(); err != nil {
		t.Fatal(err)
	}
	S := len(m.comps)
	for _, i := range []int{3, 20} {
		for a := 1; a < S; a++ {
			ra, r0 := m.resp[a*n+i], m.resp[i]
			stationary(t, m, fmt.Sprintf("q(s_%d) along e_%d − e_0", i, a), []float64{0}, func(v []float64) {
				m.resp[a*n+i], m.resp[i] = ra+v[0], r0-v[0]
			}, 1e-5)
		}
	}

	// M: q(π) and q(ν).
	m.M()
	stationary(t, m, "q(π)", append([]float64(nil), m.omega...), func(v []float64) { copy(m.omega, v) }, 1e-5)
	for s, c := range m.comps {
		if c.k == 0 {
			continue
		}
		x := make([]float64, 0, 2*c.k)
		for _, g := range c.nu {
			x = append(x, g.Alpha, g.Beta)
		}
		stationary(t, m, fmt.Sprintf("q(ν^%d)", s), x, func(v []float64) {
			for l := range c.nu {
				c.nu[l] = dist.Gamma{Alpha: v[2*l], Beta: v[2*l+1]}
			}
		}, 1e-6)
	}

	// Hyperparameters.
	m.UpdateHyper(HyperPsi)
	stationary(t, m, "Ψ", append([]float64(nil), m.Hyper.Psi...), func(v []float64) { copy(m.Hyper.Psi, v) }, 1e-6)
	m.UpdateHyper(HyperMuNu)
	x := append(append([]float64(nil), m.Hyper.Mu...), m.Hyper.Nu...)
	stationary(t, m, "μ*, ν*", x, func(v []float64) {
		copy(m.Hyper.Mu, v[:m.p])
		copy(m.Hyper.Nu, v[m.p:])
	}, 1e-6)
	m.UpdateHyper(HyperAB)
	stationary(t, m, "a*, b*", []float64{m.Hyper.A, m.Hyper.B}, func(v []float64) { m.Hyper.A, m.Hyper.B = v[0], v[1] }, 1e-7)
	m.UpdateHyper(HyperAlpha)
	stationary(t, m, "α*", []float64{m.Hyper.Alpha}, func(v []float64) { m.Hyper.Alpha = v[0] }, 1e-6)
}

// TestABFreeze checks the guard of targets §1.14: while a* exceeds ABMax
// the a*, b* update is skipped and counted, leaving them unchanged.
func TestABFreeze(t *testing.T) {
	m := testModel(t)
	m.ABMax = 5
	m.Hyper.A, m.Hyper.B = 6, 3
	m.UpdateHyper(HyperAB)
	if m.Hyper.A != 6 || m.Hyper.B != 3 || m.ABFrozen != 1 {
		t.Errorf("a*, b* = %v, %v after a frozen update (ABFrozen %d), want 6, 3 and 1", m.Hyper.A, m.Hyper.B, m.ABFrozen)
	}
	m.Hyper.A = 1
	m.UpdateHyper(HyperAB)
	if m.Hyper.A == 1 || m.ABFrozen != 1 {
		t.Errorf("a* = %v after an update below ABMax (ABFrozen %d)", m.Hyper.A, m.ABFrozen)
	}
}
