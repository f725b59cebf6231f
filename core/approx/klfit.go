package approx

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/optimize"

	"github.com/vbworkbench/vbw/core/numeric"
)

// The minimisers of KL(q‖p) over a family of q (PRML eq. (10.3) with
// q(Z) restricted to a Gaussian, Lawrence L578–629, Figs 1.12–1.13; Turner
// & Sahani eq. (1.16)) are found by minimising, over q's parameters,
//
//	KL(q‖p) = −H[q] − E_q[ln p̃] + ln Z,
//
// where ln Z does not depend on q. E_q is taken by a fixed rule in q's own
// frame (x = m + L u), so the objective is a smooth function of the
// parameters: in one dimension by default a composite Gauss–Legendre rule
// over u ∈ [−12, 12] (normalRule1D), which resolves a sharp feature of p̃
// such as PRML Fig. 10.1's σ(20z + 4) where 64 Gauss–Hermite nodes leave
// the fitted variance 0.3 % off its optimum; otherwise a Gauss–Hermite
// product rule. It is minimised by BFGS (gonum optimize) with
// central-difference gradients. The reported KLs of the fit are then
// recomputed by adaptive quadrature (KLqp). A fit from a single start
// finds a local minimum: KL(q‖p) to a multimodal p has one per mode (PRML
// Fig. 10.3), so callers start from each mode and keep the best.

// hermiteRule is a Gauss–Hermite rule for E over N(0, 1): E[f] ≈ Σ w_k f(u_k).
type hermiteRule struct{ u, w []float64 }

func newHermite(n int) hermiteRule {
	x, w := make([]float64, n), make([]float64, n)
	quad.Hermite{}.FixedLocations(x, w, math.Inf(-1), math.Inf(1))
	for k := range x {
		x[k] *= math.Sqrt2
		w[k] /= math.Sqrt(math.Pi)
	}
	return hermiteRule{u: x, w: w}
}

// normalRule1D is a composite Gauss–Legendre rule for E over N(0, 1): 8
// nodes on each of 256 panels of [−12, 12] (width 0.094), weighted by the
// standard normal density. The mass beyond ±12 (about 4e-33) is left out.
func normalRule1D() (u, w []float64) {
	const panels, nodes, half = 256, 8, 12.0
	x, wx := make([]float64, nodes), make([]float64, nodes)
	h := 2 * half / panels
	for p := range panels {
		lo := -half + float64(p)*h
		quad.Legendre{}.FixedLocations(x, wx, lo, lo+h)
		for k := range x {
			u = append(u, x[k])
			w = append(w, wx[k]*math.Exp(-x[k]*x[k]/2)/math.Sqrt(2*math.Pi))
		}
	}
	return u, w
}

// product returns the rule's d-fold product: nodes (row-major, d per node)
// and weights for E over N(0, I_d).
func (h hermiteRule) product(d int) (u, w []float64) {
	n := len(h.u)
	total := 1
	for range d {
		total *= n
	}
	u, w = make([]float64, total*d), make([]float64, total)
	for k := range total {
		w[k] = 1
		r := k
		for i := range d {
			j := r % n
			r /= n
			u[k*d+i] = h.u[j]
			w[k] *= h.w[j]
		}
	}
	return u, w
}

// FitSettings control FitKLqp and FitMixtureKLqp. The zero value means the
// defaults.
type FitSettings struct {
	// Order is the number of Gauss–Hermite nodes per dimension. Default:
	// in one dimension the composite Gauss–Legendre rule of normalRule1D,
	// 32 Gauss–Hermite nodes per axis in two, 12 per axis above.
	Order int
	// MaxIterations caps BFGS's major iterations. Default 500.
	MaxIterations int
}

func (s FitSettings) withDefaults(d int) FitSettings {
	if s.Order <= 0 {
		switch {
		case d == 1:
			s.Order = 0 // normalRule1D
		case d == 2:
			s.Order = 32
		default:
			s.Order = 12
		}
	}
	if s.MaxIterations <= 0 {
		s.MaxIterations = 500
	}
	return s
}

// rule returns the nodes (row-major, d per node) and weights of the rule
// for E over N(0, I_d) that s (with its defaults) names.
func (s FitSettings) rule(d int) (u, w []float64) {
	if s.Order == 0 {
		return normalRule1D()
	}
	return newHermite(s.Order).product(d)
}

