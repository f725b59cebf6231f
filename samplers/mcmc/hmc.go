package mcmc

import (
	"math"
	"math/rand/v2"
)

// GradTempered is a Tempered target on real vectors whose two terms have
// gradients, for Hamiltonian Monte Carlo. The gradient methods write into
// dst (length len(x)) and must not keep x or dst.
type GradTempered interface {
	Tempered[[]float64]
	GradLogPrior(dst, x []float64)
	GradLogLik(dst, x []float64)
}

// HMC is Hamiltonian (hybrid) Monte Carlo (Duane et al. 1987; the sampler
// of Lawrence's Figs 5.3–5.5 and Tables 5.1, 5.2, ../shared/seeds/001_…,
// L2124–2172, L2183–2211) for continuous parameters: momenta p ~ N(0, I),
// Steps leapfrog steps of size ε on H(x, p) = −ln f_β(x) + ½‖p‖², and the
// Metropolis rule on exp(H(x, p) − H(x′, p′)). The leapfrog map is volume
// preserving and reversible, so the step leaves f_β invariant for any ε and
// Steps; ε is StepSize(β) times a jitter uniform on [0.8, 1.2] (drawn from
// the stream, independently of the state), which avoids periodic orbits.
//
// # Persistence
//
// With Persistence ρ = 0 (the default) every Step draws fresh momenta and
// the kernel is a Kernel in the strict sense: its transition depends only
// on the point, β and the stream. With 0 < ρ < 1 (Horowitz 1991; Neal 1996
// §3.5; ρ = 0.95 in Lawrence's Table 5.1, L2183) the HMC carries the
// momentum from one Step to the next as an auxiliary state and refreshes it
// partially,
//
//	p ← ρ p + √(1−ρ²) ν,   ν ~ N(0, I),
//
// which leaves N(0, I) invariant; the trajectory follows, and on rejection
// the momentum is negated (on acceptance it is the end point's). Each of
// the three moves leaves f_β(x)·N(p; 0, I) invariant, so the x-marginal
// of the chain is f_β, for any β given to each Step. The first Step (or the
// first after ResetMomentum, or after a change of dimension) draws the
// momentum afresh. Start a new chain with ResetMomentum.
//
// An HMC is not safe for concurrent use: give each goroutine its own.
type HMC struct {
	Target   GradTempered
	Steps    int
	StepSize func(beta float64) float64
	// Persistence is ρ of the partial momentum refresh, in [0, 1).
	Persistence float64
	// Scale, when not nil, multiplies the step of each coordinate:
	// coordinate i moves with ε·Scale[i] (Neal 2011 §4.2: per-coordinate
	// steps, a diagonal mass matrix diag(1/Scale²) in disguise, which keeps
	// the leapfrog volume preserving and reversible). It must have len(x)
	// positive entries and may change only between Steps (as a function of
	// anything but the state, e.g. other Gibbs blocks).
	Scale []float64

	// Stats accumulates the counts of every Step.
	Stats Stats
	// SumAcceptProb accumulates min(1, exp(−ΔH)) of every Step, a
	// lower-variance estimate of the acceptance rate than Stats.Rate
	// (SumAcceptProb / Stats.Proposed). A proposal off the support
	// contributes 0.
	SumAcceptProb float64
	// LastDeltaH is H(x′, p′) − H(x, p) of the last Step (+Inf off the
	// support, NaN when the trajectory diverged to NaN).
	LastDeltaH float64
	// LastAcceptProb is min(1, exp(−ΔH)) of the last Step.
	LastAcceptProb float64

	x, p, g, gl []float64
	mom         []float64 // the persistent momentum (Persistence > 0)
	haveMom     bool

	// brokenKick makes the first half kick of every leapfrog step a full
	// kick: a map that still preserves volume but is not reversible. Only
	// the tests set it (the negative control of the invariance tests).
	brokenKick bool
	// keepOnReject keeps the refreshed momentum on rejection instead of
	// negating it (the tests' control of the persistence).
	keepOnReject bool
}

// ResetMomentum forgets the persistent momentum: the next Step draws it
// afresh from N(0, I).
func (h *HMC) ResetMomentum() { h.haveMom = false }

// Momentum returns the persistent momentum (nil before the first Step with
// Persistence > 0). The caller must not modify it.
func (h *HMC) Momentum() []float64 {
	if !h.haveMom {
		return nil
	}
	return h.mom
}

