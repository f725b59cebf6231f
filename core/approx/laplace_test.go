package approx

import (
	"math"
	"testing"
)

// TestLaplaceNewtonAndFallback checks Laplace's two mode searches: on the
// log-concave logistic posterior Newton's method reaches the mode (every
// |∂ ln p̃/∂w_i| ≤ 1e-10) in few steps and agrees with gonum's Newton to
// the accuracy of its stop; on ln p̃ = −(x² − 1)² from x = 0.1, where
// −∇∇ ln p̃ < 0, it falls back to gonum and still finds a mode, ±1, with
// A = 8 (ln Z = ½ ln 2π − ½ ln 8).
func TestLaplaceNewtonAndFallback(t *testing.T) {
	xs := [][]float64{{1, 0.5}, {1, -1}, {1, 2}, {1, 0.1}, {1, -0.3}, {1, 1.2}}
	ts := []int{1, 0, 1, 0, 1, 0}
	f := LogisticJoint(xs, ts, 0.5)
	r, err := Laplace(f, []float64{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	g := make([]float64, 2)
	f.Grad(g, r.Q.Mean)
	for i, v := range g {
		if !(math.Abs(v) <= laplaceGradTol) {
			t.Errorf("∂ ln p̃/∂w_%d = %v at the mode", i, v)
		}
	}
	if r.Iterations > 10 {
		t.Errorf("%d Newton steps", r.Iterations)
	}
	want, _, err := gonumMode(f, f.Grad, []float64{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		near(t, "mode", r.Q.Mean[i], want[i], 1e-8)
	}

	dw := Func{
		LogP: func(x []float64) float64 { return -(x[0]*x[0] - 1) * (x[0]*x[0] - 1) },
		Grad: func(dst, x []float64) { dst[0] = -4 * x[0] * (x[0]*x[0] - 1) },
		Hess: func(dst, x []float64) { dst[0] = 4 - 12*x[0]*x[0] },
	}
	if _, _, ok := newtonMode(dw, []float64{0.1}, make([]float64, 1)); ok {
		t.Error("Newton's method took an indefinite Hessian")
	}
	r, err = Laplace(dw, []float64{0.1})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "double well |mode|", math.Abs(r.Q.Mean[0]), 1, 1e-9)
	near(t, "double well ln Z", r.LnZ, 0.5*math.Log(2*math.Pi)-0.5*math.Log(8), 1e-8)
}
