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
// is maximum-likelihood EM with the same conventions (targets §2.2). Params
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
package lds
