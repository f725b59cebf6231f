// Package backfit is probabilistic and Bayesian backfitting (D'Souza 2004,
// chapter 4, the seed text ../shared/seeds/003_a56118dfa4fca769.txt): linear
// regression on d basis functions f_m with a hidden "fake target" z_im on
// every branch of the regression fan-in,
//
//	y_i | z_i ~ N(1ᵀz_i, ψ_y),   z_im | x_i ~ N(b_m f_m(x_i), ψ_zm)        (4.13)
//
// which decouples the inputs: every update is O(d) a data point, O(Nd) an
// iteration, with no d×d matrix (no matrix inversion at all).
//
//   - EM (probabilistic backfitting, section 4.3): ML for b, ψ; its b-step
//     is relaxed Gauss-Seidel / backfitting with ω_m = ψ_zm/s (eqs. 4.17,
//     4.19), and its fixed point is OLS (section 4.3.3).
//   - VB (Bayesian backfitting, section 4.4): b_m ~ N(0, 1/α) with one
//     shared α ~ Gamma (eq. 4.24, ridge-like) or b_m ~ N(0, 1/α_m) with
//     α_m ~ Gamma each (eq. 4.27, ARD: irrelevant inputs pruned), under
//     Q(Z)Q(b)Q(α); the complete bound, every constant included.
//   - StudentT (section 4.4.3): the model in which α also scales the fake
//     targets' noise (eq. 4.30), under Q(Z)Q(b, α): Student-t marginals of b.
//   - Classifier (section 4.4.4): y ∈ {−1, +1} through the logistic, with
//     the Jaakkola-Jordan bound (eqs. 4.31-4.32) and the priors of VB.
//   - Gibbs: a Gibbs sampler of the exact posterior p(b, α | y; ψ) of VB's
//     model, the reference VB's q(b) is judged against.
//
// # Data layout
//
// The design is one flat row-major N×d slice, F[i*d+m] = f_m(x_i)
// (NewProblem): an iteration's only O(Nd) work is, for each point, one dot
// product r_i = y_i − ⟨b⟩ᵀf(x_i) and one axpy g += r_i f(x_i) over its row,
// both core/numeric vector kernels over a row that sits in the L1 cache.
// For a backfitting RVM the design is the N×N kernel matrix (symmetric, so
// the layout does not matter) and an iteration costs O(N²). Since each
// iteration moves a coefficient by about 1/d of its backfitting correction,
// when q(α) starts to move matters at d ≈ 100 (Settings.AlphaFrom).
//
// # Corrections to the text
//
// The targets' errata (../shared/targets/other-seeds.md §4.3) are followed:
// σ²_bm is the inverse (Σ_i f_m(x_i)²/ψ_zm + ⟨α_m⟩)⁻¹, with the ^{−1} printed
// at L1619 and missing at L1565 and L2431; eq. 4.28 (L1609) has ½ ln α_m in
// the sum over m, not d/2 ln α_m. Eq. 4.14 prints ψ_y as the variance of the
// incomplete likelihood; with z integrated out it is s = ψ_y + Σ_m ψ_zm, the
// value EM.E uses (the maximiser over b is OLS either way). The text does not
// say how ψ starts: Noise documents the default.
//
// # The relevance vector machine
//
// Section 4.4.5 (eqs. 4.33-4.34, L1757-1795) casts Tipping's (2001) RVM as
// Bayesian backfitting with ARD on a kernel basis, f_m(x) = k(x, x_m), d = N
// (plus a bias): the backfitting RVM is VB with Settings.ARD on the design
// of KernelBasis, O(N²) an iteration. RVM is the direct baseline, type-II
// maximum likelihood of α and β with the weights integrated out, an O(M³)
// Cholesky factor an iteration over the M basis functions still in the
// model. Its log evidence is exact (a Gaussian integral), and MacKay's
// updates, the default, are not coordinate ascent (RVMUpdate: EMUpdate is).
// A basis vector is kept when α (RVM) or E[α_m] (VB) is at most a cap.
//
//	NewKernelBasis, KernelBasis.Design   1 and exp(−λ‖x − x_j‖²) on every centre       eq. 4.33, L1763-1769, L1781-1785
//	NewRVM, RVM.E                        Σ = (A + βΦᵀΦ)⁻¹, μ = βΣΦᵀy; ln p(y|α,β)      eqs. 4.33-4.34 (Tipping 2001); L1772-1776
//	                                     in three terms; pruning as Bound.Jump
//	RVM.M                                MacKay: α_j = γ_j/μ_j², β = (N − Σγ)/‖r‖²;   Tipping (2001); L1776
//	                                     EM: α_j = 1/(μ_j² + Σ_jj), β = N/(‖r‖² + tr ΦΣΦᵀ)
//	RVM.Predict, RVM.Kept                Σ_j μ_j φ_j(x); the basis functions with α ≤ cap L1787, L1852
//
// # Map to the text
//
// Equation numbers are D'Souza's, "L" a line of
// ../shared/seeds/003_a56118dfa4fca769.txt, § a section of
// ../shared/targets/other-seeds.md.
//
//	NewProblem       the design F (row-major N×d) and y                      eq. 4.13
//	Problem.OLS      argmin ‖y − Fb‖² by QR: the batch baseline               eq. 4.2; §7 P6
//	NewEM, EM.E      ln p(y|X;φ) = Σ ln N(y_i; bᵀf_i, s), z's posterior     eqs. 4.14, B.15-B.20; L2340-2399
//	EM.M             b_m by eq. 4.17, ψ_zm, ψ_y                               L1460-1475, eqs. 4.17, B.19
//	EM.Relaxation    ω_m = ψ_zm/s of the relaxed Gauss-Seidel view            eqs. 4.18-4.19, L1480-1495
//	NewVB            q(α) shape a_α + d/2 (shared) or a_α + 1/2 (ARD)         eqs. 4.24, 4.27; L1527-1691
//	VB.E             q(Z) given ⟨b⟩; F in five terms, all constants           eqs. 4.25, 4.28 (½ ln α_m), B.15-B.20
//	VB.M             q(b) (σ²_b with its ^{−1}), q(α), ψ                      eqs. 4.26, 4.29; App B.5.1 L2400-2440; §4.3
//	VB.Predict       N(y; ⟨b⟩ᵀf, s + Σ σ²_bm f_m²)                            eq. 4.13 with q(b)
//	NewStudentT      q(α) shape a_α + Nd/2 (a_α + N/2 with ARD)               eq. 4.30; L1610-1645
//	StudentT.E       q(Z) with ψ_zm/E[α_m]; F with −E_α KL[b|α], all constants  App B.5.2 L2445-2484
//	StudentT.M       q(b|α) = N(μ, σ̃²/α), q(α), ψ                             eq. B.24 and the q(α) after it
//	StudentT.MarginalB   t_ν(b_m; μ_bm, (b̂/â)σ̃²_m), ν = 2â                    L1630-1645, B.25
//	NewClassifier, Classifier.E   JJ bound (approx.JJLambda: tanh form), F    eqs. 4.31-4.32, L1692-1733; §4.3 erratum
//	Classifier.M     q(b), q(α), ψ_z, ξ_i² = 1ᵀ⟨z_i z_iᵀ⟩1                      L1735-1768
//	NewGibbs, Gibbs.Sweep   b_m | rest and α | b, Z integrated out            eqs. 4.13, 4.24, 4.27; §7 P6
package backfit
