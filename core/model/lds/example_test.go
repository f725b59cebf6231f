package lds_test

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/lds"
	"github.com/vbworkbench/vbw/core/vb"
)

// Fit a variational Bayesian linear dynamical system with five hidden
// dimensions to a series of 300 steps of six outputs driven by two
// hidden states. ARD (the staged hyperparameter schedule of section 5.4)
// switches the three surplus dimensions off: their prior variances 1/γ_j
// on the columns of C collapse towards 0.
func Example() {
	// The series: a damped rotation observed through six noisy outputs.
	rnd := rand.New(rand.NewPCG(2003, 1))
	truth := &lds.Params{
		A:   mat.NewDense(2, 2, []float64{0.9, 0.2, -0.2, 0.9}),
		C:   mat.NewDense(6, 2, []float64{1, 0, 0, 1, 1, 1, 1, -1, 2, 0.5, -0.5, 2}),
		Rho: []float64{4, 4, 4, 4, 4, 4},
	}
	seq, _ := lds.Simulate(rnd, truth, 300, nil)

	// The fit.
	m, err := lds.NewVB([]lds.Sequence{seq}, lds.Settings{K: 5}, rand.New(rand.NewPCG(2003, 2)))
	if err != nil {
		panic(err)
	}
	res := vb.Run(m, vb.Settings{MaxIterations: 500, Converger: vb.FixedIterations{}, Hyper: m.DefaultSchedule()})
	if err := res.Error(); err != nil {
		panic(err)
	}

	alive := 0
	for _, g := range m.Hyper.Gamma {
		if 1/g > 1e-2 {
			alive++
		}
	}
	fmt.Printf("hidden dimensions in use: %d of 5\n", alive)
	fmt.Printf("F = %.1f nats after %d iterations\n", res.F, res.Iterations)
	var rho float64
	for _, r := range m.Rho() { // posterior means of the noise precisions
		rho += r / 6
	}
	fmt.Printf("mean noise precision: %.1f (true 4)\n", rho)
	x := m.States(0) // smoothed ⟨x_t⟩, 300×5
	r, c := x.Dims()
	fmt.Printf("smoothed states: %d×%d\n", r, c)
	// Output:
	// hidden dimensions in use: 2 of 5
	// F = -2421.7 nats after 500 iterations
	// mean noise precision: 4.1 (true 4)
	// smoothed states: 300×5
}
