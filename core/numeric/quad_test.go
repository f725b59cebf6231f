package numeric

import (
	"math"
	"testing"
)

// TestIntegrateClosedForms checks the adaptive rule on integrals with closed
// forms, including a peak of width 0.01 that a fixed rule misses and an
// integrable singularity at an end point.
func TestIntegrateClosedForms(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func(float64) float64
		a, b float64
		want float64
	}{
		{"gaussian", func(x float64) float64 { return math.Exp(-x * x / 2) }, -40, 40, math.Sqrt(2 * math.Pi)},
		{"x^4 gaussian", func(x float64) float64 { return x * x * x * x * math.Exp(-x*x/2) }, -40, 40, 3 * math.Sqrt(2*math.Pi)},
		{"peak", func(x float64) float64 { return 1 / (1e-4 + x*x) }, -1, 1, 200 * math.Atan(100)},
		{"log singular end", func(x float64) float64 { return math.Log(x) }, 0, 1, -1},
		{"sin", math.Sin, 0, math.Pi, 2},
		{"logistic", func(x float64) float64 { return 1 / (1 + math.Exp(-20*x-4)) * math.Exp(-x*x/2) }, -30, 30, 0},
	} {
		got, err := Integrate(c.f, c.a, c.b, QuadTol{})
		if c.name == "logistic" {
			// ∫ σ(20z+4) e^{−z²/2}: σ(u) + σ(−u) = 1 gives ∫ σ(20z) e^{−z²/2} = √(2π)/2
			// exactly; the shifted one must lie between that and √(2π).
			if err != nil || !(got > math.Sqrt(2*math.Pi)/2 && got < math.Sqrt(2*math.Pi)) {
				t.Errorf("%s: %v, %v", c.name, got, err)
			}
			continue
		}
		if err != nil || math.Abs(got-c.want) > 1e-10*math.Max(1, math.Abs(c.want)) {
			t.Errorf("%s: got %.15g (err %v), want %.15g", c.name, got, err, c.want)
		}
	}
	half, err := Integrate(func(x float64) float64 { return 1 / (1 + math.Exp(-20*x)) * math.Exp(-x*x/2) }, -30, 30, QuadTol{})
	if err != nil || math.Abs(half-math.Sqrt(2*math.Pi)/2) > 1e-11 {
		t.Errorf("symmetric logistic: %.15g, %v", half, err)
	}
}

// TestIntegrateVec2 checks the iterated rule on the moments of a correlated
// Gaussian: normaliser 2π√|Σ|, E[xy] = Σ₁₂.
func TestIntegrateVec2(t *testing.T) {
	s11, s12, s22 := 1.0, 0.8, 2.0
	det := s11*s22 - s12*s12
	got, err := IntegrateVec2(nil, 3, func(x, y float64, out []float64) {
		q := (s22*x*x - 2*s12*x*y + s11*y*y) / det
		p := math.Exp(-q / 2)
		out[0], out[1], out[2] = p, p*x*y, p*y*y
	}, [2]float64{-20, -20}, [2]float64{20, 20}, QuadTol{Rel: 1e-10})
	z := 2 * math.Pi * math.Sqrt(det)
	if err != nil || math.Abs(got[0]/z-1) > 1e-9 || math.Abs(got[1]/z-s12) > 1e-9 || math.Abs(got[2]/z-s22) > 1e-9 {
		t.Errorf("got %v (err %v), want Z=%v, E[xy]=%v, E[y²]=%v", got, err, z, s12, s22)
	}
}

// TestIntegrateLimit checks that an integral that cannot converge reports
// ErrQuadLimit rather than a silent number.
func TestIntegrateLimit(t *testing.T) {
	_, err := Integrate(func(x float64) float64 { return 1 / x }, -1, 1, QuadTol{MaxIntervals: 50})
	if err != ErrQuadLimit {
		t.Errorf("1/x over [−1, 1]: err %v, want ErrQuadLimit", err)
	}
}

// TestIntegrateBreaks: closed forms over intervals started at the breaks,
// a kink the breaks do not mark, and the refusals.
func TestIntegrateBreaks(t *testing.T) {
	for _, c := range []struct {
		name   string
		f      func(float64) float64
		breaks []float64
		want   float64
	}{
		// The 15-point Kronrod rule is exact for polynomials of degree 22.
		{"x^22 on [0,1]", func(x float64) float64 { return math.Pow(x, 22) }, []float64{0, 1}, 1.0 / 23},
		{"Gaussian on [-40,40]", func(x float64) float64 { return math.Exp(-x * x / 2) }, []float64{-40, -1, 0, 1, 40}, math.Sqrt(2 * math.Pi)},
		{"|x-1/3| on [0,1]", func(x float64) float64 { return math.Abs(x - 1.0/3) }, []float64{0, 1}, (1.0/9 + 4.0/9) / 2},
		{"1/sqrt(x) on [1e-12,1]", func(x float64) float64 { return 1 / math.Sqrt(x) }, []float64{1e-12, 1}, 2 - 2e-6},
	} {
		v, e, err := IntegrateBreaks(c.f, c.breaks, QuadTol{Abs: 1e-12, Rel: 1e-12, MaxIntervals: 2000})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if math.Abs(v-c.want) > 1e-10*math.Max(1, math.Abs(c.want)) {
			t.Errorf("%s = %.15g (error estimate %.3g), want %.15g", c.name, v, e, c.want)
		}
	}
	// The vector form: a normaliser and two moments of a Gaussian in one
	// pass, each with its error estimate.
	v, e, err := IntegrateVecBreaks(nil, 3, func(x float64, out []float64) {
		g := math.Exp(-(x-1)*(x-1)/8) / math.Sqrt(8*math.Pi)
		out[0], out[1], out[2] = g, x*g, x*x*g
	}, []float64{-60, -1, 1, 3, 60}, QuadTol{Abs: 1e-13, Rel: 1e-12})
	if err != nil || len(e) != 3 {
		t.Fatalf("moments of N(1, 4): %v, %d error estimates", err, len(e))
	}
	for i, want := range []float64{1, 1, 5} {
		if math.Abs(v[i]-want) > 1e-11 || !(e[i] <= 1e-11) {
			t.Errorf("moment %d of N(1, 4) = %.15g (error estimate %.3g), want %v", i, v[i], e[i], want)
		}
	}
	if _, _, err := IntegrateVecBreaks(nil, 1, func(x float64, out []float64) { out[0] = x }, []float64{0, 0}, QuadTol{}); err == nil {
		t.Error("IntegrateVecBreaks, equal breaks: no error")
	}
	if _, _, err := IntegrateBreaks(math.Sin, []float64{0}, QuadTol{}); err == nil {
		t.Error("one break: no error")
	}
	if _, _, err := IntegrateBreaks(math.Sin, []float64{1, 0}, QuadTol{}); err == nil {
		t.Error("decreasing breaks: no error")
	}
}
