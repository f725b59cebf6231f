package lds_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/lds"
)

// smallParams is a two-state LDS with two outputs and one input and a
// non-trivial x_0 prior.
func smallParams() *lds.Params {
	return &lds.Params{
		A:      mat.NewDense(2, 2, []float64{0.7, 0.4, -0.2, 0.5}),
		B:      mat.NewDense(2, 1, []float64{1, -0.5}),
		C:      mat.NewDense(2, 2, []float64{1, 0.3, -0.6, 2}),
		D:      mat.NewDense(2, 1, []float64{0.4, 0}),
		Rho:    []float64{2, 0.5},
		Mu0:    []float64{1, -2},
		Sigma0: mat.NewSymDense(2, []float64{2, 0.5, 0.5, 1}),
	}
}

// TestSimulateMoments checks the generator's conventions by their
// moments over 40000 draws of two steps with a constant input u = 1: x_1
// has mean Aμ_0 + B and covariance AΣ_0Aᵀ + I (the corrected eq. 5.15,
// which prints AᵀΣ_0A + Q; targets §4 #1), x_2 − A x_1 − B is N(0, I) and
// y_t − C x_t − D is N(0, diag(ρ)⁻¹). Each sample mean and (co)variance
// must be within 4 standard errors (estimated from the draws) of its
// value.
func TestSimulateMoments(t *testing.T) {
	par := smallParams()
	rnd := rand.New(rand.NewPCG(81, 0))
	const n = 40000
	u := mat.NewDense(2, 1, []float64{1, 1})
	// Expected x_1 moments.
	var m1 mat.VecDense
	m1.MulVec(par.A, mat.NewVecDense(2, par.Mu0))
	m1.AddVec(&m1, mat.NewVecDense(2, []float64{1, -0.5}))
	var s1 mat.Dense
	s1.Product(par.A, par.Sigma0, par.A.T())
	s1.Add(&s1, mat.NewDiagDense(2, []float64{1, 1}))

	// Samples of the quantities whose means are known: x_1 (2), the
	// centred products of x_1 (3), the state noise of step 2 and its
	// squares (4) and the output noise of both steps and their squares (8).
	type moment struct {
		name string
		want float64
		sum  float64
		sum2 float64
	}
	var ms []moment
	add := func(i int, name string, want, v float64) {
		if len(ms) <= i {
			ms = append(ms, moment{name: name, want: want})
		}
		ms[i].sum += v
		ms[i].sum2 += v * v
	}
	for range n {
		seq, x := lds.Simulate(rnd, par, 2, u)
		i := 0
		for a := 0; a < 2; a++ {
			add(i, "E[x_1]", m1.AtVec(a), x.At(0, a))
			i++
		}
		for a := 0; a < 2; a++ {
			for b := a; b < 2; b++ {
				add(i, "Cov(x_1)", s1.At(a, b), (x.At(0, a)-m1.AtVec(a))*(x.At(0, b)-m1.AtVec(b)))
				i++
			}
		}
		for a := 0; a < 2; a++ {
			w := x.At(1, a) - par.A.At(a, 0)*x.At(0, 0) - par.A.At(a, 1)*x.At(0, 1) - par.B.At(a, 0)
			add(i, "E[w_2]", 0, w)
			add(i+1, "E[w_2²]", 1, w*w)
			i += 2
		}
		for tt := 0; tt < 2; tt++ {
			for s := 0; s < 2; s++ {
				v := seq.Y.At(tt, s) - par.C.At(s, 0)*x.At(tt, 0) - par.C.At(s, 1)*x.At(tt, 1) - par.D.At(s, 0)
				add(i, "E[v_t]", 0, v)
				add(i+1, "E[v_t²]", 1/par.Rho[s], v*v)
				i += 2
			}
		}
	}
	for _, m := range ms {
		mean := m.sum / n
		se := math.Sqrt((m.sum2/n - mean*mean) / n)
		if math.Abs(mean-m.want) > 4*se {
			t.Errorf("%s: sample %.4f ± %.4f, want %.4f", m.name, mean, se, m.want)
		}
	}
}

