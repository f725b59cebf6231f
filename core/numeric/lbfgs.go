package numeric

import (
	"errors"
	"fmt"
	"math"
)

// Objective returns f(x) and, when grad is not nil, writes ∇f(x) into grad
// (of length len(x)). It must not keep x or grad. A point outside the
// function's domain returns +Inf (NaN is treated as +Inf).
type Objective func(x, grad []float64) float64

// LBFGS minimises a smooth function by limited-memory BFGS (Nocedal and
// Wright 2006, Algorithm 7.4, the two-loop recursion with H₀ = γI,
// γ = sᵀy/yᵀy) with a line search satisfying the strong Wolfe conditions
// (Algorithms 3.5 and 3.6; c₁ = 10⁻⁴, c₂ = 0.9, cubic interpolation in
// the zoom).
//
// It runs in the caller's goroutine and evaluates f and ∇f together, once
// per trial point: gonum's optimize.Minimize runs its method on another
// goroutine and hands every evaluation over channels, which cost the
// Markov-chain fits of core/model/sbn about as much system time as user
// time. Its buffers are kept between calls of Minimize, so a reused LBFGS
// does not allocate for problems of one size.
//
// The zero value of every field means its default. An LBFGS is not safe
// for concurrent use.
type LBFGS struct {
	// Memory is the number of (s, y) pairs kept; default 15 (as gonum).
	Memory int
	// MaxIterations caps the iterations (line searches); default 500.
	MaxIterations int
	// GradTol stops when every |∂f/∂x_i| ≤ GradTol; default 1e-7.
	GradTol float64
	// FuncAbs, FuncRel and FuncIterations stop when f has not fallen by
	// more than FuncAbs + FuncRel·|f| in FuncIterations iterations;
	// defaults 1e-12, 1e-12 and 20.
	FuncAbs, FuncRel float64
	FuncIterations   int

	s, y      [][]float64
	rho, alph []float64
	g, d      []float64
	xt, gt    []float64
	xb, gb    []float64
}

// LBFGSStatus says why Minimize stopped.
type LBFGSStatus int

const (
	// GradientConverged: every |∂f/∂x_i| ≤ GradTol.
	GradientConverged LBFGSStatus = iota
	// FunctionConverged: f stalled for FuncIterations iterations.
	FunctionConverged
	// IterationLimit: MaxIterations reached.
	IterationLimit
	// LineSearchStalled: no step along the search direction lowered f
	// (at a point where the gradient is at rounding level, usually).
	LineSearchStalled
)

func (s LBFGSStatus) String() string {
	switch s {
	case GradientConverged:
		return "gradient converged"
	case FunctionConverged:
		return "function converged"
	case IterationLimit:
		return "iteration limit"
	case LineSearchStalled:
		return "line search stalled"
	}
	return fmt.Sprintf("LBFGSStatus(%d)", int(s))
}

// LBFGSResult is the end of a Minimize: the value at the returned x, the
// iterations and evaluations it took, and why it stopped.
type LBFGSResult struct {
	F           float64
	Iterations  int
	Evaluations int
	Status      LBFGSStatus
}

// ErrLBFGSStart is returned when f or ∇f is not finite at the start.
var ErrLBFGSStart = errors.New("numeric: LBFGS: f or its gradient is not finite at the start")

const (
	wolfeC1     = 1e-4
	wolfeC2     = 0.9
	maxLSEvals  = 40
	curvMinimum = 1e-12
)

func (m *LBFGS) defaults() (mem, maxIt, fIt int, gTol, fAbs, fRel float64) {
	mem, maxIt, fIt = m.Memory, m.MaxIterations, m.FuncIterations
	gTol, fAbs, fRel = m.GradTol, m.FuncAbs, m.FuncRel
	if mem <= 0 {
		mem = 15
	}
	if maxIt <= 0 {
		maxIt = 500
	}
	if fIt <= 0 {
		fIt = 20
	}
	if gTol <= 0 {
		gTol = 1e-7
	}
	if fAbs <= 0 {
		fAbs = 1e-12
	}
	if fRel <= 0 {
		fRel = 1e-12
	}
	return
}

