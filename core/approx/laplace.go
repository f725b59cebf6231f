package approx

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Func is an unnormalised log density ln p̃(x) in any dimension, with its
// derivatives where they are known. A nil Grad or Hess is replaced by
// finite differences (central; the Hessian by the five-point rule on the
// diagonal). None of the functions may keep x.
type Func struct {
	LogP func(x []float64) float64
	Grad func(dst, x []float64) // ∇ ln p̃(x)
	Hess func(dst, x []float64) // ∇∇ ln p̃(x), row-major d×d
	// GradHess, if not nil, writes Grad's and Hess's values in one call
	// (sharing the work of the two); Newton's method calls it instead.
	GradHess func(grad, hess, x []float64)
}

// LaplaceResult is Laplace's approximation: q = N(x*, A⁻¹) with x* the mode
// of ln p̃ and A = −∇∇ ln p̃(x*), and its estimate of the normaliser,
// ln Z ≈ ln p̃(x*) + (d/2) ln 2π − ½ ln|A| (PRML eqs. (4.133)–(4.135),
// Lawrence §1.4, L560–578).
type LaplaceResult struct {
	Q          Normal
	LnZ        float64
	Iterations int // Newton steps, or the gonum optimiser's major iterations
}

// Laplace finds the mode of f.LogP from x0 and returns Laplace's
// approximation there. When Grad and Hess are given it runs Newton's method
// (newtonMode) while −∇∇ ln p̃ stays positive definite, as it does for a
// log-concave p̃, and otherwise gonum's Newton (which shifts an indefinite
// Hessian); without them BFGS (gonum optimize). Each stops when the largest
// |∂ ln p̃/∂x_i| is at most 1e-10. The error says if the optimiser failed
// or the Hessian at the point found is not negative definite.
func Laplace(f Func, x0 []float64) (LaplaceResult, error) {
	d := len(x0)
	grad := f.Grad
	if grad == nil {
		grad = func(dst, x []float64) { fd.Gradient(dst, f.LogP, x, &fd.Settings{Formula: fd.Central}) }
	}
	a := make([]float64, d*d)
	mode, iters, ok := newtonMode(f, x0, a)
	if !ok {
		var err error
		if mode, iters, err = gonumMode(f, grad, x0); err != nil {
			return LaplaceResult{}, err
		}
		if f.Hess != nil {
			f.Hess(a, mode)
		} else {
			HessianFD(a, f.LogP, mode)
		}
		for i := range a {
			a[i] = -a[i]
		}
	}
	cov, logDetA, ok := invertSPD(a, d)
	if !ok {
		return LaplaceResult{}, fmt.Errorf("approx: Laplace: −∇∇ ln p̃ at %v is not positive definite", mode)
	}
	return LaplaceResult{
		Q:          Normal{Mean: mode, Cov: cov},
		LnZ:        f.LogP(mode) + 0.5*float64(d)*math.Log(2*math.Pi) - 0.5*logDetA,
		Iterations: iters,
	}, nil
}

// laplaceGradTol is the stationarity test of the mode search: the largest
// |∂ ln p̃/∂x_i| at most this.
const laplaceGradTol = 1e-10

// newtonMode runs Newton's method on ln p̃ from x0, x ← x + A⁻¹∇ ln p̃ with
// A = −∇∇ ln p̃, halving a step (up to 50 times) until ln p̃ does not
// decrease (a full step whose predicted gain ½∇ᵀA⁻¹∇ is below the round-off
// of ln p̃, 1e-12(1 + |ln p̃|), is taken as it is), for at most 200
// iterations, until the largest |∂ ln p̃/∂x_i| is
// at most laplaceGradTol. It returns the mode, the number of Newton steps,
// and A at the mode in a; ok is false, and the caller falls back to gonum,
// if f has no Grad or Hess, A is not positive definite at an iterate, no
// halving of a step keeps ln p̃ from decreasing, or the cap is reached.
func newtonMode(f Func, x0, a []float64) (mode []float64, iters int, ok bool) {
	if f.Grad == nil || f.Hess == nil {
		return nil, 0, false
	}
	d := len(x0)
	x, g, step, try := slices.Clone(x0), make([]float64, d), make([]float64, d), make([]float64, d)
	l := make([]float64, d*d)
	fx := f.LogP(x)
	for it := 0; ; it++ {
		if f.GradHess != nil {
			f.GradHess(g, a, x)
		} else {
			f.Grad(g, x)
			f.Hess(a, x)
		}
		for i := range a {
			a[i] = -a[i]
		}
		stationary := true
		for _, v := range g {
			stationary = stationary && math.Abs(v) <= laplaceGradTol
		}
		if stationary {
			return x, it, true
		}
		if it == 200 || math.IsNaN(fx) {
			return nil, 0, false
		}
		copy(l, a)
		if !numeric.CholFactor(l, d) {
			return nil, 0, false
		}
		copy(step, g)
		numeric.CholSolveVec(l, d, step)
		numeric.CholSolveVecT(l, d, step)
		// The predicted gain ½gᵀA⁻¹g; below the round-off of ln p̃ the
		// full step is taken without comparing ln p̃.
		gain := 0.5 * dot(g, step)
		noise := gain <= 1e-12*(1+math.Abs(fx))
		t, accepted := 1.0, false
		for range 50 {
			for i := range x {
				try[i] = x[i] + t*step[i]
			}
			if ft := f.LogP(try); ft >= fx || noise {
				x, try, fx, accepted = try, x, ft, true
				break
			}
			t /= 2
		}
		if !accepted {
			return nil, 0, false
		}
	}
}