// FitResult is a fitted approximation with the value of its objective.
type FitResult struct {
	Q Normal
	// Objective is −H[q] − E_q[ln p̃] under the Gauss–Hermite rule: KL(q‖p)
	// less ln Z, comparable between fits to the same p̃.
	Objective  float64
	Iterations int
}

// minimize runs BFGS on obj from x0 with central-difference gradients.
func minimize(obj func([]float64) float64, x0 []float64, maxIter int) (*optimize.Result, error) {
	prob := optimize.Problem{
		Func: obj,
		Grad: func(dst, x []float64) { fd.Gradient(dst, obj, x, &fd.Settings{Formula: fd.Central}) },
	}
	res, err := optimize.Minimize(prob, x0, &optimize.Settings{MajorIterations: maxIter, GradientThreshold: 1e-9}, &optimize.BFGS{})
	if res == nil {
		return nil, err
	}
	if math.IsNaN(res.F) || math.IsInf(res.F, 0) {
		return nil, fmt.Errorf("approx: the KL objective is %v at the end of the fit", res.F)
	}
	return res, nil
}

// choleskyParams packs (m, L) as m, then the rows of L's lower triangle
// with ln L_ii on the diagonal.
func choleskyParams(q Normal) ([]float64, error) {
	d := q.Dim()
	l, ok := q.chol()
	if !ok {
		return nil, errNotProper
	}
	x := append([]float64(nil), q.Mean...)
	for i := range d {
		for j := 0; j <= i; j++ {
			v := l[i*d+j]
			if i == j {
				v = math.Log(v)
			}
			x = append(x, v)
		}
	}
	return x, nil
}

// unpackCholesky writes L (lower, row-major) from x's packed triangle.
func unpackCholesky(l, x []float64, d int) (sumLogDiag float64) {
	k := d
	for i := range d {
		for j := 0; j <= i; j++ {
			if i == j {
				sumLogDiag += x[k]
				l[i*d+j] = math.Exp(x[k])
			} else {
				l[i*d+j] = x[k]
			}
			k++
		}
	}
	return sumLogDiag
}

// FitKLqp returns the Gaussian that minimises KL(q‖p) for the unnormalised
// log density logp, by BFGS from init (see the comment above). logp must be
// finite on all of R^d (the rule's outer nodes lie some ten standard
// deviations out); a density with bounded support needs a transformation
// first.
func FitKLqp(logp func([]float64) float64, init Normal, s FitSettings) (FitResult, error) {
	d := init.Dim()
	s = s.withDefaults(d)
	u, w := s.rule(d)
	x0, err := choleskyParams(init)
	if err != nil {
		return FitResult{}, err
	}
	l := make([]float64, d*d)
	y := make([]float64, d)
	obj := func(x []float64) float64 {
		sld := unpackCholesky(l, x, d)
		var e float64
		for k := range w {
			uk := u[k*d : (k+1)*d]
			for i := range d {
				v := x[i]
				for j := 0; j <= i; j++ {
					v += l[i*d+j] * uk[j]
				}
				y[i] = v
			}
			e += w[k] * logp(y)
		}
		// −H[q] = −Σ ln L_ii − (d/2)(1 + ln 2π).
		return -sld - 0.5*float64(d)*(1+math.Log(2*math.Pi)) - e
	}
	res, err := minimize(obj, x0, s.MaxIterations)
	if err != nil {
		return FitResult{}, err
	}
	unpackCholesky(l, res.X, d)
	cov := make([]float64, d*d)
	for i := range d {
		for j := range d {
			var v float64
			for k := 0; k <= min(i, j); k++ {
				v += l[i*d+k] * l[j*d+k]
			}
			cov[i*d+j] = v
		}
	}
	return FitResult{Q: Normal{Mean: append([]float64(nil), res.X[:d]...), Cov: cov}, Objective: res.F, Iterations: res.Stats.MajorIterations}, nil
}

// Mixture is a normalised mixture of Gaussians Σ_m π_m N(x | μ_m, Σ_m), the
// richer q of Lawrence ch. 5 (L2172–2177, Fig. 5.6: two diagonal
// components fitted to a correlated Gaussian).
type Mixture struct {
	Weights []float64
	Comps   []Normal
}