func (m *LBFGS) alloc(n, mem int) {
	if len(m.g) == n && len(m.s) == mem {
		return
	}
	buf := make([]float64, (2*mem+6)*n+2*mem)
	next := func(k int) []float64 { v := buf[:k:k]; buf = buf[k:]; return v }
	m.s, m.y = make([][]float64, mem), make([][]float64, mem)
	for i := range mem {
		m.s[i], m.y[i] = next(n), next(n)
	}
	m.rho, m.alph = next(mem), next(mem)
	m.g, m.d, m.xt, m.gt, m.xb, m.gb = next(n), next(n), next(n), next(n), next(n), next(n)
}

// Minimize minimises f from x, which it overwrites with the point it
// returns. The returned F is f there and never above f at the start. An
// error is returned only when f or ∇f is not finite at the start.
func (m *LBFGS) Minimize(f Objective, x []float64) (LBFGSResult, error) {
	mem, maxIt, fIt, gTol, fAbs, fRel := m.defaults()
	n := len(x)
	m.alloc(n, mem)
	g, d := m.g, m.d
	fx := f(x, g)
	res := LBFGSResult{Evaluations: 1}
	if math.IsNaN(fx) || math.IsInf(fx, 0) || !finiteVec(g) {
		return res, ErrLBFGSStart
	}
	stored, head := 0, 0 // pairs kept, index of the next slot
	fHist := fx          // f FuncIterations ago (checked every fIt iterations)
	sinceHist := 0
	for {
		if maxAbs(g) <= gTol {
			res.Status = GradientConverged
			break
		}
		if res.Iterations >= maxIt {
			res.Status = IterationLimit
			break
		}
		// d = −H g by the two-loop recursion.
		for i := range d {
			d[i] = -g[i]
		}
		for k := 0; k < stored; k++ {
			j := (head - 1 - k + mem) % mem
			a := m.rho[j] * Dot(m.s[j], d)
			m.alph[j] = a
			Axpy(-a, m.y[j], d)
		}
		step := 1.0
		if stored > 0 {
			j := (head - 1 + mem) % mem
			yy := Dot(m.y[j], m.y[j])
			Scale(Dot(m.s[j], m.y[j])/yy, d)
			for k := stored - 1; k >= 0; k-- {
				j := (head - 1 - k + mem) % mem
				b := m.rho[j] * Dot(m.y[j], d)
				Axpy(m.alph[j]-b, m.s[j], d)
			}
		} else {
			step = math.Min(1, 1/math.Sqrt(Dot(g, g)))
		}
		dg := Dot(d, g)
		if !(dg < 0) { // not a descent direction: restart from steepest descent
			for i := range d {
				d[i] = -g[i]
			}
			stored = 0
			dg = -Dot(g, g)
			step = math.Min(1, 1/math.Sqrt(-dg))
		}
		ft, evals, ok := m.lineSearch(f, x, fx, dg, step)
		res.Evaluations += evals
		res.Iterations++
		if !ok {
			res.Status = LineSearchStalled
			break
		}
		// s = x_t − x, y = g_t − g into the next slot; then move.
		s, y := m.s[head], m.y[head]
		for i := range x {
			s[i] = m.xt[i] - x[i]
			y[i] = m.gt[i] - g[i]
		}
		sy := Dot(s, y)
		if sy > curvMinimum*math.Sqrt(Dot(s, s)*Dot(y, y)) {
			m.rho[head] = 1 / sy
			head = (head + 1) % mem
			stored = min(stored+1, mem)
		}
		copy(x, m.xt)
		copy(g, m.gt)
		fx = ft
		sinceHist++
		if sinceHist == fIt {
			if fHist-fx <= fAbs+fRel*math.Abs(fx) {
				res.Status = FunctionConverged
				break
			}
			fHist, sinceHist = fx, 0
		}
	}
	res.F = fx
	return res, nil
}

// lineSearch looks along m.d from x (where f = f0 and dφ(0) = dg < 0) for
// a step meeting the strong Wolfe conditions, starting at step a. On
// success m.xt, m.gt hold the point and its gradient. When no point meets
// them it takes the lowest point found below f0, if any.
func (m *LBFGS) lineSearch(f Objective, x []float64, f0, dg, a float64) (float64, int, bool) {
	ls := wolfeSearch{m: m, f: f, x: x, f0: f0, dg: dg, bestF: f0}
	aPrev, fPrev, dPrev := 0.0, f0, dg
	for ls.evals < maxLSEvals {
		fa, da := ls.eval(a)
		if !ls.sufficient(a, fa, da) || (ls.evals > 1 && fa >= fPrev) {
			return ls.zoom(aPrev, fPrev, dPrev, a, fa, da)
		}
		if ls.curvature(da) {
			return fa, ls.evals, true
		}
		if da >= 0 {
			return ls.zoom(a, fa, da, aPrev, fPrev, dPrev)
		}
		aPrev, fPrev, dPrev = a, fa, da
		a *= 4
	}
	return ls.takeBest()
}

