package bnn

import (
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// The coefficients of erfc on [1.25, 1/0.35) (ra, sa) and [1/0.35, 6)
// (rb, sb), from Go's math/erf.go (BSD licence, after FreeBSD's s_erf.c).
const (
	ra0 = -9.86494403484714822705e-03
	ra1 = -6.93858572707181764372e-01
	ra2 = -1.05586262253232909814e+01
	ra3 = -6.23753324503260060396e+01
	ra4 = -1.62396669462573470355e+02
	ra5 = -1.84605092906711035994e+02
	ra6 = -8.12874355063065934246e+01
	ra7 = -9.81432934416914548592e+00
	sa1 = 1.96512716674392571292e+01
	sa2 = 1.37657754143519042600e+02
	sa3 = 4.34565877475229228821e+02
	sa4 = 6.45387271733267880336e+02
	sa5 = 4.29008140027567833386e+02
	sa6 = 1.08635005541779435134e+02
	sa7 = 6.57024977031928170135e+00
	sa8 = -6.04244152148580987438e-02
	rb0 = -9.86494292470009928597e-03
	rb1 = -7.99283237680523006574e-01
	rb2 = -1.77579549177547519889e+01
	rb3 = -1.60636384855821916062e+02
	rb4 = -6.37566443368389627722e+02
	rb5 = -1.02509513161107724954e+03
	rb6 = -4.83519191608651397019e+02
	sb1 = 3.03380607434824582924e+01
	sb2 = 3.25792512996573918826e+02
	sb3 = 1.53672958608443695994e+03
	sb4 = 3.19985821950859553908e+03
	sb5 = 2.55305040643316442583e+03
	sb6 = 4.74528541206955367215e+02
	sb7 = -2.24409524465858183362e+01
)

// erfScratch is the scratch of gTo for n values.
type erfScratch struct {
	e1, e2, zero []float64
	pos          []int32
}

func newErfScratch(n int) erfScratch {
	return erfScratch{e1: make([]float64, n), e2: make([]float64, n), zero: make([]float64, n), pos: make([]int32, n)}
}

// gTo sets dst_i = G(a_i) = math.Erf(a_i/√2) bit for bit, for len(dst) =
// len(a) ≤ the scratch's size; dst may be a. Arguments in [1.25, 6) (after
// the scaling by 1/√2) take math.Erf's own path, erf = 1 − e^{−z²−0.5625}
// e^{(z−x)(z+x)+R/S}/x, with its two exponentials computed for all such
// arguments at once by numeric.ExpSubTo (math.Exp bit for bit, four at a
// time); the others call math.Erf. For a network whose hidden units are
// often saturated this is most of the cost of E_D's gradient.
func gTo(dst, a []float64, sc *erfScratch) {
	m := 0
	for i, v := range a {
		x := v / math.Sqrt2
		ax := math.Abs(x)
		if !(ax >= 1.25 && ax < 6) { // NaN too
			dst[i] = math.Erf(x)
			continue
		}
		s := 1 / (ax * ax)
		var r, q float64
		if ax < 1/0.35 {
			r = ra0 + s*(ra1+s*(ra2+s*(ra3+s*(ra4+s*(ra5+s*(ra6+s*ra7))))))
			q = 1 + s*(sa1+s*(sa2+s*(sa3+s*(sa4+s*(sa5+s*(sa6+s*(sa7+s*sa8)))))))
		} else {
			r = rb0 + s*(rb1+s*(rb2+s*(rb3+s*(rb4+s*(rb5+s*rb6)))))
			q = 1 + s*(sb1+s*(sb2+s*(sb3+s*(sb4+s*(sb5+s*(sb6+s*sb7))))))
		}
		z := math.Float64frombits(math.Float64bits(ax) & 0xffffffff00000000)
		sc.e1[m] = -z*z - 0.5625
		sc.e2[m] = (z-ax)*(z+ax) + r/q
		sc.pos[m] = int32(i)
		dst[i] = x
		m++
	}
	if m == 0 {
		return
	}
	e1, e2 := sc.e1[:m], sc.e2[:m]
	numeric.ExpSubTo(e1, e1, sc.zero[:m])
	numeric.ExpSubTo(e2, e2, sc.zero[:m])
	for j, i := range sc.pos[:m] {
		x := dst[i]
		r := e1[j] * e2[j]
		if x < 0 {
			dst[i] = r/-x - 1
		} else {
			dst[i] = 1 - r/x
		}
	}
}
