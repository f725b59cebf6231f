package sbn

import "math/rand/v2"

// Posterior is the latent posterior P(H | V) of a net given a visible
// pattern as a target of samplers/mcmc and samplers/ais by its method set
// (core never imports samplers). A state is the full unit vector, latent
// units first and the visible ones fixed at the pattern. The base density
// is the prior of the latent units, LogPrior(s) = Σ_{i latent} ln P(s_i |
// pa_i), normalised and drawn ancestrally by SamplePrior, and the tempered
// factor is the likelihood LogLik(s) = Σ_{i visible} ln P(v_i | pa_i), so
// Σ_H P(H)P(V|H) = P(V) (eq. 2.6) is the normalising constant that
// annealed importance sampling from the prior estimates. Sweep is the Gibbs
// sampler of §2.3 (L834) for f_β ∝ P(H)P(V|H)^β.
type Posterior struct {
	net *Net
	v   []float64
}

// NewPosterior returns the posterior of net n given visible pattern v.
func NewPosterior(n *Net, v []float64) (Posterior, error) {
	if err := n.checkVisible(v); err != nil {
		return Posterior{}, err
	}
	return Posterior{net: n, v: append([]float64(nil), v...)}, nil
}

// unitLogProb is ln P(s_i | pa_i) = s_i z_i − ln(1 + e^{z_i}) (eq. 2.5).
func (n *Net) unitLogProb(i int, s []float64) float64 {
	z := n.field(i, s)
	return s[i]*z - softplus(z)
}

// LogPrior is Σ_{i latent} ln P(s_i | pa_i).
func (p Posterior) LogPrior(s []float64) float64 {
	l := 0.0
	for i := range p.net.Hidden() {
		l += p.net.unitLogProb(i, s)
	}
	return l
}

// LogLik is ln P(V | H) = Σ_{i visible} ln P(v_i | pa_i) (the visible units
// of s must hold the pattern, as every method here leaves them).
func (p Posterior) LogLik(s []float64) float64 {
	l := 0.0
	for i := p.net.Hidden(); i < p.net.Units(); i++ {
		l += p.net.unitLogProb(i, s)
	}
	return l
}

// SamplePrior draws the latent units ancestrally from P(H), top layer
// first, into dst (allocated when short) with the pattern in the visible
// units, and returns it.
func (p Posterior) SamplePrior(dst []float64, r *rand.Rand) []float64 {
	n := p.net
	if cap(dst) < n.Units() {
		dst = make([]float64, n.Units())
	}
	dst = dst[:n.Units()]
	copy(dst[n.Hidden():], p.v)
	for i := range n.Hidden() {
		dst[i] = 0
		if r.Float64() < sigmoid(n.field(i, dst)) {
			dst[i] = 1
		}
	}
	return dst
}

// Sweep redraws every latent unit of s in turn from its conditional under
// f_β ∝ P(H)P(V|H)^β (logOdds), and returns s.
func (p Posterior) Sweep(s []float64, beta float64, r *rand.Rand) []float64 {
	for k := range p.net.Hidden() {
		d := p.logOdds(k, s, beta)
		s[k] = 0
		if r.Float64() < sigmoid(d) {
			s[k] = 1
		}
	}
	return s
}

// logOdds is latent unit k's ln f_β(s_k = 1, rest) − ln f_β(s_k = 0, rest):
// z_k + Σ_c β_c [s_c w_ck − ln(1 + e^{z_c⁰ + w_ck}) + ln(1 + e^{z_c⁰})] over
// its children c, with z_c⁰ the child's field at s_k = 0 and β_c = β for a
// visible child, 1 for a latent one.
func (p Posterior) logOdds(k int, s []float64, beta float64) float64 {
	n := p.net
	d := n.field(k, s)
	lo, hi := n.children(k)
	if lo == hi {
		return d
	}
	plo, _ := n.parents(lo)
	for c := lo; c < hi; c++ {
		w := n.w[c][k-plo]
		z0 := n.field(c, s) - w*s[k]
		t := s[c]*w - softplus(z0+w) + softplus(z0)
		if c >= n.Hidden() {
			t *= beta
		}
		d += t
	}
	return d
}

// Operation counts for comparisons at matched compute: an operation is an
// edge term, one weight times a parent's state or mean (with the
// exponentials a variational term carries), or one product of the
// mixture's smoothing sums. Gibbs sweeps and the fits are counted alike.

// parentTerms is Σ_i |pa(i)|, the edge terms of one pass over every unit.
func (n *Net) parentTerms() int {
	t := 0
	for i := range n.Units() {
		t += len(n.w[i])
	}
	return t
}

// SweepOps is the edge terms of one Gibbs sweep: per latent unit its own
// field and each child's, Σ_k [|pa(k)| + Σ_{c∈ch(k)} |pa(c)|].
func (n *Net) SweepOps() int {
	t := 0
	for k := range n.Hidden() {
		t += len(n.w[k])
		lo, hi := n.children(k)
		for c := lo; c < hi; c++ {
			t += len(n.w[c])
		}
	}
	return t
}

// StepOps is SweepOps plus the evaluation of ln P(H) and ln P(V|H) at the
// new state that an mcmc.Gibbs step makes (one pass over every unit).
func (n *Net) StepOps() int { return n.SweepOps() + n.parentTerms() }

// IterationOps is a lower count of the operations of one iteration of mean
// field (M = 0, one component) or of an M-component mixture: per component
// the μ pass (the fields of SweepOps, eqs. 2.18, A.3), the bound (⟨z_i⟩ and
// the moments of eq. 2.13: 2 Σ_i |pa(i)|) and one pass of the ξ updates
// (Σ_i |pa(i)|; their Newton steps beyond the first and μ's one-dimensional
// search are not counted), and for a mixture the smoothing products of
// eqs. 2.31, 2.36 (M²h² each round and in the μ pass, M²h for π).
func (n *Net) IterationOps(M int) int {
	comps := max(M, 1)
	t := comps * (n.SweepOps() + 3*n.parentTerms())
	if M > 0 {
		h := n.Hidden()
		t += (1+smoothingRounds)*M*M*h*h + smoothingRounds*M*M*h
	}
	return t
}

// logOddsExact is ln P(s_k = 1 | rest) − ln P(s_k = 0 | rest) under f_β by
// differences of the tempered log-density (for tests).
func (p Posterior) logOddsExact(k int, s []float64, beta float64) float64 {
	old := s[k]
	s[k] = 1
	a := p.LogPrior(s) + beta*p.LogLik(s)
	s[k] = 0
	b := p.LogPrior(s) + beta*p.LogLik(s)
	s[k] = old
	return a - b
}
