package bnn

import (
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// momentBlock is the number of input points whose activation moments
// expectED computes together: the exponentials of Owen's T (owenNodes a
// hidden unit), of G'(h) and of ∂T/∂a for momentBlock·H units go through
// one numeric.ExpSubTo call, four at a time, and the erf of ⟨g⟩ through
// gTo. 16 points of the sunspots' 8 hidden units are 3072 exponentials,
// 48 kB of arguments and results.
const momentBlock = 16

// owenXA and owenWA are owenT's nodes and weights as arrays (no bounds
// checks in gMomentsTo's loops).
var owenXA, owenWA = [owenNodes]float64(owenX), [owenNodes]float64(owenW)

// momentWork is the work space of gMomentsTo for up to n activations.
type momentWork struct {
	h, a, l  []float64 // h = μ/√(1+σ²), a = 1/√(1+2σ²), T's integration length
	ex1, ex2 []float64 // the arguments, then the values, of G'(h)'s and ∂T/∂a's exponentials
	arg, y   []float64 // per quadrature unit and node: −h²(1+x²)/2, then its exponential; 1 + x²
	idx      []int32   // the units whose T is a quadrature (|h| ≤ 40)
	zero     []float64
	erf      erfScratch
}

func newMomentWork(n int) *momentWork {
	return &momentWork{h: make([]float64, n), a: make([]float64, n), l: make([]float64, n),
		ex1: make([]float64, n), ex2: make([]float64, n),
		arg: make([]float64, n*owenNodes), y: make([]float64, n*owenNodes), idx: make([]int32, n),
		zero: make([]float64, n*owenNodes), erf: newErfScratch(n)}
}

// gMomentsTo sets e1[j], e2[j] and, when d is not nil, d[j] to the values
// gMoments(mu[j], v[j], &d[j]) returns, bit for bit (the same operations in
// the same order; TestGMomentsToBitForBit), for len(mu) ≤ the work space's
// size: ⟨g(a)⟩ = G(h) by gTo, ⟨g(a)²⟩ = 1 − 8T(h, a) with Owen's T by
// owenT's 24-point rule, whose exponentials, like those of the
// derivatives, are computed for all the activations at once by
// numeric.ExpSubTo (math.Exp bit for bit). It does not allocate.
func (w *momentWork) gMomentsTo(mu, v, e1, e2 []float64, d [][4]float64) {
	n := len(mu)
	m := 0
	for j := range n {
		vj := v[j]
		h := mu[j] / math.Sqrt(1+vj)
		a := 1 / math.Sqrt(1+2*vj)
		w.h[j], w.a[j] = h, a
		e2[j] = 1 // 1 − 8·0 where owenT returns 0
		ha := math.Abs(h)
		if a <= 0 || ha > 40 {
			continue
		}
		l := a
		if ha*l > owenCut {
			l = owenCut / ha
		}
		w.l[j] = l
		h2 := ha * ha / 2
		arg, y := (*[owenNodes]float64)(w.arg[m*owenNodes:]), (*[owenNodes]float64)(w.y[m*owenNodes:])
		for i, t := range &owenXA {
			x := l * t
			yi := 1 + x*x
			y[i] = yi
			arg[i] = -h2 * yi
		}
		w.idx[m] = int32(j)
		m++
	}
	ex := w.arg[:m*owenNodes]
	numeric.ExpSubTo(ex, ex, w.zero[:m*owenNodes])
	for q, j := range w.idx[:m] {
		ex, y := (*[owenNodes]float64)(w.arg[q*owenNodes:]), (*[owenNodes]float64)(w.y[q*owenNodes:])
		var s float64
		for i, wi := range &owenWA {
			s += wi * ex[i] / y[i]
		}
		e2[j] = 1 - 8*(s*w.l[j]/(2*math.Pi))
	}
	gTo(e1[:n], w.h[:n], &w.erf)
	if d == nil {
		return
	}
	for j := range n {
		h, a := w.h[j], w.a[j]
		w.ex1[j] = -h * h / 2
		w.ex2[j] = -h * h * (1 + a*a) / 2
	}
	numeric.ExpSubTo(w.ex1[:n], w.ex1[:n], w.zero[:n])
	numeric.ExpSubTo(w.ex2[:n], w.ex2[:n], w.zero[:n])
	for j := range n {
		vj, h, a := v[j], w.h[j], w.a[j]
		s1 := math.Sqrt(1 + vj)
		dh := 1 / s1
		dhv := -0.5 * h / (1 + vj)
		dav := -a / (1 + 2*vj)
		gp := math.Sqrt(2/math.Pi) * w.ex1[j]
		phi := gp / 2
		phiA := 0.5 * math.Erfc(-a*h/math.Sqrt2)
		tH := -phi * (phiA - 0.5)
		tA := w.ex2[j] / (2 * math.Pi * (1 + a*a))
		dj := &d[j]
		dj[0] = gp * dh
		dj[1] = gp * dhv
		dj[2] = -8 * tH * dh
		dj[3] = -8 * (tH*dhv + tA*dav)
	}
}
