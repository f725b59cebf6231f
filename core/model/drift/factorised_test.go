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
func BenchmarkFactorisedIteration(b *testing.B) { benchFactorised(b, 5000) }

// BenchmarkFactorisedWindow: one iteration on the 200-step window of the
// sequential protocol (Fig 3.15), d = 105, the size its vkS runs at.
func BenchmarkFactorisedWindow(b *testing.B) { benchFactorised(b, 200) }

func benchFactorised(b *testing.B, T int) {
	data, _ := simulate(rand.New(rand.NewPCG(14, 5)), T, 105, 1e4, 100)
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

// TestFactorisedTrackerOneInput: with one input, Smoother.Track with the
// factorised model gives vkS's estimates (the same windows, the same
// starts of q(λ), q(ψ_y)), at every step and with runs every third step.
func TestFactorisedTrackerOneInput(t *testing.T) {
	data, _ := simulate(rand.New(rand.NewPCG(15, 6)), 60, 1, 300, 50)
	set := vb.Settings{MaxIterations: 40} // the same 40 iterations each run: the paths agree to rounding
	for _, every := range []int{0, 3} {
		a, err := Smoother{Window: 20, VB: set, Every: every}.Track(data, testPrior, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Smoother{Window: 20, VB: set, Every: every, Factorised: true}.Track(data, testPrior, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		if a.Runs != b.Runs {
			t.Fatalf("every %d: %d runs against vkS's %d", every, b.Runs, a.Runs)
		}
		for n := range a.W {
			if math.Abs(a.W[n]-b.W[n]) > 1e-9*math.Max(1, math.Abs(a.W[n])) || math.Abs(a.Lambda[n]-b.Lambda[n]) > 1e-9*a.Lambda[n] {
				t.Fatalf("every %d, step %d: factorised (%g, λ %g), vkS (%g, λ %g)", every, n+1, b.W[n], b.Lambda[n], a.W[n], a.Lambda[n])
			}
		}
	}
}

// TestFactorisedSetDataShift: after SetData with a shift, the starting
// means are the old ones moved by the shift, so one E step on the same
// window (shift 0) reproduces the state that continuing would give.
func TestFactorisedSetDataShift(t *testing.T) {
	data, _ := simulate(rand.New(rand.NewPCG(16, 7)), 30, 3, 300, 50)
	m, err := NewFactorised(Data{X: data.X[:20*3], Y: data.Y[:20], D: 3}, testPrior, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	vb.Run(m, vb.Settings{MaxIterations: 50})
	before := m.Mean(nil)
	if err := m.SetData(Data{X: data.X[5*3 : 25*3], Y: data.Y[5:25], D: 3}, 5); err != nil {
		t.Fatal(err)
	}
	after := m.Mean(nil)
	for n := 0; n < 20; n++ {
		for k := 0; k < 3; k++ {
			want := before[min(n+5, 19)*3+k]
			if after[n*3+k] != want {
				t.Fatalf("step %d input %d: start %g, want %g", n+1, k, after[n*3+k], want)
			}
		}
	}
	if err := m.SetData(Data{X: data.X[:3], Y: data.Y[:1], D: 2}, 0); err == nil {
		t.Fatal("SetData accepted data of another d")
	}
}
