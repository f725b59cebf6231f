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

// Fit a schedule to 10 pilot runs on a linear schedule, then anneal on it:
// it puts its steps at small τ, where the tempered posterior of θ narrows
// fastest, and the log weights of 50 runs of 50 steps spread less than on
// the linear schedule of as many steps.
func ExampleSampler_Adapt() {
	m := normalMean{y: []float64{1.9, 2.4, 1.1, 2.8, 1.6, 2.2, 1.4, 2.0}}
	sampler := ais.Sampler[[]float64]{
		Model: m,
		NewKernel: func() mcmc.Kernel[[]float64] {
			return &mcmc.MH[[]float64]{Target: m, Proposal: mcmc.RandomWalk{Sigma: 0.5}}
		},
		Tau: ais.Linear(500), // the pilot's schedule
	}
	streams := func(seed uint64, n int) []*rand.Rand {
		r := make([]*rand.Rand, n)
		for g := range r {
			r[g] = rand.New(rand.NewPCG(seed, uint64(g)))
		}
		return r
	}
	tau, _, err := sampler.Adapt(streams(1, 10), 2, 50, 25, 0.05)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("adapted: τ(10) = %.3f, τ(25) = %.3f (linear: 0.200, 0.500)\n", tau[10], tau[25])

	spread := func(tau []float64) float64 {
		sampler.Tau = tau
		lw := ais.LogWeights(sampler.Runs(streams(2, 50), 2))
		var m, m2 float64
		for i, v := range lw {
			d := v - m
			m += d / float64(i+1)
			m2 += d * (v - m)
		}
		return math.Sqrt(m2 / float64(len(lw)-1))
	}
	lin, ad := spread(ais.Linear(50)), spread(tau)
	fmt.Printf("sd of ln w over 50 runs: linear %.2f, adapted %.2f\n", lin, ad)
	// Output:
	// adapted: τ(10) = 0.049, τ(25) = 0.164 (linear: 0.200, 0.500)
	// sd of ln w over 50 runs: linear 3.64, adapted 2.12
}
