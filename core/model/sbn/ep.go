package sbn

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/approx"
)

// Fully factorised expectation propagation over the latent units (Minka
// 2001, §3.3, in the exponential family of approx.Bernoullis; with fully
// factorised q it is loopy belief propagation, Minka 2001 §4.4, Heskes &
// Zoeter 2002). The joint of eq. 2.4 is a product of one factor per unit,
//
//	P(H, V) = Π_i f_i,   f_i = P(s_i | pa(s_i)) = σ((2s_i − 1) z_i),   z_i = b_i + Σ_j w_ij s_j   (eqs. 2.2-2.3),
//
// each a function of the latent units among s_i and its parents (a
// top-layer unit's f_i = σ(±b_i) of itself alone; a visible unit's of its
// parents, s_i clamped). q(H) = Π_k Bern(h_k) with log-odds η = η₀ + Σ_i η_i,
// the "prior" η₀ = 0 the uniform distribution p₀(H) = 2^{−h}. FamilyEP
// approximates ln Σ_H p₀(H) Π_i f_i = ln P(V) − h ln 2 (eq. 2.6), so
//
//	ln P(V) ≈ ln Z_EP + h ln 2.
//
// A site's projection (unitSite.Project) enumerates the 2^{|pa(i)|+1}
// states of the latent units f_i touches (2^{|pa(i)|} for a visible unit)
// under the cavity's Bernoullis: Z_i = Σ q\(states) f_i, and the tilted
// marginals of those units as log-odds ln Σ_{s_k=1} − ln Σ_{s_k=0}; every
// other unit keeps the cavity's η.

// EP is fully factorised EP for the latent units of one visible pattern.
type EP struct {
	net   *Net
	fep   *approx.FamilyEP
	sites []*unitSite
}

// NewEP starts EP for visible pattern v with every site at 1 (q uniform).
// Settings are FamilyEP's (damping, sweep cap, tolerance on the sites' η).
func NewEP(n *Net, v []float64, s approx.EPSettings) (*EP, error) {
	if err := n.checkVisible(v); err != nil {
		return nil, err
	}
	h := n.Hidden()
	e := &EP{net: n}
	fs := make([]approx.SiteFactor, n.Units())
	for i := range n.Units() {
		lo, hi := n.parents(i)
		u := &unitSite{w: n.w[i], b: n.b[i], own: -1}
		for k := lo; k < hi; k++ {
			u.vars = append(u.vars, k)
		}
		if i < h {
			u.own = len(u.vars)
			u.vars = append(u.vars, i)
		} else {
			u.value = v[i-h]
		}
		k := len(u.vars)
		u.lw, u.on, u.off, u.l1, u.l0 = make([]float64, 1<<k), make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k)
		e.sites = append(e.sites, u)
		fs[i] = u
	}
	fep, err := approx.NewFamilyEP(approx.Bernoullis(h), make([]float64, h), fs, s)
	if err != nil {
		return nil, err
	}
	e.fep = fep
	return e, nil
}

// Sweep updates every unit's site once (FamilyEP.Sweep) and returns the
// largest change of a site's log-odds.
func (e *EP) Sweep() (float64, error) { return e.fep.Sweep() }

// Run sweeps until no site's log-odds move by more than the tolerance or
// the cap, and reports whether it converged (FamilyEP.Run).
func (e *EP) Run() (bool, error) { return e.fep.Run() }

// Iterations is the number of sweeps made; Skipped the site updates left
// out (a tilted marginal of exactly 0 or 1, approx.ErrNoProjection).
func (e *EP) Iterations() int { return e.fep.Iterations }
func (e *EP) Skipped() int    { return e.fep.Skipped }

// LogLik is EP's approximation of ln P(V) (eq. 2.6): FamilyEP's ln Z_EP
// (Minka 2001, eq. (3.32)) of Σ_H p₀(H) Π_i f_i with p₀ = 2^{−h}, plus
// h ln 2. Exact at the fixed point where the factor graph of the latent
// units is a tree (EP is then belief propagation).
func (e *EP) LogLik() (float64, error) {
	lz, err := e.fep.LogEvidence()
	if err != nil {
		return math.NaN(), err
	}
	return lz + float64(e.net.Hidden())*math.Ln2, nil
}

