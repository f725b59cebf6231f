package dist

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDirichletFromMeanLogRoundTrip recovers α from its own expected logs
// (Dirichlet.MeanLog), from Minka's start and from a far one.
func TestDirichletFromMeanLogRoundTrip(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		k := 2 + trial%5
		alpha := make([]float64, k)
		for j := range alpha {
			alpha[j] = math.Exp(6*rnd.Float64() - 3) // 0.05 … 20
		}
		m := DirichletMeanLogTo(nil, alpha)
		got := make([]float64, k)
		if !DirichletFromMeanLogTo(got, m, nil) {
			t.Fatalf("α = %v: no solution from Minka's start", alpha)
		}
		for j := range alpha {
			if math.Abs(got[j]-alpha[j]) > 1e-8*alpha[j] {
				t.Fatalf("α = %v: recovered %v", alpha, got)
			}
		}
		far := make([]float64, k)
		for j := range far {
			far[j] = 100
		}
		if !DirichletFromMeanLogTo(got, m, far) {
			t.Fatalf("α = %v: no solution from α = 100", alpha)
		}
		for j := range alpha {
			if math.Abs(got[j]-alpha[j]) > 1e-8*alpha[j] {
				t.Fatalf("α = %v: recovered %v from α = 100", alpha, got)
			}
		}
	}
}

// TestDirichletFromMeanLogMixture projects a two-component mixture of
// Dirichlets (the tilted density of an EP site with a hidden variable) and
// checks the moment equations ψ(α_k) − ψ(α₀) = E_p[ln π_k].
func TestDirichletFromMeanLogMixture(t *testing.T) {
	a1, a2 := []float64{3, 1, 2}, []float64{1, 4, 2}
	m1, m2 := DirichletMeanLogTo(nil, a1), DirichletMeanLogTo(nil, a2)
	m := make([]float64, 3)
	for j := range m {
		m[j] = 0.3*m1[j] + 0.7*m2[j]
	}
	got := make([]float64, 3)
	if !DirichletFromMeanLogTo(got, m, nil) {
		t.Fatal("no solution")
	}
	back := DirichletMeanLogTo(nil, got)
	for j := range m {
		if math.Abs(back[j]-m[j]) > 1e-11 {
			t.Fatalf("E[ln π] of the projection %v, want %v", back, m)
		}
	}
}

// TestDirichletFromMeanLogInfeasible: Σ exp(m_k) ≥ 1 has no Dirichlet.
func TestDirichletFromMeanLogInfeasible(t *testing.T) {
	dst := make([]float64, 2)
	for _, m := range [][]float64{{math.Log(0.5), math.Log(0.5)}, {-0.1, -0.2}, {0.1, -3}, {math.NaN(), -1}} {
		if DirichletFromMeanLogTo(dst, m, nil) {
			t.Errorf("m = %v: a solution %v reported", m, dst)
		}
	}
}

// TestDirichletFromMeanLogLargeCounts: the mixtures EP's Dirichlet sites
// meet on a few hundred points (counts in the hundreds, one component's
// weight near 1), where L's terms are about 10³ and a Newton step near
// the optimum changes L below their rounding: the projection must still
// succeed and match the expected logs.
func TestDirichletFromMeanLogLargeCounts(t *testing.T) {
	for _, a := range [][]float64{{136.5, 137.5}, {100, 174}, {10, 264}, {1.5, 272}} {
		for _, p := range []float64{0.5, 0.9, 0.999, 1 - 1e-9} {
			m1 := DirichletMeanLogTo(nil, []float64{a[0] + 1, a[1]})
			m2 := DirichletMeanLogTo(nil, []float64{a[0], a[1] + 1})
			m := []float64{p*m1[0] + (1-p)*m2[0], p*m1[1] + (1-p)*m2[1]}
			dst := []float64{a[0] + p, a[1] + 1 - p}
			if !DirichletFromMeanLogTo(dst, m, dst) {
				t.Errorf("α %v, p %v: no projection (last %v)", a, p, dst)
				continue
			}
			back := DirichletMeanLogTo(nil, dst)
			for k := range m {
				if math.Abs(back[k]-m[k]) > 1e-10 {
					t.Errorf("α %v, p %v: E[ln π] %v, want %v", a, p, back, m)
				}
			}
		}
	}
}
