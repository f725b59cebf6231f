// Package lds implements the variational Bayesian linear dynamical system
// (state-space model) of Beal (2003) chapter 5, with and without inputs,
// on several sequences of different lengths, together with the thesis's
// "MAP" baseline and maximum-likelihood EM. The thesis text is
// ../shared/seeds/000_055f6e591db3cc60.txt (chapter 5 at lines 3165-4226);
// the specification with its corrections is ../shared/targets/ch5-lds.md.
//
// # The model
//
// For each sequence, with inputs u_t (d of them; d = 0 is the model
// without inputs),
//
//	x_0 ~ N(μ_0, Σ_0),  x_t = A x_{t−1} + B u_t + w_t,  y_t = C x_t + D u_t + v_t,
//
// t = 1, …, T, with w_t ~ N(0, I) and v_t ~ N(0, diag(ρ)⁻¹) (eqs. 5.2-5.5,
// 5.13). The priors (eqs. 5.6-5.12) are automatic relevance determination
// (ARD) on the columns of A, B, C and D,
//
//	a_(j) ~ N(0, diag(α)⁻¹),  b_(j) ~ N(0, diag(β)⁻¹),
//	c_(s) ~ N(0, ρ_s⁻¹diag(γ)⁻¹),  d_(s) ~ N(0, ρ_s⁻¹diag(δ)⁻¹),  ρ_s ~ Ga(a, b),
//
// for the rows a_(j)ᵀ of A, …, so that α_j → ∞ switches hidden dimension j
// off in the dynamics and γ_j → ∞ in the output (lines 3278-3282). The
// variational posterior q(A, B) q(C, D, ρ) Π_i q(x_{i,0:T}) (eq. 5.27) is
// found by VBEM (Algorithm 5.3): the VBM step of section 5.3.1 (VB.M),
// the VBE step of sections 5.3.2-5.3.5, the variational Kalman smoother of
// package infer (VB.E), and the hyperparameter updates of section 5.3.6
// (VB.UpdateHyper) on the staged schedule VB.DefaultSchedule. E
// returns the bound F of eq. 5.147, complete with every constant, as six
// named terms (four without inputs) that sum to it.
//
// # Use
//
// Build a VB with NewVB and run it with vb.Run:
//
//	m, err := lds.NewVB(seqs, lds.Settings{K: 5}, rand.New(rand.NewPCG(1, 2)))
//	res := vb.Run(m, vb.Settings{MaxIterations: 500, Converger: vb.FixedIterations{}, Hyper: m.DefaultSchedule()})
//
// then read the posterior means A, B, C, D, the noise precisions Rho, the
// ARD hyperparameters m.Hyper.Alpha, …, Gamma (a pruned dimension j has a
// large γ_j), the smoothed states States(i) or Posterior(i), and F = res.F.
// Infer smooths a held-out sequence under the fitted q(θ).
//
// # Baselines
//
// Settings.Mode = MAPBoost is the thesis's MAP LDS (section 5.5.1): the same
// code with the statistics multiplied by κ, hyperparameters other than
// μ_0, Σ_0 fixed; MAPTempered is the exact MAP variant of targets §2.1. EM
// is maximum-likelihood EM with the same conventions (targets §2.2), or
// MAP-EM under the priors of eqs. 5.8-5.12 with EMSettings.Prior (the
// point of Beal's §6.4.1 scores). Params
// holds point parameters: Simulate draws sequences from them, and Smooth and
// LogLikelihood run the ordinary Kalman smoother.
//
// # Layouts and numerics
//
// Matrices inside follow package infer's layouts (row-major, time-major
// sequences); the accessors return gonum matrices. Every matrix that is
// inverted is symmetric positive definite and is factorised by Cholesky;
// the joint precisions of the rows [a_(j); b_(j)] and [c_(s); d_(s)] are
// factorised once, which gives the Schur complements Σ_B⁻¹ and Σ_D⁻¹ of
// eqs. 5.38 and 5.46 without cancellation (targets §1.12). The M step does
// not allocate and the E step allocates only the returned terms.
//
// # Map to the thesis
//
// Equation numbers are Beal (2003)'s, "line n" a line of
// ../shared/seeds/000_055f6e591db3cc60.txt, § a section of
// ../shared/targets/ch5-lds.md.
//
//	VB.M                  q(A, B), q(C, D | ρ), q(ρ); φ̄      eqs. (5.33)-(5.67), lines 3400-3532; rows
//	                                                         of [A B], [C D] joint (§1.5, §1.12 pitfall 3)
//	VB.E                  variational Kalman smoother,       Algorithms 5.1-5.2, eqs. (5.68)-(5.132),
//	                      statistics, then F                 (5.148)-(5.149); F eq. (5.147), summed over
//	                                                         sequences (lines 4042-4048); ln Z' as
//	                                                         corrected in §1.6, the KLs of §1.8 (App. C.3)
//	VB.UpdateHyper        α, β, γ, δ; a, b; μ_0, Σ_0         eqs. (5.133)-(5.136) (γ's 1/n is 1/p, §1.7);
//	                                                         (5.138) by App. C.2; (5.137), (5.150)-(5.151)
//	VB.DefaultSchedule    the staged schedule                section 5.4.2 (line 4099); §1.7, §4 #9
//	Mode (MAPBoost)       the thesis's "MAP" LDS             section 5.5.1, lines 4160-4161; §2.1
//	Mode (MAPTempered)    the exact MAP                      §2.1
//	VB.A, VB.B            ⟨A⟩, ⟨B⟩                           eqs. (5.52), (5.54)
//	VB.C, VB.D            ⟨C⟩, ⟨D⟩                           eqs. (5.61), (5.62)
//	VB.Rho                ρ̄_s                                eq. (5.57)
//	VB.NoisePosterior     q(ρ_s)                             eq. (5.42)
//	VB.CovAB              Σ_AB: Σ̂_A, Σ_B                     eqs. (5.41), (5.38)
//	VB.CovCD              Σ_CD: Σ̂_C, Σ_D                     eqs. (5.50), (5.46); §1.11
//	VB.Natural            φ̄                                  eq. (5.51)
//	VB.Infer              VBE of a held-out sequence         Algorithms 5.1-5.2; §4 #23
//	VB.Filtered           filtered means of a held-out one   Algorithm 5.1, eqs. (5.89)-(5.93); §4 #22
//	VB.MeanParams         ⟨A⟩, …, ρ̄, μ_0, Σ_0                §2.1, §1.13 item 4
//	NewVB                 toolbox start, one VBM step        Algorithm 5.3, lines 3967-4016; §1.10
//	EM.E                  Kalman smoother at θ; ln p(y | θ)  eqs. (5.71)-(5.86), (5.106)-(5.115); (5.83)
//	EM.M                  ML [A B], [C D], ρ                 limits of (5.35)-(5.62) as the prior
//	                                                         vanishes; §2.2
//	Params.Smooth         Kalman filter and smoother at θ    eqs. (5.77)-(5.86), (5.106)-(5.115)
//	Params.LogLikelihood  ln p(y | θ, μ_0, Σ_0)              eq. (5.83)
//	Simulate              x_0, x_{1:T}, y_{1:T}              eqs. (5.2)-(5.5), (5.13)
//	Annealed              f_τ = p(θ) p(y|θ)^τ over           priors (5.8), (5.10), (5.12); ln L (5.83);
//	                      (A, C, ln ρ), no inputs            AIS eqs. (6.49)-(6.61)
//	Annealed.GradLogLik   Fisher's identity by the smoother  eqs. (5.77)-(5.86), (5.106)-(5.115)
//	LogEvidenceQuad       ln p(y | α, γ, a, b) of k = p = 1 by   priors (5.8), (5.10), (5.12); ln L (5.83)
//	                      quadrature over (A, C√(ργ), ln ρ)
//	Proposal              VB's q(A)q(C|ρ)q(ρ) widened, t tails,  eqs. (5.37), (5.42), (5.50); IS (4.93)-(4.95)
//	                      mirrored in C (k = 1)
//	EMSettings.Prior      MAP-EM: ridge regressions and the Normal-Gamma mode  eqs. 5.8-5.12; §6.4.1 (L4718)
//	CheesemanStutz        ln p(x̂, y) + ln p(y|θ̂) − ln p(x̂, y|θ̂)  eqs. (2.133), (6.27)-(6.30); smoother
//	                      at θ̂, k = p = 1, x̂ the smoother's      (5.77)-(5.115); = F at q(x) = p(x|y, θ̂):
//	                      expected statistics                    Theorem 2.3, Corollary 2.5, (2.140)-(2.148)
//	CompletedStats        Σx_{t−1}², Σx_{t−1}x_t, Σx_t², Σx_t y_t,  (5.126)-(5.132) at point parameters
//	                      Σy_t², T and x_0's (k = p = 1)
//	CompletedStats        ln p(x, y | θ); ln p(x, y) under the   (5.2)-(5.5), (5.13); priors (5.8), (5.10),
//	.LogJoint,            Gaussian and Normal-Gamma priors       (5.12); the regressions of (5.35)-(5.47)
//	.LogMarginal
package lds
