package ais_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/vbworkbench/vbw/core/model/gmm"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// The Gaussian mixture satisfies the samplers' interfaces by its method sets.
var (
	_ ais.Model[*gmm.State]    = (*gmm.Joint)(nil)
	_ mcmc.Sweeper[*gmm.State] = (*gmm.Gibbs)(nil)
)

// gmmData is 8 points in two clusters (D = 2), small enough for the
// enumeration of the 2^8 assignments.
func gmmData() []float64 {
	rnd := rand.New(rand.NewPCG(5, 8))
	x := make([]float64, 0, 16)
	for i := 0; i < 8; i++ {
		c := [2]float64{-1.5, 0}
		if i%2 == 1 {
			c = [2]float64{1.5, 0.5}
		}
		x = append(x, c[0]+0.5*rnd.NormFloat64(), c[1]+0.5*rnd.NormFloat64())
	}
	return x
}

// gmmAIS pools runs of AIS with the Gibbs kernel from the prior.
func gmmAIS(t *testing.T, x []float64, k int, p gmm.Prior, runs, steps int) (float64, float64) {
	t.Helper()
	j, err := gmm.NewJoint(x, 2, k, p)
	if err != nil {
		t.Fatal(err)
	}
	s := ais.Sampler[*gmm.State]{
		Model:     j,
		NewKernel: func() mcmc.Kernel[*gmm.State] { return &mcmc.Gibbs[*gmm.State]{Target: j, Sweeper: j.NewGibbs()} },
		Tau:       ais.Nonlinear(steps, 0.2),
	}
	rnds := make([]*rand.Rand, runs)
	for g := range rnds {
		rnds[g] = rng.New(24, "ais-gmm-test", strconv.Itoa(k), strconv.Itoa(g))
	}
	return ais.Pool(ais.LogWeights(s.Runs(rnds, 2)))
}

// TestGMMEvidence runs AIS with the Gibbs sweep of core/model/gmm from the
// prior, at K = 1 against the closed-form Normal-Wishart evidence and at
// K = 2 against the enumeration of the 2^8 assignments, for α₀ = 1 and
// α₀ = 10⁻³: within 3 standard errors, each below 0.2 nats.
func TestGMMEvidence(t *testing.T) {
	x := gmmData()
	for _, a0 := range []float64{1, 1e-3} {
		p := gmm.DefaultPrior(2, a0)
		for _, k := range []int{1, 2} {
			exact, err := gmm.LogEvidenceExact(x, 2, k, p)
			if err != nil {
				t.Fatal(err)
			}
			if k == 1 {
				one, _ := gmm.LogEvidenceOne(x, 2, p)
				if math.Abs(one-exact) > 1e-9 {
					t.Fatalf("closed form %v, enumeration %v", one, exact)
				}
			}
			got, se := gmmAIS(t, x, k, p, 200, 200)
			if math.Abs(got-exact) > 3*se || !(se < 0.2) {
				t.Errorf("α₀ = %v, K = %d: AIS ln Z = %.4f ± %.4f, exact %.4f", a0, k, got, se, exact)
			}
		}
	}
}

// BenchmarkGMMSweep times one Gibbs sweep of the mixture at the size of
// PRML Fig. 10.7's largest model (N = 272, D = 2, K = 6); an AIS estimate
// is runs × steps of them.
func BenchmarkGMMSweep(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 2*272)
	for i := range x {
		x[i] = rnd.NormFloat64() + float64((i/2)%2)*3
	}
	j, err := gmm.NewJoint(x, 2, 6, gmm.DefaultPrior(2, 1))
	if err != nil {
		b.Fatal(err)
	}
	kern := &mcmc.Gibbs[*gmm.State]{Target: j, Sweeper: j.NewGibbs()}
	p := mcmc.NewPoint[*gmm.State](j, j.SamplePrior(nil, rnd))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		kern.Step(&p, 0.5, rnd)
	}
}
