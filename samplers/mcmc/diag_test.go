package mcmc

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ar1 returns n values of x_t = φ x_{t−1} + √(1−φ²) ε_t started in its
// stationary law N(0, 1).
func ar1(phi float64, n int, rnd *rand.Rand) []float64 {
	x := make([]float64, n)
	x[0] = rnd.NormFloat64()
	c := math.Sqrt(1 - phi*phi)
	for t := 1; t < n; t++ {
		x[t] = phi*x[t-1] + c*rnd.NormFloat64()
	}
	return x
}

// The integrated autocorrelation time of an AR(1) chain is
// τ = (1+φ)/(1−φ). With n = 200000 the estimator's relative error is a few
// per cent (about τ√(2(2K+1)/n) for K lags); the band is 12 %.
func TestESSAgainstAR1(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 5))
	const n = 200000
	for _, phi := range []float64{0, 0.5, 0.9, 0.97} {
		x := ar1(phi, n, rnd)
		want := (1 + phi) / (1 - phi)
		if got := IntegratedTime(x); math.Abs(got/want-1) > 0.12 {
			t.Errorf("φ = %g: τ̂ = %.3f, want %.3f within 12%%", phi, got, want)
		}
	}
	// Pooled over four chains the ESS is about 4n/τ.
	var cs [][]float64
	for range 4 {
		cs = append(cs, ar1(0.8, n/4, rnd))
	}
	if got, want := ESSChains(cs), float64(n)/9; math.Abs(got/want-1) > 0.12 {
		t.Errorf("four AR(0.8) chains: ESS %.0f, want %.0f within 12%%", got, want)
	}
}

// ESS of a chain whose values are a shifted copy of another is the same,
// and a constant chain or a too short one is handled.
func TestESSEdgeCases(t *testing.T) {
	x := ar1(0.5, 1000, rand.New(rand.NewPCG(1, 1)))
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = 3*v + 7
	}
	if a, b := ESS(x), ESS(y); math.Abs(a-b) > 1e-9*a {
		t.Errorf("ESS not affine invariant: %g, %g", a, b)
	}
	if e := ESS([]float64{2, 2, 2, 2, 2}); e != 1 {
		t.Errorf("constant chain ESS %g, want 1", e)
	}
	if r := SplitRHat([][]float64{{2, 2, 2, 2}, {2, 2, 2, 2}}); !math.IsNaN(r) {
		t.Errorf("constant chains R̂ %g, want NaN", r)
	}
	if r := SplitRHat([][]float64{{2, 2, 2, 2}, {3, 3, 3, 3}}); !math.IsInf(r, 1) {
		t.Errorf("two different constant chains R̂ %g, want +Inf", r)
	}
	if !math.IsNaN(ESS([]float64{1, 2, 3})) || !math.IsNaN(SplitRHat([][]float64{{1, 2, 3}})) {
		t.Error("too short a chain gave a number")
	}
}

// R̂ is about 1 for chains of the same law and far above 1 for HMC chains
// stuck in the two separate modes of a mixture.
func TestSplitRHat(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 9))
	var iid [][]float64
	for range 4 {
		iid = append(iid, ar1(0.3, 2000, rnd))
	}
	if r := SplitRHat(iid); !(r < 1.01) {
		t.Errorf("R̂ = %.4f for chains of one law, want < 1.01", r)
	}
	tm := twoModes{mu: 8}
	res, err := Chains(4, 0, 5, []string{"modes"}, func(c int, rnd *rand.Rand) ([]float64, error) {
		h := &HMC{Target: tm, Steps: 10, StepSize: fixed(0.2)}
		x0 := 8.0
		if c%2 == 1 {
			x0 = -8
		}
		xs, _ := trace(h, []float64{x0}, Plan{Burn: 100, Keep: 2000}, rnd)
		return xs[0], nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if r := SplitRHat(res); !(r > 3) {
		t.Errorf("R̂ = %.3f for chains in separate modes, want > 3", r)
	}
	// A drifting single chain fails split-R̂ too.
	drift := make([]float64, 2000)
	for i := range drift {
		drift[i] = float64(i)/200 + rnd.NormFloat64()
	}
	if r := SplitRHat([][]float64{drift}); !(r > 1.5) {
		t.Errorf("R̂ = %.3f for a drifting chain, want > 1.5", r)
	}
}
