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
// # Scores
//
//	LogLik            ln p(y|θ), eq. (6.11), hidden variables summed out
//	EM (NewEM)        ML / MAP EM, eqs. (6.13)–(6.23), a vb.Model
//	VB (NewVB)        VBEM, eqs. (6.35)–(6.48), a vb.Model; F complete
//	EMScoresAt        MAP (6.64), BIC (6.26), BICp (line 4718), CS (6.31), CS† (§6.5.2)
//	Structure.LogAliases  ln S, the alias correction (lines 4383–4386)
//	Score             the protocol of the experiments: restarts, EM, VBEM, all scores
//	Structure.LogMarginalCounts  complete-data ln p(z|m), eq. (6.9)
//	Exact             ln p(y|m) of eq. (6.12) by enumerating hidden completions
//	Dimensions        d and d′ by Algorithm 6.2
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
package dag
