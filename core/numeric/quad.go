package numeric

import (
	"errors"
	"fmt"
	"math"
)

// The 15-point Kronrod extension of the 7-point Gauss–Legendre rule on
// [−1, 1] (QUADPACK's qk15, Piessens et al. 1983): nodes kronX (the odd
// ones, kronX[1], kronX[3], kronX[5], and 0 are the Gauss nodes) with
// weights kronW, and the Gauss weights gaussW of kronX[1], kronX[3],
// kronX[5], 0.
var (
	kronX = [8]float64{
		0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
		0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
		0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
		0.207784955007898467600689403773245, 0,
	}
	kronW = [8]float64{
		0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
		0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
		0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
		0.204432940075298892414161999234649, 0.209482141084727828012999174891714,
	}
	gaussW = [4]float64{
		0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
		0.381830050505118944950369775488975, 0.417959183673469387755102040816327,
	}
)

// ErrQuadLimit is wrapped by the error of Integrate when the error estimate
// is still above the tolerance after the largest number of intervals.
var ErrQuadLimit = errors.New("numeric: quadrature did not reach its tolerance")

// kronrod15 returns the 15-point Kronrod estimate of ∫_a^b f and the
// difference from the 7-point Gauss estimate, the error estimate of the
// interval.
func kronrod15(f func(float64) float64, a, b float64) (k, e float64) {
	c, h := (a+b)/2, (b-a)/2
	fc := f(c)
	k = kronW[7] * fc
	g := gaussW[3] * fc
	for j := 0; j < 7; j++ {
		s := f(c-h*kronX[j]) + f(c+h*kronX[j])
		k += kronW[j] * s
		if j%2 == 1 {
			g += gaussW[j/2] * s
		}
	}
	return k * h, math.Abs((k - g) * h)
}

// quadInterval is one interval of the adaptive partition.
type quadInterval struct{ a, b, value, err float64 }

// Integrate returns ∫ f(x) dx over [breaks[0], breaks[len−1]] and an estimate
// of its absolute error, by globally adaptive Gauss–Kronrod (7, 15)
// quadrature (QUADPACK's QAG, Piessens et al. 1983): each interval between
// consecutive breaks is integrated by the 15-point Kronrod rule, whose
// difference from the embedded 7-point Gauss rule is its error estimate, and
// the interval with the largest estimate is halved until the estimates sum
// to at most max(absTol, relTol·|integral|). The breaks must be finite and
// increasing; putting a break at every peak and at the scale of every
// feature of f keeps the rule from stepping over a narrow peak, which no
// adaptive rule can detect from samples that miss it. It returns an error
// wrapping ErrQuadLimit, with the value reached, if maxIntervals intervals
// do not meet the tolerance, and an error if f returns a NaN or an
// infinity.
func Integrate(f func(float64) float64, breaks []float64, absTol, relTol float64, maxIntervals int) (value, errEst float64, err error) {
	if len(breaks) < 2 {
		return 0, 0, errors.New("numeric: Integrate needs at least two breaks")
	}
	parts := make([]quadInterval, 0, max(maxIntervals, len(breaks)))
	for i := 1; i < len(breaks); i++ {
		a, b := breaks[i-1], breaks[i]
		if !(b > a) || math.IsInf(a, 0) || math.IsInf(b, 0) {
			return 0, 0, fmt.Errorf("numeric: Integrate: breaks must be finite and increasing (%g, %g)", a, b)
		}
		v, e := kronrod15(f, a, b)
		parts = append(parts, quadInterval{a, b, v, e})
	}
	for {
		value, errEst = 0, 0
		worst := 0
		for i, p := range parts {
			value += p.value
			errEst += p.err
			if p.err > parts[worst].err {
				worst = i
			}
		}
		if math.IsNaN(value) || math.IsInf(value, 0) {
			return value, errEst, fmt.Errorf("numeric: Integrate: the integrand is not finite on [%g, %g]", breaks[0], breaks[len(breaks)-1])
		}
		if errEst <= math.Max(absTol, relTol*math.Abs(value)) {
			return value, errEst, nil
		}
		if len(parts) >= maxIntervals {
			return value, errEst, fmt.Errorf("%w: error %.3g after %d intervals", ErrQuadLimit, errEst, len(parts))
		}
		p := parts[worst]
		mid := (p.a + p.b) / 2
		if !(mid > p.a && mid < p.b) {
			return value, errEst, fmt.Errorf("%w: an interval at %g cannot be halved", ErrQuadLimit, p.a)
		}
		v1, e1 := kronrod15(f, p.a, mid)
		v2, e2 := kronrod15(f, mid, p.b)
		parts[worst] = quadInterval{p.a, mid, v1, e1}
		parts = append(parts, quadInterval{mid, p.b, v2, e2})
	}
}
