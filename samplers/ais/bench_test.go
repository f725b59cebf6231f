package ais

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// One AIS temperature (one MH transition and one ln R_k) on the conjugate
// Gaussian model with d = 3 and n = 10 (sufficient statistics): ns/op is the
// cost per temperature.
func BenchmarkTemperatureGaussian(b *testing.B) {
	gm := newGaussModel(3, 10, 1, 1, rand.New(rand.NewPCG(1, 2)))
	kern := newScaledKernel(gm, 1)
	rnd := rand.New(rand.NewPCG(3, 4))
	p := mcmc.NewPoint(gm, gm.SamplePrior(nil, rnd))
	tau := Nonlinear(b.N, 0.2)
	r := Run{LogR: make([]float64, b.N), Steps: make([]mcmc.Stats, b.N)}
	kern.Step(&p, 0, rnd)
	b.ReportAllocs()
	b.ResetTimer()
	ForwardTo(&r, kern, tau, &p, rnd)
}

// One AIS temperature on the binomial mixture with n = 8 hidden labels: a
// Gibbs sweep over the labels and an MH step on the three parameters.
func BenchmarkTemperatureMixture(b *testing.B) {
	mm := newMixModel(5, []int{0, 1, 5, 4, 5, 0, 2, 5})
	kern := newMixKernel(mm, 0.15)
	rnd := rand.New(rand.NewPCG(3, 4))
	p := mcmc.NewPoint(mm, mm.SamplePrior(nil, rnd))
	tau := Nonlinear(b.N, 0.2)
	r := Run{LogR: make([]float64, b.N), Steps: make([]mcmc.Stats, b.N)}
	kern.Step(&p, 0, rnd)
	b.ReportAllocs()
	b.ResetTimer()
	ForwardTo(&r, kern, tau, &p, rnd)
}
