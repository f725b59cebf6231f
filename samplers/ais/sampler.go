package ais

import (
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/parallel"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// Sampler makes AIS runs of Model under the schedule Tau.
type Sampler[S any] struct {
	Model Model[S]
	// NewKernel returns a fresh transition kernel for one run; kernels hold
	// scratch buffers, so each run gets its own. The kernel must leave
	// f_τ ∝ p·L^τ of Model invariant.
	NewKernel func() mcmc.Kernel[S]
	// Tau is the schedule τ(0…K) (Linear, Nonlinear or any schedule that
	// passes CheckSchedule).
	Tau []float64
}

// Run draws an initial state from the prior and makes one forward run
// (ForwardTo), all with random numbers from rnd.
func (s *Sampler[S]) Run(rnd *rand.Rand) Run {
	r, _ := s.RunFinal(rnd)
	return r
}

// RunFinal is Run that also returns the run's final state x_K (the state
// after the transition at τ(K−1)); it draws the same random numbers, so
// its Run is Run's. With w = exp(LogW), the final states of independent
// runs weighted by their w are an importance sample of the posterior
// f_K/Z_K: E[g(x)] ≈ Σ_g w_g g(x_g) / Σ_g w_g (Neal 2001, "Annealed
// importance sampling", §3; Moments). The state is the caller's: the run's
// kernel is not used again.
func (s *Sampler[S]) RunFinal(rnd *rand.Rand) (Run, S) {
	var r Run
	p := s.start(rnd)
	ForwardTo(&r, s.NewKernel(), s.Tau, &p, rnd)
	return r, p.X
}

// ForwardReverse makes a forward run from a prior draw and then the reverse
// pass (ReverseTo) from its final state, with the same kernel and stream.
func (s *Sampler[S]) ForwardReverse(rnd *rand.Rand) (fwd, rev Run) {
	p := s.start(rnd)
	kern := s.NewKernel()
	ForwardTo(&fwd, kern, s.Tau, &p, rnd)
	ReverseTo(&rev, kern, s.Tau, &p, rnd)
	return fwd, rev
}

func (s *Sampler[S]) start(rnd *rand.Rand) mcmc.Point[S] {
	var zero S
	return mcmc.NewPoint(s.Model, s.Model.SamplePrior(zero, rnd))
}

// Runs makes len(rnds) independent forward runs from prior draws; run g
// draws all its random numbers from rnds[g] (for example streams named by
// the run index, core/rng), so the result is the same for any number of
// workers. The runs are spread over up to workers goroutines
// (workers ≤ 0 means runtime.GOMAXPROCS(0)). Pool the runs' LogW with Pool
// for the estimate (6.61) of Beal (2003).
func (s *Sampler[S]) Runs(rnds []*rand.Rand, workers int) []Run {
	runs, _ := s.RunsFinal(rnds, workers)
	return runs
}

// RunsFinal is Runs that also returns each run's final state (RunFinal):
// final[g] is the last state of runs[g], and both are Runs' and RunFinal's
// for the same streams.
func (s *Sampler[S]) RunsFinal(rnds []*rand.Rand, workers int) (runs []Run, final []S) {
	runs, final = make([]Run, len(rnds)), make([]S, len(rnds))
	parallel.For(len(rnds), workers, func(g int) { runs[g], final[g] = s.RunFinal(rnds[g]) })
	return runs, final
}

// Adapt makes pilot runs of s, run g from rnds[g], on its schedule s.Tau
// and returns the schedule of k steps that Adapted fits to them (bins and
// floor as there). The pilot runs are returned too (their pooled ln w is an
// estimate of ln Z in its own right, on the pilot's schedule). Final runs on
// the new schedule must draw from streams independent of rnds.
func (s *Sampler[S]) Adapt(rnds []*rand.Rand, workers, k, bins int, floor float64) ([]float64, []Run, error) {
	pilot := s.Runs(rnds, workers)
	tau, err := Adapted(pilot, s.Tau, k, bins, floor)
	return tau, pilot, err
}
