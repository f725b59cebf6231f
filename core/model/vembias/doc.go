// Package vembias holds the closed-form models of Turner & Sahani, "Two
// problems with variational expectation maximisation for time-series
// models" (the seed text ../shared/seeds/004_2d1c8b7c1e312d07.txt, "T&S";
// targets ../shared/targets/other-seeds.md §1, §7 P1 and Appendix A):
// how the parameter dependence of the KL gap of a restricted q biases the
// parameters that variational EM (vEM) learns, and how compact q is.
//
// # The models
//
// The motivating factor model (eqs. 1.13-1.15): x ~ N(0, 1), y | x ~
// N(x, σ_y²), σ_y² learnt from one y by EM and by vEM with q of fixed
// variance (Factor). The two-chain, two-step linear-Gaussian state-space
// model of §1.4.1 (eqs. 1.24-1.29), with latents x = [x11, x21, x12, x22]
// (chain k, time t), outputs y_{dt} = Σ_k w_{dk} x_{kt} + N(0, σ_y²) and
// stationary AR(1) chains x_{k1} ~ N(0, σ_x²/(1−λ²)), x_{k2} | x_{k1} ~
// N(λx_{k1}, σ_x²): its marginal covariance Σ_y(θ) (eq. 1.27), posterior
// precision Λ(θ) (eq. 1.30), and for each factorisation q (MF, FC, FT of
// eqs. 1.32-1.34) the KL gap
//
//	KL_q(θ) = ½ (Σ_b ln|Λ_bb| − ln|Λ|)
//
// (eq. 1.35 as corrected in targets §1.4), independent of y, so that the
// free energy of infinitely many sequences is F_q(θ) = ℓ(θ) − KL_q(θ) with
// ℓ(θ) = −½ ln|2πΣ_y| − ½ tr(Σ_y⁻¹ S) (eq. 1.41; S = Σ_y(θ*) for infinite
// data, the sample second moment for finite data), and zero-temperature EM
// maximises ℓ(θ) + ½ ln|Λ| − 2 ln 2π. Three optimisers find the optima of
// a Problem (one or two free parameters, the rest at the truth): Grid,
// Gradient (gonum's optimize with the analytic gradient) and vEM
// coordinate ascent (VEM, a vb.Model, so that vb.Run checks that F never
// decreases). Beside them: mean field of a correlated Gaussian and of an
// AR(1) chain (§§1.3.2-1.3.3), a Gaussian fitted by KL(q‖p) to a mixture
// (§1.3.1), and, for the bridge to Beal's chapter 5, the exact posterior
// of the scalar linear dynamical system (k = p = 1) by quadrature.
//
// # Map to the text
//
// Equation numbers are T&S's, "L" a line of the seed text, § a section of
// ../shared/targets/other-seeds.md.
//
//	Factor, NewFactor       EM and vEM on the factor model     eqs. (1.13)-(1.15), L76-L93; Fig 1.1
//	FactorLogLik, FactorML  ln N(y; 0, 1+σ_y²), its maximiser  L82; §1.2 Fig 1.1 row, App. A
//	FactorFree              F(q, σ_y²)                         eq. (1.2)
//	FactorVEMFixedPoint     vEM's σ_y² (0.4137)                L86, eq. (1.15); §1.2
//	Mixture.KLGauss         KL(N(μ,σ²) ‖ Σπ_k N(μ_k,σ_k²))      eq. (1.16), L108-L124
//	FitGaussian             Fig 1.2's fits, several starts     L112-L124; §1.2 (local optima)
//	Mixture.Entropy         H[p] of the mixture                Fig 1.2 caption (entropy differences)
//	CorrelatedCov           Σ of the 45° Gaussian              eq. (1.17), corrected e₂e₂ᵀ (§1.4)
//	CorrelatedMFVariance    2σ₁²σ₂²/(σ₁²+σ₂²)                  eq. (1.18), corrected (§1.4)
//	MeanFieldVariances      1/Λ_ii                             L137; eq. (1.12)
//	MeanFieldMeans          the updates of eq. (1.12)          eqs. (1.12), (1.20)-(1.22)
//	AR1Precision            precision of the AR(1) chain       eq. (1.19)
//	AR1PriorPredictive      q_prior(x_t)                       eq. (1.21)
//	AR1InteriorMFVariance   (1−λ²)/(1+λ²)                      Fig 1.3 caption L181 (§1.4)
//	SSM.Sigma               Σ_y(θ)                             eq. (1.27)
//	SSM.Precision           Λ(θ) = Σ_{x|y}⁻¹                   eq. (1.30)
//	SSM.PosteriorMeanMap    μ_{x|y} = K y                      eq. (1.31)
//	SSM.KL                  KL_MF, KL_FC, KL_FT                eq. (1.35) corrected (§1.4), L239
//	KLClosed                the printed closed forms           eqs. (1.36)-(1.39)
//	SSM.LogLik              ℓ(θ) for data moments S            eq. (1.41)
//	SSM.Objective           ℓ, F_q = ℓ − KL_q, zero-temp. obj.  eqs. (1.5), (1.35), L250; App. A
//	SSM.Gradient            ∂/∂θ of the objectives             from eqs. (1.27), (1.30)
//	SampleMoments           S of n drawn sequences             eqs. (1.24)-(1.26), finite data
//	Problem.Grid            gridding the space                 L322; App. A (grid + refinement)
//	Problem.Gradient        gradient ascent on F               L322, L334 (started from the grid)
//	VEM, Problem.RunVEM     coordinate ascent (vEM)            eqs. (1.6)-(1.12), L322
//	LDS1LogLik              Kalman-filter ln p(y | A, C, ρ)    Beal (2003) eqs. (5.77)-(5.83), k = p = 1
//	LDS1Prior.LogJoint      Beal's priors on A, C, ρ           Beal (2003) eqs. (5.6)-(5.12); §7 P1
//	LDS1Prior.CollapsedLogJoint ln p(y, A, ln C²ρ), ρ integrated   Beal (2003) eqs. (5.8)-(5.12) (Normal-Gamma conjugacy); §7 P1
//	LDS1Prior.LDS1Quadrature exact posterior of A, ln p(y)     §7 P1 ("quadrature over (A, C, ρ)"): adaptive Gauss-Kronrod over (A, ln C²ρ)
package vembias
