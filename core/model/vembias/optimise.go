package vembias

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"
)

// Problem is the learning of the parameters Free of the two-chain model by
// one scheme, the others held at Truth (T&S §§1.4.3-1.4.7): the objective
// is Objective with data second moment S, Σ_y(Truth) when S is nil (the
// infinite-data limit, eq. 1.41).
type Problem struct {
	Obs    int       // observed dimensions a step (1 or 2)
	Truth  Params    // θ*, also the value of every parameter not in Free
	S      []float64 // data second moment (N×N); nil: Σ_y(θ*)
	Approx Approx
	Free   []Param
	// Lo and Hi bound each free parameter for the grid and the vEM M step
	// (nil: DefaultRange).
	Lo, Hi []float64
}

// DefaultRange returns the search interval of a parameter: |λ| ≤ 0.9999,
// variances in [1e-4, 10], angles in [−π/2, π], magnitudes in [0, 5].
func DefaultRange(p Param) (lo, hi float64) {
	switch p {
	case Lambda:
		return -0.9999, 0.9999
	case SigmaX2, SigmaY2:
		return 1e-4, 10
	case Phi1, Phi2:
		return -math.Pi / 2, math.Pi
	}
	return 0, 5
}

// logScale reports whether the grid over p is even in ln p (the variances).
func logScale(p Param) bool { return p == SigmaX2 || p == SigmaY2 }

// init checks the problem and fills S, Lo and Hi.
func (pr *Problem) init() error {
	if pr.Obs != 1 && pr.Obs != 2 {
		return fmt.Errorf("vembias: obs = %d, want 1 or 2", pr.Obs)
	}
	if err := pr.Truth.Check(); err != nil {
		return fmt.Errorf("vembias: truth: %w", err)
	}
	if len(pr.Free) == 0 {
		return errors.New("vembias: no free parameter")
	}
	n := 2 * pr.Obs
	if pr.S == nil {
		pr.S = make([]float64, n*n)
		NewSSM(pr.Obs).Sigma(pr.Truth, pr.S)
	} else if len(pr.S) != n*n {
		return fmt.Errorf("vembias: S has %d entries, want %d", len(pr.S), n*n)
	}
	if pr.Lo == nil {
		pr.Lo, pr.Hi = make([]float64, len(pr.Free)), make([]float64, len(pr.Free))
		for i, p := range pr.Free {
			pr.Lo[i], pr.Hi[i] = DefaultRange(p)
		}
	}
	if len(pr.Lo) != len(pr.Free) || len(pr.Hi) != len(pr.Free) {
		return errors.New("vembias: Lo and Hi must have one bound per free parameter")
	}
	return nil
}

// at returns Truth with the free parameters set to x.
func (pr *Problem) at(x []float64) Params {
	th := pr.Truth
	for i, p := range pr.Free {
		th[p] = x[i]
	}
	return th
}

// Value returns the objective at the free values x.
func (pr *Problem) Value(m *SSM, x []float64) float64 {
	return m.Objective(pr.at(x), pr.S, pr.Approx)
}

// Result is an optimum of a Problem.
type Result struct {
	X     []float64 // the free parameters at the optimum
	F     float64   // the objective there
	Evals int       // objective evaluations
	// Edge reports that the optimum lies on the boundary of the search
	// box (a divergence, such as zero-temperature EM's σ_y² → 0 or
	// |w| → ∞, L300, L317).
	Edge bool
}

// goldenMax maximises f on [a, b] by golden-section search to an interval
// of width tol·max(1, |x|), returning the argument and value and the
// number of evaluations.
func goldenMax(f func(float64) float64, a, b, tol float64) (float64, float64, int) {
	const r = 0.6180339887498949
	c, d := b-r*(b-a), a+r*(b-a)
	fc, fd := f(c), f(d)
	n := 2
	for b-a > tol*math.Max(1, math.Abs(c)) {
		if fc >= fd || math.IsNaN(fd) {
			b, d, fd = d, c, fc
			c = b - r*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + r*(b-a)
			fd = f(d)
		}
		n++
	}
	if fc >= fd {
		return c, fc, n
	}
	return d, fd, n
}

