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
	return poolGibbs[*gmm.State](j, func() mcmc.Sweeper[*gmm.State] { return j.NewGibbs() }, ais.Nonlinear(steps, 0.2), runs, "ais-gmm-test", k)
}

// poolGibbs pools runs AIS runs of m with a Gibbs kernel of the sweeps
// newSweeper makes, run g from the stream (24, label, k, g).
func poolGibbs[S any](m ais.Model[S], newSweeper func() mcmc.Sweeper[S], tau []float64, runs int, label string, k int) (float64, float64) {
	s := ais.Sampler[S]{
		Model:     m,
		NewKernel: func() mcmc.Kernel[S] { return &mcmc.Gibbs[S]{Target: m, Sweeper: newSweeper()} },
		Tau:       tau,
	}
	rnds := make([]*rand.Rand, runs)
	for g := range rnds {
		rnds[g] = rng.New(24, label, strconv.Itoa(k), strconv.Itoa(g))
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

var (
	_ ais.Model[*gmm.Assignments]    = (*gmm.Collapsed)(nil)
	_ mcmc.Sweeper[*gmm.Assignments] = (*gmm.CollapsedGibbs)(nil)
)

// collapsedAIS pools runs of AIS over the assignments with the collapsed
// Gibbs kernel from the exact draw of p(Z).
func collapsedAIS(t *testing.T, x []float64, k int, p gmm.Prior, runs int, tau []float64) (float64, float64) {
	t.Helper()
	m, err := gmm.NewCollapsed(x, 2, k, p)
	if err != nil {
		t.Fatal(err)
	}
	return poolGibbs[*gmm.Assignments](m, func() mcmc.Sweeper[*gmm.Assignments] { return m.NewGibbs() }, tau, runs, "ais-collapsed-test", k)
}

// TestCollapsedEvidence runs AIS over the assignments with the collapsed
// Gibbs sweep: at K = 1 the single state gives the closed form exactly (to
// rounding, se 0), and at K = 2 and 3 it matches the enumeration of the K^8
// assignments within 3 standard errors (each below 0.1 nats), for α₀ = 1
// and 10⁻³, on the geometric schedule (at α₀ = 10⁻³ 100 linear steps leave
// it 0.02 nats low, 15 standard errors: the steps near τ = 0 carry it).
func TestCollapsedEvidence(t *testing.T) {
	x := gmmData()
	for _, a0 := range []float64{1, 1e-3} {
		p := gmm.DefaultPrior(2, a0)
		one, _ := gmm.LogEvidenceOne(x, 2, p)
		got, se := collapsedAIS(t, x, 1, p, 4, ais.Linear(10))
		if math.Abs(got-one) > 1e-9 || se > 1e-9 {
			t.Errorf("α₀ = %v, K = 1: AIS %v ± %v, exact %v", a0, got, se, one)
		}
		for _, k := range []int{2, 3} {
			exact, err := gmm.LogEvidenceExact(x, 2, k, p)
			if err != nil {
				t.Fatal(err)
			}
			got, se := collapsedAIS(t, x, k, p, 400, ais.Geometric(300, 1e-4))
			if math.Abs(got-exact) > 3*se || !(se < 0.1) {
				t.Errorf("α₀ = %v, K = %d: AIS ln Z = %.4f ± %.4f, exact %.4f", a0, k, got, se, exact)
			}
		}
	}
}

// TestCollapsedSweepAllocs: a collapsed sweep with its split-merge and
// reallocation moves, and the kernel's evaluation of both terms, do not
// allocate.
func TestCollapsedSweepAllocs(t *testing.T) {
	m, err := gmm.NewCollapsed(gmmData(), 2, 3, gmm.DefaultPrior(2, 1))
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(3, 4))
	kern := &mcmc.Gibbs[*gmm.Assignments]{Target: m, Sweeper: m.NewGibbs()}
	p := mcmc.NewPoint[*gmm.Assignments](m, m.SamplePrior(nil, rnd))
	if a := testing.AllocsPerRun(50, func() { kern.Step(&p, 0.7, rnd) }); a != 0 {
		t.Errorf("%v allocations per sweep", a)
	}
}
