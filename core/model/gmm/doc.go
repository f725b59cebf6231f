// Package gmm is the variational Bayesian mixture of full-covariance
// Gaussians of Bishop (2006), PRML section 10.2 (converted text:
// ../shared/seeds/002_cc78f0884d114115.txt, lines 280–566), with the pieces
// that measure its bound against the true evidence: the exact evidence by
// enumeration on tiny data, Gibbs samplers (uncollapsed, and collapsed with
// split-merge moves) for annealed importance sampling from the prior, the
// VB posterior with its K! relabellings as an importance-sampling proposal,
// and expectation propagation over the parameters (ep.go).
//
// The model (PRML (10.37)–(10.41)): for points x_n ∈ R^D and K components,
//
//	π ~ Dir(α₀, …, α₀),  Λ_k ~ W(W₀, ν₀),  μ_k | Λ_k ~ N(m₀, (β₀Λ_k)⁻¹),
//	z_n | π ~ Cat(π),    x_n | z_n = k ~ N(μ_k, Λ_k⁻¹).
//
// VB keeps q(Z) q(π) Π_k q(μ_k, Λ_k) (10.42), (10.55) and alternates the
// E step (responsibilities) with the M step (Dirichlet and Normal-Wishart
// posteriors); its bound F is complete, every constant included, so that it
// can be set beside ln p(X | K). Components that take no data fall back to
// the prior, so a large K prunes itself (PRML Fig. 10.6); vb.Search adds
// and removes components by births and deaths (moves.go), the seam of
// core/model/mfa, or grows them by D'Souza's local 1-vs-2 splits
// (Splitter, split.go).
//
// Bishop compares K by F + ln K! (section 10.2.4): each mode of the true
// posterior has K! relabelled copies and q sits in one. LogFactorial is the
// correction; whether it closes the gap to ln p(X|K) is measured with the
// samplers (experiments/vbgmm).
//
// # Map to the text
//
// Equation numbers are PRML's; (10.69) is used as corrected by
// ../shared/targets/other-seeds.md §2.3.
//
//	Prior, DefaultPrior    the priors (10.39), (10.40); default m₀ = 0, β₀ = 1,
//	                       W₀ = I, ν₀ = D (targets §2.3: the text leaves them open)
//	NewVBStart, Start      the first q(Z), a random hard partition: each point
//	                       to its nearest of k data points (NearestPoints), or
//	                       to its most probable component of a random mixture
//	                       with those means and weights Dir(1, …, 1)
//	                       (RandomMixture); PRML (L544) leaves the start open
//	VB.E                   ln ρ_nk (10.46) with (10.64)–(10.66), r_nk (10.49),
//	                       (10.67); F = (10.70)–(10.77) as Σ_n ln Σ_k ρ_nk − KL
//	VB.M                   N_k, x̄_k, S_k (10.51)–(10.53); α_k (10.58);
//	                       β_k, m_k, W_k, ν_k (10.60)–(10.63) (dist.NormalWishartUpdate)
//	VB.KLComponent         (10.77) − (10.74) for one component (dist.NormalWishartKL)
//	VB.ElnLambda           ln Λ̃_k (10.65) (dist.WishartMeanLogDetChol)
//	VB.MeanWeights         E[π_k] = (α₀ + N_k)/(Kα₀ + N), (10.69) corrected
//	VB.Covariance          E[Λ_k]⁻¹ = W_k⁻¹/ν_k, the ellipses of Fig. 10.6
//	VB.LogPredictive       the Student-t mixture (10.81), (10.82)
//	LogFactorial           ln K!, section 10.2.4 (L548), Exercise 10.22
//	VB.Propose, Apply      births and deaths for vb.Search (Beal (2003)
//	                       section 4.3, eqs. (4.73)–(4.76) for the split)
//	Splitter, VB.Owned,    D'Souza (2004)'s growing by local splits:
//	Splitter.Test,         Algorithm 2 (L771–786), the 1-vs-2 model of
//	Propose, Apply         section 3.1.1.1 (eqs. (3.1)–(3.6)) with the
//	                       updates of App. B.2 (L2243–2293), which are VB.M
//	                       and VB.E at K = 2 on the points a component owns
//	                       (../shared/seeds/003_a56118dfa4fca769.txt)
//	LogEvidenceOne         ln p(X) under one Normal-Wishart component (the
//	                       K = 1 case, at which F is exact)
//	LogEvidenceExact       ln p(X | K) by the K^N assignments, p(Z) the
//	                       Dirichlet-multinomial of (10.37), (10.39)
//	Joint, Gibbs           the AIS target f_τ = p(π)p(μ,Λ)p(Z|π)p(X|Z,μ,Λ)^τ
//	                       (Beal (2003) eq. (6.50)) and its Gibbs sweep on
//	                       (Z, π, μ, Λ): (10.37), (10.57)-style Dirichlet and
//	                       (10.59)–(10.63)-style Normal-Wishart full conditionals
//	Collapsed,             the AIS target f_τ = p(Z)p(X|Z)^τ with π, μ, Λ
//	CollapsedGibbs         integrated out, and its sweep: z_n by the tempered
//	                       Student-t predictive, then split-merge and
//	                       reallocation moves (the reference AIS: the
//	                       uncollapsed chain crosses the jump from one
//	                       component to one per cluster too late)
//	Target, Proposal       ln p(θ, X) with Z summed out, and the VB posterior
//	                       (10.57), (10.59) averaged over the K! relabellings
//	                       (and over the distinct optima of restarts), for
//	                       importance sampling (Beal (2003) section 4.7)
//	NewDefensiveProposal   the same, flattened to q^(1/c²) (a Dirichlet and
//	                       a Normal-Wishart again) and mixed with the prior
//	                       (Hesterberg 1995): bounded weights (atlas/gmm)
//	ParamDim               the length of the flat θ of Target and Proposal
//	Params, PosteriorMean  a point θ̂ = (π, μ, Λ); VB's posterior mean (10.69),
//	                       m_k, ν_kW_k
//	Params.EStep, MAPEM    the E step at θ̂ (PRML (9.23)) and EM with MAP M
//	                       steps under the prior (PRML §9.2.2, Beal (2003) §6.3.1)
//	CompletedLogEvidence   ln p(X, R | K) at fractional counts: Dirichlet and
//	                       Normal-Wishart evidences at N_k, x̄_k, S_k (10.51)–(10.53)
//	CheesemanStutz         Beal (2003) eqs. (6.27)–(6.31); with R the E step at
//	                       θ̂, a lower bound (Theorem 2.3): the atlas's CS cell
//	Unconstrained          ln p(θ, X) + ln|∂θ/∂u| in log-ratio / log-Cholesky
//	                       coordinates, its gradient and a Hessian from it: the
//	                       density of Laplace's approximation (PRML (4.133)–(4.135))
//	EPFamily, EPSite,      EP over (π, μ, Λ) (Minka 2001 §3.3; PRML §10.7): q in
//	NewEP                  the form (10.57), (10.59), Dir × Π_k NW
//	                       (approx.NormalWishart; (B.78)–(B.81)), one site
//	                       Σ_k π_k N(x_n | μ_k, Λ_k⁻¹) per point, its tilted
//	                       mixture projected by the weights' expected logs and
//	                       each component's E[Λ], E[Λμ], E[μᵀΛμ], E[ln|Λ|];
//	                       the predictive St_k of (10.81)–(10.82) by log-partitions
//	EPFamily.FromVB,       VB's q as EP's start (approx.FamilyEP.StartAt), and
//	LogRelabellings        the relabellings of q counted by Bhattacharyya
//	                       overlaps: ln K! (section 10.2.4) in one mode, 0 for a
//	                       symmetric q (ours)
package gmm
