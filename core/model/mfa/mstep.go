package mfa

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/mixture"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// M updates q(π) and q(ν) (the rest of the reference sweep after E;
// targets ch4-mfa.md §1.6):
//
//	q(π) = Dir(ω),  ω_s = α*/S + Σ_i q_is                       (eq. (4.37), line 2456),
//	q(ν^s_l) = Ga(a* + p/2, b* + ½ Σ_q ⟨(Λ^s_ql)²⟩)              (eq. (4.40), line 2468),
//
// the second with the square of the second moment that the print lost
// (targets §1.5). Both are exact maximisers of F. M does not allocate.
func (m *VB) M() {
	mixture.UpdateWeights(m.omega, m.resp, m.n, m.Hyper.Alpha)
	shape := m.Hyper.A + 0.5*float64(m.p)
	for _, c := range m.comps {
		c.rows.ColumnSecondMomentsTo(c.colm)
		for l := range c.nu {
			c.nu[l] = dist.Gamma{Alpha: shape, Beta: m.Hyper.B + 0.5*c.colm[l]}
		}
	}
}

// Hyperparameter groups of VB (targets ch4-mfa.md §1.7).
const (
	HyperPsi   = "psi"   // Ψ
	HyperMuNu  = "mu_nu" // μ*, ν* (skipped when S = 1)
	HyperAB    = "ab"    // a*, b* (frozen while a* > ABMax)
	HyperAlpha = "alpha" // α* (skipped when S = 1)
)

// HyperGroups returns HyperPsi, HyperMuNu, HyperAB and HyperAlpha.
func (m *VB) HyperGroups() []string {
	return []string{HyperPsi, HyperMuNu, HyperAB, HyperAlpha}
}

// DefaultSchedule returns the reference code's hyperparameter schedule: Ψ
// and μ*, ν* at every iteration, a*, b* and α* fixed (targets ch4-mfa.md
// §1.7 "reference-code practice"; §1.14 keeps a* = 1, b* = 0.01 fixed by
// default because optimising them from a* = b* = 1 runs away). Add
// vb.Every(HyperAB) or vb.Every(HyperAlpha) for the thesis's section 4.2.5
// variant.
func DefaultSchedule() []vb.Stage { return vb.Every(HyperPsi, HyperMuNu) }

// UpdateHyper maximises F over one group of hyperparameters with every q
// fixed (Beal (2003) section 4.2.5, lines 2553–2613):
//
//   - HyperPsi (eqs. (4.58)–(4.59), lines 2560–2563): ψ_q = max(ψ_min,
//     (1/n) Σ_i Σ_s q_is ⟨(y_iq − Λ̃^s_q·x̃_i)²⟩), the printed 1/N being 1/n;
//     F is unimodal in ψ_q, so the floor is the constrained maximiser;
//   - HyperMuNu (eqs. (4.70)–(4.71), lines 2609–2611): μ*_q = (1/S) Σ_s E[μ^s_q]
//     and 1/ν*_q = (1/S) Σ_s ⟨(μ^s_q − μ*_q)²⟩; the print sets ν* to the
//     average, which is a variance (targets §1.7). Skipped when S = 1, where
//     ν* would grow without bound (each update adds about N/ψ_q);
//   - HyperAB (eqs. (4.60)–(4.63), lines 2570–2577, solved by Appendix C.2's
//     Newton step via dist.Gamma.FitFromMoments): ψ(a*) − ln a* = c − ln d,
//     b* = a*/d, with c and d the averages of ⟨ln ν^s_l⟩ and ⟨ν^s_l⟩ over
//     every column of every analyser. Skipped (and counted in ABFrozen)
//     while a* > ABMax (targets §1.14);
//   - HyperAlpha (eqs. (4.64)–(4.67), lines 2584–2595): the root of
//     ψ(α*) − ψ(α*/S) = (1/S) Σ_s [ψ(ω_0) − ψ(ω_s)], where F is concave in α*.
//     Skipped when S = 1, where F does not depend on α*.
//
// Each is the exact maximiser of F in its group, so F cannot decrease.
// UpdateHyper panics on an unknown group. Only HyperPsi needs the
// statistics of q(s) and q(x), which it recomputes; none allocates.
func (m *VB) UpdateHyper(group string) {
	switch group {
	case HyperPsi:
		m.updatePsi()
	case HyperMuNu:
		m.updateMuNu()
	case HyperAB:
		m.updateAB()
	case HyperAlpha:
		m.updateAlpha()
	default:
		panic(fmt.Sprintf("mfa: unknown hyperparameter group %q", group))
	}
}