// gonumMode finds the mode of f.LogP from x0 by gonum's Newton (with f.Hess)
// or BFGS, to the gradient threshold laplaceGradTol.
func gonumMode(f Func, grad func(dst, x []float64), x0 []float64) ([]float64, int, error) {
	d := len(x0)
	prob := optimize.Problem{
		Func: func(x []float64) float64 { return -f.LogP(x) },
		Grad: func(dst, x []float64) {
			grad(dst, x)
			for i := range dst {
				dst[i] = -dst[i]
			}
		},
	}
	var method optimize.Method = &optimize.BFGS{}
	if f.Hess != nil {
		h := make([]float64, d*d)
		prob.Hess = func(dst *mat.SymDense, x []float64) {
			f.Hess(h, x)
			for i := range d {
				for j := i; j < d; j++ {
					dst.SetSym(i, j, -h[i*d+j])
				}
			}
		}
		method = &optimize.Newton{}
	}
	res, err := optimize.Minimize(prob, x0, &optimize.Settings{GradientThreshold: laplaceGradTol}, method)
	if err != nil && res == nil {
		return nil, 0, fmt.Errorf("approx: Laplace: %w", err)
	}
	mode := res.X
	if err != nil { // accepted only at a stationary point (a line search can fail there)
		g := make([]float64, d)
		grad(g, mode)
		for _, v := range g {
			if !(math.Abs(v) <= 1e-6) {
				return nil, 0, fmt.Errorf("approx: Laplace: %w (gradient %v at %v)", err, g, mode)
			}
		}
	}
	return mode, res.Stats.MajorIterations, nil
}

// invertSPD returns A⁻¹ and ln|A| of the symmetric positive-definite d×d
// matrix a, or false (numeric.InverseSPD into a new matrix).
func invertSPD(a []float64, d int) (inv []float64, logDet float64, ok bool) {
	inv = make([]float64, d*d)
	if logDet, ok = numeric.InverseSPD(inv, a, d); !ok {
		return nil, 0, false
	}
	return inv, logDet, true
}

// HessianFD writes the Hessian of f at x into dst (row-major) by finite
// differences with step h_i = 1e-3·max(1, |x_i|): the five-point rule
// (error O(h⁴)) on the diagonal, the four-point rule (O(h²)) off it.
func HessianFD(dst []float64, f func([]float64) float64, x []float64) {
	d := len(x)
	y := append([]float64(nil), x...)
	at := func(i int, si float64, j int, sj float64) float64 {
		copy(y, x)
		y[i] += si
		y[j] += sj
		return f(y)
	}
	f0 := f(x)
	for i := range d {
		hi := 1e-3 * math.Max(1, math.Abs(x[i]))
		dst[i*d+i] = (-at(i, 2*hi, i, 0) + 16*at(i, hi, i, 0) - 30*f0 + 16*at(i, -hi, i, 0) - at(i, -2*hi, i, 0)) / (12 * hi * hi)
		for j := 0; j < i; j++ {
			hj := 1e-3 * math.Max(1, math.Abs(x[j]))
			v := (at(i, hi, j, hj) - at(i, hi, j, -hj) - at(i, -hi, j, hj) + at(i, -hi, j, -hj)) / (4 * hi * hj)
			dst[i*d+j], dst[j*d+i] = v, v
		}
	}
}

// errNotProper is returned when an approximation would not be a proper
// density.
var errNotProper = errors.New("approx: the approximation is not a proper density")
