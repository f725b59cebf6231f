package drift_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/drift"
	"github.com/vbworkbench/vbw/core/vb"
)

// Example tracks a weight that drifts as a random walk of precision
// λ = 10⁴ under noise of precision ψ_y = 10³, with vkS on all 500 steps:
// build, vb.Run, read q(λ), q(ψ_y) and the smoothed weights.
func Example() {
	rnd := rand.New(rand.NewPCG(1, 2))
	const T = 500
	x, y, w := make([]float64, T), make([]float64, T), make([]float64, T)
	cur := 0.5
	for n := range y {
		cur += rnd.NormFloat64() / 100
		w[n], x[n] = cur, rnd.NormFloat64()
		y[n] = cur*x[n] + rnd.NormFloat64()/math.Sqrt(1e3)
	}
	m, err := drift.NewVB(drift.Data{X: x, Y: y, D: 1},
		drift.Prior{ALambda: 1e-3, BLambda: 1e-3, APsi: 1e-3, BPsi: 1e-3, Zeta0: 1}, drift.Settings{})
	if err != nil {
		panic(err)
	}
	r := vb.Run(m, vb.Settings{RelTol: 1e-10})
	mean := m.Mean(nil)
	var mse float64
	for n := range mean {
		mse += (mean[n] - w[n]) * (mean[n] - w[n]) / T
	}
	fmt.Println(r.Status)
	fmt.Printf("E[lambda] = %.3g, E[psi] = %.3g\n", m.QLambda().Mean(), m.QPsi().Mean())
	fmt.Printf("MSE of the smoothed weights %.1e\n", mse)
	// Output:
	// converged
	// E[lambda] = 7.57e+03, E[psi] = 1.06e+03
	// MSE of the smoothed weights 1.8e-04
}
