package bnn

import (
	"fmt"
	"math"
)

// G is the activation of eq. 5.3 (corrected; see the package comment):
// g(a) = erf(a/√2), which runs from −1 to 1.
func G(a float64) float64 { return math.Erf(a / math.Sqrt2) }

// GPrime is dg/da = √(2/π) exp(−a²/2).
func GPrime(a float64) float64 { return math.Sqrt(2/math.Pi) * math.Exp(-a*a/2) }

// Arch is the shape of the network of eq. 5.2: In inputs and Hidden hidden
// units, with an input bias and a hidden bias node.
//
// The weight vector w has NumWeights() = Hidden·(In+1) + Hidden + 1
// entries, laid out as
//
//	w[h·(In+1)+i]  u_hi, input i (i = In: the bias) to hidden unit h,
//	w[U()+h]       v_h, hidden unit h to the output (h = Hidden: the bias).
type Arch struct {
	In, Hidden int
}

// Check refuses a shape without inputs or hidden units.
func (a Arch) Check() error {
	if a.In < 1 || a.Hidden < 1 {
		return fmt.Errorf("bnn: network %d-%d-1 needs at least one input and one hidden unit", a.In, a.Hidden)
	}
	return nil
}

// U is the number of input-to-hidden weights (biases included), the offset
// of v in w.
func (a Arch) U() int { return a.Hidden * (a.In + 1) }

// NumWeights is K of eq. 5.6.
func (a Arch) NumWeights() int { return a.U() + a.Hidden + 1 }

// Forward returns f(x, w) (eq. 5.2) and writes the hidden units'
// activations u_hᵀx̃ into act (length Hidden) when act is not nil.
func (a Arch) Forward(w, x, act []float64) float64 {
	v := w[a.U():]
	f := v[a.Hidden]
	for h := 0; h < a.Hidden; h++ {
		u := w[h*(a.In+1) : (h+1)*(a.In+1)]
		s := u[a.In]
		for i, xi := range x[:a.In] {
			s += u[i] * xi
		}
		if act != nil {
			act[h] = s
		}
		f += v[h] * G(s)
	}
	return f
}

// ErrorGrad returns E_D(w) = ½ Σ_n (t_n − f(x_n, w))² (eq. 5.5) over the
// rows of x (each of length In) and, when grad is not nil, writes ∇_w E_D
// into it (length NumWeights). act is scratch of length Hidden, or better
// 2·Hidden (then no activation is evaluated twice); nil, or shorter than
// 2·Hidden, allocates 2·Hidden values once per call.
func (a Arch) ErrorGrad(w []float64, x [][]float64, t []float64, grad, act []float64) float64 {
	return a.errorGrad(w, x, t, grad, act)
}

// sqrt2OverPi is √(2/π), the scale of GPrime.
var sqrt2OverPi = math.Sqrt(2 / math.Pi)

// errorGrad is ErrorGrad. Per point it evaluates each hidden unit's g and,
// for the gradient, g′ once (an erf and an exp), then makes one pass over
// the input weights forward and one back: about 4·H·(I+1) + 4·H flops
// beside the 2·H special functions.
func (a Arch) errorGrad(w []float64, x [][]float64, t []float64, grad, act []float64) float64 {
	nh, ni := a.Hidden, a.In
	if len(act) < 2*nh {
		act = make([]float64, 2*nh)
	}
	gh, dh := act[:nh], act[nh:2*nh]
	if grad != nil {
		clear(grad[:a.NumWeights()])
	}
	u := w[:a.U()]
	v := w[a.U() : a.U()+nh+1]
	var e float64
	for n, xn := range x {
		xn = xn[:ni]
		f := v[nh]
		for h := range nh {
			uh := u[h*(ni+1) : (h+1)*(ni+1)]
			s := uh[ni]
			for i, xi := range xn {
				s += uh[i] * xi
			}
			g := math.Erf(s / math.Sqrt2)
			gh[h] = g
			f += v[h] * g
			if grad != nil {
				dh[h] = s
			}
		}
		r := f - t[n]
		e += r * r
		if grad == nil {
			continue
		}
		gv := grad[a.U() : a.U()+nh+1]
		gv[nh] += r
		for h := range nh {
			gv[h] += r * gh[h]
			s := dh[h]
			c := r * v[h] * sqrt2OverPi * math.Exp(-s*s/2)
			gu := grad[h*(ni+1) : (h+1)*(ni+1)]
			for i, xi := range xn {
				gu[i] += c * xi
			}
			gu[ni] += c
		}
	}
	return e / 2
}
