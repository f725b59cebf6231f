package dag

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// VB is the variational Bayesian EM algorithm for a discrete DAG with
// hidden variables (Beal (2003) section 6.3.4, eqs. (6.35)–(6.48)), with
// q(θ, s) = Π_jl q(θ_jl) Π_i q_i(s_i) and q(θ_jl) = Dir(α_jl).
//
// It is a vb.Model. E is the VBE step: it sets the sub-normalised
// parameters ln θ̃_jlk = ψ(α_jlk) − ψ(Σ_k α_jlk) (eqs. (6.44)–(6.46), the
// garbled (6.45) corrected; never renormalised), runs the exact E step with
// θ̃ (6.43) and returns
//
//	F = Σ_i ln Z̃_i − Σ_jl KL(Dir(α_jl) ‖ Dir(λ_jl))
//
// (targets §1.5, by analogy with eqs. (3.75)–(3.79)), where Z̃_i = Σ_s Π_j θ̃
// is the VBE normaliser. This is the bound (6.36)–(6.37) itself, complete
// with every constant, at q(θ) = Dir(α) and the q_i(s_i) just computed, so
// no entropy is evaluated inside the loop (targets §5); Entropy splits the
// first term when it is to be reported. M is the VBM step (6.41):
// α_jlk = λ_jlk + N_jlk with the expected counts (6.40) of the last E step.
// The order E → M → E makes F non-decreasing.
//
// The bound ignores the aliases of the posterior; the alias-corrected score
// is F + ln S (Structure.LogAliases).
type VB struct {
	pr    *Problem
	alpha Params // q(θ) = Dir(α)
	n     Params // expected counts of the last VBE step
	tilde Params // θ̃ of the last VBE step
	phi   []float64
	klj   []float64 // KL per node
	names []string  // "-KL[theta<j>]", j 1-based as in the thesis
	ran   bool      // an E step has run
}

// TermLogZ names the Σ_i ln Z̃_i term of the VB bound; the KL term of node j
// (counted from 1, as the thesis numbers nodes) is named "-KL[theta<j>]".
const TermLogZ = "lnZ"

// NewVB returns VBEM started as in targets §3.0: a VBE step that treats init
// (a normalised θ) as θ̃ gives the expected counts N, and a VBM step sets
// q(θ) = Dir(λ + N); the first E of vb.Run is then a proper VBE step. It
// panics if init has the wrong length.
func (pr *Problem) NewVB(init Params) *VB {
	pr.checkLen(init)
	m := pr.newVB()
	m.pr.pl.estep(init, m.n, m.phi)
	m.M()
	return m
}

// NewVBPosterior returns VBEM started from q(θ) = Dir(alpha) (copied); its
// first E is a VBE step with that q(θ). With alpha = CSPosterior(θ̂) this is
// the start of Corollary 2.5 from which F ≥ the Cheeseman–Stutz score
// (targets §3.13, vb_init = "from_cs"). It panics if alpha has the wrong
// length or an entry that is not positive.
func (pr *Problem) NewVBPosterior(alpha Params) *VB {
	pr.checkLen(alpha)
	for _, a := range alpha {
		if !(a > 0) || math.IsInf(a, 1) {
			panic("dag: posterior pseudo-count not positive and finite")
		}
	}
	m := pr.newVB()
	copy(m.alpha, alpha)
	return m
}

func (pr *Problem) newVB() *VB {
	k := len(pr.lambda)
	m := &VB{pr: pr, alpha: make(Params, k), n: make(Params, k), tilde: make(Params, k),
		phi: make([]float64, pr.pl.h), klj: make([]float64, pr.s.Nodes())}
	for j := range m.klj {
		m.names = append(m.names, fmt.Sprintf("-KL[theta%d]", j+1))
	}
	return m
}

