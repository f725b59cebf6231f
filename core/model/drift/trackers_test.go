package drift

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/vb"
)

// TestRLSAgainstBatch checks RLS's estimate after every step against the
// batch solution of its objective, the exponentially weighted least squares
// with the fading ridge δγ^n ‖w − w_init‖², solved by Cholesky.
func TestRLSAgainstBatch(t *testing.T) {
	for _, c := range []struct {
		d     int
		gamma float64
	}{{1, 0.9}, {3, 0.97}, {2, 1}} {
		T := 40
		data, _ := simulate(rand.New(rand.NewPCG(21, uint64(c.d))), T, c.d, 100, 50)
		init := make([]float64, c.d)
		init[0] = 0.5
		r := RLS{Gamma: c.gamma, Delta: 2, Init: init}
		got, err := r.Track(data)
		if err != nil {
			t.Fatal(err)
		}
		d := c.d
		for n := 1; n <= T; n++ {
			G := mat.NewSymDense(d, nil)
			b := make([]float64, d)
			f := math.Pow(c.gamma, float64(n))
			for i := 0; i < d; i++ {
				G.SetSym(i, i, r.Delta*f)
				b[i] = r.Delta * f * init[i]
			}
			for m := 1; m <= n; m++ {
				wt := math.Pow(c.gamma, float64(n-m))
				x := data.X[(m-1)*d : m*d]
				for i := 0; i < d; i++ {
					for j := i; j < d; j++ {
						G.SetSym(i, j, G.At(i, j)+wt*x[i]*x[j])
					}
					b[i] += wt * x[i] * data.Y[m-1]
				}
			}
			var ch mat.Cholesky
			if !ch.Factorize(G) {
				t.Fatal("weighted Gram matrix not positive definite")
			}
			w := mat.NewVecDense(d, nil)
			if err := ch.SolveVecTo(w, mat.NewVecDense(d, b)); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < d; i++ {
				if math.Abs(got[(n-1)*d+i]-w.AtVec(i)) > 1e-9*math.Max(1, math.Abs(w.AtVec(i))) {
					t.Fatalf("d=%d γ=%g n=%d: ŵ[%d] = %.12g, batch %.12g", d, c.gamma, n, i, got[(n-1)*d+i], w.AtVec(i))
				}
			}
		}
	}
	if _, err := (RLS{Gamma: 0, Delta: 1}).Track(Data{X: []float64{1}, Y: []float64{1}, D: 1}); err == nil {
		t.Error("γ = 0 accepted")
	}
}

// TestFilterAtFixedPrecisions checks vkF's Kalman steps: under priors so
// sharp that q(λ) and q(ψ_y) cannot move, its estimate of w_n is the
// filtered mean, which is the last smoothed mean of vkS's smoother on the
// prefix y_{1:n} at the same precisions.
func TestFilterAtFixedPrecisions(t *testing.T) {
	const lambda, psi, a = 300.0, 40.0, 1e15
	for _, d := range []int{1, 2} {
		T := 30
		data, _ := simulate(rand.New(rand.NewPCG(8, uint64(d))), T, d, lambda, psi)
		prior := Prior{ALambda: a, BLambda: a / lambda, APsi: a, BPsi: a / psi, Zeta0: 2}
		set := Settings{InitLambda: lambda, InitPsi: psi}
		est, err := Filter{Window: 7, Iterations: 2}.Track(data, prior, set)
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= T; n++ {
			m, err := NewVB(Data{X: data.X[:n*d], Y: data.Y[:n], D: d}, prior, set)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.E(); err != nil {
				t.Fatal(err)
			}
			last := m.Last(nil)
			for i := 0; i < d; i++ {
				if g := est.W[(n-1)*d+i]; math.Abs(g-last[i]) > 1e-8 {
					t.Fatalf("d=%d n=%d: vkF ŵ[%d] = %.12g, filtered mean %.12g", d, n, i, g, last[i])
				}
			}
			if math.Abs(est.Lambda[n-1]/lambda-1) > 1e-8 {
				t.Fatalf("d=%d n=%d: ⟨λ⟩ = %g moved from %g", d, n, est.Lambda[n-1], lambda)
			}
		}
	}
}

// TestSmootherWholeWindow checks Smoother.Track: with a window longer than
// the data its last estimate is the last smoothed mean of vkS run on all
// the data from its start, and every estimate is that of a run on the
// prefix, so it never reads a later output.
func TestSmootherWholeWindow(t *testing.T) {
	T := 30
	data, _ := simulate(rand.New(rand.NewPCG(4, 4)), T, 1, 200, 50)
	set := vb.Settings{MaxIterations: 2000, RelTol: 1e-12, AbsTol: 1e-9}
	est, err := Smoother{Window: 100, VB: set}.Track(data, testPrior, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	cut := 20
	part, err := Smoother{Window: 100, VB: set}.Track(Data{X: data.X[:cut], Y: data.Y[:cut], D: 1}, testPrior, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < cut; n++ {
		if est.W[n] != part.W[n] {
			t.Fatalf("n=%d: estimate %g depends on later outputs (%g on the prefix)", n+1, est.W[n], part.W[n])
		}
	}
	m, err := NewVB(data, testPrior, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if r := vb.Run(m, set); r.Error() != nil {
		t.Fatal(r.Error())
	}
	// Different starts, the same fixed point (to the stop rule's accuracy).
	if got, want := est.W[T-1], m.Last(nil)[0]; math.Abs(got-want) > 1e-4*math.Max(1, math.Abs(want)) {
		t.Errorf("last estimate %.10g, vkS on all the data %.10g", got, want)
	}
}

// TestFilterKnownPrecisions: with both precisions known the filter is the
// Kalman filter at them, whatever its window: its estimates equal those of
// the sharp-prior run of TestFilterAtFixedPrecisions's kind.
func TestFilterKnownPrecisions(t *testing.T) {
	const lambda, psi, a = 300.0, 40.0, 1e15
	data, _ := simulate(rand.New(rand.NewPCG(8, 3)), 50, 2, lambda, psi)
	known, err := Filter{Window: 3}.Track(data, testPrior, Settings{KnownLambda: lambda, KnownPsi: psi})
	if err != nil {
		t.Fatal(err)
	}
	sharp := Prior{ALambda: a, BLambda: a / lambda, APsi: a, BPsi: a / psi, Zeta0: testPrior.Zeta0}
	want, err := Filter{Window: 20}.Track(data, sharp, Settings{InitLambda: lambda, InitPsi: psi})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range known.W {
		if math.Abs(v-want.W[i]) > 1e-8 {
			t.Fatalf("estimate %d: %.12g, sharp priors %.12g", i, v, want.W[i])
		}
	}
}
