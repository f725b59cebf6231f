package numeric

import (
	"errors"
	"math"
	"testing"
)

func TestIntegrateClosedForms(t *testing.T) {
	for _, c := range []struct {
		name   string
		f      func(float64) float64
		breaks []float64
		want   float64
	}{
		// The 15-point Kronrod rule is exact for polynomials of degree 22.
		{"x^22 on [0,1]", func(x float64) float64 { return math.Pow(x, 22) }, []float64{0, 1}, 1.0 / 23},
		{"Gaussian on [-40,40]", func(x float64) float64 { return math.Exp(-x * x / 2) }, []float64{-40, 0, 40}, math.Sqrt(2 * math.Pi)},
		{"e^-x on [0,50]", func(x float64) float64 { return math.Exp(-x) }, []float64{0, 50}, 1 - math.Exp(-50)},
		// A kink at 1/3 that the breaks do not mark: the adaptive halving finds it.
		{"|x-1/3| on [0,1]", func(x float64) float64 { return math.Abs(x - 1.0/3) }, []float64{0, 1}, (1.0/9 + 4.0/9) / 2},
		{"1/sqrt(x) on [1e-12,1]", func(x float64) float64 { return 1 / math.Sqrt(x) }, []float64{1e-12, 1}, 2 - 2e-6},
	} {
		v, e, err := Integrate(c.f, c.breaks, 1e-12, 1e-12, 2000)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if math.Abs(v-c.want) > 1e-10*math.Max(1, math.Abs(c.want)) {
			t.Errorf("%s = %.15g (error estimate %.3g), want %.15g", c.name, v, e, c.want)
		}
	}
}

func TestIntegrateErrors(t *testing.T) {
	if _, _, err := Integrate(math.Sin, []float64{0}, 1e-9, 0, 10); err == nil {
		t.Error("one break: no error")
	}
	if _, _, err := Integrate(math.Sin, []float64{1, 0}, 1e-9, 0, 10); err == nil {
		t.Error("decreasing breaks: no error")
	}
	if _, _, err := Integrate(func(float64) float64 { return math.NaN() }, []float64{0, 1}, 1e-9, 0, 10); err == nil {
		t.Error("NaN integrand: no error")
	}
	// sin(1/x) near 0 cannot be integrated to 1e-14 in 5 intervals.
	_, _, err := Integrate(func(x float64) float64 { return math.Sin(1 / x) }, []float64{1e-3, 1}, 1e-14, 0, 5)
	if !errors.Is(err, ErrQuadLimit) {
		t.Errorf("oscillating integrand with 5 intervals: error %v, want ErrQuadLimit", err)
	}
}
