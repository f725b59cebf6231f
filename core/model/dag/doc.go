// Package dag scores discrete directed acyclic graphs with hidden variables,
// the model-selection problem of chapter 6 of M. J. Beal, "Variational
// Algorithms for Approximate Bayesian Inference" (2003). The thesis text is
// ../shared/seeds/000_055f6e591db3cc60.txt (chapter 6 at lines 4226–5032);
// the specification with its corrections is ../shared/targets/ch6-dag.md.
//
// # The model
//
// Every variable z_ij of data point i is categorical; nodes j ∈ H are hidden,
// j ∈ V observed. θ_jlk = p(z_ij = k | parents of j in configuration l)
// (eqs. (6.1)–(6.3)), and every row θ_jl has an independent Dirichlet prior
// Dir(λ_jl) (eqs. (6.4)–(6.6)). A Structure holds the graph, Params a flat
// parameter (or hyperparameter, or count) vector in the structure's layout,
// and Data the observed vectors compressed into distinct patterns with
// multiplicities. A Problem binds the three.
//
// # Map to the thesis
//
// Equation numbers are Beal (2003)'s, "line n" a line of
// ../shared/seeds/000_055f6e591db3cc60.txt, § a section of
// ../shared/targets/ch6-dag.md.
//
//	Problem.NewEM, EM            EM with Estimator ML or MAP            eqs. (6.13)–(6.23), lines 4312–4366
//	EM.E                         exact E step; ln p(y|θ) [+ ln p(θ|m)]  eqs. (6.16), (6.22), (6.13); (6.4) for MAP
//	EM.M                         θ ∝ N (ML), ∝ λ − 1 + N (MAP)          eqs. (6.21), (6.23); §1.7 item 4
//	Problem.NewVB, VB            VBEM, a vb.Model                       eqs. (6.35)–(6.48), lines 4440–4508
//	VB.E                         θ̃ = exp⟨ln θ⟩, E step, then F          eqs. (6.44)–(6.46) ((6.45) corrected), (6.43);
//	                                                                    F (6.36)–(6.37) as Σ ln Z̃ − KL (§1.5, §5)
//	VB.M                         α = λ + N                              eqs. (6.40)–(6.41)
//	VB.Entropy                   Σ_i H[q_i(s_i)]                        eqs. (6.36)–(6.37)
//	Problem.NewVBPosterior,      VBEM from the CS point                 Corollary 2.5, lines 1641–1676; §3.13
//	Problem.CSPosterior
//	Problem.LogLik               ln p(y|θ), patterns grouped (AIS)      eqs. (6.11), (6.21); AIS (6.50)
//	Problem.LogPrior             ln p(θ|m)                              eq. (6.4)
//	Problem.SamplePrior          θ ∼ p(θ|m)                             Algorithm 6.1 step 1; §1.7 item 8
//	Problem.ExpectedCounts       exact E step: ln p(y|θ), N̂             eqs. (6.16), (6.22)
//	Problem.NewUnconstrained,    ln p(θ|m) + ln p(y|θ) + ln Π θ in the  eqs. (6.4), (6.11), (6.16), (6.22); PRML
//	Unconstrained                softmax basis η = ln(θ_k/θ_K), for     (4.133)–(4.135); MacKay (1998)
//	                             Laplace; Grad (N̂ − N̂_jl θ), Hess
//	                             (Cov_q of ∇ℓ_s), Pack, Unpack
//	Structure.PosteriorMean      α_jlk/α⁰_jl, the mean of Dir(α) rows   eq. (6.40); Laplace's start
//	Problem.CheesemanStutz       CS* at θ̂                               eqs. (6.27)–(6.34), lines 4390–4438; §2
//	Problem.EMScoresAt           MAP, BIC*, BICp*, CS*, CS†*            eqs. (6.64), (6.26) with d of (6.24), line
//	                                                                    4718, (6.31), section 6.5.2 (lines 4985–4986)
//	Problem.Score, ScoreEM,      the protocol: restarts, EM,            §3.0
//	ScoreVB, ScoreVBFrom         VBEM, every score
//	Problem.Exact,               ln p(y|m), every completion            eq. (6.12) as a sum of (6.9), line 4302;
//	ExactTerms                                                          §1.2
//	Problem.NewEP, EP            EP for ln p(y|m): Dirichlet rows, one  Minka (2001) §3.3, eq. (3.32); Minka &
//	                             monomial-mixture site per point        Lafferty (2002); sites eq. (6.11), target (6.12)
//	EP.FixedPointGap             EP's moment-matching condition         Minka (2001) §3.3
//	Problem.Dimensions,          d and d′ from ranks                    Algorithm 6.2, lines 4965–4979; §2.9
//	LargestGap
//	Structure.LogMarginalCounts  complete-data ln p(z|m)                eqs. (6.9)–(6.10); (6.32) at fractional N̂
//	Structure.NumParams          d(m)                                   eqs. (6.24)–(6.25); §1.6
//	Structure.LogAliases         ln S, aliases                          lines 4383–4386; (6.26); §2.6
//	Structure.ExtraDims          d′ − d of CS†                          section 6.5.2, lines 4985–4986; §4 item 6
//	Structure.SymmetricPrior     λ_jlk = λ                              eqs. (6.4)–(6.6); line 4694
//	DirichletProposal.Propose    θ′_jl ∼ Dir(α θ_jl); Hastings          eqs. (6.59)–(6.60), Algorithm 6.1; §2.7
//	Sample                       ancestral sampling                     eq. (6.1); §3.0
//	TrueParams                   the generating parameters              lines 4696–4704; §4 item 2
//
// # Annealed importance sampling
//
// A Problem is the tempered target f_τ(θ) = p(θ|m)·p(y|θ)^τ of eq. (6.50):
// it has the method set of samplers/mcmc.Tempered[Params] (LogPrior,
// LogLik) and of samplers/ais.Model[Params] (SamplePrior), and a
// DirichletProposal is an mcmc.Proposal[Params], so an
// mcmc.MH[Params]{Target: problem, Proposal: NewDirichletProposal(s, α)} is
// the sampler of Algorithm 6.1 (eqs. (6.59)–(6.60)). This package does not
// import the samplers (core never does); the types only satisfy their
// interfaces.
//
// # The chapter-6 class
//
// Code names one of the 136 structures with two binary hidden nodes and
// four 5-valued observed nodes (Candidates, in the canonical order of
// targets §3.0; TrueCode at TrueIndex), TrueParams are the generating
// parameters of lines 4696–4704, and Sample draws data from any structure.
//
// # Speed
//
// The E step works in the probability domain over the data patterns, with
// the factor indices precomputed (Problem), and VBEM evaluates its bound as
// Σ ln Z̃ − KL without the entropy of q(s) (targets §5): an iteration costs
// one pass of multiplications over at most 625 patterns × 4 configurations.
// LogLik, once per AIS step, sums over groups of patterns that agree on
// the observed nodes with a hidden parent, takes the nodes without one out
// as Σ N ln θ, and logs products of group sums of equal weight rather than
// each sum; the MAP score keeps the E step's per-pattern sum.
package dag
