package bnn_test

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/model/bnn"
	"github.com/vbworkbench/vbw/core/rng"
)

// The evidence procedure on thirty points of the sine of Fig. 5.3 (L2124),
// by the toy's scaled conjugate gradients (L2134),
// with three hidden units and the four connectivity groups: the noise
// level it finds and the predictive at x = 0.25.
func ExampleEvidence() {
	r := rng.New(1, "bnn", "example")
	x := make([][]float64, 30)
	t := make([]float64, 30)
	for i := range x {
		v := r.Float64()
		x[i], t[i] = []float64{v}, 0.5+0.4*math.Sin(2*math.Pi*v)+0.05*r.NormFloat64()
	}
	p, _ := bnn.NewProblem(bnn.Arch{In: 1, Hidden: 3}, x, t)
	lap, err := bnn.Evidence(p, bnn.Grouped, bnn.EvidenceSettings{Alpha0: 0.1, Beta0: 50, Inits: 3, Optimiser: bnn.SCG}, r)
	if err != nil {
		panic(err)
	}
	m, v := lap.Predict([]float64{0.25})
	fmt.Printf("noise sd %.2f, %d groups, γ ≈ %.0f of %d weights\n", 1/math.Sqrt(lap.Beta), len(lap.Alpha), lap.Gamma, p.NumWeights())
	fmt.Printf("f(0.25) = %.2f ± %.2f (truth 0.90)\n", m, math.Sqrt(v))
	// Output:
	// noise sd 0.04, 4 groups, γ ≈ 7 of 10 weights
	// f(0.25) = 0.87 ± 0.04 (truth 0.90)
}
