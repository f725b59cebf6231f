package bnn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// hessProblem is a network of shape a with n random points.
func hessProblem(r *rand.Rand, a Arch, n int) (*Problem, []float64) {
	x := make([][]float64, n)
	t := make([]float64, n)
	for i := range x {
		x[i] = make([]float64, a.In)
		for j := range x[i] {
			x[i][j] = r.NormFloat64()
		}
		t[i] = r.NormFloat64()
	}
	p, err := NewProblem(a, x, t)
	if err != nil {
		panic(err)
	}
	w := make([]float64, a.NumWeights())
	for k := range w {
		w[k] = r.NormFloat64()
	}
	return p, w
}

// The exact Hessian against central differences of the analytic gradient
// (itself checked against finite differences of E_D in net_test.go).
func TestErrorHessianFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, a := range []Arch{{In: 1, Hidden: 1}, {In: 3, Hidden: 4}} {
		p, w := hessProblem(r, a, 9)
		k := a.NumWeights()
		h := make([]float64, k*k)
		e := p.ErrorHessian(w, p.X, p.T, h)
		if e0 := p.ErrorGrad(w, p.X, p.T, nil, nil); math.Abs(e-e0) > 1e-12*e0 {
			t.Errorf("%v: ErrorHessian's E_D %v, ErrorGrad's %v", a, e, e0)
		}
		gp, gm := make([]float64, k), make([]float64, k)
		const d = 1e-5
		for q := range k {
			w0 := w[q]
			w[q] = w0 + d
			p.ErrorGrad(w, p.X, p.T, gp, nil)
			w[q] = w0 - d
			p.ErrorGrad(w, p.X, p.T, gm, nil)
			w[q] = w0
			for pp := range k {
				fd := (gp[pp] - gm[pp]) / (2 * d)
				if got := h[pp*k+q]; math.Abs(got-fd) > 1e-6*(1+math.Abs(fd)) {
					t.Errorf("%v: ∂²E_D/∂w%d∂w%d = %v, finite difference %v", a, pp, q, got, fd)
				}
			}
		}
	}
}

func TestHessianAddsThePrior(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	a := Arch{In: 2, Hidden: 2}
	p, w := hessProblem(r, a, 5)
	ng, group := a.Groups(Grouped)
	alpha := []float64{0.5, 2, 3, 7}[:ng]
	k := a.NumWeights()
	hd, h := make([]float64, k*k), make([]float64, k*k)
	ed := p.ErrorHessian(w, p.X, p.T, hd)
	m := p.Hessian(w, alpha, 4, group, h)
	want := 4 * ed
	for i := range k {
		want += alpha[group[i]] * w[i] * w[i] / 2
		for j := range k {
			v := 4 * hd[i*k+j]
			if i == j {
				v += alpha[group[i]]
			}
			if math.Abs(h[i*k+j]-v) > 1e-12*(1+math.Abs(v)) {
				t.Fatalf("H[%d,%d] = %v, want %v", i, j, h[i*k+j], v)
			}
		}
	}
	if math.Abs(m-want) > 1e-12*want {
		t.Errorf("M(w) = %v, want %v", m, want)
	}
}

func TestOutputGradFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	a := Arch{In: 3, Hidden: 2}
	_, w := hessProblem(r, a, 1)
	x := []float64{0.3, -1.2, 0.7}
	g := make([]float64, a.NumWeights())
	f := a.OutputGrad(w, x, g, nil)
	if f0 := a.Forward(w, x, nil); f != f0 {
		t.Errorf("OutputGrad's f %v, Forward's %v", f, f0)
	}
	for k := range w {
		const d = 1e-6
		w0 := w[k]
		w[k] = w0 + d
		fp := a.Forward(w, x, nil)
		w[k] = w0 - d
		fm := a.Forward(w, x, nil)
		w[k] = w0
		if fd := (fp - fm) / (2 * d); math.Abs(fd-g[k]) > 1e-8 {
			t.Errorf("∂f/∂w%d = %v, finite difference %v", k, g[k], fd)
		}
	}
}

func BenchmarkErrorHessian(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	a := Arch{In: 12, Hidden: 8}
	p, w := hessProblem(r, a, 209)
	h := make([]float64, a.NumWeights()*a.NumWeights())
	b.ReportAllocs()
	for b.Loop() {
		p.ErrorHessian(w, p.X, p.T, h)
	}
}

func BenchmarkErrorGrad(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	a := Arch{In: 12, Hidden: 8}
	p, w := hessProblem(r, a, 209)
	g, act := make([]float64, a.NumWeights()), make([]float64, a.Hidden)
	b.ReportAllocs()
	for b.Loop() {
		p.ErrorGrad(w, p.X, p.T, g, act)
	}
}
