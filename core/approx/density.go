package approx

import (
	"errors"
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Density is a density in one or two dimensions known up to a constant: LogP
// is ln p̃(x), p(x) = p̃(x)/Z. The box [Lo, Hi] is the domain of the
// quadratures that give its exact quantities: it must hold all of the mass
// but a negligible part (a tail of e^-40, say). LogP must be finite where
// p̃ is not negligible and must not keep x.
type Density struct {
	LogP   func(x []float64) float64
	Lo, Hi []float64
}

// Dim returns the dimension (1 or 2).
func (p Density) Dim() int { return len(p.Lo) }

func (p Density) check() error {
	if p.LogP == nil || len(p.Lo) != len(p.Hi) || len(p.Lo) < 1 || len(p.Lo) > 2 {
		return errors.New("approx: a Density needs LogP and a box of 1 or 2 dimensions")
	}
	for i := range p.Lo {
		if !(p.Lo[i] < p.Hi[i]) {
			return fmt.Errorf("approx: empty box [%v, %v]", p.Lo, p.Hi)
		}
	}
	return nil
}

// scanPoints is the number of points per axis of the scan for the maximum
// of ln p̃ (the shift that keeps the integrands in range): 401 in one
// dimension, 201 per axis in two.
func (p Density) scanPoints() int {
	if p.Dim() == 1 {
		return 401
	}
	return 201
}

// maxLogP returns the largest ln p̃ on a grid of the box.
func (p Density) maxLogP() float64 {
	best := math.Inf(-1)
	n := p.scanPoints()
	x := make([]float64, p.Dim())
	at := func(k, i int) float64 { return p.Lo[k] + (p.Hi[k]-p.Lo[k])*float64(i)/float64(n-1) }
	rows := 1
	if p.Dim() == 2 {
		rows = n
	}
	for i := range n {
		x[0] = at(0, i)
		for j := range rows {
			if p.Dim() == 2 {
				x[1] = at(1, j)
			}
			if v := p.LogP(x); v > best {
				best = v
			}
		}
	}
	return best
}

// integrate returns ∫_box p̃(x)e^{−shift} g(x) dx for the m components that
// g writes, g receiving x, ln p̃(x) and the weight p̃(x)e^{−shift}.
func (p Density) integrate(m int, shift float64, tol numeric.QuadTol, g func(x []float64, lp, w float64, out []float64)) ([]float64, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	x := make([]float64, p.Dim())
	eval := func(out []float64) {
		lp := p.LogP(x)
		w := math.Exp(lp - shift)
		if w == 0 {
			clear(out)
			return
		}
		g(x, lp, w, out)
	}
	if p.Dim() == 1 {
		return numeric.IntegrateVec(nil, m, func(t float64, out []float64) { x[0] = t; eval(out) }, p.Lo[0], p.Hi[0], tol)
	}
	return numeric.IntegrateVec2(nil, m, func(s, t float64, out []float64) { x[0], x[1] = s, t; eval(out) },
		[2]float64{p.Lo[0], p.Lo[1]}, [2]float64{p.Hi[0], p.Hi[1]}, tol)
}

// Exact holds the quantities of a Density computed by quadrature.
type Exact struct {
	LnZ     float64   // ln ∫ p̃
	Mean    []float64 // E_p[x]
	Cov     []float64 // Cov_p[x], row-major d×d
	Entropy float64   // H[p] = ln Z − E_p[ln p̃]
}

// Moments returns the Gaussian with p's mean and covariance: the minimiser
// of KL(p‖q) over Gaussians q (moment matching, PRML eqs. (10.17)–(10.19),
// Lawrence L482–490).
func (e Exact) Moments() Normal {
	return Normal{Mean: append([]float64(nil), e.Mean...), Cov: append([]float64(nil), e.Cov...)}
}

// Exact returns Z, the mean, the covariance and the entropy of p by
// adaptive quadrature over its box (numeric.IntegrateVec, IntegrateVec2),
// in one pass over the integrands p̃, p̃x_i, p̃x_ix_j and p̃ ln p̃.
func (p Density) Exact(tol numeric.QuadTol) (Exact, error) {
	if err := p.check(); err != nil {
		return Exact{}, err
	}
	d := p.Dim()
	shift := p.maxLogP()
	if math.IsInf(shift, 0) || math.IsNaN(shift) {
		return Exact{}, fmt.Errorf("approx: ln p̃ is %v at every grid point of the box", shift)
	}
	m := 2 + d + d*d
	v, err := p.integrate(m, shift, tol, func(x []float64, lp, w float64, out []float64) {
		out[0] = w
		out[1] = w * lp
		for i := range d {
			out[2+i] = w * x[i]
			for j := range d {
				out[2+d+i*d+j] = w * x[i] * x[j]
			}
		}
	})
	if err != nil {
		return Exact{}, fmt.Errorf("approx: exact moments: %w", err)
	}
	z := v[0]
	e := Exact{LnZ: shift + math.Log(z), Mean: make([]float64, d), Cov: make([]float64, d*d)}
	for i := range d {
		e.Mean[i] = v[2+i] / z
	}
	for i := range d {
		for j := range d {
			e.Cov[i*d+j] = v[2+d+i*d+j]/z - e.Mean[i]*e.Mean[j]
		}
	}
	e.Entropy = e.LnZ - v[1]/z
	return e, nil
}

// Q is a normalised approximating density: a Normal (through AsQ) or a
// Mixture. LogDensity returns x ↦ ln q(x); Box returns a box that holds all
// of q's mass but a negligible part.
type Q interface {
	LogDensity() (func(x []float64) float64, error)
	Box(sd float64) (lo, hi []float64)
}

// qBoxSD is the half-width of q's quadrature box in standard deviations.
const qBoxSD = 12

// onBox returns q as a Density on its quadrature box (qBoxSD standard
// deviations), for expectations under q.
func onBox(q Q) (Density, error) {
	lq, err := q.LogDensity()
	if err != nil {
		return Density{}, err
	}
	lo, hi := q.Box(qBoxSD)
	return Density{LogP: lq, Lo: lo, Hi: hi}, nil
}

// KLqp returns KL(q‖p) = E_q[ln q − ln p̃] + ln Z (PRML eq. (10.4)'s KL,
// the divergence variational Bayes minimises), by quadrature over q's box;
// ex holds p's exact ln Z.
func KLqp(q Q, p Density, ex Exact, tol numeric.QuadTol) (float64, error) {
	qd, err := onBox(q)
	if err != nil {
		return math.NaN(), err
	}
	v, err := qd.integrate(2, 0, tol, func(x []float64, lqx, w float64, out []float64) {
		out[0] = w
		out[1] = w * (lqx - p.LogP(x))
	})
	if err != nil {
		return math.NaN(), fmt.Errorf("approx: KL(q‖p): %w", err)
	}
	return v[1]/v[0] + ex.LnZ, nil
}

// KLpq returns KL(p‖q) = E_p[ln p̃ − ln q] − ln Z (PRML eq. (10.16)'s
// divergence, the one expectation propagation minimises locally), by
// quadrature over p's box.
func KLpq(p Density, ex Exact, q Q, tol numeric.QuadTol) (float64, error) {
	lq, err := q.LogDensity()
	if err != nil {
		return math.NaN(), err
	}
	shift := ex.LnZ
	v, err := p.integrate(2, shift, tol, func(x []float64, lp, w float64, out []float64) {
		out[0] = w
		out[1] = w * (lp - lq(x))
	})
	if err != nil {
		return math.NaN(), fmt.Errorf("approx: KL(p‖q): %w", err)
	}
	return v[1]/v[0] - ex.LnZ, nil
}

// QEntropy returns H[q] = −E_q[ln q] by quadrature over q's box (for a
// Normal, Normal.Entropy is the closed form).
func QEntropy(q Q, tol numeric.QuadTol) (float64, error) {
	qd, err := onBox(q)
	if err != nil {
		return math.NaN(), err
	}
	v, err := qd.integrate(2, 0, tol, func(x []float64, lqx, w float64, out []float64) {
		out[0] = w
		out[1] = -w * lqx
	})
	if err != nil {
		return math.NaN(), err
	}
	return v[1] / v[0], nil
}

// Row is one line of a gallery table: an approximation's mean, covariance
// and entropy and its KL divergences from and to the exact density.
type Row struct {
	Mean    []float64
	Cov     []float64
	Entropy float64
	KLqp    float64 // KL(q‖p)
	KLpq    float64 // KL(p‖q)
}

// ExactRow returns the exact density's own row (both KLs 0).
func (e Exact) Row() Row {
	return Row{Mean: e.Mean, Cov: e.Cov, Entropy: e.Entropy}
}

// Compare returns the row of the Normal q against p: its own mean,
// covariance and entropy, and both KLs by quadrature.
func Compare(q Normal, p Density, ex Exact, tol numeric.QuadTol) (Row, error) {
	r := Row{Mean: q.Mean, Cov: q.Cov, Entropy: q.Entropy()}
	var err error
	if r.KLqp, err = KLqp(q, p, ex, tol); err != nil {
		return r, err
	}
	r.KLpq, err = KLpq(p, ex, q, tol)
	return r, err
}