// updatePsi is the Ψ update: with G_s, Syx_s the statistics of analyser s,
//
//	Σ_i q_is R^s_iq = Σ_i q_is y_iq² − 2 m_q·Syx_s[q,:] + tr(⟨Λ̃_qΛ̃_qᵀ⟩ G_s).
func (m *VB) updatePsi() {
	p := m.p
	psi := m.Hyper.Psi
	copy(psi, m.yy) // Σ_s Σ_i q_is y_iq² = Σ_i y_iq²
	for s, c := range m.comps {
		m.stats(s, c)
		d := c.d
		for q := 0; q < p; q++ {
			c.rows.RowMeanTo(c.mrow, q)
			lin := dot(c.mrow, c.syx[q*d:(q+1)*d])
			raw := c.rows.RowSecondMomentTo(c.ss, q).RawSymmetric()
			var tr float64
			for a := 0; a < d; a++ {
				tr += raw.Data[a*raw.Stride+a] * c.g[a*d+a]
				for b := a + 1; b < d; b++ {
					tr += 2 * raw.Data[a*raw.Stride+b] * c.g[a*d+b]
				}
			}
			psi[q] += tr - 2*lin
		}
	}
	for q := range psi {
		psi[q] = math.Max(psi[q]/float64(m.n), m.PsiMin)
	}
}

// updateMuNu is the μ*, ν* update (see UpdateHyper).
func (m *VB) updateMuNu() {
	S := len(m.comps)
	if S < 2 {
		return
	}
	h := &m.Hyper
	for q := 0; q < m.p; q++ {
		var mu float64
		for _, c := range m.comps {
			mu += c.rows.RowMeanTo(c.mrow, q)[c.k]
		}
		mu /= float64(S)
		var v float64
		for _, c := range m.comps {
			dev := c.rows.RowMeanTo(c.mrow, q)[c.k] - mu
			v += dev*dev + c.rows.CovarianceTo(c.ss, q).At(c.k, c.k)
		}
		h.Mu[q] = mu
		h.Nu[q] = float64(S) / v
	}
}

// updateAB is the a*, b* update (see UpdateHyper).
func (m *VB) updateAB() {
	h := &m.Hyper
	if h.A > m.ABMax {
		m.ABFrozen++
		return
	}
	var c, d float64
	var cols int
	for _, comp := range m.comps {
		for _, g := range comp.nu {
			c += g.MeanLog()
			d += g.Mean()
			cols++
		}
	}
	if cols == 0 {
		return
	}
	c /= float64(cols)
	d /= float64(cols)
	fit, ok := dist.Gamma{Alpha: h.A, Beta: h.B}.FitFromMoments(c, d)
	if !ok {
		return
	}
	h.A, h.B = fit.Alpha, fit.Beta
}

// Settings of the α* root finder.
const (
	alphaMaxIter = 200
	alphaRelTol  = 1e-14
)

// updateAlpha is the α* update (see UpdateHyper): f′(α) = ψ(α) − ψ(α/S) + c̄
// with c̄ = (1/S) Σ_s ⟨ln π_s⟩ is decreasing in α (F is concave in α* for
// S > 1), positive as α → 0 and tends to ln S + c̄ < 0 (Jensen) as α → ∞,
// so its root is bracketed by halving and doubling and then found by
// bisection in ln α.
func (m *VB) updateAlpha() {
	S := len(m.comps)
	if S < 2 {
		return
	}
	dist.DirichletMeanLogTo(m.elnpi, m.omega)
	var cbar float64
	for _, v := range m.elnpi {
		cbar += v
	}
	cbar /= float64(S)
	fS := float64(S)
	deriv := func(a float64) float64 { return numeric.Digamma(a) - numeric.Digamma(a/fS) + cbar }
	lo, hi := m.Hyper.Alpha, m.Hyper.Alpha
	for it := 0; deriv(lo) < 0 && it < alphaMaxIter; it++ {
		lo /= 2
	}
	for it := 0; deriv(hi) > 0 && it < alphaMaxIter; it++ {
		hi *= 2
	}
	if !(deriv(lo) >= 0) || !(deriv(hi) <= 0) {
		return // no bracket (not expected): keep α*
	}
	for it := 0; it < alphaMaxIter && hi-lo > alphaRelTol*hi; it++ {
		mid := math.Sqrt(lo * hi)
		if mid <= lo || mid >= hi {
			break
		}
		if deriv(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	// Of the two ends keep the one with the higher F(α*) (eq. (4.66)).
	fa := func(a float64) float64 {
		return numeric.LogGamma(a) - fS*numeric.LogGamma(a/fS) + (a/fS-1)*cbar*fS
	}
	best := lo
	if fa(hi) > fa(lo) {
		best = hi
	}
	if fa(best) >= fa(m.Hyper.Alpha) {
		m.Hyper.Alpha = best
	}
}
