// Package hmm implements the discrete-output hidden Markov models of Beal
// (2003) chapter 3: maximum-likelihood Baum-Welch (section 3.2, eqs.
// 3.1-3.35), MAP-EM in the softmax basis (section 3.3, eqs. 3.36-3.44 and
// L1901 of the seed text), and variational Bayesian EM (section 3.4, eqs.
// 3.45-3.79), all on many sequences of different lengths.
//
// Layouts: Pi has K entries; A is K×K row-major (A[j*K+l] = p(s_t=l|s_{t−1}=j));
// C is K×P row-major (C[j*P+m] = p(y_t=m|s_t=j)). Dirichlet posteriors use the
// same layouts for their pseudo-counts w.
//
// Each algorithm is a vb.Model: its E method runs the scaled forward-backward
// recursion of package infer over all sequences and returns the objective
// (ln p(y|θ), the MAP objective, or the bound F), and M updates the
// parameters. Run them with vb.Run. Setting Workers spreads the E step's
// sequences over goroutines with bit-identical results (see blockSymbols).
// VB (built by NewVB) is VBEM and also a vb.HyperUpdater; EM (built by
// NewEM) is Baum-Welch with a nil prior and MAP-EM with one.
//
// For data sets of a few tens of symbols, ExactLogEvidence computes the
// exact marginal likelihood ln p(y|m) (eq. 3.44) by enumerating every hidden
// path, and Joint is the log joint ln p(θ) + ln p(y|θ) of the parameters in
// a flat layout (ParamDim), the target of an importance sampler whose
// proposal is built from the Dirichlet rows of q(θ) (Posterior.Rows,
// Posterior.Relabel); see extension E3-X2 in experiments/chapter3.
// Annealed is the same posterior on unconstrained log-ratio coordinates
// with gradients, the target of annealed importance sampling with HMC
// (samplers/ais, samplers/mcmc.HMC).
//
// # Map to the thesis
//
// Equation numbers are Beal (2003)'s, Lnnnn lines of
// ../shared/seeds/000_055f6e591db3cc60.txt, § sections of
// ../shared/targets/ch3-hmm.md.
//
//	EM.E                  exact E step at θ (forward-backward),    eqs. 3.19-3.35, pooled L1857; ln p(y|θ)
//	                      objective ln p(y|θ) (+ ln p(θ) for MAP)  eq. 3.23; the MAP objective §1.2
//	EM.M                  ML M step; MAP M step (softmax basis)    eqs. 3.16-3.18; eq. 3.42 without −1, L1901
//	VB.E                  θ̃ = exp⟨ln θ⟩, forward-backward, F       eqs. 3.60-3.74; F eq. 3.79, L4042-L4048;
//	                      (in the log domain where θ̃ underflows)   §1.4
//	VB.M                  w = u + expected counts                  eqs. 3.54-3.59 (u^(C) in 3.59, §1.3)
//	VB.KL                 KL(q‖p) of q(π), q(A), q(C)              the KL terms of eq. 3.79; Appendix A
//	VB.UpdateHyper        strengths f^(π), f^(A), f^(C)            eqs. 3.43, 2.79; L2083
//	VB.PredictiveBound    ln Z̃(y′) ≤ ln ∫ q(θ) p(y′|θ) dθ          eqs. 3.82-3.84
//	Posterior.BayesPoint  θ̃ = exp⟨ln θ⟩ (sub-normalised)           eqs. 3.66-3.71
//	Posterior.Mean        θ_MVB, the plug-in predictor             eq. 3.85, L2145
//	PosteriorFromParams   q(θ) with mean θ_ML, strength 10         L2129
//	PosteriorFromCounts   w = u + N̂, the Cheeseman-Stutz point     eqs. 3.55, 3.57, 3.59; Corollary 2.5
//	RandomStart           random θ, a few Baum-Welch iterations,   L2129; eqs. 3.16-3.35; eqs. 3.55, 3.57, 3.59
//	                      then w = u + N̂ (a VB start)
//	ExpectedCounts        exact E step at θ̂: ln p(y|θ̂), N̂          eqs. 3.19-3.35
//	CheesemanStutz        ln p_CS at θ̂                             eqs. 1.54, 2.133; Theorem 2.3
//	BIC, Params.NumFree   ln p(y|θ̂) − (d/2) ln N                   eq. 1.49; d L1867, N §4 item 18
//	Params.LogLik         Σ_i ln p(y_i|θ) (and Scorer.LogProb)     eq. 3.23
//	Params.Sample         draws sequences                          eqs. 3.1-3.2
//	RandomParams          uniform rows, normalised                 L2129
//	SymmetricPrior        u = f/k (π, A), f/p (C)                  eq. 3.43, L1907
//	ExactLogEvidence      ln p(y|m) over the k^T paths             eqs. 3.36-3.40, 3.44; L1913-L1915
//	Joint.LogPrior        ln p(θ), Dirichlet rows                  eqs. 3.37-3.40
//	Joint.LogLik          ln p(y|θ), scaled forward pass           eq. 3.23
//	Joint.LogProb         ln p(θ, y), the importance target        eqs. 3.36, 3.44; eq. 4.103
//	Params.Relabel        the k! aliases                           section 1.3.3, L638-L646
//	Annealed              f_τ = p(η) p(y|θ(η))^τ over the log-ratio eqs. 3.36-3.40, 3.44; AIS eqs. 6.49-6.61
//	                      coordinates of the rows (Jacobian in p)
//	Annealed.GradLogLik   N̂_l − x_l Σ_m N̂_m (forward-backward)      eqs. 3.16-3.35
//	EP                    EP over θ, one site per sequence, a sum    eq. 3.44 per sequence; Minka 2001 §3.3,
//	                      of its K^T paths (approx.MonomialMixture)  Minka & Lafferty 2002
package hmm
