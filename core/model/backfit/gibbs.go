package backfit

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/dist"
)

// Gibbs is a Gibbs sampler of the exact posterior p(b, α | y; ψ) of
// Bayesian backfitting's model (eq. 4.13 with the prior of eq. 4.24, or of
// eq. 4.27 with ARD), the reference against which VB's q(b) is judged
// (targets §7 P6). The fake targets Z are integrated out, which leaves the
// marginal of (b, α) unchanged: y | b ~ N(Fb, sI) with s = ψ_y + Σ_m ψ_zm
// (B.15-B.16). A sweep draws each b_m from its full conditional,
//
//	b_m | rest ~ N(β Σ_i r_i^(−m) f_im / (s P_m), 1/P_m),  P_m = β Σ_i f_im²/s + α_m,
//
// with r^(−m) the residual without input m, and then α (each α_m) from its
// gamma conditional, Gamma(a_α + d/2, b_α + bᵀb/2) (Gamma(a_α + 1/2, b_α +
// b_m²/2)). β tempers the likelihood (samplers/mcmc's Tempered): the state
// is x = [b_1 … b_d, α] (d + 1 values) or [b, α_1 … α_d] (2d values); LogPrior
// is ln p(b|α) + ln p(α), LogLik is ln N(y; Fb, sI). Its method set is a
// samplers/mcmc Tempered and Sweeper (drive it with mcmc.Gibbs). A sweep is
// O(Nd); it holds an N-vector of residuals, so give each chain its own.
type Gibbs struct {
	p     *Problem
	prior Prior
	ard   bool
	s     float64
	r     []float64
}

// NewGibbs returns the sampler for p under the prior at the marginal noise
// variance s = ψ_y + Σ_m ψ_zm.
func NewGibbs(p *Problem, prior Prior, ard bool, s float64) (*Gibbs, error) {
	if err := prior.check(); err != nil {
		return nil, err
	}
	if !(s > 0) || math.IsInf(s, 0) {
		return nil, fmt.Errorf("backfit: Gibbs noise variance s = %g: must be positive and finite", s)
	}
	return &Gibbs{p: p, prior: prior, ard: ard, s: s, r: make([]float64, p.n)}, nil
}

// StateLen returns the length of a state, d + 1 or 2d.
func (g *Gibbs) StateLen() int {
	if g.ard {
		return 2 * g.p.d
	}
	return g.p.d + 1
}

// Start returns the state b = 0, α = the prior mean (every α_m).
func (g *Gibbs) Start() []float64 {
	x := make([]float64, g.StateLen())
	for k := g.p.d; k < len(x); k++ {
		x[k] = g.prior.A / g.prior.B
	}
	return x
}

func (g *Gibbs) alpha(x []float64, k int) float64 {
	if g.ard {
		return x[g.p.d+k]
	}
	return x[g.p.d]
}

// LogPrior returns ln p(b | α) + ln p(α) (eqs. 4.24 or 4.27), −Inf for a
// precision that is not positive.
func (g *Gibbs) LogPrior(x []float64) float64 {
	d := g.p.d
	pr := dist.Gamma{Alpha: g.prior.A, Beta: g.prior.B}
	lp := 0.0
	for k := d; k < len(x); k++ {
		if !(x[k] > 0) {
			return math.Inf(-1)
		}
		lp += pr.LogProb(x[k])
	}
	for k := 0; k < d; k++ {
		a := g.alpha(x, k)
		lp += 0.5*(math.Log(a)-ln2Pi) - 0.5*a*x[k]*x[k]
	}
	return lp
}

// LogLik returns ln N(y; Fb, sI), the likelihood with Z integrated out.
func (g *Gibbs) LogLik(x []float64) float64 {
	p := g.p
	rr := 0.0
	for i, yi := range p.y {
		r := yi
		row := p.x[i*p.d : (i+1)*p.d]
		for k, v := range row {
			r -= x[k] * v
		}
		rr += r * r
	}
	return -0.5*float64(p.n)*(ln2Pi+math.Log(g.s)) - 0.5*rr/g.s
}

// Sweep redraws b one coefficient at a time and then α (see Gibbs), in
// place, at inverse temperature beta.
func (g *Gibbs) Sweep(x []float64, beta float64, rnd *rand.Rand) []float64 {
	p := g.p
	d := p.d
	for i, yi := range p.y {
		r := yi
		row := p.x[i*d : (i+1)*d]
		for k, v := range row {
			r -= x[k] * v
		}
		g.r[i] = r
	}
	for k := 0; k < d; k++ {
		c := 0.0 // Σ_i r_i^(−k) f_ik
		for i := range g.r {
			c += g.r[i] * p.x[i*d+k]
		}
		c += x[k] * p.ff[k]
		prec := beta*p.ff[k]/g.s + g.alpha(x, k)
		b := beta*c/g.s/prec + rnd.NormFloat64()/math.Sqrt(prec)
		if db := b - x[k]; db != 0 {
			for i := range g.r {
				g.r[i] -= db * p.x[i*d+k]
			}
		}
		x[k] = b
	}
	if g.ard {
		for k := 0; k < d; k++ {
			x[d+k] = dist.Gamma{Alpha: g.prior.A + 0.5, Beta: g.prior.B + 0.5*x[k]*x[k]}.Rand(rnd)
		}
		return x
	}
	bb := 0.0
	for k := 0; k < d; k++ {
		bb += x[k] * x[k]
	}
	x[d] = dist.Gamma{Alpha: g.prior.A + 0.5*float64(d), Beta: g.prior.B + 0.5*bb}.Rand(rnd)
	return x
}
