package is

import (
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/dist"
)

// Dirichlet is the Dirichlet proposal block Dir(π | α) on the simplex, the
// MFA posterior q(π) = Dir(ω) (Beal (2003) eq. (4.116) ff.; ch4-mfa spec
// §1.11). As in core/dist, the density is with respect to Lebesgue measure on
// the first K−1 coordinates, so a Target must use the same convention for its
// prior on π (for example dist.Dirichlet.LogProb). Draws normalise log-gamma
// variates in the log domain (dist.Dirichlet.Rand).
type Dirichlet struct {
	d   dist.Dirichlet
	lnB float64 // ln B(α) = Σ_j ln Γ(α_j) − ln Γ(α₀)
}

var _ Proposal = (*Dirichlet)(nil)

// NewDirichlet returns Dir(alpha) with a copy of alpha. It panics if alpha is
// empty or some α_j is not positive and finite.
func NewDirichlet(alpha []float64) *Dirichlet {
	d := dist.NewDirichlet(alpha)
	return &Dirichlet{d: d, lnB: d.LogNormalizer()}
}

// Dim returns K.
func (d *Dirichlet) Dim() int { return len(d.d.Alpha) }

// LogProb returns ln Dir(π | α) = Σ_j (α_j − 1) ln π_j − ln B(α), or −Inf
// if π has a negative entry or does not sum to 1 within 1e-12·K. It panics
// if len(pi) != K.
func (d *Dirichlet) LogProb(pi []float64) float64 {
	if len(pi) != len(d.d.Alpha) {
		panic(badDim)
	}
	var s, lp float64
	for j, p := range pi {
		if p < 0 {
			return math.Inf(-1)
		}
		s += p
		if a := d.d.Alpha[j]; a != 1 {
			lp += (a - 1) * math.Log(p)
		}
	}
	if math.Abs(s-1) > 1e-12*float64(len(pi)) {
		return math.Inf(-1)
	}
	return lp - d.lnB
}

// RandLogProb draws π ~ Dir(α) into dst and returns ln Dir(π | α).
func (d *Dirichlet) RandLogProb(dst []float64, rnd *rand.Rand) float64 {
	if len(dst) != len(d.d.Alpha) {
		panic(badDim)
	}
	d.d.Rand(dst, rnd)
	return d.LogProb(dst)
}

// Gamma is a block of independent gamma variables with shapes a_i and rates
// b_i,
//
//	Π_i Ga(τ_i | a_i, b_i),   Ga(τ | a, b) = b^a/Γ(a) τ^(a−1) e^(−bτ),
//
// for example the MFA posterior q(ν) over the ARD precisions (Beal (2003)
// eq. (4.22) ff.; Appendix A: shape and inverse scale).
type Gamma struct {
	g   []dist.Gamma
	lnZ []float64 // ln Γ(a_i) − a_i ln b_i
}

var _ Proposal = (*Gamma)(nil)

// NewGamma returns the product of Ga(shape[i], rate[i]). It panics if the
// lengths differ or are zero or some parameter is not positive and finite.
func NewGamma(shape, rate []float64) *Gamma {
	if len(shape) == 0 || len(shape) != len(rate) {
		panic(badDim)
	}
	g := &Gamma{g: make([]dist.Gamma, len(shape)), lnZ: make([]float64, len(shape))}
	for i := range shape {
		g.g[i] = dist.NewGammaShapeRate(shape[i], rate[i])
		g.lnZ[i] = g.g[i].LogNormalizer()
	}
	return g
}

// Dim returns the number of variables.
func (g *Gamma) Dim() int { return len(g.g) }

// LogProb returns Σ_i ln Ga(τ_i | a_i, b_i), or −Inf if some τ_i ≤ 0. It
// panics if len(tau) != Dim.
func (g *Gamma) LogProb(tau []float64) float64 {
	if len(tau) != len(g.g) {
		panic(badDim)
	}
	var lp float64
	for i, t := range tau {
		if !(t > 0) {
			return math.Inf(-1)
		}
		lp += (g.g[i].Alpha-1)*math.Log(t) - g.g[i].Beta*t - g.lnZ[i]
	}
	return lp
}

// RandLogProb draws τ_i ~ Ga(a_i, b_i) into dst and returns the log density.
func (g *Gamma) RandLogProb(dst []float64, rnd *rand.Rand) float64 {
	if len(dst) != len(g.g) {
		panic(badDim)
	}
	for i := range g.g {
		dst[i] = g.g[i].Rand(rnd)
	}
	return g.LogProb(dst)
}