// TestLogLikelihoodDense checks Params.LogLikelihood, the Kalman filter at
// point parameters, against the log-density of y_{1:T} as one Gaussian
// vector (T = 4, two sequences with different inputs), whose mean and
// covariance follow from x_t = A^t x_0 + Σ_{r ≤ t} A^{t−r}(B u_r + w_r):
// E[x_t] = A^t μ_0 + Σ_r A^{t−r}B u_r, Cov(x_t, x_s) = A^tΣ_0(A^s)ᵀ +
// Σ_{r ≤ min(t,s)} A^{t−r}(A^{s−r})ᵀ, and y_t = C x_t + D u_t + v_t
// (relative error 1e-12).
func TestLogLikelihoodDense(t *testing.T) {
	par := smallParams()
	rnd := rand.New(rand.NewPCG(82, 0))
	const T = 4
	var data []lds.Sequence
	var want float64
	for range 2 {
		u := mat.NewDense(T, 1, nil)
		for tt := 0; tt < T; tt++ {
			u.Set(tt, 0, rnd.NormFloat64())
		}
		seq, _ := lds.Simulate(rnd, par, T, u)
		data = append(data, seq)
		want += denseLogLik(par, seq)
	}
	got, err := par.LogLikelihood(data)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Errorf("LogLikelihood = %.15g, dense Gaussian %.15g", got, want)
	}
}

// denseLogLik is ln p(y_{1:T}) of one sequence as a single Gaussian vector.
func denseLogLik(par *lds.Params, seq lds.Sequence) float64 {
	T, p := seq.Y.Dims()
	k, _ := par.A.Dims()
	pow := make([]*mat.Dense, T+1) // A^t
	pow[0] = mat.NewDense(k, k, nil)
	for j := 0; j < k; j++ {
		pow[0].Set(j, j, 1)
	}
	for tt := 1; tt <= T; tt++ {
		pow[tt] = new(mat.Dense)
		pow[tt].Mul(par.A, pow[tt-1])
	}
	mx := make([]*mat.VecDense, T+1)
	mx[0] = mat.NewVecDense(k, append([]float64(nil), par.Mu0...))
	for tt := 1; tt <= T; tt++ {
		mx[tt] = new(mat.VecDense)
		mx[tt].MulVec(par.A, mx[tt-1])
		var bu mat.VecDense
		bu.MulVec(par.B, seq.U.RowView(tt-1))
		mx[tt].AddVec(mx[tt], &bu)
	}
	covX := func(a, b int) *mat.Dense {
		var c mat.Dense
		c.Product(pow[a], par.Sigma0, pow[b].T())
		for r := 1; r <= min(a, b); r++ {
			var q mat.Dense
			q.Mul(pow[a-r], pow[b-r].T())
			c.Add(&c, &q)
		}
		return &c
	}
	mean := mat.NewVecDense(T*p, nil)
	cov := mat.NewSymDense(T*p, nil)
	for a := 1; a <= T; a++ {
		var my, du mat.VecDense
		my.MulVec(par.C, mx[a])
		du.MulVec(par.D, seq.U.RowView(a-1))
		my.AddVec(&my, &du)
		for s := 0; s < p; s++ {
			mean.SetVec((a-1)*p+s, my.AtVec(s))
		}
		for b := a; b <= T; b++ {
			var cy mat.Dense
			cy.Product(par.C, covX(a, b), par.C.T())
			for s := 0; s < p; s++ {
				for r := 0; r < p; r++ {
					v := cy.At(s, r)
					if a == b && s == r {
						v += 1 / par.Rho[s]
					}
					cov.SetSym((a-1)*p+s, (b-1)*p+r, v)
				}
			}
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(cov) {
		panic("covariance of y not positive definite")
	}
	dev := mat.NewVecDense(T*p, nil)
	for tt := 0; tt < T; tt++ {
		for s := 0; s < p; s++ {
			dev.SetVec(tt*p+s, seq.Y.At(tt, s)-mean.AtVec(tt*p+s))
		}
	}
	var sol mat.VecDense
	if err := ch.SolveVecTo(&sol, dev); err != nil {
		panic(err)
	}
	return -0.5*mat.Dot(dev, &sol) - 0.5*ch.LogDet() - 0.5*float64(T*p)*math.Log(2*math.Pi)
}
