package backfit_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/backfit"
)

// synth draws a problem of n points and d inputs x_im ~ N(0, 1), of which
// the first `relevant` have coefficient 1 + m/2 and the rest 0, with noise
// N(0, noise²).
func synth(t testing.TB, n, d, relevant int, noise float64, seed uint64) *backfit.Problem {
	t.Helper()
	rnd := rand.New(rand.NewPCG(seed, 17))
	x, y := make([]float64, n*d), make([]float64, n)
	for i := 0; i < n; i++ {
		for m := 0; m < d; m++ {
			v := rnd.NormFloat64()
			x[i*d+m] = v
			if m < relevant {
				y[i] += (1 + 0.5*float64(m)) * v
			}
		}
		y[i] += noise * rnd.NormFloat64()
	}
	p, err := backfit.NewProblem(x, d, y)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
