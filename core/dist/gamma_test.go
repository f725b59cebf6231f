package dist

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/vbworkbench/vbw/core/numeric"
)

func TestGammaGolden(t *testing.T) {
	// Golden values of ../shared/targets/ch3-hmm.md §0.2 (mpmath, 30 digits;
	// the first KL agrees with quadrature).
	for _, c := range []struct {
		q, p Gamma
		want float64
	}{
		{NewGammaShapeRate(2, 3), NewGammaShapeRate(1, 1), 0.1880632904332435},
		{NewGammaShapeRate(0.5, 0.1), NewGammaShapeRate(3, 2), 5.5423604820268309},
	} {
		if got := KLGamma(c.q, c.p); !(relErr(got, c.want) <= 1e-12) {
			t.Errorf("KLGamma(%v, %v) = %.17g, want %.17g (rel %.3g)", c.q, c.p, got, c.want, relErr(got, c.want))
		}
	}
	if got, want := NewGammaShapeRate(2, 3).Entropy(), 0.47860337623342317; !(relErr(got, want) <= 1e-12) {
		t.Errorf("H(Ga(2,3)) = %.17g, want %.17g", got, want)
	}
}

func TestGammaMoments(t *testing.T) {
	g := NewGammaShapeRate(2.5, 4)
	if g.Mean() != 2.5/4 || g.Variance() != 2.5/16 {
		t.Errorf("Mean %v, Variance %v", g.Mean(), g.Variance())
	}
	if got, want := g.MeanLog(), numeric.Digamma(2.5)-math.Log(4); got != want {
		t.Errorf("MeanLog = %v, want ψ(a) − ln b = %v", got, want)
	}
}

func TestGammaLogProbGonum(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 11))
	for i := 0; i < 200; i++ {
		a, b := logUniform(rnd, 0.05, 100), logUniform(rnd, 0.01, 100)
		g := NewGammaShapeRate(a, b)
		x := g.Rand(rnd)
		want := distuv.Gamma{Alpha: a, Beta: b}.LogProb(x)
		if got := g.LogProb(x); math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
			t.Errorf("Ga(%g, %g).LogProb(%g) = %.15g, distuv %.15g", a, b, x, got, want)
		}
	}
	if v := NewGammaShapeRate(2, 1).LogProb(-1); !math.IsInf(v, -1) {
		t.Errorf("LogProb(−1) = %v, want −Inf", v)
	}
}

func TestGammaFitFromMoments(t *testing.T) {
	// Beal (2003) Appendix C.2: with c = ψ(a*) − ln b*, d = a*/b* the fixed
	// point (C.9) is a*, and (C.12) gives b*. The multiplicative steps (C.11)
	// must keep a > 0 from any start.
	for _, aStar := range []float64{0.01, 1, 100} {
		for _, bStar := range []float64{0.03, 1, 250} {
			truth := NewGammaShapeRate(aStar, bStar)
			c, d := truth.MeanLog(), truth.Mean()
			for _, start := range []float64{1e-3, 1e3, 0} { // 0 means the default start 1
				var iters []float64
				a, ok := fitGammaShape(start, c-math.Log(d), func(a float64) { iters = append(iters, a) })
				if !ok {
					t.Errorf("a*=%g b*=%g start=%g: no convergence", aStar, bStar, start)
					continue
				}
				for _, v := range iters {
					if !(v > 0) || math.IsInf(v, 0) {
						t.Errorf("a*=%g start=%g: iterate %v not positive and finite", aStar, start, v)
					}
				}
				fit, ok := Gamma{Alpha: start}.FitFromMoments(c, d)
				if !ok || fit.Alpha != a {
					t.Errorf("FitFromMoments = %v, %v; fitGammaShape = %v", fit, ok, a)
				}
				if relErr(fit.Alpha, aStar) > 1e-9 || relErr(fit.Beta, bStar) > 1e-9 {
					t.Errorf("a*=%g b*=%g start=%g: fitted (%.15g, %.15g) after %d steps", aStar, bStar, start, fit.Alpha, fit.Beta, len(iters))
				}
			}
		}
	}
	// Pooled moments of several precisions (C.8): the fit satisfies (C.7),
	// ψ(a) = ln b + c and 1/b = d/a.
	qs := []Gamma{NewGammaShapeRate(3, 2), NewGammaShapeRate(10, 1), NewGammaShapeRate(0.5, 0.2)}
	var c, d float64
	for _, q := range qs {
		c += q.MeanLog() / 3
		d += q.Mean() / 3
	}
	fit, ok := Gamma{}.FitFromMoments(c, d)
	if !ok {
		t.Fatal("FitFromMoments of pooled moments failed")
	}
	if e := math.Abs(numeric.Digamma(fit.Alpha) - math.Log(fit.Beta) - c); e > 1e-12 {
		t.Errorf("ψ(a) − ln b − c = %g", e)
	}
	if relErr(fit.Mean(), d) > 1e-14 {
		t.Errorf("a/b = %v, want d = %v", fit.Mean(), d)
	}
	// No solution when Jensen's inequality c < ln d fails.
	for _, cd := range [][2]float64{{0, 1}, {0.1, 1}, {0, 0}, {0, -1}, {math.NaN(), 1}} {
		if _, ok := (Gamma{}).FitFromMoments(cd[0], cd[1]); ok {
			t.Errorf("FitFromMoments(%v, %v) ok, want false", cd[0], cd[1])
		}
	}
}

