package boltzmann

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// What the samplers need of a machine, by method set (core never imports
// samplers): Gibbs is a samplers/ais Model (SamplePrior below, LogPrior
// and LogLik in gibbs.go) and a samplers/is Target (LogProb); Product is
// a samplers/is Proposal over ±1 states.

// SamplePrior draws the AIS base distribution into dst (reused when its
// capacity suffices) and returns it: each free unit ±1 with probability
// ½, each clamped unit at its value. The base is the uniform distribution
// on the F free units' 2^F states; LogPrior is 0, the counting measure
// whose total is 2^F, so that AIS's ln w estimates ln(Z/2^F) (the weights
// are Σ_k (β_k − β_{k−1}) φ/T and do not see LogPrior): ln Z ≈ ln w + F ln 2.
func (g Gibbs) SamplePrior(dst []float64, r *rand.Rand) []float64 {
	n := g.M.N
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	for i := range dst {
		if g.C.free(i) {
			dst[i] = float64(2*r.IntN(2) - 1)
		} else {
			dst[i] = g.C[i]
		}
	}
	return dst
}

// LogProb is the unnormalised ln p*(s) = φ(s)/T of a state (samplers/is's
// Target), whose sum over the free units' states is exp(Exact(C).LogZ).
func (g Gibbs) LogProb(s []float64) float64 { return g.M.Phi(s) / g.M.T }

// Product is a product of independent ±1 units, Q(s) = Π_i (1 + μ_i s_i)/2
// (mean field's Q of eq. 4.8 with μ_i = tanh A_i; μ = 0 is the uniform
// distribution on {±1}^n), as an importance proposal over full states.
type Product struct {
	mu       []float64
	lp1, lm1 []float64 // ln Q(s_i = +1), ln Q(s_i = −1)
}

// NewProduct returns the product with means mu (each in [−1, 1]; a copy
// is kept).
func NewProduct(mu []float64) (*Product, error) {
	p := &Product{mu: append([]float64(nil), mu...), lp1: make([]float64, len(mu)), lm1: make([]float64, len(mu))}
	for i, m := range mu {
		if !(m >= -1 && m <= 1) {
			return nil, fmt.Errorf("boltzmann: mean %v of unit %d is not in [−1, 1]", m, i)
		}
		p.lp1[i], p.lm1[i] = math.Log1p(m)-math.Ln2, math.Log1p(-m)-math.Ln2
	}
	return p, nil
}

// Dim is the number of units.
func (p *Product) Dim() int { return len(p.mu) }

// LogProb is ln Q(s) = Σ_i ln((1 + μ_i s_i)/2), −Inf when a unit is not ±1.
func (p *Product) LogProb(s []float64) float64 {
	var l float64
	for i := range p.mu {
		switch s[i] {
		case 1:
			l += p.lp1[i]
		case -1:
			l += p.lm1[i]
		default:
			return math.Inf(-1)
		}
	}
	return l
}

// RandLogProb draws every unit into dst (of length Dim), s_i = +1 with
// probability (1 + μ_i)/2, and returns ln Q of the draw.
func (p *Product) RandLogProb(dst []float64, r *rand.Rand) float64 {
	var l float64
	for i, m := range p.mu {
		if 2*r.Float64() < 1+m {
			dst[i] = 1
			l += p.lp1[i]
		} else {
			dst[i] = -1
			l += p.lm1[i]
		}
	}
	return l
}