// CSPosterior returns λ + N̂, where N̂ are the expected counts of the exact
// E step at θ̂: the VBM step from q_i(s_i) = p(s_i|y_i, θ̂), at which the
// bound with q_i held fixed equals the Cheeseman–Stutz score (Corollary 2.5,
// seed text lines 1641–1676).
func (pr *Problem) CSPosterior(thetaHat Params) Params {
	_, n := pr.ExpectedCounts(thetaHat)
	for i := range n {
		n[i] += pr.lambda[i]
	}
	return n
}

// E runs the VBE step and returns F with the terms "lnZ" and
// "-KL[theta<j>]" for every node j.
func (m *VB) E() (vb.Bound, error) {
	kl := m.prepare()
	m.ran = true
	clear(m.n)
	lnz := m.pr.pl.estep(m.tilde, m.n, m.phi)
	terms := make([]vb.Term, 1+len(m.klj))
	terms[0] = vb.Term{Name: TermLogZ, Value: lnz}
	for j, v := range m.klj {
		terms[j+1] = vb.Term{Name: m.names[j], Value: -v}
	}
	b := vb.Bound{F: lnz - kl, Terms: terms}
	if math.IsInf(lnz, -1) {
		return b, ErrImpossible
	}
	return b, nil
}

// prepare sets θ̃ from α and returns Σ KL(Dir(α_jl) ‖ Dir(λ_jl)), filling
// the per-node sums, with
//
//	KL = ln Γ(α⁰) − ln Γ(λ⁰) − Σ_k [ln Γ(α_k) − ln Γ(λ_k)] + Σ_k (α_k − λ_k)(ψ(α_k) − ψ(α⁰))
//
// (Appendix A, corrected in targets §1.5).
func (m *VB) prepare() float64 {
	pr := m.pr
	clear(m.klj)
	var total float64
	for r, start := range pr.rowStart {
		end := start + pr.rowLen[r]
		var a0 float64
		for k := start; k < end; k++ {
			a0 += m.alpha[k]
		}
		psi0 := numeric.Digamma(a0)
		kl := numeric.LogGamma(a0) + pr.lnB[r]
		for k := start; k < end; k++ {
			a := m.alpha[k]
			lt := numeric.Digamma(a) - psi0
			m.tilde[k] = math.Exp(lt)
			kl += (a-pr.lambda[k])*lt - numeric.LogGamma(a)
		}
		m.klj[pr.rowNode[r]] += kl
		total += kl
	}
	return total
}

// M sets α = λ + N (eq. (6.41)).
func (m *VB) M() {
	for i, n := range m.n {
		m.alpha[i] = m.pr.lambda[i] + n
	}
}

// Posterior returns a copy of α, the parameters of q(θ) = Π_jl Dir(α_jl).
func (m *VB) Posterior() Params { return m.alpha.Clone() }

// Counts returns a copy of the expected counts N of the last VBE step.
func (m *VB) Counts() Params { return m.n.Clone() }

// Entropy returns Σ_i H[q_i(s_i)], the entropy of the hidden-variable
// posterior of the last VBE step (0 before the first), so that the bound
// splits as F = ⟨ln p(s, y|θ)⟩ + Σ_i H[q_i] − KL with ⟨ln p(s, y|θ)⟩ =
// Σ_jlk N_jlk ln θ̃_jlk (eqs. (6.36)–(6.37)). It costs one pass over the
// data and is meant for reporting, not for the loop.
func (m *VB) Entropy() float64 {
	if !m.ran {
		return 0
	}
	return m.pr.pl.entropy(m.tilde, m.phi)
}

// entropy returns Σ_p w_p H[q_p] for the E step at th (normalised or not).
func (pl *plan) entropy(th, phi []float64) float64 {
	h, jc, jv := pl.h, pl.jc, pl.jv
	var total float64
	for p, w := range pl.w {
		ci := pl.cidx[p*jc : (p+1)*jc]
		vi := pl.vidx[p*h*jv : (p+1)*h*jv]
		if math.IsInf(logPattern(th, ci, vi, h, jv, phi), -1) {
			continue
		}
		total += w * numeric.Entropy(phi)
	}
	return total
}
