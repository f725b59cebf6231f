package bnn

import "math"

// vbObjective returns f(x) and writes ∇f(x) into g; +Inf outside the
// domain.
type vbObjective func(x, g []float64) float64

// vbCG minimises by nonlinear conjugate gradients (Polak-Ribière with the
// PR+ restart, Nocedal and Wright 2006 §5.2) with a backtracking Armijo
// line search (c₁ = 10⁻⁴) whose first trial extrapolates the last step:
// the text's optimiser is a scaled conjugate gradient (L2135). It never
// returns a point above the start, keeps its buffers between calls and
// does not allocate for problems of one size. (core/numeric has no
// optimiser on main yet; an L-BFGS there would replace this.)
type vbCG struct {
	MaxIterations int
	g, d, xt, gt  []float64
}

func (o *vbCG) alloc(n int) {
	if len(o.g) != n {
		o.g, o.d, o.xt, o.gt = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	}
}

// Minimize runs at most MaxIterations iterations from x, overwriting x
// with the best point found, and returns f there.
func (o *vbCG) Minimize(f vbObjective, x []float64) float64 {
	n := len(x)
	o.alloc(n)
	fx := f(x, o.g)
	if math.IsInf(fx, 0) || math.IsNaN(fx) {
		return fx
	}
	for i := range o.d {
		o.d[i] = -o.g[i]
	}
	step := 0.0
	for it := 0; it < o.MaxIterations; it++ {
		var gd, gg float64
		for i := range n {
			gd += o.g[i] * o.d[i]
			gg += o.g[i] * o.g[i]
		}
		if gg == 0 {
			return fx
		}
		if gd >= 0 { // not a descent direction: restart along −g
			for i := range o.d {
				o.d[i] = -o.g[i]
			}
			gd = -gg
		}
		var dn float64
		for _, di := range o.d {
			dn += di * di
		}
		if step == 0 {
			step = 1e-2 / math.Sqrt(dn)
		} else {
			step *= 2
		}
		ok := false
		var ft float64
		for try := 0; try < 60; try++ {
			for i := range n {
				o.xt[i] = x[i] + step*o.d[i]
			}
			ft = f(o.xt, o.gt)
			if ft <= fx+1e-4*step*gd {
				ok = true
				break
			}
			step /= 4
		}
		if !ok || !(ft < fx) {
			// No decrease along d: restore the gradient at x and stop.
			f(x, o.g)
			return fx
		}
		// Polak-Ribière+ coefficient.
		var num, den float64
		for i := range n {
			num += o.gt[i] * (o.gt[i] - o.g[i])
			den += o.g[i] * o.g[i]
		}
		b := math.Max(0, num/den)
		if it%n == n-1 {
			b = 0
		}
		copy(x, o.xt)
		copy(o.g, o.gt)
		for i := range o.d {
			o.d[i] = -o.g[i] + b*o.d[i]
		}
		conv := fx-ft <= 1e-13*math.Max(1, math.Abs(ft))
		fx = ft
		if conv {
			break
		}
	}
	return fx
}
