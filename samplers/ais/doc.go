// Package ais estimates normalising constants (log marginal likelihoods) by
// annealed importance sampling (AIS), as in chapter 6 of M. J. Beal,
// "Variational Algorithms for Approximate Bayesian Inference" (2003), where it
// is the reference against which the VB, BIC and Cheeseman–Stutz scores of
// discrete DAGs are judged.
//
// Equation numbers are the thesis's own; its converted text is
// ../shared/seeds/000_055f6e591db3cc60.txt: section 6.3.5 at lines 4510–4619
// ((6.49)–(6.61), Algorithm 6.1 at lines 4578–4608), the schedule (6.73) and
// the hysteresis diagnostic at lines 4931–4953.
//
// # The estimator
//
// With inverse temperatures 0 = τ(0) < τ(1) < … < τ(K) = 1 (6.49) and the
// intermediate densities f_k(x) = p(x)·L(x)^τ(k) (6.50), the normalising
// constant Z_K = ∫ p(x) L(x) dx is the product of the ratios
// R_k = Z_k/Z_{k−1} (6.54). Algorithm 6.1 with one sample per temperature
// (C′_k = C_k = 1, the choice of the thesis's experiments, line 4722) starts
// from x ~ p, and for k = 1…K makes one transition that leaves f_{k−1}
// invariant and then records
//
//	ln R_k = (τ(k) − τ(k−1))·ln L(x)                      (6.57)
//
// at the new state; ln w = Σ_k ln R_k is one run's estimate of ln Z_K, and
// E[w] = Z_K exactly. G independent runs are pooled with (6.61),
// ln Ẑ = ln[(1/G) Σ_g w_g].
//
// # What a model supplies
//
// A Model is an mcmc.Tempered target (ln p and ln L of a state) whose base
// density p is normalised and can be sampled. The transition is any
// mcmc.Kernel: mcmc.MH with a proposal, or a model's own kernel — for
// example Gibbs sweeps over hidden variables followed by an MH step on the
// parameters, with p(θ)p(s|θ) as the base density and p(y|s,θ) as L, so that
// the state holds both parameters and hidden variables. A model whose
// likelihood marginalises its hidden variables exactly and has a gradient
// is an mcmc.GradTempered for mcmc.HMC: core/model/hmm.Annealed (the
// Dirichlet rows in log-ratio coordinates, forward-backward) and
// core/model/lds.Annealed ((A, C, ln ρ), the Kalman smoother), tested in
// hmm_test.go and lds_test.go against enumeration and quadrature.
//
// # Overview
//
//	Linear, Nonlinear      schedules τ(k) = k/K and (6.73)
//	Geometric              equal steps in ln τ from a small τ(1) (continuous parameters)
//	Adapted, Sampler.Adapt a schedule with density ∝ sd_τ(ln L), fitted to pilot runs
//	ForwardTo              one run of Algorithm 6.1 from a given state
//	ReverseTo              the reverse (hysteresis) pass of lines 4942–4953
//	Sampler                runs from prior draws, independent runs on W goroutines
//	Sampler.RunsFinal      the runs and their final states
//	Run                    ln w, per-temperature ln R_k and kernel statistics
//	Pool                   (6.61) and the standard error of ln Ẑ
//	LogWSE                 sd(ln w)/√G, a floor under Pool's se when a few runs dominate
//	PoolRatios             the all-ratios combination Σ_k ln[(1/G) Σ_g R_k^(g)]
//	Moments                posterior means and second moments from the weighted final states
//
// Every random number comes from an explicit *rand.Rand; run g of
// Sampler.Runs uses only its own stream, so results do not depend on the
// number of goroutines. Invalid schedules and arguments panic with an
// "ais: " prefix.
package ais
