package drift

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestFactorisedOneInputIsVB: with one input the factorisation is no
// restriction, so every E/M iteration's bound and q(λ), q(ψ_y) equal VB's
// (a check of the bound's moment form against the smoother's ln Z').
func TestFactorisedOneInputIsVB(t *testing.T) {
	data, _ := simulate(rand.New(rand.NewPCG(11, 3)), 80, 1, 300, 50)
	full, err := NewVB(data, testPrior, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	fac, err := NewFactorised(data, testPrior, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for it := 0; it < 10; it++ {
		bf, err := full.E()
		if err != nil {
			t.Fatal(err)
		}
		bq, err := fac.E()
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(bf.F-bq.F) > 1e-8*math.Abs(bf.F) {
			t.Fatalf("iteration %d: factorised F = %.12g, VB F = %.12g", it, bq.F, bf.F)
		}
		full.M()
		fac.M()
		if l1, l2 := full.QLambda().Mean(), fac.QLambda().Mean(); math.Abs(l1-l2) > 1e-8*l1 {
			t.Fatalf("iteration %d: E[λ] %g against VB's %g", it, l2, l1)
		}
	}
}

// TestFactorisedFixedPoint: at known λ and ψ_y, with three inputs, the
// factorised fixed point's means equal the joint smoother's (mean field is
// exact in the means for a Gaussian), its variances are no larger, and its
// bound lies below ln p(y | λ, ψ_y).
func TestFactorisedFixedPoint(t *testing.T) {
	const lambda, psi = 200.0, 20.0
	data, _ := simulate(rand.New(rand.NewPCG(12, 4)), 40, 3, lambda, psi)
	s := Settings{KnownLambda: lambda, KnownPsi: psi}
	full, err := NewVB(data, testPrior, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := full.E(); err != nil {
		t.Fatal(err)
	}
	fac, err := NewFactorised(data, testPrior, s)
	if err != nil {
		t.Fatal(err)
	}
	res := vb.Run(fac, vb.Settings{MaxIterations: 20000, AbsTol: 1e-13})
	if res.Err != nil || res.Decrease.Iter >= 0 {
		t.Fatalf("run: %v (decrease %+v)", res.Err, res.Decrease)
	}
	exact := LogMarginal(data, testPrior, lambda, psi)
	if !(res.F <= exact+1e-9) {
		t.Fatalf("factorised F = %.10g above ln p(y|λ,ψ) = %.10g", res.F, exact)
	}
	if gap := exact - res.F; !(gap > 1e-3) {
		t.Errorf("factorised F = %.10g within %g of ln p(y|λ,ψ): the factorisation should cost something on correlated inputs", res.F, gap)
	}
	jm, fm := full.Mean(nil), fac.Mean(nil)
	fv := fac.Variance(nil)
	d := data.D
	for n := 1; n <= data.T(); n++ {
		cov := full.Cov(nil, n)
		for k := 0; k < d; k++ {
			i := (n-1)*d + k
			if math.Abs(jm[i]-fm[i]) > 1e-6 {
				t.Fatalf("step %d input %d: factorised mean %.9g, joint %.9g", n, k, fm[i], jm[i])
			}
			if fv[i] > cov[k*d+k]*(1+1e-9) {
				t.Fatalf("step %d input %d: factorised variance %g above the joint's %g", n, k, fv[i], cov[k*d+k])
			}
		}
	}
}

// TestFactorisedConformance runs core/vbtest's suite on the factorised vkS:
// the bound never decreases under E and M, and neither allocates.
func TestFactorisedConformance(t *testing.T) {
	for _, c := range []struct{ T, d int }{{50, 1}, {30, 4}} {
		data, _ := simulate(rand.New(rand.NewPCG(13, uint64(c.d))), c.T, c.d, 400, 100)
		t.Run(fmt.Sprintf("T=%d,d=%d", c.T, c.d), func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model {
				m, err := NewFactorised(data, testPrior, Settings{})
				if err != nil {
					t.Fatal(err)
				}
				return m
			}, vbtest.CheckOptions{Iterations: 15})
		})
	}
}

// BenchmarkFactorisedIteration times one E and M of the factorised vkS at
// the size of Fig. 3.15 (T = 5000 steps, d = 105 inputs): d 1-D smoothers
// of T steps a sweep, O(Td), where VB's joint smoother is O(Td³).
func BenchmarkFactorisedIteration(b *testing.B) {
	data, _ := simulate(rand.New(rand.NewPCG(14, 5)), 5000, 105, 1e4, 100)
	m, err := NewFactorised(data, testPrior, Settings{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.E(); err != nil {
			b.Fatal(err)
		}
		m.M()
	}
}