// Product is the product of independent proposal blocks laid out one after
// another in θ: block b occupies θ[Offset(b) : Offset(b)+blocks[b].Dim()],
//
//	q(θ) = Π_b q_b(θ_b).
//
// The MFA proposal q(π) Π_{s,q} q(Λ̃^s_q) is such a product (Beal (2003)
// §4.7.2, "each row can be sampled from independently", line 3144), as are
// its Student-t variants q(π) q^(ν)(Λ̃) of Table 4.3.
type Product struct {
	blocks []Proposal
	offset []int
	dim    int
}

var _ Proposal = (*Product)(nil)

// NewProduct returns the product of blocks, in order. The slice is copied;
// the blocks themselves are shared. It panics if blocks is empty.
func NewProduct(blocks ...Proposal) *Product {
	if len(blocks) == 0 {
		panic(badDim)
	}
	p := &Product{blocks: append([]Proposal(nil), blocks...), offset: make([]int, len(blocks))}
	for b, q := range blocks {
		p.offset[b] = p.dim
		p.dim += q.Dim()
	}
	return p
}

// Dim returns the sum of the blocks' dimensions.
func (p *Product) Dim() int { return p.dim }

// Offset returns the index in θ of the first element of block b.
func (p *Product) Offset(b int) int { return p.offset[b] }

// LogProb returns Σ_b ln q_b(θ_b). It panics if len(theta) != Dim.
func (p *Product) LogProb(theta []float64) float64 {
	if len(theta) != p.dim {
		panic(badDim)
	}
	var lp float64
	for b, q := range p.blocks {
		o := p.offset[b]
		lp += q.LogProb(theta[o : o+q.Dim()])
	}
	return lp
}

// RandLogProb draws each block independently into its part of dst and
// returns the summed log density.
func (p *Product) RandLogProb(dst []float64, rnd *rand.Rand) float64 {
	if len(dst) != p.dim {
		panic(badDim)
	}
	var lp float64
	for b, q := range p.blocks {
		o := p.offset[b]
		lp += q.RandLogProb(dst[o:o+q.Dim()], rnd)
	}
	return lp
}

// Mixture is the equal-weight mixture of R proposals of the same dimension,
//
//	g(θ) = (1/R) Σ_r q_r(θ),
//
// the importance distribution of samplers 4–6 of Beal (2003) Table 4.3 (one
// component per VBEM run, line 3142). A draw picks r uniformly and draws
// θ ~ q_r; ln g(θ) is the log-mean-exp of every component's log density,
// whatever the labelling of the runs (the aliasing remark of line 3096).
type Mixture struct {
	comps []Proposal
	lnR   float64
}

var _ Proposal = (*Mixture)(nil)

// NewMixture returns the equal-weight mixture of comps. The slice is copied;
// the components are shared. It panics if comps is empty or the components'
// dimensions differ.
func NewMixture(comps ...Proposal) *Mixture {
	if len(comps) == 0 {
		panic(badDim)
	}
	for _, q := range comps {
		if q.Dim() != comps[0].Dim() {
			panic(badDim)
		}
	}
	return &Mixture{comps: append([]Proposal(nil), comps...), lnR: math.Log(float64(len(comps)))}
}

// Dim returns the common dimension of the components.
func (m *Mixture) Dim() int { return m.comps[0].Dim() }

// LogProb returns ln g(θ) = ln Σ_r exp(ln q_r(θ)) − ln R. It panics if
// len(theta) != Dim.
func (m *Mixture) LogProb(theta []float64) float64 {
	var acc logSumAcc
	acc.reset()
	for _, q := range m.comps {
		acc.add(q.LogProb(theta))
	}
	return acc.value() - m.lnR
}

// RandLogProb picks a component uniformly, draws θ from it into dst and
// returns ln g(θ); the chosen component's log density is the one returned
// by its draw.
func (m *Mixture) RandLogProb(dst []float64, rnd *rand.Rand) float64 {
	k := rnd.IntN(len(m.comps))
	var acc logSumAcc
	acc.reset()
	acc.add(m.comps[k].RandLogProb(dst, rnd))
	for r, q := range m.comps {
		if r != k {
			acc.add(q.LogProb(dst))
		}
	}
	return acc.value() - m.lnR
}
