package ais

import (
	"math/rand/v2"

	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// Model is what AIS needs from a model: the split target
// ln f_τ(x) = ln p(x) + τ·ln L(x) of Beal (2003) eq. (6.50), whose base
// density p (the prior, f_0) is normalised and can be sampled, so that
// Z_0 = 1 (6.52) and Z_K = ∫ p(x) L(x) dx is the marginal likelihood (6.53).
//
// A Model shared by the goroutines of Sampler.Runs must be safe for
// concurrent use (evaluation only).
type Model[S any] interface {
	mcmc.Tempered[S]
	// SamplePrior draws x ~ p (Algorithm 6.1, step 1), writing into dst when
	// dst's storage suffices (allocating otherwise), and returns x.
	SamplePrior(dst S, rnd *rand.Rand) S
}

// Run is the outcome of one annealing run.
type Run struct {
	// LogW = Σ_k ln R_k is the run's estimate of ln Z_K (Algorithm 6.1,
	// step 3); exp(LogW) is an unbiased estimate of Z_K for a forward run
	// started from a prior draw.
	LogW float64
	// LogR[k−1] = ln R_k = (τ(k) − τ(k−1))·ln L(x_k), k = 1…K, eq. (6.57)
	// with C_k = 1, where x_k is the state after the transition at τ(k−1).
	LogR []float64
	// Steps[k−1] are the kernel's counts for the transition at τ(k−1).
	Steps []mcmc.Stats
}

// K returns the number of annealing steps.
func (r *Run) K() int { return len(r.LogR) }

// Stats returns the kernel's counts summed over the whole run (the
// acceptance rate of Figure 6.11 of Beal (2003)).
func (r *Run) Stats() mcmc.Stats {
	var s mcmc.Stats
	for _, st := range r.Steps {
		s.Add(st)
	}
	return s
}

// StatsByPart splits the steps k = 1…K into parts consecutive blocks of
// (nearly) equal length — step k in block ⌊(k−1)·parts/K⌋ — and returns the
// counts of each block; parts = 4 gives the quarters of Figure 6.12 of Beal
// (2003). It panics unless 1 ≤ parts ≤ K.
func (r *Run) StatsByPart(parts int) []mcmc.Stats {
	checkParts(parts, r.K())
	out := make([]mcmc.Stats, parts)
	for i, st := range r.Steps {
		out[i*parts/len(r.Steps)].Add(st)
	}
	return out
}

// LogRByPart returns the sums of ln R_k over the same blocks as StatsByPart,
// for the per-region discrepancy between forward and reverse passes
// (hysteresis, Beal (2003) lines 4942–4953).
func (r *Run) LogRByPart(parts int) []float64 {
	checkParts(parts, r.K())
	out := make([]float64, parts)
	for i, v := range r.LogR {
		out[i*parts/len(r.LogR)] += v
	}
	return out
}

func checkParts(parts, k int) {
	if parts < 1 || parts > k {
		panic("ais: parts must be between 1 and K")
	}
}

func (r *Run) resize(k int) {
	if cap(r.LogR) < k {
		r.LogR = make([]float64, k)
	}
	if cap(r.Steps) < k {
		r.Steps = make([]mcmc.Stats, k)
	}
	r.LogR, r.Steps = r.LogR[:k], r.Steps[:k]
}

// ForwardTo makes one annealing run of Algorithm 6.1 of Beal (2003) with
// C′_k = C_k = 1, starting from the state p (cached terms included), and
// stores the outcome in dst, reusing dst's slices when they are long enough.
// For k = 1…K it applies kern at τ(k−1) (step 2(a): "run MCMC at
// temperature τ(k−1)", so the first transition leaves the prior invariant)
// and then adds ln R_k = (τ(k) − τ(k−1))·ln L of the new state (6.57).
// On return p holds the final state.
//
// The estimate is unbiased when p is a draw from the prior; a run started
// elsewhere (the true-parameter trace of Figure 6.10) is a diagnostic.
// ForwardTo panics if tau fails CheckSchedule. With allocation-free kernels
// and a dst of sufficient capacity it does not allocate.
func ForwardTo[S any](dst *Run, kern mcmc.Kernel[S], tau []float64, p *mcmc.Point[S], rnd *rand.Rand) {
	mustSchedule(tau)
	k := len(tau) - 1
	dst.resize(k)
	var lw float64
	for i := 1; i <= k; i++ {
		dst.Steps[i-1] = kern.Step(p, tau[i-1], rnd)
		lr := (tau[i] - tau[i-1]) * p.LogLik
		dst.LogR[i-1] = lr
		lw += lr
	}
	dst.LogW = lw
}

// ReverseTo makes the reverse pass of the hysteresis diagnostic of Beal
// (2003), lines 4942–4953: starting from p (normally the final state of a
// forward run), for k = K down to 1 it applies kern at τ(k−1), initialised
// from the state left by the previous (lower-temperature) step, and records
// ln R_k = (τ(k) − τ(k−1))·ln L of the new state. The ratios are the same
// ratios as in the forward pass, not inverted, and are stored under the same
// indices, so LogR of a forward and a reverse run compare term by term;
// LogW is their sum. Large forward–reverse discrepancies indicate a schedule
// that is too short in that region. ReverseTo panics if tau fails
// CheckSchedule.
func ReverseTo[S any](dst *Run, kern mcmc.Kernel[S], tau []float64, p *mcmc.Point[S], rnd *rand.Rand) {
	mustSchedule(tau)
	k := len(tau) - 1
	dst.resize(k)
	var lw float64
	for i := k; i >= 1; i-- {
		dst.Steps[i-1] = kern.Step(p, tau[i-1], rnd)
		lr := (tau[i] - tau[i-1]) * p.LogLik
		dst.LogR[i-1] = lr
		lw += lr
	}
	dst.LogW = lw
}
