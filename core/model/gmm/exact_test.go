package gmm_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/gmm"
)

// TestOneComponentFIsExact: at K = 1, q(μ, Λ) is the exact Normal-Wishart
// posterior and F equals ln p(X) (after one E step).
func TestOneComponentFIsExact(t *testing.T) {
	x := clusters(rand.New(rand.NewPCG(3, 3)), 40, 1.3, [2]float64{0.5, -1})
	for _, p := range []gmm.Prior{gmm.DefaultPrior(2, 1), {Alpha0: 0.3, Beta0: 0.05, Nu0: 4.5, M0: []float64{1, -2}, W0: []float64{0.5, 0.2, 0.2, 2}}} {
		m := newVB(t, x, 1, p, 1)
		b, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		exact, err := gmm.LogEvidenceOne(x, 2, p)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(b.F-exact) > 1e-9*math.Abs(exact) {
			t.Errorf("K = 1: F = %.12f, ln p(X) = %.12f", b.F, exact)
		}
		enum, err := gmm.LogEvidenceExact(x[:16], 2, 1, p)
		if err != nil {
			t.Fatal(err)
		}
		one, _ := gmm.LogEvidenceOne(x[:16], 2, p)
		if math.Abs(enum-one) > 1e-10*math.Abs(one) {
			t.Errorf("enumeration at K = 1: %v, closed form %v", enum, one)
		}
	}
}

// TestFBelowExactEvidence: on 8 points, F ≤ ln p(X | K) for K = 2, 3 from
// ten random starts and from the start with every point in component 0,
// and the best of these F is within a few nats of ln p(X | K). (With
// α₀ = 10⁻³ the random starts of K = 3 stop at two occupied components and
// one empty, 9 nats below; the one-component start is the best there.)
func TestFBelowExactEvidence(t *testing.T) {
	x := tiny()
	for _, a0 := range []float64{1e-3, 1} {
		p := gmm.DefaultPrior(2, a0)
		for _, k := range []int{2, 3} {
			exact, err := gmm.LogEvidenceExact(x, 2, k, p)
			if err != nil {
				t.Fatal(err)
			}
			best := math.Inf(-1)
			for seed := uint64(1); seed <= 10; seed++ {
				r := converge(t, newVB(t, x, k, p, seed))
				if r.F > exact+1e-9 {
					t.Errorf("α₀ = %v, K = %d, seed %d: F = %v > ln p(X) = %v", a0, k, seed, r.F, exact)
				}
				best = max(best, r.F)
			}
			m := newVB(t, x, k, p, 1)
			r := make([]float64, k*len(x)/2)
			for i := 0; i < len(x)/2; i++ {
				r[i] = 1
			}
			if err := m.SetResponsibilities(r); err != nil {
				t.Fatal(err)
			}
			if f := converge(t, m).F; f > exact+1e-9 {
				t.Errorf("α₀ = %v, K = %d, one-component start: F = %v > ln p(X) = %v", a0, k, f, exact)
			} else {
				best = max(best, f)
			}
			if exact-best > 5 {
				t.Errorf("α₀ = %v, K = %d: best F = %v, ln p(X) = %v", a0, k, best, exact)
			}
			t.Logf("α₀ = %v, K = %d: best F = %.4f, best F + ln K! = %.4f, ln p(X) = %.4f", a0, k, best, best+gmm.LogFactorial(k), exact)
		}
	}
}

// TestPredictiveOneComponent: at K = 1 the Student-t predictive (10.81) is
// the exact ratio p(X ∪ {x̂})/p(X) of Normal-Wishart evidences.
func TestPredictiveOneComponent(t *testing.T) {
	x := clusters(rand.New(rand.NewPCG(4, 4)), 30, 1, [2]float64{0, 0})
	p := gmm.DefaultPrior(2, 1)
	m := newVB(t, x, 1, p, 1)
	base, _ := gmm.LogEvidenceOne(x, 2, p)
	for _, xh := range [][]float64{{0, 0}, {1.5, -0.7}, {-4, 3}} {
		all, _ := gmm.LogEvidenceOne(append(append([]float64(nil), x...), xh...), 2, p)
		if got, want := m.LogPredictive(xh), all-base; math.Abs(got-want) > 1e-9 {
			t.Errorf("ln p(%v | X) = %.12f, want %.12f", xh, got, want)
		}
	}
}

// TestPredictiveNormalised: the predictive mixture of a K = 3 fit integrates
// to 1 over a grid (midpoint rule on [−12, 12]², step 0.04).
func TestPredictiveNormalised(t *testing.T) {
	x := clusters(rand.New(rand.NewPCG(9, 9)), 60, 0.7, [2]float64{-2, 0}, [2]float64{2, 0}, [2]float64{0, 2})
	m := newVB(t, x, 3, gmm.DefaultPrior(2, 1), 2)
	converge(t, m)
	const h, lim = 0.04, 12.0
	var s float64
	pt := make([]float64, 2)
	for u := -lim + h/2; u < lim; u += h {
		for v := -lim + h/2; v < lim; v += h {
			pt[0], pt[1] = u, v
			s += math.Exp(m.LogPredictive(pt)) * h * h
		}
	}
	if math.Abs(s-1) > 2e-3 {
		t.Errorf("∫ p(x̂|X) dx̂ ≈ %v", s)
	}
}
