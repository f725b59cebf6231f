package supersmooth_test

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/model/supersmooth"
	"github.com/vbworkbench/vbw/core/vb"
)

// TestLWRLOOClosedForm checks the closed-form leave-one-out error of the
// linear smoother against N refits without each point, at bandwidths from
// nearly global to a few points per kernel.
func TestLWRLOOClosedForm(t *testing.T) {
	x, y := wiggly(5, 80, 0, 1)
	l, err := supersmooth.NewLWR(x, y)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []float64{1e-3, 1, 100, 1e4, 1e5} {
		closed, brute := l.LOO(h), l.LOOBrute(h)
		if math.Abs(closed-brute) > 1e-9*brute {
			t.Errorf("h = %g: closed-form LOO %.15g, refits %.15g", h, closed, brute)
		}
	}
}

// TestLWRGlobalLimit: as h → 0 every weight is 1 and LWR is ordinary least
// squares, whose line is known in closed form.
func TestLWRGlobalLimit(t *testing.T) {
	x, y := wiggly(6, 50, -1, 1)
	l, err := supersmooth.NewLWR(x, y)
	if err != nil {
		t.Fatal(err)
	}
	var mx, my, sxx, sxy float64
	for i := range x {
		mx += x[i] / 50
		my += y[i] / 50
	}
	for i := range x {
		sxx += (x[i] - mx) * (x[i] - mx)
		sxy += (x[i] - mx) * (y[i] - my)
	}
	for _, xq := range []float64{-0.5, 0.3, 2} {
		want := my + sxy/sxx*(xq-mx)
		got, err := l.Predict(xq, 1e-14)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-10 {
			t.Errorf("x_q = %g: LWR at h → 0 gives %.15g, least squares %.15g", xq, got, want)
		}
	}
}

// TestSmoothWorkersAgree: the fits do not depend on the number of workers,
// and the leave-one-out fit at x_i equals FitQuery without point i.
func TestSmoothWorkersAgree(t *testing.T) {
	x, y := wiggly(7, 40, 0, 1)
	run := vb.Settings{MaxIterations: 3000, AbsTol: 1e-8}
	one, err := supersmooth.Smooth(x, y, x, true, supersmooth.TextPrior(), supersmooth.Settings{}, run, 1)
	if err != nil {
		t.Fatal(err)
	}
	two, err := supersmooth.Smooth(x, y, x, true, supersmooth.TextPrior(), supersmooth.Settings{}, run, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range one {
		if one[i] != two[i] {
			t.Fatalf("query %d: one worker %+v, two %+v", i, one[i], two[i])
		}
	}
	xs := append(append([]float64(nil), x[:5]...), x[6:]...)
	ys := append(append([]float64(nil), y[:5]...), y[6:]...)
	f, err := supersmooth.FitQuery(xs, ys, x[5], -1, supersmooth.TextPrior(), supersmooth.Settings{}, run)
	if err != nil {
		t.Fatal(err)
	}
	if f != one[5] {
		t.Errorf("leave-one-out fit %+v, direct fit without the point %+v", one[5], f)
	}
}
