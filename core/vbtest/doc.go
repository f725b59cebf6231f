// Package vbtest is the exported test kit of vbw's variational Bayesian
// engine (STYLE.md §2.1, §2.6): helpers that tests in several packages share,
// in the spirit of gonum's optimize/functions and gonum/plot's cmpimg. It is
// imported from _test.go files only.
//
// # Checks
//
//	CheckMonotone   a bound trace never decreases by more than relTol·max(1,|F|)
//	                (Beal (2003) Theorem 2.1 and Fig. 2.3: each VBE and VBM step,
//	                and each hyperparameter step (2.79), can only raise F)
//	FDGradient      central finite differences, for stationarity checks of the
//	                VBM and hyperparameter updates
//	CheckModel      the model conformance suite that every package under
//	                core/model runs: F finite and never lower after each E, M and
//	                hyperparameter step, terms that sum to F with unique names,
//	                the same F sequence bit for bit from the same construction,
//	                no allocation in steady-state M (and at most a stated number
//	                in E), and Save/Restore round trips for a vb.Mover
//
// # A toy conjugate-exponential model
//
// GaussianMixture is variational Bayes for a one-dimensional mixture of K
// Gaussians with a symmetric Dirichlet prior on the weights and a
// Normal-Gamma prior on each component's mean and precision, the classic
// conjugate-exponential (CE) model of Beal (2003) section 2.4 (conditions
// (2.80) and (2.88), Theorem 2.2) and Bishop (2006) PRML section 10.2 (whose
// multivariate Normal-Wishart updates (10.46)–(10.66) reduce to the ones here
// for D = 1, with W(λ | W, ν) = Ga(λ | ν/2, 1/(2W))). GaussianMixtureEM is the
// same model fitted by maximum-likelihood EM, the special case of VBEM with
// q(θ) a point mass (Beal (2003) section 2.3.1, L1164 of the thesis text).
// Both implement vb.Model, so the driver's loop tests can run on a model
// other than the chapter-3 HMM (targets ch3-hmm.md §0.3).
//
// NormalGammaLogEvidence and MixtureLogEvidence give the exact log marginal
// likelihood of the same model, in closed form for one component and by
// enumerating all K^N assignments for tiny data sets; MixtureData draws data.
//
// The thesis text is ../shared/seeds/000_055f6e591db3cc60.txt and PRML
// chapter 10 is ../shared/seeds/002_cc78f0884d114115.txt (section 10.2 at
// lines 280–505).
package vbtest