// grad writes ∇ ln f_β(x) = ∇ ln p(x) + β ∇ ln L(x) into h.g.
func (h *HMC) grad(x []float64, beta float64) {
	h.Target.GradLogPrior(h.g, x)
	if beta == 0 {
		return
	}
	h.Target.GradLogLik(h.gl, x)
	for i := range h.g {
		h.g[i] += beta * h.gl[i]
	}
}

// Step makes one HMC transition from pt at inverse temperature beta and
// returns its counts (Proposed = 1, Accepted = 0 or 1). On acceptance the
// buffers of pt.X and the proposal are swapped. Once its buffers exist
// (after the first call) Step does not allocate, for an allocation-free
// Target.
func (h *HMC) Step(pt *Point[[]float64], beta float64, rnd *rand.Rand) Stats {
	if h.Target == nil || h.StepSize == nil || h.Steps < 1 {
		panic("mcmc: HMC needs a Target, a StepSize and Steps ≥ 1")
	}
	if !(h.Persistence >= 0 && h.Persistence < 1) {
		panic("mcmc: HMC Persistence must be in [0, 1)")
	}
	d := len(pt.X)
	if len(h.x) != d {
		h.x, h.p, h.g, h.gl = make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
		h.mom, h.haveMom = make([]float64, d), false
	}
	eps := h.StepSize(beta) * (0.8 + 0.4*rnd.Float64())
	copy(h.x, pt.X)
	var k0 float64
	rho := h.Persistence
	if rho > 0 && h.haveMom {
		c := math.Sqrt(1 - rho*rho)
		for i := range h.p {
			h.p[i] = rho*h.mom[i] + c*rnd.NormFloat64()
			k0 += h.p[i] * h.p[i]
		}
	} else {
		for i := range h.p {
			h.p[i] = rnd.NormFloat64()
			k0 += h.p[i] * h.p[i]
		}
	}
	if rho > 0 {
		copy(h.mom, h.p) // the refreshed momentum, kept (negated) on rejection
		h.haveMom = true
	}
	first := 0.5
	if h.brokenKick {
		first = 1
	}
	if h.Scale != nil && len(h.Scale) != d {
		panic("mcmc: HMC Scale has the wrong length")
	}
	h.grad(h.x, beta)
	if h.Scale == nil {
		for range h.Steps {
			for i := range h.p {
				h.p[i] += first * eps * h.g[i]
				h.x[i] += eps * h.p[i]
			}
			h.grad(h.x, beta)
			for i := range h.p {
				h.p[i] += 0.5 * eps * h.g[i]
			}
		}
	} else {
		sc := h.Scale
		for range h.Steps {
			for i := range h.p {
				e := eps * sc[i]
				h.p[i] += first * e * h.g[i] // (½ε_i) g_i, as the last half kick
				h.x[i] += e * h.p[i]
			}
			h.grad(h.x, beta)
			for i := range h.p {
				h.p[i] += 0.5 * (eps * sc[i]) * h.g[i]
			}
		}
	}
	var k1 float64
	for _, v := range h.p {
		k1 += v * v
	}
	st := Stats{Proposed: 1}
	lp := h.Target.LogPrior(h.x)
	if !(lp > math.Inf(-1)) {
		h.reject(rho)
		h.LastDeltaH, h.LastAcceptProb = math.Inf(1), 0
		h.Stats.Add(st)
		return st
	}
	ll := h.Target.LogLik(h.x)
	lna := (lp - pt.LogPrior) + temperedDiff(beta, ll, pt.LogLik) - 0.5*(k1-k0)
	h.LastDeltaH = -lna
	h.LastAcceptProb = 0
	if lna >= 0 {
		h.LastAcceptProb = 1
	} else if lna > math.Inf(-1) {
		h.LastAcceptProb = math.Exp(lna)
	}
	h.SumAcceptProb += h.LastAcceptProb
	if Accept(lna, rnd) {
		pt.X, h.x = h.x, pt.X
		pt.LogPrior, pt.LogLik = lp, ll
		st.Accepted = 1
		if rho > 0 {
			copy(h.mom, h.p)
		}
	} else {
		h.reject(rho)
	}
	h.Stats.Add(st)
	return st
}

// reject negates the persistent momentum (Horowitz 1991): the proposal
// (x′, −p′) of the reversible map was refused, so the chain stays at
// (x, p) and the momentum flip that completes the move gives (x, −p).
func (h *HMC) reject(rho float64) {
	if rho == 0 || h.keepOnReject {
		return
	}
	for i := range h.mom {
		h.mom[i] = -h.mom[i]
	}
}
