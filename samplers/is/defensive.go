package is

import (
	"math"
	"math/rand/v2"
)

// Defensive is the defensive mixture g(θ) = (1 − ε) q(θ) + ε p(θ) of an
// importance distribution q and the prior p (Hesterberg 1995, "Weighted
// average importance sampling and defensive mixture distributions",
// Technometrics 37): when the target is p(θ) L(θ), every weight is at most
// L(θ)/ε, so a q that misses a mode of the posterior (a VB q locks onto
// one) still gives an estimator of finite variance whose standard error
// across runs is honest, at a cost of ε of the draws.
type Defensive struct {
	q, prior Proposal
	eps      float64
	lnQ, lnP float64 // ln(1 − ε), ln ε
}

var _ Proposal = (*Defensive)(nil)

// NewDefensive returns (1 − eps) q + eps prior. It panics unless 0 < eps < 1
// and the dimensions agree.
func NewDefensive(q, prior Proposal, eps float64) *Defensive {
	if !(eps > 0 && eps < 1) {
		panic(badParam)
	}
	if q.Dim() != prior.Dim() {
		panic(badDim)
	}
	return &Defensive{q: q, prior: prior, eps: eps, lnQ: math.Log1p(-eps), lnP: math.Log(eps)}
}

// Dim returns the common dimension.
func (d *Defensive) Dim() int { return d.q.Dim() }

// LogProb returns ln[(1 − ε) q(θ) + ε p(θ)].
func (d *Defensive) LogProb(theta []float64) float64 {
	return logAdd(d.lnQ+d.q.LogProb(theta), d.lnP+d.prior.LogProb(theta))
}

// RandLogProb draws from p with probability ε, else from q, and returns
// ln g of the draw.
func (d *Defensive) RandLogProb(dst []float64, rnd *rand.Rand) float64 {
	if rnd.Float64() < d.eps {
		lp := d.prior.RandLogProb(dst, rnd)
		return logAdd(d.lnQ+d.q.LogProb(dst), d.lnP+lp)
	}
	lq := d.q.RandLogProb(dst, rnd)
	return logAdd(d.lnQ+lq, d.lnP+d.prior.LogProb(dst))
}

// logAdd returns ln(e^a + e^b), −Inf when both are.
func logAdd(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(a, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}
