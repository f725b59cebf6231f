package ltu

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/rng"
)

// TestSVMKnownAnswer: two points per class on the diagonal; the maximum
// margin separator is w = (½, ½), b = 0 (margin 1/‖w‖ = √2, the distance
// of (1, 1) from the line x₁ + x₂ = 0), with (±1, ±1) the support vectors,
// α = ¼ each (w = Σ α y x = 2·¼·(1, 1)).
func TestSVMKnownAnswer(t *testing.T) {
	x := [][]float64{{1, 1}, {2, 2}, {-1, -1}, {-2, -2}}
	y := []float64{1, 1, -1, -1}
	s, err := TrainSVM(x, y, 1e6, nil, SMOSettings{Tol: 1e-12})
	if err != nil || !s.Converged {
		t.Fatal(err, s.Converged)
	}
	if math.Abs(s.W[0]-0.5) > 1e-9 || math.Abs(s.W[1]-0.5) > 1e-9 || math.Abs(s.B) > 1e-9 {
		t.Errorf("w = %v, b = %g, want (½, ½), 0", s.W, s.B)
	}
	for i, want := range []float64{0.25, 0, 0.25, 0} {
		if math.Abs(s.Alpha[i]-want) > 1e-9 {
			t.Errorf("α = %v, want (¼, 0, ¼, 0)", s.Alpha)
		}
	}
	// Shifted: x = 0 (−1), x = 2 (+1): w = 1, b = −1.
	s, err = TrainSVM([][]float64{{0}, {2}}, []float64{-1, 1}, 10, nil, SMOSettings{Tol: 1e-12})
	if err != nil || math.Abs(s.W[0]-1) > 1e-9 || math.Abs(s.B+1) > 1e-9 {
		t.Errorf("w = %v, b = %g, want 1, −1 (%v)", s.W, s.B, err)
	}
}

// overlapping returns n points in d dimensions of two overlapping
// Gaussian classes, labels ±1.
func overlapping(n, d int, seed uint64) ([][]float64, []float64) {
	r := rng.New(seed, "ltu", "svm")
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		y[i] = float64(2*(i%2) - 1)
		x[i] = make([]float64, d)
		for k := range x[i] {
			x[i][k] = r.NormFloat64() + 0.7*y[i]
		}
	}
	return x, y
}

// TestSVMDualityGap: at the optimum of a convex QP the primal and dual
// objectives are equal; a solution stopped at KKT accuracy τ has a gap of
// at most about C·N·2τ. The data overlap, so some α sit at C.
func TestSVMDualityGap(t *testing.T) {
	for _, c := range []float64{0.1, 1, 10, 100} {
		x, y := overlapping(60, 3, 1)
		s, err := TrainSVM(x, y, c, nil, SMOSettings{Tol: 1e-10, MaxIterations: 1e7})
		if err != nil || !s.Converged {
			t.Fatalf("C = %g: %v, converged %v", c, err, s.Converged)
		}
		p, d := s.Primal(x, y, c), s.Dual()
		if p < d-1e-9*math.Abs(p) {
			t.Errorf("C = %g: primal %g below dual %g (weak duality broken)", c, p, d)
		}
		if p-d > 1e-6*(1+math.Abs(p)) {
			t.Errorf("C = %g: duality gap %g (primal %g, dual %g)", c, p-d, p, d)
		}
		bounded, sum := 0, 0.0
		for i, a := range s.Alpha {
			if a < 0 || a > c {
				t.Fatalf("C = %g: α_%d = %g outside [0, C]", c, i, a)
			}
			if a == c {
				bounded++
			}
			sum += a * y[i]
		}
		if math.Abs(sum) > 1e-9*c {
			t.Errorf("C = %g: Σ α y = %g, want 0", c, sum)
		}
		if c <= 1 && bounded == 0 {
			t.Errorf("C = %g: no α at C on overlapping classes", c)
		}
	}
}

// TestSVMBruteForce: in one dimension the primal is a function of (w, b);
// no point of a fine grid may be lower than the SMO solution, and the
// grid's best is within the grid's resolution of it.
func TestSVMBruteForce(t *testing.T) {
	x, y := overlapping(30, 1, 2)
	for _, c := range []float64{0.5, 5} {
		s, err := TrainSVM(x, y, c, nil, SMOSettings{Tol: 1e-10})
		if err != nil || !s.Converged {
			t.Fatal(err)
		}
		ps := s.Primal(x, y, c)
		best := math.Inf(1)
		g := SVM{W: []float64{0}}
		for w := -4.0; w <= 4; w += 0.01 {
			for b := -4.0; b <= 4; b += 0.01 {
				g.W[0], g.B = w, b
				if p := g.Primal(x, y, c); p < best {
					best = p
				}
			}
		}
		if best < ps-1e-9 {
			t.Errorf("C = %g: a grid point has primal %g below SMO's %g", c, best, ps)
		}
		if best > ps+c*30*0.02 {
			t.Errorf("C = %g: grid best %g far above SMO's %g", c, best, ps)
		}
	}
}

// TestSVMEdgeCases: one class, a cap on the steps, bad input.
func TestSVMEdgeCases(t *testing.T) {
	s, err := TrainSVM([][]float64{{1}, {2}}, []float64{-1, -1}, 1, nil, SMOSettings{})
	if err != nil || s.W[0] != 0 || s.B != -1 || !s.Converged {
		t.Errorf("one class: %+v %v, want w = 0, b = −1", s, err)
	}
	x, y := overlapping(40, 2, 3)
	s, err = TrainSVM(x, y, 100, nil, SMOSettings{MaxIterations: 1})
	if err != nil || s.Converged || s.Iterations != 1 {
		t.Errorf("capped at 1 step: converged %v after %d (%v)", s.Converged, s.Iterations, err)
	}
	for _, bad := range []struct {
		y []float64
		c float64
	}{{[]float64{1, 0}, 1}, {[]float64{1, -1}, 0}, {[]float64{1, -1}, math.Inf(1)}, {[]float64{1}, 1}} {
		if _, err := TrainSVM([][]float64{{1}, {2}}, bad.y, bad.c, nil, SMOSettings{}); err == nil {
			t.Errorf("labels %v, C %g: no error", bad.y, bad.c)
		}
	}
}