// Means returns q's means σ(η_k) of the latent units (EP's approximation
// of the posterior marginals P(h_k = 1 | V)).
func (e *EP) Means() []float64 {
	q := e.fep.Q()
	for k, x := range q {
		q[k] = sigmoid(x)
	}
	return q
}

// EPSweepOps is the edge terms of one EP sweep: per unit the enumeration
// of the 2^{k_i} states of the k_i latent units its factor touches
// (k_i = |pa(i)| + 1 for a latent unit, |pa(i)| for a visible one), each
// state's field (|pa(i)| terms) and its log-weight (one term per touched
// unit and one for f_i): Σ_i 2^{k_i} (|pa(i)| + k_i + 1). LogLik costs one
// more such pass.
func (n *Net) EPSweepOps() int {
	t := 0
	for i := range n.Units() {
		p := len(n.w[i])
		k := p
		if i < n.Hidden() {
			k++
		}
		t += (1 << k) * (p + k + 1)
	}
	return t
}

// unitSite is f_i = σ((2s_i − 1) z_i) as an approx.SiteFactor over the
// latent units' log-odds. vars are the latent units it touches (the
// parents in order, then unit i itself when latent: own is its position,
// −1 for a visible unit of clamped value value). The buffers make Project
// allocation-free; a site belongs to one EP.
type unitSite struct {
	w     []float64
	b     float64
	vars  []int
	own   int
	value float64

	lw, on, off, l1, l0 []float64
}

// Project implements approx.SiteFactor by enumerating the touched units'
// states c: ln w_c = Σ_t ln q\(s_t) + ln σ((2s_i − 1) z_i), ln Z = ln Σ_c w_c,
// and the tilted log-odds of unit t, ln Σ_{c: s_t=1} w_c − ln Σ_{c: s_t=0} w_c
// (in log space, so a marginal near 0 or 1 keeps its precision). A
// marginal of exactly 0 or 1 (a side's sum underflowing, log-odds ±Inf)
// has no Bernoulli with finite η: approx.ErrNoProjection, and FamilyEP
// skips the update.
func (u *unitSite) Project(dst, cavity []float64) (float64, error) {
	copy(dst, cavity)
	k := len(u.vars)
	for t, j := range u.vars {
		u.l1[t], u.l0[t] = approx.LogSigmoid(cavity[j]), approx.LogSigmoid(-cavity[j])
	}
	np := len(u.w)
	top := math.Inf(-1)
	// One field per parent configuration p: ln σ(z) and ln σ(−z) = ln σ(z) − z
	// serve both states of a latent unit i (c = p and p + 2^np).
	for p := range 1 << np {
		z := u.b
		for j := range np {
			if p>>j&1 == 1 {
				z += u.w[j]
			}
		}
		lon := approx.LogSigmoid(z)
		lf := [2]float64{lon - z, lon}
		for si := range 2 {
			if u.own < 0 && float64(si) != u.value {
				continue
			}
			c := p | si<<np
			if u.own < 0 {
				c = p
			}
			l := lf[si]
			for t := range k {
				if c>>t&1 == 1 {
					l += u.l1[t]
				} else {
					l += u.l0[t]
				}
			}
			u.lw[c] = l
			top = math.Max(top, l)
		}
	}
	if math.IsInf(top, 0) || math.IsNaN(top) {
		return math.NaN(), fmt.Errorf("sbn: EP site: %w", approx.ErrNoProjection)
	}
	var sum float64
	for t := range k {
		u.on[t], u.off[t] = 0, 0
	}
	for c, l := range u.lw {
		x := math.Exp(l - top)
		sum += x
		for t := range k {
			if c>>t&1 == 1 {
				u.on[t] += x
			} else {
				u.off[t] += x
			}
		}
	}
	for t, j := range u.vars {
		eta := math.Log(u.on[t]) - math.Log(u.off[t])
		if math.IsInf(eta, 0) || math.IsNaN(eta) {
			return math.NaN(), fmt.Errorf("sbn: EP site, unit %d's tilted marginal is 0 or 1: %w", j, approx.ErrNoProjection)
		}
		dst[j] = eta
	}
	return top + math.Log(sum), nil
}
