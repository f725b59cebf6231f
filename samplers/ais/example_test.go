package ais_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// normalMean is the model θ ~ N(0, 1), y_i | θ ~ N(θ, 1): the state is
// []float64{θ}, the base density the prior and the tempered factor the
// likelihood.
type normalMean struct{ y []float64 }

func (m normalMean) LogPrior(x []float64) float64 {
	return -0.5*math.Log(2*math.Pi) - 0.5*x[0]*x[0]
}

func (m normalMean) LogLik(x []float64) float64 {
	var s float64
	for _, v := range m.y {
		s += -0.5*math.Log(2*math.Pi) - 0.5*(v-x[0])*(v-x[0])
	}
	return s
}

func (m normalMean) SamplePrior(dst []float64, rnd *rand.Rand) []float64 {
	if cap(dst) < 1 {
		dst = make([]float64, 1)
	}
	dst = dst[:1]
	dst[0] = rnd.NormFloat64()
	return dst
}

// Estimate the log evidence of a conjugate model, whose exact value is known,
// with 50 annealing runs of 1000 steps on the thesis's non-linear schedule
// (6.73), each run on its own random stream, pooled with (6.61).
func Example() {
	m := normalMean{y: []float64{1.9, 2.4, 1.1, 2.8, 1.6}}

	// Exact: y ~ N(0, I + 11ᵀ), so ln Z = −(n/2)ln 2π − ½ln(1+n) − ½(Σy² − (Σy)²/(1+n)).
	n := float64(len(m.y))
	var s, ss float64
	for _, v := range m.y {
		s, ss = s+v, ss+v*v
	}
	exact := -0.5*n*math.Log(2*math.Pi) - 0.5*math.Log(1+n) - 0.5*(ss-s*s/(1+n))

	sampler := ais.Sampler[[]float64]{
		Model: m,
		NewKernel: func() mcmc.Kernel[[]float64] {
			return &mcmc.MH[[]float64]{Target: m, Proposal: mcmc.RandomWalk{Sigma: 0.6}}
		},
		Tau: ais.Nonlinear(1000, 0.2),
	}
	rnds := make([]*rand.Rand, 50)
	for g := range rnds {
		rnds[g] = rand.New(rand.NewPCG(2003, uint64(g)))
	}
	runs := sampler.Runs(rnds, 2)
	logZ, se := ais.Pool(ais.LogWeights(runs))

	fmt.Printf("exact ln Z = %.2f\n", exact)
	fmt.Printf("AIS   ln Z = %.2f ± %.2f\n", logZ, se)
	fmt.Println("within 3 standard errors:", math.Abs(logZ-exact) < 3*se)
	// Output:
	// exact ln Z = -7.98
	// AIS   ln Z = -8.00 ± 0.03
	// within 3 standard errors: true
}
