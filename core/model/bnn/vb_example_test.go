package bnn_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/bnn"
)

// The diagonal-Gaussian variational posterior (section 5.4.2) of a 1-3-1
// network on twenty points of a sine, with q(α) for the four weight groups
// and q(β) (β started near the noise's precision): the bound, and the
// predictive mean and error bar at a point.
func ExampleFitVB() {
	r := rand.New(rand.NewPCG(1, 1))
	x := make([][]float64, 20)
	t := make([]float64, 20)
	for n := range x {
		x[n] = []float64{float64(n) / 19}
		t[n] = 0.4*math.Sin(2*math.Pi*x[n][0]) + 0.05*r.NormFloat64()
	}
	p, err := bnn.NewProblem(bnn.Arch{In: 1, Hidden: 3}, x, t)
	if err != nil {
		panic(err)
	}
	v, err := bnn.FitVB(p, bnn.Grouped, bnn.VBSettings{InitBeta: 400}, r)
	if err != nil {
		panic(err)
	}
	b := v.Bound()
	fmt.Printf("F = %.1f nats in %d terms\n", b.F, len(b.Terms))
	m, s2 := v.Predict([]float64{0.25})
	fmt.Printf("f(0.25) = %.2f ± %.2f (truth 0.40)\n", m, math.Sqrt(s2))
	// Output:
	// F = -37.1 nats in 5 terms
	// f(0.25) = 0.36 ± 0.07 (truth 0.40)
}
