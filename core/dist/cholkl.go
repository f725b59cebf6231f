package dist

import (
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// The allocation-free forms of KLWishart with ExpectedCondKL (a
// Normal-Wishart) and of KLNormalGamma, on flat row-major arrays holding
// Cholesky factors (numeric's small-matrix convention: the lower triangle
// of an n×n slice, A = LLᵀ). A model's E step keeps its posteriors as such
// factors and calls these; the gonum-based KLWishart, ExpectedCondKL and
// KLNormalGamma are their oracles (TestNormalWishartKLChol,
// TestNormalGammaKLChol).

// NormalWishartChol is q(μ, Λ) = N(μ | Mean, (BetaΛ)⁻¹) W(Λ | Nu, S) of
// dimension D, with E[Λ] = Nu·S (Wishart's convention), held through L,
// the D×D lower Cholesky factor of S⁻¹ (S⁻¹ = LLᵀ).
type NormalWishartChol struct {
	Beta, Nu float64
	Mean     []float64 // D
	L        []float64 // D×D, lower triangle read
}

// NormalGammaChol is q(c, ρ) = Ga(ρ | A, B) N(c | Mean, (ρP)⁻¹) of
// dimension D (NormalGamma with Σ = P⁻¹), held through L, the D×D lower
// Cholesky factor of the precision P at ρ = 1 (P = LLᵀ).
type NormalGammaChol struct {
	A, B float64
	Mean []float64 // D
	L    []float64 // D×D, lower triangle read
}

// traceFactors returns tr(A_p A_q⁻¹) = ‖L_q⁻¹L_p‖²_F for A_q = L_qL_qᵀ and
// A_p = L_pL_pᵀ, using the d×d scratch work.
func traceFactors(d int, lq, lp, work []float64) float64 {
	w := work[:d*d]
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			if j <= i {
				w[i*d+j] = lp[i*d+j]
			} else {
				w[i*d+j] = 0
			}
		}
	}
	numeric.CholSolve(lq, d, w, d)
	var s float64
	for _, v := range w {
		s += v * v
	}
	return s
}

// sqNormSolve returns ‖L⁻¹(a − b)‖², using the d-vector scratch v.
func sqNormSolve(d int, l, a, b, v []float64) float64 {
	v = v[:d]
	for i := range v {
		v[i] = a[i] - b[i]
	}
	numeric.CholSolveVec(l, d, v)
	var s float64
	for _, u := range v {
		s += u * u
	}
	return s
}

// wishartLogZChol returns ln Z_νS = (νD/2) ln 2 + (ν/2) ln|S| + ln Γ_D(ν/2)
// (Wishart's normaliser, Beal (2003) Appendix A) with ln|S| = −ln|LLᵀ|.
func wishartLogZChol(nu, logDetS float64, d int) float64 {
	return nu*float64(d)/2*math.Ln2 + nu/2*logDetS + numeric.LogMultiGamma(nu/2, d)
}

// NormalWishartKL returns KL(q(μ, Λ) ‖ p(μ, Λ)) by the chain rule
// KL(q(Λ) ‖ p(Λ)) + E_q(Λ)[KL(q(μ|Λ) ‖ p(μ|Λ))] (Beal (2003) Appendix
// C.3):
//
//	KL_W = ln Z_p − ln Z_q + (ν_q − ν_p)/2 · E_q[ln|Λ|] + (ν_q/2)(tr(S_p⁻¹S_q) − D)   (KLWishart)
//	E KL_N = ½[Dβ_p/β_q − D + D ln(β_q/β_p) + β_p ν_q (m_q − m_p)ᵀS_q(m_q − m_p)]       (ExpectedCondKL)
//
// with E_q[ln|Λ|] = Σ_i ψ((ν_q+1−i)/2) + D ln 2 + ln|S_q| (Wishart.MeanLogDet)
// and E_q[Λ] = ν_qS_q. work is scratch of at least D² + D elements. It does
// not allocate.
func NormalWishartKL(d int, q, p NormalWishartChol, work []float64) float64 {
	df := float64(d)
	ldq, ldp := -numeric.CholLogDet(q.L, d), -numeric.CholLogDet(p.L, d) // ln|S|
	elnL := WishartMeanLogDetChol(q.Nu, q.L, d)
	tr := traceFactors(d, q.L, p.L, work)
	klW := wishartLogZChol(p.Nu, ldp, d) - wishartLogZChol(q.Nu, ldq, d) + (q.Nu-p.Nu)/2*elnL + q.Nu/2*(tr-df)
	maha := sqNormSolve(d, q.L, q.Mean, p.Mean, work[d*d:])
	klN := 0.5 * (df*p.Beta/q.Beta - df + df*math.Log(q.Beta/p.Beta) + p.Beta*q.Nu*maha)
	return klW + klN
}

// NormalGammaKL returns KL(q(c, ρ) ‖ p(c, ρ)) by the chain rule of
// KLNormalGamma (Beal (2003) eqs. (C.18)–(C.19), (C.22)–(C.23)):
//
//	KL = KLGamma(q(ρ), p(ρ)) + ½[tr(P_p P_q⁻¹) − D + ln|P_q| − ln|P_p| + (A_q/B_q)(m_q − m_p)ᵀP_p(m_q − m_p)],
//
// the second part ExpectedCondKL with Σ = P⁻¹. work is scratch of at least
// D² + D elements. It does not allocate.
func NormalGammaKL(d int, q, p NormalGammaChol, work []float64) float64 {
	klG := KLGamma(Gamma{Alpha: q.A, Beta: q.B}, Gamma{Alpha: p.A, Beta: p.B})
	tr := traceFactors(d, q.L, p.L, work)
	// (m_q − m_p)ᵀP_p(m_q − m_p) = ‖L_pᵀ(m_q − m_p)‖².
	v := work[d*d : d*d+d]
	var maha float64
	for i := 0; i < d; i++ {
		var s float64
		for j := i; j < d; j++ {
			s += p.L[j*d+i] * (q.Mean[j] - p.Mean[j])
		}
		v[i] = s
		maha += s * s
	}
	return klG + 0.5*(tr-float64(d)+numeric.CholLogDet(q.L, d)-numeric.CholLogDet(p.L, d)+q.A/q.B*maha)
}
