package drift

import (
	"math"
	"math/rand/v2"
)

// simulate draws T steps of the model with d inputs x_n ~ N(0, I), w_0 = 0,
// drift precision lambda and noise precision psi.
func simulate(rnd *rand.Rand, T, d int, lambda, psi float64) (Data, []float64) {
	x := make([]float64, T*d)
	y := make([]float64, T)
	w := make([]float64, T*d)
	cur := make([]float64, d)
	for n := 0; n < T; n++ {
		var s float64
		for i := 0; i < d; i++ {
			cur[i] += rnd.NormFloat64() / math.Sqrt(lambda)
			w[n*d+i] = cur[i]
			x[n*d+i] = rnd.NormFloat64()
			s += cur[i] * x[n*d+i]
		}
		y[n] = s + rnd.NormFloat64()/math.Sqrt(psi)
	}
	return Data{X: x, Y: y, D: d}, w
}

var testPrior = Prior{ALambda: 1, BLambda: 1e-3, APsi: 1, BPsi: 1e-3, Zeta0: 1}
