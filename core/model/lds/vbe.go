package lds

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/vb"
)

// E is the VBE step (Beal 2003 section 5.3.2-5.3.5, Algorithms 5.1 and
// 5.2, lines 3534-3877): for every sequence the variational Kalman smoother
// of package infer computes q(x_{0:T}) under the expected natural
// parameters φ̄ of the current q(θ) and the current x_0 prior, and the
// hidden-state statistics (5.126)-(5.132) are summed over sequences
// (5.148)-(5.149). E then returns the bound (5.147), complete with every
// constant, valid at this point only (straight after a VBE step):
//
//	F = Σ_i ln Z'_i − KL(B) − ⟨KL(A|B)⟩ − KL(ρ) − ⟨KL(D|ρ)⟩ − ⟨KL(C|ρ,D)⟩,
//
// with ln Z'_i of Algorithm 5.1(c) as corrected in targets §1.6 and the KL
// divergences of targets §1.8 (appendix C.3, lines 5283-5336):
//
//	KL(B)       = (k/2)[−ln|Σ_B| − Σ_c ln β_c − d] + ½ tr(diag(β)⟨BᵀB⟩)
//	⟨KL(A|B)⟩   = (k/2)[−ln|Σ_A| − Σ_j ln α_j − k] + ½ tr(diag(α)⟨AᵀA⟩)
//	KL(ρ)       = Σ_s KL(Ga(a + T/2, b + G_ss/2) ‖ Ga(a, b))
//	⟨KL(D|ρ)⟩   = (p/2)[−ln|Σ_D| − Σ_c ln δ_c − d] + ½ tr(diag(δ)⟨DᵀR⁻¹D⟩)
//	⟨KL(C|ρ,D)⟩ = (p/2)[−ln|Σ_C| − Σ_j ln γ_j − k] + ½ tr(diag(γ)⟨CᵀR⁻¹C⟩)
//
// (the ρ_s of the conditional prior and posterior cancel in the
// log-determinants). The terms are named TermLogZ, TermKLB, …; without
// inputs there are no B and D terms. Each KL is evaluated for the stored
// q(θ) and the current hyperparameters, so F is also right after
// UpdateHyper has changed them.
//
// In the MAP modes E returns G = κ Σ_i ln Z'_i − KL(q(θ) ‖ p(θ)) (first term
// TermMAP), with the prior p of the VBM step (boosted in MAPTempered). G is
// the objective that those modes ascend: their VBM step maximises
// κ⟨ln p(x, y | θ)⟩ + ⟨ln p(θ)⟩ + H[q(θ)] over q(θ) and their VBE step
// κ(⟨ln p(x, y | θ)⟩ + H[q(x)]) over q(x), so G never decreases either.
//
// The smoother runs its precision recursions once for each length among
// the sequences (infer.KalmanSmoother.SmoothSequences). E allocates only
// the returned Bound.Terms, which the caller may keep.
func (m *VB) E() (vb.Bound, error) {
	if m.err != nil {
		return vb.Bound{F: math.NaN()}, m.err
	}
	ds, phi := m.data, m.phi
	copy(phi.Mu0, m.Hyper.Mu0)
	copy(phi.Lambda0, m.Hyper.Lambda0)
	if i, err := m.ks.SmoothSequences(m.post, phi, ds.y, ds.u, ds.mom); err != nil {
		return vb.Bound{F: math.NaN()}, fmt.Errorf("lds: VBE, sequence %d: %w", i, err)
	}
	m.stats.Zero()
	for i := range ds.y {
		m.stats.AddSequence(&m.post[i], ds.y[i], ds.u[i])
	}
	return m.bound(), nil
}

// bound assembles F from the last VBE step's ln Z' and the KL divergences
// of q(θ) under the current hyperparameters (see E).
func (m *VB) bound() vb.Bound {
	kla, klb, klr, kld, klc := m.kls()
	s, _ := m.scales()
	lz := s * m.stats.LogZ
	name := TermLogZ
	if m.mode != Variational {
		name = TermMAP
	}
	terms := make([]vb.Term, 0, 6)
	terms = append(terms, vb.Term{Name: name, Value: lz})
	if m.d > 0 {
		terms = append(terms, vb.Term{Name: TermKLB, Value: -klb})
	}
	terms = append(terms, vb.Term{Name: TermKLA, Value: -kla}, vb.Term{Name: TermKLRho, Value: -klr})
	if m.d > 0 {
		terms = append(terms, vb.Term{Name: TermKLD, Value: -kld})
	}
	terms = append(terms, vb.Term{Name: TermKLC, Value: -klc})
	f := lz
	for _, t := range terms[1:] {
		f += t.Value
	}
	return vb.Bound{F: f, Terms: terms}
}

// kls returns ⟨KL(A|B)⟩, KL(B), KL(ρ), ⟨KL(D|ρ)⟩ and ⟨KL(C|ρ,D)⟩ (see E);
// the B and D terms are 0 without inputs.
func (m *VB) kls() (kla, klb, klr, kld, klc float64) {
	k, p, d := m.k, m.p, m.d
	_, r := m.scales()
	phi, h := m.phi, m.Hyper
	kla = ardKL(k, k, m.logDetA, r, h.Alpha, phi.AtA)
	klc = ardKL(p, k, m.logDetC, r, h.Gamma, phi.CtRhoC)
	if d > 0 {
		klb = ardKL(k, d, m.logDetB, r, h.Beta, phi.BtB)
		kld = ardKL(p, d, m.logDetD, r, h.Delta, phi.DtRhoD)
	}
	prior := m.noisePrior()
	for _, q := range m.rho {
		klr += dist.KLGamma(q, prior)
	}
	return kla, klb, klr, kld, klc
}

// ardKL returns the (expected, conditional) KL divergence of n rows with
// a shared covariance Σ (ln|Σ| = logDet) from the zero-mean ARD prior with
// column precisions r·prec,
//
//	(n/2)[−ln|Σ| − Σ_j ln(r·prec_j) − m] + ½ Σ_j r·prec_j mom_jj,
//
// where mom (m×m) is the rows' summed second moment (⟨AᵀA⟩, or ⟨CᵀR⁻¹C⟩
// for the ρ-scaled rows of C and D).
func ardKL(n, m int, logDet, r float64, prec, mom []float64) float64 {
	var lnPrec, tr float64
	for j, a := range prec {
		ra := r * a
		lnPrec += math.Log(ra)
		tr += ra * mom[j*m+j]
	}
	return 0.5*float64(n)*(-logDet-lnPrec-float64(m)) + 0.5*tr
}
