package ica

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// maximise maximises the bound over x by L-BFGS with central-difference
// gradients, set(x) putting x into the model, and returns the maximiser.
func maximise(t *testing.T, m *VB, x0 []float64, set func(x []float64)) []float64 {
	t.Helper()
	f := func(x []float64) float64 { set(x); return -m.Objective().F }
	x := append([]float64(nil), x0...)
	var opt numeric.LBFGS
	opt.GradTol = 1e-6
	_, err := opt.Minimize(func(x, g []float64) float64 {
		copy(g, vbtest.FDGradient(f, x, 1e-6))
		return f(x)
	}, x)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestUpdatesAreBruteForceMaxima: each closed-form update (eqs. 6.19-6.29)
// is where a numerical maximiser of the complete bound over that factor's
// parameters ends, started away from it.
func TestUpdatesAreBruteForceMaxima(t *testing.T) {
	m := toyModel(t, 50, 0.1, 21)
	for range 10 {
		for _, s := range steps(m) {
			if err := s.do(); err != nil {
				t.Fatal(err)
			}
		}
	}
	near := func(what string, got, want []float64, tol float64) {
		t.Helper()
		for i := range want {
			if math.Abs(got[i]-want[i]) > tol*(1+math.Abs(want[i])) {
				t.Errorf("%s[%d]: brute force %.8g, update %.8g", what, i, got[i], want[i])
			}
		}
	}
	// q(β): (ln a, ln b).
	m.updateBeta()
	want := []float64{math.Log(m.qb.Alpha), math.Log(m.qb.Beta)}
	got := maximise(t, m, []float64{want[0] + 0.5, want[1] - 0.7}, func(x []float64) {
		m.qb = dist.Gamma{Alpha: math.Exp(x[0]), Beta: math.Exp(x[1])}
	})
	near("q(beta) log shape, log rate", got, want, 1e-4)
	m.updateBeta()
	// q(α_i) of each source.
	m.updateAlpha()
	for i := range m.qa {
		qa := m.qa[i]
		want := []float64{math.Log(qa.Alpha), math.Log(qa.Beta)}
		got := maximise(t, m, []float64{want[0] - 0.4, want[1] + 0.6}, func(x []float64) {
			m.qa[i] = dist.Gamma{Alpha: math.Exp(x[0]), Beta: math.Exp(x[1])}
		})
		near("q(alpha) log shape, log rate", got, want, 1e-4)
		m.qa[i] = qa
	}
	// q(W): the row means (the covariance held at the update's).
	if err := m.updateW(); err != nil {
		t.Fatal(err)
	}
	wantW := append([]float64(nil), m.ew.RawMatrix().Data...)
	start := make([]float64, len(wantW))
	for i := range start {
		start[i] = wantW[i] + 0.05*float64(i%3-1)
	}
	setW := func(x []float64) {
		for q := 0; q < m.p; q++ {
			for a := 0; a < m.k; a++ {
				var v float64
				for b := 0; b < m.k; b++ {
					v += m.wPrec.At(a, b) * x[q*m.k+b]
				}
				m.wB.Set(q, a, v)
			}
		}
		if err := m.qw.SetDistinctPrecision(m.wPrecs, m.wB); err != nil {
			t.Fatal(err)
		}
		m.cacheW()
	}
	near("E[W]", maximise(t, m, start, setW), wantW, 1e-5)
	// q(μ): the mean.
	if err := m.updateW(); err != nil {
		t.Fatal(err)
	}
	if err := m.updateMu(); err != nil {
		t.Fatal(err)
	}
	wantMu := append([]float64(nil), m.mmu...)
	prec := m.muPrec.At(0, 0)
	setMu := func(x []float64) {
		for q := range x {
			m.muB.Set(0, q, prec*x[q])
		}
		if err := m.qmu.SetDistinctPrecision(m.muPrcs, m.muB); err != nil {
			t.Fatal(err)
		}
		m.cacheMu()
	}
	near("E[mu]", maximise(t, m, []float64{wantMu[0] + 0.1, wantMu[1] - 0.2, wantMu[2] + 0.05}, setMu), wantMu, 1e-5)
}
