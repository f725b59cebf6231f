package ais

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/rng"
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

// One AIS temperature of chapter 6 over the whole class: for each of the
// 136 structures one MH transition (the joint Dirichlet proposal of
// strength 2500, its ln p(θ′) and ln p(y|θ′)) at τ(k) of the thesis's
// schedule (K = 16384, e_τ = 0.2, k cycling through the schedule), on n =
// 480 and n = 10240 points from the true model; ns/op is the cost of one
// temperature of one AIS run of every structure, the unit of an AIS cell of
// chapter6/single-instance.
func BenchmarkTemperatureDAG(b *testing.B) {
	for _, n := range []int{480, 10240} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			obs, _ := dag.Sample(dag.TrueCode.Structure(), dag.TrueParams(), n, rng.New(2003, "bench", "data"))
			d, err := dag.NewData(obs)
			if err != nil {
				b.Fatal(err)
			}
			tau := Nonlinear(16384, 0.2)
			var kerns []*mcmc.MH[dag.Params]
			var pts []mcmc.Point[dag.Params]
			rnd := rng.New(2003, "bench", "ais")
			for _, c := range dag.Candidates() {
				s := c.Structure()
				p, err := dag.NewProblem(s, s.SymmetricPrior(1), d)
				if err != nil {
					b.Fatal(err)
				}
				kerns = append(kerns, &mcmc.MH[dag.Params]{Target: p, Proposal: dag.NewDirichletProposal(s, 2500)})
				pts = append(pts, mcmc.NewPoint[dag.Params](p, p.SamplePrior(nil, rnd)))
			}
			for i := range kerns {
				kerns[i].Step(&pts[i], 0, rnd)
			}
			b.ReportAllocs()
			k := 0
			for b.Loop() {
				for i := range kerns {
					kerns[i].Step(&pts[i], tau[k], rnd)
				}
				k = (k + 1) % (len(tau) - 1)
			}
		})
	}
}
