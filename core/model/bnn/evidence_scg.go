package bnn

import (
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// scgSettings are the stop rules of scg: at most MaxIterations
// iterations; stop once an accepted step moves every weight by less than
// TolX and the objective by less than TolF (L2197: both 10⁻⁷).
type scgSettings struct {
	MaxIterations int
	TolX, TolF    float64
	// After, when not nil, is called after every accepted step with the
	// iteration and the weights; returning true stops the optimiser
	// (early stopping's validation check).
	After func(iter int, w []float64) bool
}

// scgResult reports a run of scg.
type scgResult struct {
	F          float64
	Iterations int  // iterations used
	Evals      int  // gradient evaluations
	Converged  bool // stopped by TolX and TolF (not the cap)
}

// scg minimises f (which returns the objective and writes its gradient
// into g) from w, in place, by Møller's (1993) scaled conjugate gradients,
// the optimiser of the text's toy (L2134), as NETLAB's scg implements it:
// the curvature along the search direction from a finite difference of
// gradients (σ₀ = 10⁻⁴), a Levenberg-Marquardt scale λ raised or lowered
// by the ratio of actual to predicted reduction, Polak-Ribière directions
// restarted every K accepted steps. It runs in the caller (no goroutines).
func scg(f func(w, g []float64) float64, w []float64, s scgSettings) scgResult {
	const (
		sigma0    = 1e-4
		lambdaMin = 1e-15
		lambdaMax = 1e100
	)
	k := len(w)
	grad, gradOld := make([]float64, k), make([]float64, k)
	gplus, d, xnew, xplus := make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k)
	fold := f(w, grad)
	res := scgResult{F: fold, Evals: 1}
	for i := range d {
		d[i] = -grad[i]
	}
	success, nsuccess := true, 0
	lambda := 1.0
	var mu, kappa, theta float64
	for j := 1; j <= s.MaxIterations; j++ {
		res.Iterations = j
		if success {
			mu = numeric.Dot(d, grad)
			if mu >= 0 {
				for i := range d {
					d[i] = -grad[i]
				}
				mu = numeric.Dot(d, grad)
			}
			kappa = numeric.Dot(d, d)
			if kappa < 1e-300 {
				res.Converged = true
				return res
			}
			sigma := sigma0 / math.Sqrt(kappa)
			for i := range w {
				xplus[i] = w[i] + sigma*d[i]
			}
			f(xplus, gplus)
			res.Evals++
			theta = 0
			for i := range d {
				theta += d[i] * (gplus[i] - grad[i])
			}
			theta /= sigma
		}
		delta := theta + lambda*kappa
		if delta <= 0 {
			delta = lambda * kappa
			lambda -= theta / kappa
		}
		alpha := -mu / delta
		for i := range w {
			xnew[i] = w[i] + alpha*d[i]
		}
		fnew := f(xnew, gplus) // gplus is scratch here; the gradient at the accepted point is recomputed below
		res.Evals++
		Delta := 2 * (fnew - fold) / (alpha * mu)
		if Delta >= 0 && !math.IsNaN(fnew) {
			success = true
			nsuccess++
			var step float64
			for i := range w {
				step = math.Max(step, math.Abs(alpha*d[i]))
			}
			copy(w, xnew)
			copy(gradOld, grad)
			copy(grad, gplus)
			df := math.Abs(fnew - fold)
			fold = fnew
			res.F = fnew
			if s.After != nil && s.After(j, w) {
				return res
			}
			if step < s.TolX && df < s.TolF {
				res.Converged = true
				return res
			}
			if numeric.Dot(grad, grad) == 0 {
				res.Converged = true
				return res
			}
		} else {
			success = false
		}
		if Delta < 0.25 {
			lambda = math.Min(4*lambda, lambdaMax)
		}
		if Delta > 0.75 {
			lambda = math.Max(lambda/2, lambdaMin)
		}
		switch {
		case nsuccess == k:
			for i := range d {
				d[i] = -grad[i]
			}
			nsuccess = 0
		case success:
			var num float64
			for i := range grad {
				num += (gradOld[i] - grad[i]) * grad[i]
			}
			gamma := num / mu
			for i := range d {
				d[i] = gamma*d[i] - grad[i]
			}
		}
	}
	return res
}
