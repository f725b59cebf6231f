package linreg_test

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/linreg"
	"github.com/vbworkbench/vbw/core/vb"
)

// cubic is the polynomial the tests draw from (lowest power first).
var cubic = []float64{1, -1, -0.3, 0.1}

// draw returns n inputs uniform on (−5, 5) and targets of the polynomial
// coef with noise of variance 0.09: the data of PRML Fig. 10.9 (L706–710).
func draw(n int, coef []float64, rnd *rand.Rand) (x, t []float64) {
	x, t = make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = -5 + 10*rnd.Float64()
		v := 0.0
		for j := len(coef) - 1; j >= 0; j-- {
			v = v*x[i] + coef[j]
		}
		t[i] = v + 0.3*rnd.NormFloat64()
	}
	return x, t
}

// beta is the noise precision of the test data, 1/0.09.
const beta = 1 / 0.09

// problem returns the problem of order on n points of seed.
func problem(t testing.TB, n, order int, seed uint64) (*linreg.Problem, *mat.Dense, []float64) {
	t.Helper()
	x, tt := draw(n, cubic, rand.New(rand.NewPCG(seed, 10)))
	phi := linreg.Polynomial(x, order)
	p, err := linreg.NewProblem(phi, tt, beta)
	if err != nil {
		t.Fatal(err)
	}
	return p, phi, tt
}

// fit runs VB to convergence (F within 1e-10 nats).
func fit(t testing.TB, p *linreg.Problem, prior linreg.Prior) (*linreg.VB, vb.Result) {
	t.Helper()
	m, err := linreg.NewVB(p, prior, linreg.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	r := vb.Run(m, vb.Settings{MaxIterations: 100000, RelTol: -1, AbsTol: 1e-10})
	if err := r.Error(); err != nil {
		t.Fatal(err)
	}
	return m, r
}
