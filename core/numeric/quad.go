package numeric

import (
	"errors"
	"math"
)

// Adaptive Gauss–Kronrod quadrature. gonum's integrate/quad applies a fixed
// rule; the exact quantities of core/approx (normalisers, moments,
// entropies and KL divergences of densities known up to a constant, PRML
// §10.1 and Fig. 10.1) need an error-controlled integral, so this is the
// globally adaptive scheme of QUADPACK's QAG (Piessens et al. 1983) with
// the 7-point Gauss and 15-point Kronrod pair: the interval of largest
// estimated error is bisected until the total error estimate meets the
// tolerance.

// QuadTol is the tolerance of IntegrateVec: component i has converged when
// its error estimate is at most max(Abs, Rel·|I_i|). The zero value means
// Abs = 1e-13, Rel = 1e-11 and MaxIntervals = 4000.
type QuadTol struct {
	Abs, Rel     float64
	MaxIntervals int
}

func (t QuadTol) withDefaults() QuadTol {
	if t.Abs <= 0 {
		t.Abs = 1e-13
	}
	if t.Rel <= 0 {
		t.Rel = 1e-11
	}
	if t.MaxIntervals <= 0 {
		t.MaxIntervals = 4000
	}
	return t
}

// Scale returns max(Abs, Rel·|v|) with the zero-value defaults: the error
// estimate that an integral of value v may have.
func (t QuadTol) Scale(v float64) float64 {
	t = t.withDefaults()
	return math.Max(t.Abs, t.Rel*math.Abs(v))
}

// ErrQuadLimit is returned (with the best estimate) when the tolerance was
// not met within QuadTol.MaxIntervals intervals.
var ErrQuadLimit = errors.New("numeric: adaptive quadrature did not meet its tolerance")

// The Kronrod nodes (xgk, positive half, decreasing; the odd-indexed ones
// are the Gauss nodes) and weights of the 15-point rule, and the weights of
// the embedded 7-point Gauss rule, on [−1, 1] (QUADPACK qk15).
var (
	xgk = [8]float64{
		0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
		0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
		0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
		0.207784955007898467600689403773245, 0,
	}
	wgk = [8]float64{
		0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
		0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
		0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
		0.204432940075298892414161999234649, 0.209482141084727828012999174891714,
	}
	wg7 = [4]float64{
		0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
		0.381830050505118944950369775488975, 0.417959183673469387755102040816327,
	}
)

// quadInterval is one interval of the adaptive scheme with its estimates.
type quadInterval struct {
	a, b     float64
	val, err []float64
}

// gk15 applies the Gauss–Kronrod pair to f on [a, b], writing the Kronrod
// estimate to val and |Kronrod − Gauss| to err; buf has room for 2m values.
func gk15(f func(x float64, out []float64), a, b float64, val, err, buf []float64) {
	m := len(val)
	c, h := (a+b)/2, (b-a)/2
	gauss := err // reuse err for the Gauss sum
	clear(val)
	clear(gauss)
	f1, f2 := buf[:m], buf[m:2*m]
	f(c, f1)
	for i := range m {
		val[i] = wgk[7] * f1[i]
		gauss[i] = wg7[3] * f1[i]
	}
	for j := range 7 {
		d := h * xgk[j]
		f(c-d, f1)
		f(c+d, f2)
		for i := range m {
			s := f1[i] + f2[i]
			val[i] += wgk[j] * s
			if j%2 == 1 {
				gauss[i] += wg7[j/2] * s
			}
		}
	}
	for i := range m {
		val[i] *= h
		err[i] = math.Abs(val[i] - gauss[i]*h)
	}
}

// IntegrateVec returns, in dst (resized to m), the integrals over [a, b] of
// the m components that f writes into out at x, by globally adaptive
// Gauss–Kronrod (7–15) quadrature: the interval whose worst component error,
// relative to that component's tolerance, is largest is bisected until
// every component meets its tolerance (see QuadTol). f must not keep out.
// The error is ErrQuadLimit if MaxIntervals was reached (dst then holds the
// best estimate) or if an estimate is not finite. The number of evaluations
// of f is 15 per interval examined.
func IntegrateVec(dst []float64, m int, f func(x float64, out []float64), a, b float64, tol QuadTol) ([]float64, error) {
	dst, _, err := integrateVec(dst, m, f, []float64{a, b}, tol)
	return dst, err
}

// IntegrateBreaks returns ∫ f(x) dx over [breaks[0], breaks[len−1]] and
// its error estimate, by the scheme of IntegrateVec started from the
// intervals between consecutive breaks (which must increase strictly):
// breaks at a peak and at its width let the scheme resolve a narrow peak
// in a wide range from the start.
func IntegrateBreaks(f func(float64) float64, breaks []float64, tol QuadTol) (value, errEst float64, err error) {
	v, e, err := IntegrateVecBreaks(nil, 1, func(x float64, out []float64) { out[0] = f(x) }, breaks, tol)
	if v == nil {
		return 0, 0, err
	}
	return v[0], e[0], err
}

