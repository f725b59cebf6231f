package numeric

import (
	"math"
	"math/rand/v2"
	"testing"
)

// rosenbrock is Σ 100(x_{i+1} − x_i²)² + (1 − x_i)², minimum 0 at x = 1.
func rosenbrock(x, g []float64) float64 {
	var f float64
	if g != nil {
		clear(g)
	}
	for i := 0; i+1 < len(x); i++ {
		a, b := x[i+1]-x[i]*x[i], 1-x[i]
		f += 100*a*a + b*b
		if g != nil {
			g[i] += -400*a*x[i] - 2*b
			g[i+1] += 200 * a
		}
	}
	return f
}

func TestLBFGSRosenbrock(t *testing.T) {
	for _, n := range []int{2, 10, 50} {
		x := make([]float64, n)
		for i := range x {
			x[i] = -1.2
			if i%2 == 1 {
				x[i] = 1
			}
		}
		var m LBFGS
		m.GradTol = 1e-9
		res, err := m.Minimize(rosenbrock, x)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != GradientConverged {
			t.Errorf("n = %d: stopped by %v after %d iterations", n, res.Status, res.Iterations)
		}
		for i, xi := range x {
			if math.Abs(xi-1) > 1e-7 {
				t.Errorf("n = %d: x[%d] = %v, want 1", n, i, xi)
			}
		}
		if res.F != rosenbrock(x, nil) || res.F > 1e-14 {
			t.Errorf("n = %d: F = %v at the returned x (f there %v), want ≈ 0", n, res.F, rosenbrock(x, nil))
		}
	}
}

// A quadratic ½ xᵀAx − bᵀx with A SPD (λ_min ≥ 1): the minimum is A⁻¹b,
// found to the gradient tolerance 1e-6, so ‖x − x*‖ ≤ 1e-6/λ_min. (f is
// about −250 here, so a gradient much below 1e-6 moves f by less than its
// rounding, 250·2⁻⁵², and no line search can see the decrease.)
func TestLBFGSQuadratic(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 20
	l := make([]float64, n*n)
	for i := range l {
		l[i] = r.NormFloat64()
	}
	a := make([]float64, n*n) // A = LLᵀ + I
	for i := range n {
		for j := range n {
			for k := range n {
				a[i*n+j] += l[i*n+k] * l[j*n+k]
			}
		}
		a[i*n+i]++
	}
	want := make([]float64, n)
	for i := range want {
		want[i] = r.NormFloat64()
	}
	b := make([]float64, n) // b = A x*
	for i := range n {
		b[i] = Dot(a[i*n:(i+1)*n], want)
	}
	f := func(x, g []float64) float64 {
		var v float64
		for i := range n {
			ax := Dot(a[i*n:(i+1)*n], x)
			v += 0.5*x[i]*ax - b[i]*x[i]
			if g != nil {
				g[i] = ax - b[i]
			}
		}
		return v
	}
	var m LBFGS
	m.GradTol = 1e-6
	var first LBFGSResult
	for rep := range 2 {
		x := make([]float64, n)
		res, err := m.Minimize(f, x)
		if err != nil || res.Status != GradientConverged {
			g := make([]float64, n)
			f(x, g)
			t.Fatalf("rep %d: %v, %+v, x %v want %v, max grad %v", rep, err, res, x[:3], want[:3], maxAbs(g))
		}
		for i := range x {
			if math.Abs(x[i]-want[i]) > 1e-6 {
				t.Errorf("rep %d: x[%d] = %v, want %v", rep, i, x[i], want[i])
			}
		}
		if rep == 0 {
			first = res
		} else if res != first {
			t.Errorf("a reused minimiser gave %+v, the first %+v", res, first)
		}
	}
}

// Outside the domain (x ≤ 0 for −ln x + x) the objective is +Inf or NaN:
// the line search backs off and finds the minimum at 1.
func TestLBFGSDomain(t *testing.T) {
	for _, bad := range []float64{math.Inf(1), math.NaN()} {
		f := func(x, g []float64) float64 {
			if x[0] <= 0 {
				if g != nil {
					g[0] = math.NaN()
				}
				return bad
			}
			if g != nil {
				g[0] = -1/x[0] + 1
			}
			return -math.Log(x[0]) + x[0]
		}
		x := []float64{20}
		var m LBFGS
		res, err := m.Minimize(f, x)
		if err != nil || math.Abs(x[0]-1) > 1e-6 || res.F > 1+1e-12 {
			t.Errorf("bad = %v: x = %v, F = %v, err %v, status %v", bad, x[0], res.F, err, res.Status)
		}
	}
}

// A wrong gradient (the sign flipped) gives no descent: the minimiser
// stops with the line search stalled, at the start, never above f there.
func TestLBFGSWrongGradientStalls(t *testing.T) {
	f := func(x, g []float64) float64 {
		if g != nil {
			g[0] = -2 * (x[0] - 3)
		}
		return (x[0] - 3) * (x[0] - 3)
	}
	x := []float64{0}
	var m LBFGS
	res, err := m.Minimize(f, x)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != LineSearchStalled || x[0] != 0 || res.F != 9 {
		t.Errorf("status %v, x = %v, F = %v; want stalled at the start (0, 9)", res.Status, x[0], res.F)
	}
}

func TestLBFGSStops(t *testing.T) {
	x := []float64{-1.2, 1}
	m := LBFGS{MaxIterations: 3}
	res, err := m.Minimize(rosenbrock, x)
	if err != nil || res.Status != IterationLimit || res.Iterations != 3 {
		t.Errorf("MaxIterations 3: %v, %+v", err, res)
	}
	if res.F >= 24.2 || res.F != rosenbrock(x, nil) {
		t.Errorf("after 3 iterations F = %v (start 24.2), f at x %v", res.F, rosenbrock(x, nil))
	}
	// A flat function: f stalls at once.
	flat := func(x, g []float64) float64 {
		if g != nil {
			g[0] = 1e-3
		}
		return 5
	}
	m = LBFGS{}
	res, _ = m.Minimize(flat, []float64{0})
	if res.Status == GradientConverged || res.F != 5 {
		t.Errorf("flat: %+v", res)
	}
	if _, err := m.Minimize(func(x, g []float64) float64 { return math.NaN() }, []float64{0}); err != ErrLBFGSStart {
		t.Errorf("NaN at the start: err %v, want ErrLBFGSStart", err)
	}
}

func BenchmarkLBFGSRosenbrock(b *testing.B) {
	x := make([]float64, 20)
	var m LBFGS
	b.ReportAllocs()
	for b.Loop() {
		for i := range x {
			x[i] = -1.2 + float64(i%2)*2.2
		}
		m.Minimize(rosenbrock, x)
	}
}
