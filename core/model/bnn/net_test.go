package bnn

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestGIsTwoPhiMinusOne(t *testing.T) {
	for _, a := range []float64{-3, -1, -0.2, 0, 0.5, 2, 6} {
		phi := 0.5 * math.Erfc(-a/math.Sqrt2)
		if d := math.Abs(G(a) - (2*phi - 1)); d > 1e-15 {
			t.Errorf("G(%v) = %v, 2Φ−1 = %v", a, G(a), 2*phi-1)
		}
		h := 1e-6
		fd := (G(a+h) - G(a-h)) / (2 * h)
		if math.Abs(fd-GPrime(a)) > 1e-8 {
			t.Errorf("G'(%v) = %v, finite difference %v", a, GPrime(a), fd)
		}
	}
	if G(40) != 1 || G(-40) != -1 {
		t.Errorf("G(±40) = %v, %v, want ±1", G(40), G(-40))
	}
}

func TestForwardByHand(t *testing.T) {
	a := Arch{In: 2, Hidden: 1}
	// u = (1, 2, bias 0.5), v = (3, bias −1): f = 3 g(x1 + 2 x2 + 0.5) − 1.
	w := []float64{1, 2, 0.5, 3, -1}
	if a.NumWeights() != len(w) {
		t.Fatalf("NumWeights %d, want %d", a.NumWeights(), len(w))
	}
	x := []float64{0.3, -0.4}
	want := 3*G(0.3-0.8+0.5) - 1
	if got := a.Forward(w, x, nil); math.Abs(got-want) > 1e-15 {
		t.Errorf("Forward = %v, want %v", got, want)
	}
}

func TestErrorGradFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	a := Arch{In: 3, Hidden: 4}
	w := make([]float64, a.NumWeights())
	for k := range w {
		w[k] = r.NormFloat64()
	}
	x := make([][]float64, 7)
	tt := make([]float64, len(x))
	for n := range x {
		x[n] = []float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		tt[n] = r.NormFloat64()
	}
	g := make([]float64, len(w))
	e := a.ErrorGrad(w, x, tt, g, nil)
	var brute float64
	for n := range x {
		d := a.Forward(w, x[n], nil) - tt[n]
		brute += d * d / 2
	}
	if math.Abs(e-brute) > 1e-12*brute {
		t.Errorf("E_D = %v, brute %v", e, brute)
	}
	for k := range w {
		h := 1e-6
		w0 := w[k]
		w[k] = w0 + h
		ep := a.ErrorGrad(w, x, tt, nil, nil)
		w[k] = w0 - h
		em := a.ErrorGrad(w, x, tt, nil, nil)
		w[k] = w0
		fd := (ep - em) / (2 * h)
		if math.Abs(fd-g[k]) > 1e-6*(1+math.Abs(fd)) {
			t.Errorf("∂E/∂w[%d] = %v, finite difference %v", k, g[k], fd)
		}
	}
}

func TestGroups(t *testing.T) {
	a := Arch{In: 2, Hidden: 2}
	// layout: u_00 u_01 b_0 u_10 u_11 b_1 | v_0 v_1 v_bias
	for _, c := range []struct {
		p    Prior
		n    int
		want []int
	}{
		{Single, 1, []int{0, 0, 0, 0, 0, 0, 0, 0, 0}},
		{Grouped, 4, []int{0, 0, 1, 0, 0, 1, 2, 2, 3}},
		{ARD, 5, []int{0, 1, 2, 0, 1, 2, 3, 3, 4}},
	} {
		n, g := a.Groups(c.p)
		if n != c.n {
			t.Errorf("%v: %d groups, want %d", c.p, n, c.n)
		}
		for k := range g {
			if g[k] != c.want[k] {
				t.Errorf("%v: groups %v, want %v", c.p, g, c.want)
				break
			}
		}
	}
}