func TestGammaPanics(t *testing.T) {
	for name, fn := range map[string]func(){
		"zero shape":    func() { NewGammaShapeRate(0, 1) },
		"negative rate": func() { NewGammaShapeRate(1, -1) },
		"Inf shape":     func() { NewGammaShapeRate(math.Inf(1), 1) },
		"Rand invalid":  func() { Gamma{Alpha: 1}.Rand(rand.New(rand.NewPCG(1, 1))) },
		"FromNatural":   func() { NewGammaShapeRate(1, 1).FromNatural([]float64{-1, -1}) },
	} {
		if !panics(fn) {
			t.Errorf("%s: no panic", name)
		}
	}
}

// refLogGamma is the log-domain gamma draw written out in one piece
// (Marsaglia & Tsang, boosted below shape 1), the reference of
// TestLogGammaSamplerParts.
func refLogGamma(shape float64, rnd *rand.Rand) float64 {
	a, boost := shape, 0.0
	if shape < 1 {
		a++
		boost = math.Log(1-rnd.Float64()) / shape
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rnd.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rnd.Float64()
		x2 := x * x
		if u < 1-0.0331*x2*x2 || math.Log(u) < 0.5*x2+d*(1-v+math.Log(v)) {
			r := math.Log(d) + math.Log(v)
			if shape < 1 {
				r += boost
			}
			return r
		}
	}
}

// TestLogGammaSamplerParts checks that Rand, and FromLogV of RandV's parts
// with the logarithms taken by numeric.LogTo over many draws, give
// refLogGamma's draws bit for bit from the same stream, and that
// NewLogGammaSamplers builds NewLogGammaSampler's samplers bit for bit.
func TestLogGammaSamplerParts(t *testing.T) {
	shapes := []float64{1e-290, 1e-6, 0.3, 0.999, 1, 2.5, 7.9, 2500, 1e7}
	rnd := rand.New(rand.NewPCG(7, 3))
	for range 200 {
		shapes = append(shapes, math.Exp(30*(rnd.Float64()-0.5)))
	}
	gs, work := make([]LogGammaSampler, len(shapes)), make([]float64, len(shapes))
	NewLogGammaSamplers(gs, shapes, work)
	for i, a := range shapes {
		if g := NewLogGammaSampler(a); g != gs[i] || math.Float64bits(g.lnd) != math.Float64bits(gs[i].lnd) {
			t.Fatalf("shape %v: NewLogGammaSamplers %+v, NewLogGammaSampler %+v", a, gs[i], g)
		}
	}
	r1, r2, r3 := rand.New(rand.NewPCG(7, 4)), rand.New(rand.NewPCG(7, 4)), rand.New(rand.NewPCG(7, 4))
	v, tt, lnv := make([]float64, len(gs)), make([]float64, len(gs)), make([]float64, len(gs))
	for round := range 50 {
		for i, g := range gs {
			v[i], tt[i] = g.RandV(r2)
		}
		numeric.LogTo(lnv, v)
		for i, g := range gs {
			want := refLogGamma(shapes[i], r1)
			if got := g.Rand(r3); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("round %d, shape %v: Rand %v, reference %v", round, shapes[i], got, want)
			}
			if got := g.FromLogV(lnv[i], tt[i]); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("round %d, shape %v: FromLogV %v, reference %v", round, shapes[i], got, want)
			}
		}
	}
}

// TestLogGammaSampler checks that one LogGammaSampler reused for many
// draws gives RandLogGamma's draws bit for bit (shapes below and above 1,
// where it boosts and where it does not), that the draws have the mean
// ψ(a) of ln G within 4 standard errors (sd of ln G is √ψ′(a)), and that it
// panics on invalid shapes.
func TestLogGammaSampler(t *testing.T) {
	for _, a := range []float64{1e-6, 0.3, 1, 2.5, 2500} {
		g := NewLogGammaSampler(a)
		r1, r2 := rand.New(rand.NewPCG(7, 1)), rand.New(rand.NewPCG(7, 1))
		const n = 20000
		var sum float64
		for i := 0; i < n; i++ {
			x, y := g.Rand(r1), RandLogGamma(a, r2)
			if math.Float64bits(x) != math.Float64bits(y) {
				t.Fatalf("shape %v, draw %d: %v, RandLogGamma %v", a, i, x, y)
			}
			sum += x
		}
		if se := math.Sqrt(numeric.Trigamma(a) / n); math.Abs(sum/n-numeric.Digamma(a)) > 4*se {
			t.Errorf("shape %v: mean ln G %v, want ψ(a) = %v ± %v", a, sum/n, numeric.Digamma(a), se)
		}
	}
	for _, a := range []float64{0, -1, math.Inf(1), math.NaN()} {
		if !panics(func() { NewLogGammaSampler(a) }) {
			t.Errorf("shape %v: no panic", a)
		}
	}
}
