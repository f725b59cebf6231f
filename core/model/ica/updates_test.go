package ica

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/dist"
)

func toyModel(t *testing.T, n int, noise float64, seed uint64) *VB {
	t.Helper()
	data, _, _ := mixed(rand.New(rand.NewPCG(seed, 11)), n, 3, 2, toySources(), noise)
	m, err := NewVB(data, 3, toySources(), DefaultPrior(), Settings{Sources: 3})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// steps are the five coordinate updates of section 6.5.4, by name.
func steps(m *VB) []struct {
	name string
	do   func() error
} {
	return []struct {
		name string
		do   func() error
	}{
		{"q(mu)", m.updateMu},
		{"q(x)", m.updateX},
		{"q(W)", m.updateW},
		{"q(alpha)", func() error { m.updateAlpha(); return nil }},
		{"q(beta)", func() error { m.updateBeta(); return nil }},
	}
}

// TestEveryCoordinateStepRaisesBound evaluates the bound after each of the
// five updates separately (vb.Run sees only the E, M and hyperparameter
// steps): none lowers it.
func TestEveryCoordinateStepRaisesBound(t *testing.T) {
	for _, noise := range []float64{1e-2, 1} {
		m := toyModel(t, 80, noise, 3)
		prev := m.Objective().F
		for it := 0; it < 40; it++ {
			for _, s := range steps(m) {
				if err := s.do(); err != nil {
					t.Fatal(err)
				}
				f := m.Objective().F
				if f < prev-1e-9*max(1, -f) {
					t.Fatalf("noise %g, sweep %d: %s lowered the bound from %.12g to %.12g", noise, it, s.name, prev, f)
				}
				prev = f
			}
		}
	}
}

// TestEachUpdateMaximisesItsFactor checks each update against its own
// objective: after the update, moving that factor's parameters (within its
// family; for q(x), the family exp(A(x)) p(x) of eq. D.5, moved by building
// it from another β or μ) never raises the bound.
func TestEachUpdateMaximisesItsFactor(t *testing.T) {
	m := toyModel(t, 60, 0.05, 9)
	for range 15 {
		for _, s := range steps(m) {
			if err := s.do(); err != nil {
				t.Fatal(err)
			}
		}
	}
	check := func(what string, f0, f float64) {
		t.Helper()
		if f > f0+1e-9*max(1, -f0) {
			t.Errorf("%s: bound %.12g above the updated %.12g", what, f, f0)
		}
	}
	for _, eps := range []float64{1e-3, 3e-2} {
		// q(β): shape and rate.
		m.updateBeta()
		f0, qb := m.Objective().F, m.qb
		for _, d := range [][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}} {
			m.qb = dist.Gamma{Alpha: qb.Alpha * (1 + eps*d[0]), Beta: qb.Beta * (1 + eps*d[1])}
			check(fmt.Sprintf("q(beta) moved by %v·%g", d, eps), f0, m.Objective().F)
		}
		m.qb = qb
		// q(α_i).
		m.updateAlpha()
		f0 = m.Objective().F
		for i := range m.qa {
			qa := m.qa[i]
			for _, d := range [][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				m.qa[i] = dist.Gamma{Alpha: qa.Alpha * (1 + eps*d[0]), Beta: qa.Beta * (1 + eps*d[1])}
				check(fmt.Sprintf("q(alpha_%d) moved by %v·%g", i, d, eps), f0, m.Objective().F)
			}
			m.qa[i] = qa
		}
		// q(W): a mean element and the precision's scale.
		if err := m.updateW(); err != nil {
			t.Fatal(err)
		}
		f0 = m.Objective().F
		for _, mv := range []struct {
			q, a  int
			scale float64
		}{{0, 0, 1}, {1, 2, 1}, {2, 1, 1}, {-1, 0, 1 + eps}, {-1, 0, 1 - eps}} {
			if err := m.updateW(); err != nil {
				t.Fatal(err)
			}
			if mv.q >= 0 {
				m.wB.Set(mv.q, mv.a, m.wB.At(mv.q, mv.a)+eps*m.wPrec.At(mv.a, mv.a))
			} else {
				m.wPrec.ScaleSym(mv.scale, m.wPrec)
				m.wB.Scale(mv.scale, m.wB) // the same mean, another covariance
			}
			if err := m.qw.SetDistinctPrecision(m.wPrecs, m.wB); err != nil {
				t.Fatal(err)
			}
			m.cacheW()
			check(fmt.Sprintf("q(W) moved %+v by %g", mv, eps), f0, m.Objective().F)
		}
		if err := m.updateW(); err != nil {
			t.Fatal(err)
		}
		// q(μ): a mean element and the variance.
		if err := m.updateMu(); err != nil {
			t.Fatal(err)
		}
		f0 = m.Objective().F
		for _, mv := range []struct {
			q     int
			scale float64
		}{{0, 1}, {2, 1}, {-1, 1 + eps}, {-1, 1 - eps}} {
			if err := m.updateMu(); err != nil {
				t.Fatal(err)
			}
			if mv.q >= 0 {
				m.muB.Set(0, mv.q, m.muB.At(0, mv.q)+eps*m.muPrec.At(0, 0))
			} else {
				m.muPrec.ScaleSym(mv.scale, m.muPrec)
				m.muB.Scale(mv.scale, m.muB)
			}
			if err := m.qmu.SetDistinctPrecision(m.muPrcs, m.muB); err != nil {
				t.Fatal(err)
			}
			m.cacheMu()
			check(fmt.Sprintf("q(mu) moved %+v by %g", mv, eps), f0, m.Objective().F)
		}
		if err := m.updateMu(); err != nil {
			t.Fatal(err)
		}
		// q(x): rebuilt from a moved β or μ, then evaluated under the true ones.
		if err := m.updateX(); err != nil {
			t.Fatal(err)
		}
		f0 = m.Objective().F
		qb = m.qb
		for _, s := range []float64{1 + eps, 1 - eps} {
			m.qb = dist.Gamma{Alpha: qb.Alpha, Beta: qb.Beta / s}
			if err := m.updateX(); err != nil {
				t.Fatal(err)
			}
			m.qb = qb
			check(fmt.Sprintf("q(x) built with E[beta]·%g", s), f0, m.Objective().F)
		}
		mu0 := append([]float64(nil), m.mmu...)
		m.mmu[1] += eps
		if err := m.updateX(); err != nil {
			t.Fatal(err)
		}
		copy(m.mmu, mu0)
		check(fmt.Sprintf("q(x) built with E[mu_1]+%g", eps), f0, m.Objective().F)
		if err := m.updateX(); err != nil {
			t.Fatal(err)
		}
		if f := m.Objective().F; f != f0 {
			t.Errorf("q(x) rebuilt: bound %.15g, want %.15g again", f, f0)
		}
	}
}

