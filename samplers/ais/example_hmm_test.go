package ais_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// The marginal likelihood of a two-state HMM by AIS over the log-ratio
// coordinates of its Dirichlet rows (hmm.Annealed), one HMC transition per
// temperature, against the exact sum over the 2^8 hidden paths.
func Example_hmm() {
	d := hmm.Data{P: 2, Seqs: [][]int{{0, 0, 1, 1, 0, 0, 1, 1}}}
	u := hmm.SymmetricPrior(2, 2, 2, 2, 2)
	target, err := hmm.NewAnnealed(d, 2, u)
	if err != nil {
		panic(err)
	}
	s := ais.Sampler[[]float64]{
		Model: target,
		NewKernel: func() mcmc.Kernel[[]float64] {
			return &mcmc.HMC{Target: target, Steps: 8, StepSize: func(beta float64) float64 { return 0.4 / (1 + beta) }}
		},
		Tau: ais.Linear(100),
	}
	rnds := make([]*rand.Rand, 200)
	for g := range rnds {
		rnds[g] = rng.New(1, "example-hmm", strconv.Itoa(g))
	}
	logZ, se := ais.Pool(ais.LogWeights(s.Runs(rnds, 2)))
	exact, _ := hmm.ExactLogEvidence(d, 2, u)
	fmt.Printf("AIS ln p(y) = %.2f ± %.2f, exact %.2f\n", logZ, se, exact)
	// Output:
	// AIS ln p(y) = -6.25 ± 0.01, exact -6.24
}