// LogDensity returns x ↦ ln Σ_m π_m N(x | μ_m, Σ_m).
func (m Mixture) LogDensity() (func(x []float64) float64, error) {
	fs := make([]func([]float64) float64, len(m.Comps))
	for i, c := range m.Comps {
		f, err := c.LogDensity()
		if err != nil {
			return nil, err
		}
		fs[i] = f
	}
	lw := make([]float64, len(fs))
	return func(x []float64) float64 {
		for i, f := range fs {
			lw[i] = math.Log(m.Weights[i]) + f(x)
		}
		return numeric.LogSumExp(lw)
	}, nil
}

// Box returns the smallest box holding every component's box.
func (m Mixture) Box(sd float64) (lo, hi []float64) {
	for i, c := range m.Comps {
		l, h := c.Box(sd)
		if i == 0 {
			lo, hi = l, h
			continue
		}
		for k := range lo {
			lo[k], hi[k] = math.Min(lo[k], l[k]), math.Max(hi[k], h[k])
		}
	}
	return lo, hi
}

// Moments returns the mixture's mean and covariance.
func (m Mixture) Moments() Normal {
	d := m.Comps[0].Dim()
	out := Normal{Mean: make([]float64, d), Cov: make([]float64, d*d)}
	for k, c := range m.Comps {
		for i := range d {
			out.Mean[i] += m.Weights[k] * c.Mean[i]
		}
	}
	for k, c := range m.Comps {
		for i := range d {
			for j := range d {
				out.Cov[i*d+j] += m.Weights[k] * (c.Cov[i*d+j] + (c.Mean[i]-out.Mean[i])*(c.Mean[j]-out.Mean[j]))
			}
		}
	}
	return out
}

// FitMixtureKLqp returns the mixture of Gaussians with diagonal covariances
// that minimises KL(q‖p) = E_q[ln q − ln p̃] + ln Z for the unnormalised log
// density logp, from init (whose off-diagonal covariances are ignored): the
// weights by a softmax, the means and log variances free. Each component's
// expectation is a Gauss–Hermite product rule in its own frame.
func FitMixtureKLqp(logp func([]float64) float64, init Mixture, s FitSettings) (Mixture, float64, error) {
	k := len(init.Comps)
	d := init.Comps[0].Dim()
	s = s.withDefaults(d)
	u, w := s.rule(d)
	// Parameters: per component μ (d), ln σ² (d), then k−1 logits.
	x0 := make([]float64, 0, 2*k*d+k-1)
	for _, c := range init.Comps {
		x0 = append(x0, c.Mean...)
		for i := range d {
			x0 = append(x0, math.Log(c.Var(i)))
		}
	}
	for m := 1; m < k; m++ {
		x0 = append(x0, math.Log(init.Weights[m]/init.Weights[0]))
	}
	unpack := func(x []float64) Mixture {
		q := Mixture{Weights: make([]float64, k), Comps: make([]Normal, k)}
		lw := make([]float64, k)
		for m := 1; m < k; m++ {
			lw[m] = x[2*k*d+m-1]
		}
		lz := numeric.LogSumExp(lw)
		for m := range k {
			q.Weights[m] = math.Exp(lw[m] - lz)
			p := x[2*m*d : 2*(m+1)*d]
			c := Normal{Mean: append([]float64(nil), p[:d]...), Cov: make([]float64, d*d)}
			for i := range d {
				c.Cov[i*d+i] = math.Exp(p[d+i])
			}
			q.Comps[m] = c
		}
		return q
	}
	y := make([]float64, d)
	obj := func(x []float64) float64 {
		q := unpack(x)
		lq, err := q.LogDensity()
		if err != nil {
			return math.Inf(1)
		}
		var total float64
		for m, c := range q.Comps {
			var e float64
			for n := range w {
				for i := range d {
					y[i] = c.Mean[i] + math.Sqrt(c.Cov[i*d+i])*u[n*d+i]
				}
				e += w[n] * (lq(y) - logp(y))
			}
			total += q.Weights[m] * e
		}
		return total
	}
	res, err := minimize(obj, x0, s.MaxIterations)
	if err != nil {
		return Mixture{}, math.NaN(), err
	}
	return unpack(res.X), res.F, nil
}
