package mcmc

import (
	"math"
	"math/rand/v2"
)

// Tempered is a target density split into a base density and a tempered
// factor, ln f_β(x) = LogPrior(x) + β·LogLik(x), as in Beal (2003)
// eq. (6.50): f_k(θ) = p(θ|m)·p(y|θ,m)^τ(k). Either term may be −Inf outside
// the support; neither needs to be normalised for MCMC.
//
// Implementations must not modify x, and must be safe for concurrent use if
// the same target is shared between goroutines.
type Tempered[S any] interface {
	LogPrior(x S) float64
	LogLik(x S) float64
}

// Point is a state together with its two cached log-density terms.
type Point[S any] struct {
	X        S
	LogPrior float64 // ln p(X)
	LogLik   float64 // ln L(X)
}

// NewPoint evaluates both terms of t at x.
func NewPoint[S any](t Tempered[S], x S) Point[S] {
	return Point[S]{X: x, LogPrior: t.LogPrior(x), LogLik: t.LogLik(x)}
}

// LogDensity returns ln f_β(X) = LogPrior + β·LogLik, with the convention
// 0·LogLik = 0 (at β = 0 the density is the base density even where
// LogLik = −Inf).
func (p Point[S]) LogDensity(beta float64) float64 {
	if beta == 0 {
		return p.LogPrior
	}
	return p.LogPrior + beta*p.LogLik
}

// Kernel is a Markov transition that leaves f_β invariant for the β it is
// given. Step moves p in place (p.X may afterwards refer to a different
// buffer) and keeps p.LogPrior and p.LogLik equal to the terms of p.X under
// the kernel's target. It returns the Metropolis–Hastings counts of this
// transition (zero for a kernel that makes no accept/reject decisions, for
// example a pure Gibbs sweep).
//
// A kernel's transitions may depend only on p, β and the random numbers it
// draws from rnd, never on earlier calls, so that runs are reproducible from
// their random streams. The one exception is an HMC with Persistence > 0,
// whose momentum is an auxiliary state carried from call to call (and
// still a function of the stream; see HMC).
type Kernel[S any] interface {
	Step(p *Point[S], beta float64, rnd *rand.Rand) Stats
}

// Proposal draws a proposed state for Metropolis–Hastings.
type Proposal[S any] interface {
	// Propose draws x′ ~ q(·|x), writing it into dst when dst's storage
	// suffices (allocating otherwise), and returns x′ together with the
	// log ratio of the reverse and forward proposal densities,
	// ln q(x|x′) − ln q(x′|x) (zero for a symmetric proposal; −Inf forces a
	// rejection). dst never shares storage with x. Propose must not modify x.
	Propose(dst, x S, rnd *rand.Rand) (S, float64)
}

// MH is a Metropolis–Hastings kernel for Target with proposals from Proposal.
// Its zero proposal buffer is filled on first use; afterwards Step does not
// allocate (for allocation-free Target and Proposal).
//
// One step implements the acceptance rule of Beal (2003) eq. (1.62) and, for
// the chapter-6 Dirichlet proposal, eqs. (6.59)–(6.60): with x′ ~ q(·|x),
//
//	ln a = [ln p(x′) − ln p(x)] + β·[ln L(x′) − ln L(x)] + ln q(x|x′) − ln q(x′|x),
//
// accept x′ if ln U < ln a, U ~ U(0,1) (always when ln a ≥ 0). A NaN ln a is
// a rejection. When the proposal ratio or ln p(x′) is −Inf the proposal is
// rejected without evaluating ln L(x′).
//
// An MH is not safe for concurrent use: give each goroutine its own.
type MH[S any] struct {
	Target   Tempered[S]
	Proposal Proposal[S]
	// Stats accumulates the counts of every Step.
	Stats Stats

	prop S
}

// Step makes one Metropolis–Hastings transition from p at inverse
// temperature beta and returns its counts (Proposed = 1, Accepted = 0 or 1).
// On acceptance the buffers of p.X and the proposal are swapped, so a caller
// must not keep other references to p.X across a Step.
func (m *MH[S]) Step(p *Point[S], beta float64, rnd *rand.Rand) Stats {
	if m.Target == nil || m.Proposal == nil {
		panic("mcmc: MH needs a Target and a Proposal")
	}
	var lnq float64
	m.prop, lnq = m.Proposal.Propose(m.prop, p.X, rnd)
	st := Stats{Proposed: 1}
	if !(lnq > math.Inf(-1)) { // −Inf or NaN
		m.Stats.Add(st)
		return st
	}
	lp := m.Target.LogPrior(m.prop)
	if !(lp > math.Inf(-1)) {
		m.Stats.Add(st)
		return st
	}
	ll := m.Target.LogLik(m.prop)
	lna := (lp - p.LogPrior) + temperedDiff(beta, ll, p.LogLik) + lnq
	if Accept(lna, rnd) {
		p.X, m.prop = m.prop, p.X
		p.LogPrior, p.LogLik = lp, ll
		st.Accepted = 1
	}
	m.Stats.Add(st)
	return st
}

// temperedDiff returns β·(a − b) with 0·anything = 0 and the difference of
// two equal infinities taken as 0.
func temperedDiff(beta, a, b float64) float64 {
	if beta == 0 || a == b {
		return 0
	}
	return beta * (a - b)
}

// Accept reports whether a Metropolis–Hastings proposal with log acceptance
// ratio lna is accepted: true without drawing when lna ≥ 0, otherwise
// ln U < lna with U drawn from rnd (Beal 2003 eq. (6.60): accept if
// w < a, w ~ U(0,1)). A NaN lna is never accepted.
func Accept(lna float64, rnd *rand.Rand) bool {
	if lna >= 0 {
		return true
	}
	if !(lna > math.Inf(-1)) {
		return false
	}
	return math.Log(rnd.Float64()) < lna
}
