package is

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGaussianWeightVarianceClosedForm checks eq. (4.121) at values worked
// by hand: var = 1/√(ρ(2−ρ)) − 1 with ρ = ν_q/ν_p, so ρ = 1 gives 0 and
// ρ = 1/2 and ρ = 3/2 both give 2/√3 − 1.
func TestGaussianWeightVarianceClosedForm(t *testing.T) {
	want := 2/math.Sqrt(3) - 1
	cases := []struct{ nuP, nuQ, want float64 }{
		{1, 1, 0},
		{5, 5, 0},
		{2, 1, want},
		{1, 1.5, want},
		{10, 15, want}, // only the ratio matters
		{1, 0.19, 1/math.Sqrt(0.19*1.81) - 1},
		{1, 1.99, 1/math.Sqrt(1.99*0.01) - 1},
	}
	for _, c := range cases {
		if got := GaussianWeightVariance(c.nuP, c.nuQ); !relClose(got, c.want, 1e-14) {
			t.Errorf("var(ω; ν_p=%v, ν_q=%v) = %v, want %v", c.nuP, c.nuQ, got, c.want)
		}
	}
	// Infinite iff 2ν_p ≤ ν_q.
	for _, nuQ := range []float64{2, 2.0000001, 3, 1e6} {
		if got := GaussianWeightVariance(1, nuQ); !math.IsInf(got, 1) {
			t.Errorf("ν_q/ν_p = %v: var = %v, want +Inf", nuQ, got)
		}
	}
	// E[ω] = 1 for every proposal; E[ω⁴] is finite iff ρ < 4/3.
	if got := GaussianWeightMoment(1, 1, 1.9); !relClose(got, 1, 1e-15) {
		t.Errorf("E[ω] = %v, want 1", got)
	}
	if !math.IsInf(GaussianWeightMoment(4, 3, 4), 1) || math.IsInf(GaussianWeightMoment(4, 3, 3.99), 0) {
		t.Error("E[ω⁴] not finite exactly for ν_q/ν_p < 4/3")
	}
	for name, f := range map[string]func(){
		"ν_p = 0":  func() { GaussianWeightVariance(0, 1) },
		"ν_q < 0":  func() { GaussianWeightVariance(1, -1) },
		"ν_q NaN":  func() { GaussianWeightVariance(1, math.NaN()) },
		"k < 1":    func() { GaussianWeightMoment(0.5, 1, 1) },
		"MC n = 1": func() { GaussianWeightVarianceMC(1, 1, 1, rand.New(rand.NewPCG(1, 1))) },
	} {
		if !panics(f) {
			t.Errorf("%s: no panic", name)
		}
	}
}

// TestGaussianWeightVarianceMC compares eq. (4.121) with Monte Carlo where
// the sample variance has finite variance itself (ρ < 4/3, where E[ω⁴] is
// finite). Its standard error is √((μ₄ − σ⁴)/n), with the central fourth
// moment μ₄ = E[ω⁴] − 4E[ω³] + 6E[ω²] − 3 (E[ω] = 1) from the closed-form
// moments. The bound is 4 SE because four ratios are tested and the sample
// variance is right-skewed near ρ = 4/3.
func TestGaussianWeightVarianceMC(t *testing.T) {
	const n = 400000
	rnd := rand.New(rand.NewPCG(40, 1))
	for _, ratio := range []float64{0.3, 0.7, 1.15, 1.3} {
		nuP := 2.5
		nuQ := ratio * nuP
		want := GaussianWeightVariance(nuP, nuQ)
		m := func(k float64) float64 { return GaussianWeightMoment(k, nuP, nuQ) }
		mu4 := m(4) - 4*m(3) + 6*m(2) - 3
		se := math.Sqrt((mu4 - want*want) / n)
		got := GaussianWeightVarianceMC(nuP, nuQ, n, rnd)
		t.Logf("ρ = %v: var %v, MC %v, SE %v", ratio, want, got, se)
		if math.Abs(got-want) > 4*se {
			t.Errorf("ρ = %v: MC variance %v, eq. (4.121) %v, SE %v", ratio, got, want, se)
		}
	}
	// With q = p every weight is 1 up to rounding.
	if got := GaussianWeightVarianceMC(3, 3, 1000, rnd); got > 1e-25 {
		t.Errorf("ρ = 1: MC variance %v, want 0", got)
	}
}

// TestHazardCurve checks the figure data: the closed form at each ratio, +Inf
// from 2 on, and Monte Carlo values equal to separate calls on the same
// stream, finite and positive on both sides of 2.
func TestHazardCurve(t *testing.T) {
	ratios := []float64{0.5, 1, 1.5, 2, 2.5}
	exact, mc := HazardCurve(ratios, 2000, rand.New(rand.NewPCG(41, 1)))
	if len(exact) != len(ratios) || len(mc) != len(ratios) {
		t.Fatalf("lengths %d, %d, want %d", len(exact), len(mc), len(ratios))
	}
	rnd := rand.New(rand.NewPCG(41, 1))
	for i, r := range ratios {
		if w := GaussianWeightVariance(1, r); exact[i] != w && !(math.IsInf(w, 1) && math.IsInf(exact[i], 1)) {
			t.Errorf("ratio %v: exact %v, want %v", r, exact[i], w)
		}
		if w := GaussianWeightVarianceMC(1, r, 2000, rnd); mc[i] != w {
			t.Errorf("ratio %v: MC %v, separate call %v", r, mc[i], w)
		}
		if r != 1 && !(mc[i] > 0 && !math.IsInf(mc[i], 0)) {
			t.Errorf("ratio %v: MC %v not finite and positive", r, mc[i])
		}
	}
	if !math.IsInf(exact[3], 1) || !math.IsInf(exact[4], 1) {
		t.Errorf("exact %v not +Inf from ratio 2", exact)
	}
}