// wolfeSearch is one line search's state: the start (f0, dφ(0) = dg), the
// evaluations made, and the lowest point seen (in m.xb, m.gb).
type wolfeSearch struct {
	m        *LBFGS
	f        Objective
	x        []float64
	f0, dg   float64
	evals    int
	bestF    float64
	haveBest bool
}

// eval returns φ(a) = f(x + a d) and φ'(a), leaving the point in m.xt and
// its gradient in m.gt; a point outside the domain gives +Inf and NaN.
func (ls *wolfeSearch) eval(a float64) (float64, float64) {
	m := ls.m
	for i := range ls.x {
		m.xt[i] = ls.x[i] + a*m.d[i]
	}
	fa := ls.f(m.xt, m.gt)
	ls.evals++
	if math.IsNaN(fa) || !finiteVec(m.gt) {
		fa = math.Inf(1)
	}
	if fa < ls.bestF {
		ls.bestF, ls.haveBest = fa, true
		copy(m.xb, m.xt)
		copy(m.gb, m.gt)
	}
	if math.IsInf(fa, 1) {
		return fa, math.NaN()
	}
	return fa, Dot(m.gt, m.d)
}

// sufficient is the Armijo condition φ(a) ≤ φ(0) + c₁aφ'(0) or, where
// φ differs from φ(0) at rounding level only, Hager and Zhang's (2005)
// approximate form φ'(a) ≤ (2c₁ − 1)φ'(0) with φ(a) ≤ φ(0) (the two agree
// on a quadratic); without it the search stalls near the minimum, where
// f's decrease is below its rounding.
func (ls *wolfeSearch) sufficient(a, fa, da float64) bool {
	return fa <= ls.f0+wolfeC1*a*ls.dg || (fa <= ls.f0 && da <= (2*wolfeC1-1)*ls.dg)
}
func (ls *wolfeSearch) curvature(da float64) bool { return math.Abs(da) <= -wolfeC2*ls.dg }

// zoom is Nocedal and Wright's Algorithm 3.6 between lo (the lower point,
// meeting sufficient decrease) and hi, with a safeguarded cubic step.
func (ls *wolfeSearch) zoom(lo, fLo, dLo, hi, fHi, dHi float64) (float64, int, bool) {
	for ls.evals < maxLSEvals {
		a := cubicMin(lo, fLo, dLo, hi, fHi, dHi)
		w := hi - lo
		if lw, hw := math.Min(lo, hi)+0.1*math.Abs(w), math.Max(lo, hi)-0.1*math.Abs(w); !(a >= lw && a <= hw) {
			a = lo + w/2
		}
		if a == lo || a == hi {
			break
		}
		fa, da := ls.eval(a)
		if !ls.sufficient(a, fa, da) || fa >= fLo {
			hi, fHi, dHi = a, fa, da
			continue
		}
		if ls.curvature(da) {
			return fa, ls.evals, true
		}
		if da*(hi-lo) >= 0 {
			hi, fHi, dHi = lo, fLo, dLo
		}
		lo, fLo, dLo = a, fa, da
	}
	return ls.takeBest()
}

// takeBest ends a line search that met no Wolfe point: the lowest point
// found, if it is below f at the start.
func (ls *wolfeSearch) takeBest() (float64, int, bool) {
	if !ls.haveBest {
		return 0, ls.evals, false
	}
	copy(ls.m.xt, ls.m.xb)
	copy(ls.m.gt, ls.m.gb)
	return ls.bestF, ls.evals, true
}

// cubicMin is the minimiser of the cubic through (a, fa, da) and
// (b, fb, db) (Nocedal and Wright eq. 3.59), NaN where it has none.
func cubicMin(a, fa, da, b, fb, db float64) float64 {
	if math.IsInf(fb, 1) || math.IsNaN(db) {
		return math.NaN()
	}
	d1 := da + db - 3*(fa-fb)/(a-b)
	disc := d1*d1 - da*db
	if disc < 0 {
		return math.NaN()
	}
	d2 := math.Copysign(math.Sqrt(disc), b-a)
	return b - (b-a)*(db+d2-d1)/(db-da+2*d2)
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

func finiteVec(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
