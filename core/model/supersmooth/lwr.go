package supersmooth

import (
	"errors"
	"fmt"
	"math"
)

// LWR is the baseline of L1201, L1205: locally weighted linear regression
// (Atkeson, Moore & Schaal 1997) with the Gaussian kernel
// w_i = exp(−½h(x_i − x_q)²) (eq. 3.29) and one bandwidth h shared by every
// query, chosen by leave-one-out cross-validation. At a query it fits the
// line β₁(x − x_q) + β₀ by weighted least squares and predicts β₀, so the
// prediction is linear in y, ŷ(x_q) = Σ_j L_j(x_q) y_j, and the
// leave-one-out residual of point i is the closed form for linear
// smoothers, (y_i − ŷ(x_i))/(1 − L_i(x_i)) (Hastie & Tibshirani 1990 §3.4),
// exact here because dropping point i from the weighted fit at x_i is a
// rank-one downdate of the same weighted least squares.
type LWR struct {
	x, y []float64
}

// NewLWR returns the smoother of the data (x, y).
func NewLWR(x, y []float64) (*LWR, error) {
	if len(x) != len(y) || len(x) < 2 {
		return nil, fmt.Errorf("supersmooth: LWR of %d inputs and %d targets, want the same number, at least 2", len(x), len(y))
	}
	for i := range x {
		if math.IsNaN(x[i]) || math.IsInf(x[i], 0) || math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return nil, fmt.Errorf("supersmooth: LWR data point %d not finite", i)
		}
	}
	return &LWR{x: x, y: y}, nil
}

// ErrLWRSingular is returned where the weighted design of a query has no
// unique line: fewer than two points of non-negligible weight.
var ErrLWRSingular = errors.New("supersmooth: LWR weighted design singular")

// singularTol is the smallest det(XᵀWX)/(Σw u² · Σw) accepted: below it
// the local line is not determined to about 8 digits.
const singularTol = 1e-10

// fit returns the prediction at xq and the weight L_self(x_q) of the point
// self in it (0 if self < 0), leaving the point skip out (none if skip < 0).
func (l *LWR) fit(xq, h float64, self, skip int) (yhat, lself float64, err error) {
	var s00, s01, s11, r0, r1 float64
	for i, xi := range l.x {
		if i == skip {
			continue
		}
		u := xi - xq
		w := math.Exp(-0.5 * h * u * u)
		s00 += w * u * u
		s01 += w * u
		s11 += w
		r0 += w * u * l.y[i]
		r1 += w * l.y[i]
	}
	det := s00*s11 - s01*s01
	if !(det > singularTol*s00*s11) || !(s11 > 0) {
		return 0, 0, ErrLWRSingular
	}
	// Row 2 of (XᵀWX)⁻¹ is (−s01, s00)/det.
	yhat = (-s01*r0 + s00*r1) / det
	if self >= 0 {
		u := l.x[self] - xq
		w := math.Exp(-0.5 * h * u * u)
		lself = w * (-s01*u + s00) / det
	}
	return yhat, lself, nil
}

// Predict returns ŷ(x_q) at bandwidth h.
func (l *LWR) Predict(xq, h float64) (float64, error) {
	yhat, _, err := l.fit(xq, h, -1, -1)
	return yhat, err
}

// LOO returns the mean squared leave-one-out residual at bandwidth h by
// the closed form (y_i − ŷ(x_i))/(1 − L_i(x_i)); +Inf if a fit is singular
// or a point carries all of its own fit (L_i(x_i) ≥ 1 − 10⁻¹⁰).
func (l *LWR) LOO(h float64) float64 {
	sum := 0.0
	for i, xi := range l.x {
		yhat, lii, err := l.fit(xi, h, i, -1)
		if err != nil || !(1-lii > 1e-10) {
			return math.Inf(1)
		}
		r := (l.y[i] - yhat) / (1 - lii)
		sum += r * r
	}
	return sum / float64(len(l.x))
}

// LOOBrute returns the mean squared leave-one-out residual at bandwidth h
// by N refits, each without its point: the reference of LOO's closed form.
func (l *LWR) LOOBrute(h float64) float64 {
	sum := 0.0
	for i, xi := range l.x {
		yhat, _, err := l.fit(xi, h, -1, i)
		if err != nil {
			return math.Inf(1)
		}
		r := l.y[i] - yhat
		sum += r * r
	}
	return sum / float64(len(l.x))
}

// SelectBandwidth returns the bandwidth of hs with the smallest LOO (the
// first of equal ones) and every LOO value; an error if none is finite.
func (l *LWR) SelectBandwidth(hs []float64) (best float64, loo []float64, err error) {
	loo = make([]float64, len(hs))
	bi := -1
	for k, h := range hs {
		loo[k] = l.LOO(h)
		if !math.IsInf(loo[k], 1) && (bi < 0 || loo[k] < loo[bi]) {
			bi = k
		}
	}
	if bi < 0 {
		return 0, loo, errors.New("supersmooth: no bandwidth of the grid gives a finite leave-one-out error")
	}
	return hs[bi], loo, nil
}

// LogGrid returns n bandwidths log-spaced from lo to hi (both included).
func LogGrid(lo, hi float64, n int) []float64 {
	if n == 1 {
		return []float64{lo}
	}
	g := make([]float64, n)
	for k := range g {
		g[k] = math.Exp(math.Log(lo) + (math.Log(hi)-math.Log(lo))*float64(k)/float64(n-1))
	}
	return g
}
