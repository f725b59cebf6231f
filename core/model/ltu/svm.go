package ltu

import (
	"errors"
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// SVM is a linear maximum-margin classifier f(x) = w·x + b, the learning
// step of one unit (L1381-1406): the soft-margin problem
//
//	min ½‖w‖² + C Σ_n ξ_n  subject to  y_n(w·x_n + b) ≥ 1 − ξ_n, ξ_n ≥ 0,
//
// whose dual is max Σα − ½ΣΣ α_n α_m y_n y_m x_n·x_m, 0 ≤ α ≤ C, Σ α_n y_n = 0.
type SVM struct {
	W     []float64 // weights
	B     float64   // bias (not penalised)
	Alpha []float64 // the dual variables, one per point

	Iterations int     // SMO steps taken
	Gap        float64 // the maximal violating pair's gap at the end, m − M (≤ Tol when converged)
	Converged  bool    // false when MaxIterations was reached first
}

// SMOSettings are the stopping rules of TrainSVM. The zero value of a
// field means its default.
type SMOSettings struct {
	// Tol is the accuracy of the KKT conditions (1e-4, L1434): the
	// solver stops when the maximal violating pair's gap m − M is at most
	// Tol (LIBSVM's rule, Fan et al. 2005), so that with b in the middle
	// every point meets its condition y_n f(x_n) ≥ 1 (α = 0), = 1
	// (0 < α < C), ≤ 1 (α = C) to within Tol/2. At α = 0 the gap is 2, so
	// even Tol = 1 (the first iteration, L1434) takes steps.
	Tol float64
	// MaxIterations caps the SMO steps (100,000, L1442).
	MaxIterations int
}

func (s SMOSettings) withDefaults() SMOSettings {
	if s.Tol == 0 {
		s.Tol = 1e-4
	}
	if s.MaxIterations == 0 {
		s.MaxIterations = 100000
	}
	return s
}

// Gram returns the matrix of inner products x_n·x_m, N×N row-major: the
// kernel of TrainSVM, shared by the units that see the same inputs.
func Gram(x [][]float64) []float64 {
	n := len(x)
	g := make([]float64, n*n)
	for i := range n {
		for j := i; j < n; j++ {
			v := numeric.Dot(x[i], x[j])
			g[i*n+j], g[j*n+i] = v, v
		}
	}
	return g
}

// TrainSVM solves the soft-margin problem for points x with labels y
// (±1) and penalty c by sequential minimal optimisation (Platt 1998,
// L1438) with the maximal-violating-pair choice of the two multipliers
// (Keerthi et al. 2001): each step moves the pair along the constraint
// Σ α_n y_n = 0 to the exact minimiser of the dual objective within the box.
// gram is Gram(x), or nil to compute it. With one class only the problem
// has w = 0, b = that label (every margin exactly 1).
func TrainSVM(x [][]float64, y []float64, c float64, gram []float64, s SMOSettings) (SVM, error) {
	s = s.withDefaults()
	n := len(x)
	if n == 0 || len(y) != n {
		return SVM{}, fmt.Errorf("ltu: %d points and %d labels", n, len(y))
	}
	if !(c > 0) || math.IsInf(c, 0) {
		return SVM{}, fmt.Errorf("ltu: penalty C = %g, want a positive finite number", c)
	}
	d := len(x[0])
	for i, v := range y {
		if v != 1 && v != -1 {
			return SVM{}, fmt.Errorf("ltu: label %d is %g, want ±1", i, v)
		}
		if len(x[i]) != d {
			return SVM{}, fmt.Errorf("ltu: point %d has %d inputs, want %d", i, len(x[i]), d)
		}
	}
	if gram == nil {
		gram = Gram(x)
	} else if len(gram) != n*n {
		return SVM{}, errors.New("ltu: the Gram matrix is not N×N")
	}
	out := SVM{W: make([]float64, d), Alpha: make([]float64, n)}
	pos, neg := false, false
	for _, v := range y {
		pos, neg = pos || v > 0, neg || v < 0
	}
	if !(pos && neg) {
		out.B, out.Converged = y[0], true
		return out, nil
	}
	// G = Qα − 1, Q_nm = y_n y_m x_n·x_m; at α = 0, G = −1.
	g := make([]float64, n)
	for i := range g {
		g[i] = -1
	}
	alpha := out.Alpha
	up := func(t int) bool { return (y[t] > 0 && alpha[t] < c) || (y[t] < 0 && alpha[t] > 0) }
	low := func(t int) bool { return (y[t] < 0 && alpha[t] < c) || (y[t] > 0 && alpha[t] > 0) }
	var m, mm float64
	for {
		i, j := -1, -1
		m, mm = math.Inf(-1), math.Inf(1)
		for t := range n {
			v := -y[t] * g[t]
			if up(t) && v > m {
				i, m = t, v
			}
			if low(t) && v < mm {
				j, mm = t, v
			}
		}
		if i < 0 || j < 0 || m-mm <= s.Tol {
			out.Converged = true
			break
		}
		if out.Iterations >= s.MaxIterations {
			break
		}
		out.Iterations++
		// Move α_i by y_i λ and α_j by −y_j λ: the dual's slope along the
		// move is m − M > 0, its curvature ‖x_i − x_j‖².
		a := gram[i*n+i] + gram[j*n+j] - 2*gram[i*n+j]
		if a <= 1e-12 {
			a = 1e-12
		}
		lam := (m - mm) / a
		if y[i] > 0 {
			lam = math.Min(lam, c-alpha[i])
		} else {
			lam = math.Min(lam, alpha[i])
		}
		if y[j] > 0 {
			lam = math.Min(lam, alpha[j])
		} else {
			lam = math.Min(lam, c-alpha[j])
		}
		alpha[i] += y[i] * lam
		alpha[j] -= y[j] * lam
		// Snap to the box so that membership of the index sets is exact.
		for _, t := range [2]int{i, j} {
			if alpha[t] < 1e-12*c {
				alpha[t] = 0
			} else if alpha[t] > c*(1-1e-12) {
				alpha[t] = c
			}
		}
		for t := range n {
			g[t] += y[t] * lam * (gram[t*n+i] - gram[t*n+j])
		}
	}
	out.Gap = m - mm
	if math.IsInf(out.Gap, 0) {
		out.Gap = 0
	}
	for t := range n {
		if alpha[t] != 0 {
			numeric.Axpy(alpha[t]*y[t], x[t], out.W)
		}
	}
	// b from the free multipliers (y_n f(x_n) = 1 there), else the middle
	// of the interval the KKT conditions leave.
	sum, free := 0.0, 0
	for t := range n {
		if alpha[t] > 0 && alpha[t] < c {
			sum += -y[t] * g[t]
			free++
		}
	}
	if free > 0 {
		out.B = sum / float64(free)
	} else {
		out.B = (m + mm) / 2
	}
	return out, nil
}

// Decision returns w·x + b.
func (s *SVM) Decision(x []float64) float64 { return numeric.Dot(s.W, x) + s.B }

// Primal returns ½‖w‖² + C Σ_n max(0, 1 − y_n f(x_n)), the objective the
// solution minimises.
func (s *SVM) Primal(x [][]float64, y []float64, c float64) float64 {
	p := 0.5 * numeric.Dot(s.W, s.W)
	for n := range x {
		p += c * math.Max(0, 1-y[n]*s.Decision(x[n]))
	}
	return p
}

// Dual returns Σα − ½‖w‖², the dual objective at Alpha (w = Σ α_n y_n x_n);
// Primal − Dual ≥ 0 is the duality gap, zero at the optimum.
func (s *SVM) Dual() float64 {
	sum := 0.0
	for _, a := range s.Alpha {
		sum += a
	}
	return sum - 0.5*numeric.Dot(s.W, s.W)
}
