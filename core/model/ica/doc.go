// Package ica is the Bayesian independent component analysis of Lawrence
// (2000), section 6.5 (the seed text ../shared/seeds/001_7df1fb81bc835124.txt,
// L2334-2541, Appendix D L3031-3108; targets ../shared/targets/other-seeds.md
// §3): P observed dimensions generated from I independent sources,
//
//	t_n = W x_n + μ + ε_n,   ε_n ~ N(0, β⁻¹I)                            (6.2)
//	p(x_n) = Π_i Σ_m π_m N(x_ni | m_m, σ²_m)                            (6.4)
//	p(β) = gam(a_β, b_β),  p(w_pi | α_i) = N(0, α_i⁻¹),                 (6.6, 6.9)
//	p(α_i) = gam(a_α, b_α),  p(μ_p) = N(0, τ⁻¹)                         (6.10, 6.11)
//
// with automatic relevance determination on the columns of the P×I mixing
// matrix W: a source whose column's precision α_i grows without bound is
// switched off, so that a model of more sources than the data hold can find
// their number (L2499). The source mixture (π, m, σ²) is fixed.
//
// VB is the factorised q(x)q(W)q(α)q(β)q(μ) of eq. 6.13, each factor the
// free-form optimum given the others (eq. 6.15): q(W) a Gaussian per row of
// W with one covariance (6.18, 6.21-6.22), q(μ) an isotropic Gaussian (6.17,
// 6.23-6.24), gamma q(α_i) and q(β) (6.19-6.20, 6.25-6.29), and q(x_n) a
// mixture of M^I Gaussians, one for every assignment of the sources to
// their components (6.16, Appendix D). An E step costs N·M^I·I² (L2540),
// computed over blocks of points (a point per column: numeric.MulAdd,
// MulAddT, AddMul) with the responsibilities of mixture.NormalizeLog.
//
// # The bound is computable
//
// The text maximises the bound of eq. 6.14 but says it cannot evaluate it,
// since the entropy of the mixture q(x_n) is intractable (L2532), and so
// cannot compare models by it. The entropy is indeed intractable, but the
// bound needs only E[ln p(x)] + H[q(x)], and that sum is exact: q(x_n) =
// exp(A_n(x)) p(x)/Z_n (eq. D.5), so ln q = A_n + ln p − ln Z_n and
//
//	E_q[ln p(x_n)] + H[q(x_n)] = ln Z_n − E_q[A_n(x_n)],
//
// a quadratic A_n(x) = −½xᵀΛx + b_nᵀx (eq. D.4) whose expectation needs
// only E[x_n] and E[x_n x_nᵀ] (D.15-D.16), and Z_n the normaliser of D.14.
// The log-mixture expectation cancels. (ln Z_n and E[A_n] each grow like
// E[β]; VB sums their difference per component, Σ_m r_m[ln π_m − ½ln|B_m|
// + ½ln|D_m| + ½tr(ΛD_m) − ½(f_m − m_m)ᵀB_m⁻¹(f_m − m_m)] + H[r], which
// keeps the bound monotone to rounding at the toy's noise.) This holds for the q(x) of the last
// update whatever the other factors have done since (Λ and b_n are those of
// that update), so VB.Objective is the bound at every point of the
// schedule, with every constant, and vb.Run checks that it never
// decreases. The tests check it against a quadrature of q ln p − q ln q and,
// with the other factors point masses, against the exact ln p(t | W, β, μ)
// by enumeration of the components. The text's conjecture (L2532-2534)
// that a lower bound on the entropy would be needed is therefore not so.
//
// # Corrections to the text
//
//   - Eq. 6.2 prints exp(+β/2‖·‖²) without the power P/2 of the
//     normaliser; the density is (β/2π)^{P/2} exp(−β/2‖t_n − Wx_n − μ‖²).
//   - Eq. 6.21 drops the factor E[β] before the sum: the mean of row p of
//     W is Σ_w E[β] Σ_n E[x_n](t_np − E[μ_p]) (with E[μ_p] for μ_p).
//   - Eqs. 6.28-6.29 print "⟨μᵀμ⟩ Tr(…)" for "⟨μᵀμ⟩ + Tr(…)", and a
//     spurious superscript (i) on b̃_β.
//   - The toy's noise (L2495) is printed as an inverse variance of 10⁻⁴:
//     against sources of variance up to 50 that is noise a hundred times
//     the signal's standard deviation, and nothing could be separated from
//     200 points; the experiments read it as the variance (precision 10⁴)
//     and run the printed value as a variant (see experiments/bnn).
//
// # Map to the text
//
// "L" is a line of ../shared/seeds/001_7df1fb81bc835124.txt.
//
//	Sources, Sources.Check    the fixed source mixture Σ_m π_m N(m_m, σ²_m)        eq. 6.4, D.3; L2372
//	Prior, DefaultPrior       gam(a_α, b_α), gam(a_β, b_β), N(0, τ⁻¹) hyperpriors  eqs. 6.6-6.11; L2181 (ch. 5's values)
//	NewVB                     PCA start of q(W), q(x) = p(x), q(α) = p(α)          L2497
//	VB.E                      q(μ) then q(x) (the text's order), then the bound     eqs. 6.23-6.24, D.4-D.16; L2497
//	VB.E (q(x))               D_m, f_m^(n), π̃_m^(n), Z_n and the moments           eqs. 6.16, D.10-D.16; L3085-3108
//	VB.M                      q(W): Σ_w and the row means (E[β] restored)          eqs. 6.18, 6.21-6.22
//	VB.UpdateHyper("alpha")   q(α_i) = gam(a_α + P/2, b_α + E[w_iᵀw_i]/2)          eqs. 6.19, 6.25-6.26
//	VB.UpdateHyper("beta")    q(β) = gam(a_β + NP/2, b_β + ½Σ E‖t−Wx−μ‖²)          eqs. 6.20, 6.27-6.29
//	VB.Objective              eq. 6.14 with E[ln p(x)] + H[q(x)] = Σ ln Z_n − E[A_n] eq. 6.14; L2532 (which says it cannot be done)
//	Schedule                  q(α), q(β) after every inner loop of q(μ), q(x), q(W) L2497 (100 inner, 50 outer)
package ica
