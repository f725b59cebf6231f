package linreg_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/linreg"
	"github.com/vbworkbench/vbw/core/vb"
)

// Fit polynomials of orders 0 to 5 to ten noisy points of a cubic on
// (−5, 5), the setting of PRML Fig. 10.9, and compare VB's lower bound with
// the exact log evidence computed by quadrature over α: both peak at the
// true order 3, and the bound is below the evidence by the KL divergence of
// q(w)q(α) from the posterior.
func Example() {
	rnd := rand.New(rand.NewPCG(10, 9))
	x, t := make([]float64, 10), make([]float64, 10)
	for i := range x {
		x[i] = -5 + 10*rnd.Float64()
		t[i] = 1 - x[i] - 0.3*x[i]*x[i] + 0.1*x[i]*x[i]*x[i] + 0.3*rnd.NormFloat64()
	}
	prior := linreg.Prior{A0: 1e-3, B0: 1e-3}
	for order := 0; order <= 5; order++ {
		p, err := linreg.NewProblem(linreg.Polynomial(x, order), t, 1/0.09)
		if err != nil {
			panic(err)
		}
		m, err := linreg.NewVB(p, prior, linreg.Settings{})
		if err != nil {
			panic(err)
		}
		r := vb.Run(m, vb.Settings{AbsTol: 1e-9})
		if err := r.Error(); err != nil {
			panic(err)
		}
		lnZ, _, err := p.LogEvidence(prior, linreg.QuadSettings{})
		if err != nil {
			panic(err)
		}
		fmt.Printf("order %d: bound %8.2f  ln p(t) %8.2f  gap %.3f\n", order, r.F, lnZ, lnZ-r.F)
	}
	// Output:
	// order 0: bound   -98.74  ln p(t)   -98.56  gap 0.181
	// order 1: bound   -97.29  ln p(t)   -96.99  gap 0.300
	// order 2: bound   -91.59  ln p(t)   -91.15  gap 0.444
	// order 3: bound   -21.05  ln p(t)   -21.02  gap 0.030
	// order 4: bound   -26.39  ln p(t)   -26.35  gap 0.039
	// order 5: bound   -31.72  ln p(t)   -31.62  gap 0.106
}
