// Package linreg is variational Bayesian linear regression with a known
// noise precision (Bishop 2006, PRML section 10.3, the seed text
// ../shared/seeds/002_cc78f0884d114115.txt, lines 590–710):
//
//	p(t|w) = Π_n N(t_n | wᵀφ_n, β⁻¹),  p(w|α) = N(w | 0, α⁻¹I),  p(α) = Gam(α | a₀, b₀)
//
// (eqs. 10.87–10.90), approximated by q(w, α) = q(w) q(α) (eq. 10.91), with
// q(w) Gaussian and q(α) gamma. VB alternates the two exact coordinate
// updates and reports the lower bound L(q) ≤ ln p(t) complete with every
// constant; EM is the point-estimate baseline, α by type-II maximum
// likelihood or MAP. Unlike the bound of a mixture, the evidence of this
// model is a one-dimensional integral, p(t) = ∫ p(t|α) p(α) dα with p(t|α)
// in closed form (eq. 3.86), so Problem.LogEvidence computes it by adaptive
// quadrature and the gap ln p(t) − L(q) = KL(q ‖ p(w, α|t)) is measured,
// not guessed.
//
// Every method works in the eigenbasis of ΦᵀΦ, from one singular value
// decomposition of Φ (NewProblem): then each step and the integrand of the
// evidence are O(M) and exact for every α, where the printed forms would
// subtract numbers near tᵀt or invert ΦᵀΦ of condition 10¹⁶ (the
// polynomials of order 8 on (−5, 5) of Fig. 10.9).
//
// # The prior of Fig. 10.9
//
// The text draws Fig. 10.9 with a₀ = b₀ = 0 (L704), p(α) ∝ 1/α. That prior
// is improper: its normaliser b₀^a₀/Γ(a₀) is zero, so the complete bound is
// −∞, and the evidence ∫ p(t|α) dα/α diverges at α → ∞, where p(t|α) tends
// to p(t|w = 0) > 0. Prior therefore requires a₀, b₀ > 0; a vague proper
// prior (a₀ = b₀ = 10⁻³, say) changes the bound of every order by nearly
// the same constant a₀ ln b₀ − ln Γ(a₀) ≈ ln a₀, and so leaves the ranking
// of the orders that the figure shows.
//
// # Correction to the text
//
// Eq. 10.110 at L692 prints E[ln p(α)] with −ln Γ(a_N); the prior's
// log-normaliser is a₀ ln b₀ − ln Γ(a₀), so it is −ln Γ(a₀) (the
// published PRML errata correct it the same way). As printed, ln Γ(a_N)
// cancels the +ln Γ(a_N) of the entropy (10.112) and the bound is finite at
// a₀ = b₀ = 0, which is presumably how Fig. 10.9 was drawn. The targets'
// errata (../shared/targets/other-seeds.md §2.3) list 10.177 and 10.183 for
// section 10.6; their forms (q(α) = Gam(a_N, b_N), E[wᵀw] = Tr S_N +
// m_Nᵀm_N) are the ones used here (eqs. 10.93, 10.103).
//
// # Map to the text
//
// Equation numbers are PRML's, "L" a line of
// ../shared/seeds/002_cc78f0884d114115.txt, § a section of
// ../shared/targets/other-seeds.md.
//
//	Polynomial           φ_j(x) = x^j, the basis of Fig. 10.9          section 1.1; L706–710
//	NewProblem           Φ = U diag(s) Vᵀ, λ_i = s_i², c = Uᵀt       eq. 3.87
//	Problem.LogLik       ln p(t|α), w integrated out                  eq. 3.86
//	Problem.LogEvidence  ln p(t) = ln ∫ p(t|α) Gam(α|a₀,b₀) dα        eqs. 10.89–10.90; §2.2 (Fig 10.9), §7 P4
//	NewVB                q(α) = Gam(a₀ + M/2, ·)                      eqs. 10.93–10.94
//	VB.E                 q(w) = N(m_N, S_N), then L(q) in five terms  eqs. 10.99–10.102; 10.107–10.112,
//	                                                                  10.110 with ln Γ(a₀) (above)
//	VB.M                 q(α): b_N = b₀ + E[wᵀw]/2                    eqs. 10.95, 10.103 (§2.3's 10.183 form)
//	VB.QAlpha            q(α), E[α] = a_N/b_N                         eqs. 10.93, 10.102
//	VB.Mean, VB.Cov      m_N, S_N                                     eqs. 10.100–10.101
//	VB.Predict           N(t | m_Nᵀφ, 1/β + φᵀS_Nφ)                   eqs. 10.105–10.106
//	NewEM, EM.E, EM.M    α by EM: ML (evidence framework) or MAP      eqs. 3.86, 9.63; 10.104 (the VB limit)
//	EM.Predict           the predictive at the point α                eqs. 3.58–3.59
package linreg