func toyModelB(b *testing.B) *VB {
	data, _, _ := mixed(rand.New(rand.NewPCG(1, 11)), 200, 3, 2, toySources(), 1e-4)
	m, err := NewVB(data, 3, toySources(), DefaultPrior(), Settings{Sources: 3})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// TestBoundMonotoneAtSmallNoiseFromRandomStart: at the toy's noise
// (precision 10⁴) from a random q(W), D_m is ill-conditioned and the
// log-weights of q(x) are of order 10⁵; E[ln p(x)] + H[q(x)] must still be
// computed without cancellation, so that no q(x) update lowers the bound.
func TestBoundMonotoneAtSmallNoiseFromRandomStart(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		rnd := rand.New(rand.NewPCG(seed, 99))
		data, _, _ := mixed(rnd, 200, 3, 2, toySources(), 1e-4)
		w0 := make([]float64, 9)
		for i := range w0 {
			w0[i] = rnd.NormFloat64()
		}
		m, err := NewVB(data, 3, toySources(), DefaultPrior(), Settings{Sources: 3, InitW: w0})
		if err != nil {
			t.Fatal(err)
		}
		prev := m.Objective().F
		for it := 0; it < 60; it++ {
			for _, s := range steps(m)[:3] {
				if err := s.do(); err != nil {
					t.Fatal(err)
				}
				f := m.Objective().F
				if f < prev-1e-9*max(1, -f) {
					t.Fatalf("seed %d, sweep %d: %s lowered the bound by %.3g (to %.10g)", seed, it, s.name, prev-f, f)
				}
				prev = f
			}
		}
	}
}
