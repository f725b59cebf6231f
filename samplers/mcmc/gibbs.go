package mcmc

import "math/rand/v2"

// Sweeper is a model that can redraw its whole state from the full
// conditionals of f_β, one block after another (a Gibbs sweep), for example
// the hidden assignments of a mixture and then its parameters
// (core/model/gmm.Gibbs). Sweep may modify x in place and returns the new
// state.
type Sweeper[S any] interface {
	Sweep(x S, beta float64, rnd *rand.Rand) S
}

// Gibbs is the Kernel of a Sweeper: one Step is one sweep at β, after
// which both cached terms of the point are evaluated under Target. Each
// block is drawn exactly from its conditional, so the sweep leaves f_β
// invariant and makes no accept/reject decisions (its Stats are zero). A
// Gibbs holds its Sweeper's scratch: give each chain its own.
type Gibbs[S any] struct {
	Target  Tempered[S]
	Sweeper Sweeper[S]
}

// Step makes one sweep from p at inverse temperature beta.
func (g *Gibbs[S]) Step(p *Point[S], beta float64, rnd *rand.Rand) Stats {
	if g.Target == nil || g.Sweeper == nil {
		panic("mcmc: Gibbs needs a Target and a Sweeper")
	}
	p.X = g.Sweeper.Sweep(p.X, beta, rnd)
	p.LogPrior, p.LogLik = g.Target.LogPrior(p.X), g.Target.LogLik(p.X)
	return Stats{}
}
