package sbn

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Bernoulli is a product of Bernoullis over the latent units,
// Q(H) = Π_k μ_k^{h_k} (1 − μ_k)^{1−h_k} (the mean-field q of eq. 2.10),
// with the visible units fixed at a pattern, as an importance proposal of
// samplers/is by its method set (Dim, LogProb, RandLogProb; core never
// imports samplers). A state is the full unit vector, latent units first,
// as Posterior's, whose LogProb is the matching target ln P(H, V): the log
// weight ln P(H, V) − ln Q(H) then has mean ln P(V) − KL(Q ‖ P(H|V)) under
// Q and E_Q[P(H, V)/Q(H)] = P(V) (eq. 2.6) wherever Q covers the posterior.
// Every μ_k = ½ is the uniform distribution on the 2^Hidden latent states.
type Bernoulli struct {
	mu       []float64
	v        []float64
	lp1, lp0 []float64 // ln μ_k, ln(1 − μ_k)
}

// Bernoulli returns the product of Bernoullis with latent means mu (each
// in [0, 1]; a copy is kept) and the visible units at p's pattern.
func (p Posterior) Bernoulli(mu []float64) (*Bernoulli, error) {
	h := p.net.Hidden()
	if len(mu) != h {
		return nil, fmt.Errorf("sbn: %d means for %d latent units", len(mu), h)
	}
	b := &Bernoulli{mu: append([]float64(nil), mu...), v: append([]float64(nil), p.v...), lp1: make([]float64, h), lp0: make([]float64, h)}
	for k, m := range mu {
		if !(m >= 0 && m <= 1) {
			return nil, fmt.Errorf("sbn: latent mean %d is %v, not in [0, 1]", k, m)
		}
		b.lp1[k], b.lp0[k] = math.Log(m), math.Log1p(-m)
	}
	return b, nil
}

// Dim is the number of units (latent and visible).
func (b *Bernoulli) Dim() int { return len(b.mu) + len(b.v) }

// LogProb is ln Q(H) of a full state s: Σ_k [h_k ln μ_k + (1 − h_k) ln(1 − μ_k)],
// −Inf when a latent unit is neither 0 nor 1 or a visible unit differs
// from the pattern.
func (b *Bernoulli) LogProb(s []float64) float64 {
	h := len(b.mu)
	for i, x := range b.v {
		if s[h+i] != x {
			return math.Inf(-1)
		}
	}
	l := 0.0
	for k := range h {
		switch s[k] {
		case 1:
			l += b.lp1[k]
		case 0:
			l += b.lp0[k]
		default:
			return math.Inf(-1)
		}
	}
	return l
}

// RandLogProb draws every latent unit from its Bernoulli into dst (of
// length Dim), puts the pattern in the visible units and returns ln Q of
// the draw.
func (b *Bernoulli) RandLogProb(dst []float64, r *rand.Rand) float64 {
	h := len(b.mu)
	copy(dst[h:], b.v)
	l := 0.0
	for k, m := range b.mu {
		if r.Float64() < m {
			dst[k] = 1
			l += b.lp1[k]
		} else {
			dst[k] = 0
			l += b.lp0[k]
		}
	}
	return l
}

// LogProb is ln P(H, V) = LogPrior(s) + LogLik(s) (eq. 2.5), the
// unnormalised target of importance sampling whose normaliser over the
// latent states is P(V) (eq. 2.6).
func (p Posterior) LogProb(s []float64) float64 { return p.LogPrior(s) + p.LogLik(s) }

// DrawOps is the edge terms charged for one importance draw from a
// two-component mixture of Bernoulli products (a defensive mixture):
// ln P(H, V), one pass over every unit (Σ_i |pa(i)|), and per latent unit
// a draw and a log-probability term of each component (3 Hidden), counted
// as SweepOps counts a Gibbs sweep.
func (n *Net) DrawOps() int { return n.parentTerms() + 3*n.Hidden() }
