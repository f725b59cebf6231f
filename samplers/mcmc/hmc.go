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
// of Lawrence's Figs 5.3–5.5, ../shared/seeds/001_…, L2124–2172) for
// continuous parameters: momenta p ~ N(0, I), Steps leapfrog steps of size
// ε on H(x, p) = −ln f_β(x) + ½‖p‖², and the Metropolis rule on
// exp(H(x, p) − H(x′, p′)). The leapfrog map is volume preserving and
// reversible, so the step leaves f_β invariant for any ε and Steps; ε is
// StepSize(β) times a jitter uniform on [0.8, 1.2] (drawn from the stream,
// independently of the state), which avoids periodic orbits.
//
// An HMC is not safe for concurrent use: give each goroutine its own.
type HMC struct {
	Target   GradTempered
	Steps    int
	StepSize func(beta float64) float64
	// Stats accumulates the counts of every Step.
	Stats Stats

	x, p, g, gl []float64
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
// buffers of pt.X and the proposal are swapped.
func (h *HMC) Step(pt *Point[[]float64], beta float64, rnd *rand.Rand) Stats {
	if h.Target == nil || h.StepSize == nil || h.Steps < 1 {
		panic("mcmc: HMC needs a Target, a StepSize and Steps ≥ 1")
	}
	d := len(pt.X)
	if len(h.x) != d {
		h.x, h.p, h.g, h.gl = make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
	}
	eps := h.StepSize(beta) * (0.8 + 0.4*rnd.Float64())
	copy(h.x, pt.X)
	var k0 float64
	for i := range h.p {
		h.p[i] = rnd.NormFloat64()
		k0 += h.p[i] * h.p[i]
	}
	h.grad(h.x, beta)
	for range h.Steps {
		for i := range h.p {
			h.p[i] += 0.5 * eps * h.g[i]
			h.x[i] += eps * h.p[i]
		}
		h.grad(h.x, beta)
		for i := range h.p {
			h.p[i] += 0.5 * eps * h.g[i]
		}
	}
	var k1 float64
	for _, v := range h.p {
		k1 += v * v
	}
	st := Stats{Proposed: 1}
	lp := h.Target.LogPrior(h.x)
	if !(lp > math.Inf(-1)) {
		h.Stats.Add(st)
		return st
	}
	ll := h.Target.LogLik(h.x)
	lna := (lp - pt.LogPrior) + temperedDiff(beta, ll, pt.LogLik) - 0.5*(k1-k0)
	if Accept(lna, rnd) {
		pt.X, h.x = h.x, pt.X
		pt.LogPrior, pt.LogLik = lp, ll
		st.Accepted = 1
	}
	h.Stats.Add(st)
	return st
}
