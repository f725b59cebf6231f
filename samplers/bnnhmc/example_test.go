package bnnhmc_test

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/model/bnn"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/samplers/bnnhmc"
)

// Hamiltonian Monte Carlo over the weights of a 1-3-1 network on twenty
// points of 0.5 + 0.4 sin 2πx (the toy of Lawrence's Fig 5.3, smaller),
// with α and β resampled between trajectories after the first 100; two
// chains, the step tuned in the burn-in.
func Example() {
	r := rng.New(1, "example", "data")
	x := make([][]float64, 20)
	t := make([]float64, 20)
	for n := range x {
		x[n] = []float64{float64(n) / 19}
		t[n] = 0.5 + 0.4*math.Sin(2*math.Pi*x[n][0]) + 0.05*r.NormFloat64()
	}
	p, err := bnn.NewProblem(bnn.Arch{In: 1, Hidden: 3}, x, t)
	if err != nil {
		panic(err)
	}
	s := bnn.HMCSettings{Samples: 1000, Burn: 500, Leapfrog: 50, Step: 0.01, Chains: 2, HyperFrom: 100,
		Hyper: bnn.Hyper{AAlpha: 1, BAlpha: 1, ABeta: 1, BBeta: 0.01}, Beta: 100, AdaptAccept: 0.8}
	res, err := bnnhmc.SampleHMC(p, bnn.Grouped, s, rng.New(1, "example", "hmc"))
	if err != nil {
		panic(err)
	}
	m, v := res.Predict([]float64{0.25})
	fmt.Printf("kept %d samples of %d chains\n", len(res.W), res.Chains)
	fmt.Printf("f(0.25) = %.1f, predictive sd below 0.2: %v\n", m, math.Sqrt(v) < 0.2)
	fmt.Printf("acceptance above one half: %v, R̂ below 1.1: %v\n", res.AcceptRate > 0.5, res.RHatMax < 1.1)
	// Output:
	// kept 1000 samples of 2 chains
	// f(0.25) = 0.9, predictive sd below 0.2: true
	// acceptance above one half: true, R̂ below 1.1: true
}