// Grid maximises a one-parameter problem by evaluating n points evenly
// spaced over [Lo, Hi] (in ln θ for a variance) and refining the best by
// golden-section search between its neighbours to 1e-10: the paper's
// "gridding the space" (L322). With two free parameters it evaluates the
// n×n grid and returns its best point unrefined, the start of the
// gradient and vEM optimisers (L334).
func (pr *Problem) Grid(n int) (Result, error) {
	if err := pr.init(); err != nil {
		return Result{}, err
	}
	if n < 3 {
		return Result{}, fmt.Errorf("vembias: grid of %d points, want at least 3", n)
	}
	m := NewSSM(pr.Obs)
	axes := make([][]float64, len(pr.Free))
	for i, p := range pr.Free {
		axes[i] = Axis(pr.Lo[i], pr.Hi[i], n, logScale(p))
	}
	switch len(pr.Free) {
	case 1:
		best, bf := -1, math.Inf(-1)
		for j, v := range axes[0] {
			if f := pr.Value(m, []float64{v}); f > bf {
				best, bf = j, f
			}
		}
		if best < 0 {
			return Result{}, errors.New("vembias: the objective is NaN on the whole grid")
		}
		a, b := axes[0][max(best-1, 0)], axes[0][min(best+1, n-1)]
		x, f, k := goldenMax(func(v float64) float64 { return pr.Value(m, []float64{v}) }, a, b, 1e-10)
		if f < bf {
			x, f = axes[0][best], bf
		}
		return Result{X: []float64{x}, F: f, Evals: n + k, Edge: pr.onEdge(0, axes[0][best])}, nil
	case 2:
		bi, bj, bf := -1, -1, math.Inf(-1)
		for i, u := range axes[0] {
			for j, v := range axes[1] {
				if f := pr.Value(m, []float64{u, v}); f > bf {
					bi, bj, bf = i, j, f
				}
			}
		}
		if bi < 0 {
			return Result{}, errors.New("vembias: the objective is NaN on the whole grid")
		}
		return Result{X: []float64{axes[0][bi], axes[1][bj]}, F: bf, Evals: n * n,
			Edge: pr.onEdge(0, axes[0][bi]) || pr.onEdge(1, axes[1][bj])}, nil
	}
	return Result{}, fmt.Errorf("vembias: Grid takes one or two free parameters, not %d", len(pr.Free))
}

// onEdge reports whether x is on or beyond the search box of free
// parameter i; a magnitude of 0 is not an edge (w and −w are the same
// model, so 0 is interior: q_FC's pruning, L317).
func (pr *Problem) onEdge(i int, x float64) bool {
	p := pr.Free[i]
	return x >= pr.Hi[i] || (x <= pr.Lo[i] && p != Norm1 && p != Norm2)
}

// Axis returns n points evenly spaced from lo to hi, or evenly in ln if
// log.
func Axis(lo, hi float64, n int, log bool) []float64 {
	out := make([]float64, n)
	for i := range out {
		t := float64(i) / float64(n-1)
		if log {
			out[i] = math.Exp(math.Log(lo) + t*(math.Log(hi)-math.Log(lo)))
		} else {
			out[i] = lo + t*(hi-lo)
		}
	}
	out[0], out[n-1] = lo, hi
	return out
}

// toU maps a parameter to the unconstrained coordinate of Gradient: λ =
// tanh u, a variance = eᵘ, an angle or a magnitude itself (a magnitude may
// turn negative: w and −w give the same objective, so |u| is reported).
func toU(p Param, v float64) float64 {
	switch {
	case p == Lambda:
		return math.Atanh(v)
	case logScale(p):
		return math.Log(v)
	}
	return v
}

// fromU inverts toU and returns dθ/du.
func fromU(p Param, u float64) (v, dv float64) {
	switch {
	case p == Lambda:
		t := math.Tanh(u)
		return t, 1 - t*t
	case logScale(p):
		e := math.Exp(u)
		return e, e
	}
	return u, 1
}

// Gradient maximises the objective from the free values start by gradient
// ascent with gonum's optimize (BFGS with the analytic gradient of
// SSM.Gradient) in unconstrained coordinates (λ = tanh u, variances eᵘ):
// the paper's "direct gradient ascent on the free-energy" (L322), started
// from the grid's optimum where the objective may be multimodal (L334).
func (pr *Problem) Gradient(start []float64) (Result, error) {
	if err := pr.init(); err != nil {
		return Result{}, err
	}
	if len(start) != len(pr.Free) {
		return Result{}, fmt.Errorf("vembias: start has %d values, want %d", len(start), len(pr.Free))
	}
	m := NewSSM(pr.Obs)
	k := len(pr.Free)
	th := func(u []float64) (Params, []float64) {
		t := pr.Truth
		dv := make([]float64, k)
		for i, p := range pr.Free {
			t[p], dv[i] = fromU(p, u[i])
		}
		return t, dv
	}
	g := make([]float64, k)
	evals := 0
	prob := optimize.Problem{
		Func: func(u []float64) float64 {
			t, _ := th(u)
			evals++
			f := m.Objective(t, pr.S, pr.Approx)
			if math.IsNaN(f) {
				return math.Inf(1)
			}
			return -f
		},
		Grad: func(grad, u []float64) {
			t, dv := th(u)
			m.Gradient(t, pr.S, pr.Approx, pr.Free, g)
			for i := range grad {
				grad[i] = -g[i] * dv[i]
			}
		},
	}
	u0 := make([]float64, k)
	for i, p := range pr.Free {
		u0[i] = toU(p, start[i])
	}
	res, err := optimize.Minimize(prob, u0, &optimize.Settings{GradientThreshold: 1e-9, Converger: &optimize.FunctionConverge{Absolute: 1e-14, Iterations: 50}}, &optimize.BFGS{})
	if err != nil && res == nil {
		return Result{}, fmt.Errorf("vembias: gradient ascent: %w", err)
	}
	t, _ := th(res.X)
	out := Result{X: make([]float64, k), F: -res.F, Evals: evals}
	for i, p := range pr.Free {
		out.X[i] = t[p]
		if p == Norm1 || p == Norm2 {
			out.X[i] = math.Abs(t[p])
		}
		out.Edge = out.Edge || pr.onEdge(i, out.X[i])
	}
	return out, nil
}
