// Package dist provides the exponential-family priors and posteriors of the
// variational Bayesian models of vbw (a reproduction of M. J. Beal,
// "Variational Algorithms for Approximate Bayesian Inference", 2003), with
// the expectations, entropies and KL divergences the VB bound needs.
//
// Every model of chapters 3–6 is conjugate-exponential (section 2.4,
// Theorem 2.2): the VBE step needs expected natural parameters ⟨φ(θ)⟩
// (eq. (2.95)), the VBM step adds expected sufficient statistics to the prior's
// parameters (eqs. (2.97)–(2.99)), and the bound is F = ln Z̃ − Σ_j KL(q(θ_j) ‖
// p(θ_j)) (eq. (3.79) for the HMM). This package supplies those pieces.
//
// # Families
//
//	Dirichlet    Dir(α); eqs. (3.41), (3.68)–(3.71), (6.9); Appendix A
//	Gamma        Ga(a, b), shape a and rate b; Appendix A, C.2 (FitFromMoments)
//	Gaussian     N(μ, Σ), full covariance, cached Cholesky; Appendix A
//	Wishart      W(ν, S), E[W] = νS, Bartlett sampling; Appendix A, eq. (5.7)
//	NormalGamma  Ga(ρ | a, b) N(c | m, ρ⁻¹Σ); eqs. (5.42)–(5.44), Appendix C.3
//	GaussianRows Π_r N(λ_r | μ_r, c_rΣ_r), a matrix of independent Gaussian
//	             rows with an ARD prior over its columns; eqs. (4.43)–(4.50),
//	             (5.35)–(5.50)
//
// (Responsibilities, a categorical q(s) from log-weights, are package
// mixture's NormalizeLog, and numeric.NormalizeLogTo for one point.)
//
// Each family except GaussianRows implements ExpFam, the
// common interface of natural parameters η, expected statistics E[u] =
// ∇A(η), log normaliser A, entropy, closed-form KL, flat log density and
// sampling, so that generic code (and the generic tests) treat all families
// alike. Posterior applies
// the conjugate update η + β·t: batch (2.98)–(2.99), online (2.114)–(2.117)
// and annealed (2.118)–(2.119) VBM steps.
//
// # Map to the thesis
//
// Equation numbers are the thesis's own; its converted text is
// ../shared/seeds/000_055f6e591db3cc60.txt (Appendix A at lines 5115–5135,
// Appendix C at lines 5215–5335, section 3.4.1 at lines 1923–2083).
//
//	DirichletMeanLogTo, Dirichlet.MeanLog   E[ln π_j] = ψ(α_j) − ψ(α₀), eq. (3.68)
//	Dirichlet.BayesPoint                    exp E[ln π], eqs. (3.69)–(3.71)
//	Dirichlet.Mean, Dirichlet.Mode          softmax-basis MAP (L1901), MAP (3.42)
//	DirichletKL, KLDirichlet                Appendix A (corrected), KL terms of (3.79)
//	DirichletLogMarginalCounts              Dirichlet-multinomial evidence, eq. (6.9)
//	DirichletPosteriorTo, Dirichlet.Posterior  VBM, eqs. (3.54)–(3.59), (2.119)
//	DirichletFromMeanLogTo  α from E[ln π] by Newton (Minka 2000 eqs. (15)–(18)): EP's Dirichlet projection
//	FitSymmetricStrength                    symmetric prior strength, eqs. (3.43), (4.66)–(4.67)
//	Gamma.MeanLog, KLGamma, Gamma.Entropy   Appendix A
//	Gamma.FitFromMoments                    eqs. (C.6)–(C.12), multiplicative Newton (C.11)
//	KLGaussian, Gaussian.Entropy            Appendix A, eq. (C.17)
//	Gaussian.ExpectedQuadForm               tr(AΣ) + (μ−m)ᵀA(μ−m)
//	Wishart.MeanLogDet, KLWishart, Entropy  Appendix A
//	ExpectedCondKL                          ⟨KL(c | ρ)⟩_q(ρ), eqs. (5.140)–(5.141), (C.21)–(C.23)
//	KLNormalGamma                           chain rule, eqs. (C.18)–(C.19)
//	GaussianRows.SecondMomentTo             ⟨ΛᵀΨ⁻¹Λ⟩ (4.54), ⟨AᵀA⟩ (5.53), ⟨CᵀR⁻¹C⟩ (5.63)
//	KLARD, ExpectedKLARD, KLRowDiag         T_Λ of (4.29), ⟨KL(A | B)⟩, ⟨KL(C | ρ, D)⟩ of (5.147)
//	GaussianRows.ARDPrecisionTo             α_j = R/Σ_r E[λ_rj²], eqs. (5.133)–(5.136)
//	GaussianRows.ARDGammaTo                 q(ν_l), eqs. (4.38)–(4.40); section 5.3.9
//	Posterior                               eqs. (2.97)–(2.99), (2.114)–(2.119)
//	NormalWishartKL, NormalGammaKL          KLWishart + ExpectedCondKL and KLNormalGamma on
//	                                        flat Cholesky factors, allocation-free (gmm, moe)
//	NormalWishartUpdate                     PRML (10.60)–(10.63) from shifted statistics (gmm, moe)
//	WishartMeanLogDetChol                   E[ln|Λ|], PRML (10.65), from the factor of S⁻¹
//
// # Building blocks and test oracles
//
// The models call only the allocation-free building blocks: the Dirichlet
// slice functions DirichletMeanLogTo, DirichletKL, DirichletLogMarginalCounts
// and FitSymmetricStrength (hmm, mfa, dag, score), Dirichlet.Rand and
// LogNormalizer (samplers), Gamma with MeanLog, FitFromMoments and KLGamma
// (mfa, lds), NormalWishartKL, NormalWishartUpdate, WishartMeanLogDetChol
// (gmm, moe), NormalGammaKL (moe), ARDPrecision (lds),
// GaussianRows with its To methods, SetDistinctPrecision and KLRowDiag
// (mfa), and NormalGamma with
// KLNormalGamma (vbtest's Gaussian mixture). The rest is exported for the
// tests and is labelled so in its doc comment; it stays because the tests
// check the building blocks against it:
//
//	ExpFam, its methods (NaturalParams, Stats, ExpectedStats, FromNatural,
//	  NumParams, LogProbVec, RandVec, SampleLen, KL) and Posterior: generic
//	  exponential-family identities (E[u] = ∇A, the generic KL, conjugate
//	  updates) that every family's closed forms are tested against
//	Gaussian, KLGaussian, ExpectedCondKL: the reference for GaussianRows,
//	  KLRowDiag, KLARD and KLNormalGamma (the models hold their Gaussians as
//	  GaussianRows or flat arrays)
//	KLARD, ExpectedKLARD, ARDPrecisionTo, NewGaussianRows(Precision): lds
//	  computes these on its flat joint matrices, with the kernels of numeric
//	ARDGammaTo: the oracle of mfa's q(ν) update (TestARDUpdateMatchesOracle)
//	KLDirichlet and the Dirichlet methods BayesPoint, Mean, Mode, Entropy,
//	  Posterior (and DirichletPosteriorTo): the value-type forms of what hmm
//	  and dag compute with the slice functions
//	Wishart, KLWishart: not yet used; the Normal-Wishart piece of the
//	  multivariate Gaussian mixture (PRML section 10.2), the next model
//
// Making lds or mfa call the oracles instead would change their order of
// summation (and so the last bits of F) or allocate in an inner loop, for no
// simplification of the model code.
//
// # Conventions
//
// Logarithms are natural (nats). Gamma distributions use shape and rate.
// Functions writing into a dst argument return it and allocate when dst is
// nil. The slice functions DirichletMeanLogTo, DirichletKL,
// DirichletLogMarginalCounts and DirichletPosteriorTo are used in the HMM's
// inner loop and do not allocate (with a non-nil dst). Randomness comes only
// from a caller's *rand.Rand (math/rand/v2). Dimension mismatches and invalid
// parameters panic with a "dist: " prefix. The GaussianRows methods used in
// E and M steps (the To methods, KLARD, ExpectedKLARD, KLRowDiag) do not
// allocate.
//
// # One positive-definiteness policy
//
// Every covariance and precision this package factorises is positive
// definite in exact arithmetic (a posterior precision is diag(α) + S with
// α ≥ ARDPrecisionFloor > 0 and S positive semi-definite), so each is
// factorised once, by a plain Cholesky, and never jittered here: a silent
// perturbation would hide the bug that made the matrix indefinite (a NaN, a
// negative precision, a lost floor) and break the monotonicity of F the tests
// check. A failure is reported, not repaired: the GaussianRows constructors
// return a *NotPositiveDefiniteError naming the matrix and its first
// non-positive pivot (errors.Is(err, numeric.ErrNotPositiveDefinite)), which
// a model wraps with the parameter's name; the older Gaussian, Wishart and
// NormalGamma constructors return ok = false. Jitter is a model's explicit
// choice, made in one place, numeric.CholeskySPD, whose returned jitter the
// model records as a warning: it hands the jittered *mat.Cholesky to a
// constructor, which uses the factor as is. Jitter is acceptable only on a
// posterior precision, where the result is still a distribution and F
// computed from it is still a lower bound (merely not the exact coordinate
// maximum); it is never applied to a prior or likelihood term, which would
// change the model.
package dist
