package backfit_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/backfit"
	"github.com/vbworkbench/vbw/core/vb"
)

// Bayesian backfitting with ARD (section 4.4.2) on 200 points of 10 inputs,
// of which only the first two drive the target: the precisions E[α_m] of
// the eight irrelevant inputs grow by orders of magnitude and their
// coefficients shrink to zero, with no d×d matrix anywhere.
func Example() {
	rnd := rand.New(rand.NewPCG(4, 2))
	const n, d = 200, 10
	x, y := make([]float64, n*d), make([]float64, n)
	for i := 0; i < n; i++ {
		for m := 0; m < d; m++ {
			x[i*d+m] = rnd.NormFloat64()
		}
		y[i] = 2*x[i*d] - x[i*d+1] + 0.3*rnd.NormFloat64()
	}
	p, err := backfit.NewProblem(x, d, y)
	if err != nil {
		panic(err)
	}
	m, err := backfit.NewVB(p, backfit.Prior{A: 1e-4, B: 1e-4}, backfit.Settings{ARD: true})
	if err != nil {
		panic(err)
	}
	r := vb.Run(m, vb.Settings{MaxIterations: 5000})
	if err := r.Error(); err != nil {
		panic(err)
	}
	for k := 0; k < d; k++ {
		fmt.Printf("b_%d = %6.3f  E[alpha] = %8.3g\n", k, m.Mean()[k], m.Alpha(k))
	}
	// Output:
	// b_0 =  1.986  E[alpha] =    0.254
	// b_1 = -1.011  E[alpha] =    0.979
	// b_2 =  0.003  E[alpha] = 4.13e+03
	// b_3 =  0.001  E[alpha] = 4.17e+03
	// b_4 =  0.006  E[alpha] = 3.55e+03
	// b_5 = -0.001  E[alpha] = 4.29e+03
	// b_6 = -0.014  E[alpha] = 2.25e+03
	// b_7 =  0.001  E[alpha] =  4.2e+03
	// b_8 =  0.007  E[alpha] = 3.43e+03
	// b_9 = -0.004  E[alpha] = 3.88e+03
}