// IntegrateVecBreaks is IntegrateVec over [breaks[0], breaks[len−1]],
// started from the intervals between consecutive breaks as IntegrateBreaks
// is; it returns the integrals in dst (resized to m) and their error
// estimates (the sums of the intervals' |Kronrod − Gauss|). Breaks that do
// not increase strictly are an error (nil results).
func IntegrateVecBreaks(dst []float64, m int, f func(x float64, out []float64), breaks []float64, tol QuadTol) (val, errEst []float64, err error) {
	if len(breaks) < 2 {
		return nil, nil, errors.New("numeric: IntegrateBreaks needs at least two breaks")
	}
	for i := 1; i < len(breaks); i++ {
		if !(breaks[i] > breaks[i-1]) {
			return nil, nil, errors.New("numeric: IntegrateBreaks needs strictly increasing breaks")
		}
	}
	return integrateVec(dst, m, f, breaks, tol)
}

// integrateVec is IntegrateVec over the intervals between breaks; it also
// returns the error estimates.
func integrateVec(dst []float64, m int, f func(x float64, out []float64), breaks []float64, tol QuadTol) ([]float64, []float64, error) {
	tol = tol.withDefaults()
	if cap(dst) < m {
		dst = make([]float64, m)
	}
	dst = dst[:m]
	buf := make([]float64, 2*m)
	newInterval := func(a, b float64) quadInterval {
		iv := quadInterval{a: a, b: b, val: make([]float64, m), err: make([]float64, m)}
		gk15(f, a, b, iv.val, iv.err, buf)
		return iv
	}
	ivs := make([]quadInterval, 0, len(breaks)-1)
	for i := 1; i < len(breaks); i++ {
		ivs = append(ivs, newInterval(breaks[i-1], breaks[i]))
	}
	errTot := make([]float64, m)
	for {
		clear(dst)
		clear(errTot)
		for _, iv := range ivs {
			for i := range m {
				dst[i] += iv.val[i]
				errTot[i] += iv.err[i]
			}
		}
		done := true
		scale := make([]float64, m)
		for i := range m {
			if math.IsNaN(dst[i]) || math.IsInf(dst[i], 0) {
				return dst, errTot, ErrQuadLimit
			}
			scale[i] = tol.Scale(dst[i])
			if errTot[i] > scale[i] {
				done = false
			}
		}
		if done {
			return dst, errTot, nil
		}
		if len(ivs) >= tol.MaxIntervals {
			return dst, errTot, ErrQuadLimit
		}
		worst, worstErr := 0, -1.0
		for k, iv := range ivs {
			var e float64
			for i := range m {
				e = math.Max(e, iv.err[i]/scale[i])
			}
			if e > worstErr {
				worst, worstErr = k, e
			}
		}
		iv := ivs[worst]
		mid := (iv.a + iv.b) / 2
		if mid <= iv.a || mid >= iv.b { // interval below floating-point resolution
			return dst, errTot, ErrQuadLimit
		}
		ivs[worst] = newInterval(iv.a, mid)
		ivs = append(ivs, newInterval(mid, iv.b))
	}
}

// Integrate returns ∫_a^b f(x) dx by IntegrateVec with one component.
func Integrate(f func(float64) float64, a, b float64, tol QuadTol) (float64, error) {
	v, err := IntegrateVec(nil, 1, func(x float64, out []float64) { out[0] = f(x) }, a, b, tol)
	return v[0], err
}

// IntegrateVec2 returns the integrals over the box [lo[0], hi[0]] ×
// [lo[1], hi[1]] of the m components that f writes into out at (x, y), by
// IntegrateVec over x of IntegrateVec over y (iterated adaptive quadrature).
// The inner integrals use a tolerance ten times tighter than tol, so that
// their errors do not spoil the outer one. It returns the first error met.
func IntegrateVec2(dst []float64, m int, f func(x, y float64, out []float64), lo, hi [2]float64, tol QuadTol) ([]float64, error) {
	tol = tol.withDefaults()
	inner := QuadTol{Abs: tol.Abs / 10, Rel: tol.Rel / 10, MaxIntervals: tol.MaxIntervals}
	var firstErr error
	var row []float64
	dst, err := IntegrateVec(dst, m, func(x float64, out []float64) {
		var e error
		row, e = IntegrateVec(row, m, func(y float64, o []float64) { f(x, y, o) }, lo[1], hi[1], inner)
		if e != nil && firstErr == nil {
			firstErr = e
		}
		copy(out, row)
	}, lo[0], hi[0], tol)
	if firstErr != nil {
		return dst, firstErr
	}
	return dst, err
}
