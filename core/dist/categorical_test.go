package dist

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestCategorical(t *testing.T) {
	c, lse := CategoricalFromLog([]float64{-1000, -1000 + math.Log(3), math.Inf(-1)})
	if want := -1000 + math.Log(4); math.Abs(lse-want) > 1e-12 {
		t.Errorf("log normaliser %v, want %v", lse, want)
	}
	var s float64
	for _, p := range c.P {
		s += p
	}
	if math.Abs(s-1) > 1e-15 {
		t.Errorf("probabilities sum to %v", s)
	}
	// −1000 + ln 3 is rounded to the ulp of 1000 (1.1e-13), which moves P
	// by about 1e-14; hence the tolerance.
	if math.Abs(c.P[0]-0.25) > 1e-13 || math.Abs(c.P[1]-0.75) > 1e-13 || c.P[2] != 0 {
		t.Errorf("P = %v, want (¼, ¾, 0)", c.P)
	}
	// H(¼, ¾, 0) with 0 ln 0 = 0.
	if got, want := c.Entropy(), -(0.25*math.Log(0.25) + 0.75*math.Log(0.75)); math.Abs(got-want) > 1e-13 {
		t.Errorf("Entropy = %v, want %v", got, want)
	}
	for k := 1; k <= 8; k++ {
		u, _ := CategoricalFromLog(make([]float64, k))
		if got, want := u.Entropy(), math.Log(float64(k)); math.Abs(got-want) > 1e-15 {
			t.Errorf("entropy of uniform(%d) = %v, want ln K", k, got)
		}
	}
	if !math.IsInf(c.LogProb(2), -1) || !math.IsInf(c.LogProb(3), -1) || math.Abs(c.LogProb(1)-math.Log(0.75)) > 1e-13 {
		t.Errorf("LogProb: %v %v %v", c.LogProb(1), c.LogProb(2), c.LogProb(3))
	}
	// Frequencies of Rand within 4 standard errors.
	rnd := rand.New(rand.NewPCG(1, 1))
	const n = 100000
	var counts [3]int
	for i := 0; i < n; i++ {
		counts[c.Rand(rnd)]++
	}
	for j, p := range c.P {
		f := float64(counts[j]) / n
		se := math.Sqrt(p * (1 - p) / n)
		if math.Abs(f-p) > 4*se {
			t.Errorf("frequency of %d = %v, want %v ± %v", j, f, p, se)
		}
	}
	for name, fn := range map[string]func(){
		"empty":   func() { CategoricalFromLog(nil) },
		"all −∞":  func() { CategoricalFromLog([]float64{math.Inf(-1), math.Inf(-1)}) },
		"NaN":     func() { CategoricalFromLog([]float64{0, math.NaN()}) },
		"+∞ mass": func() { CategoricalFromLog([]float64{0, math.Inf(1)}) },
	} {
		if !panics(fn) {
			t.Errorf("%s: no panic", name)
		}
	}
}
