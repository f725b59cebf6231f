// Package mcmc provides Metropolis–Hastings transitions with an explicit
// random stream, for the samplers of vbw (a reproduction of M. J. Beal,
// "Variational Algorithms for Approximate Bayesian Inference", 2003).
//
// Equation numbers are the thesis's own; its converted text is
// ../shared/seeds/000_055f6e591db3cc60.txt (the MH rule (1.62) at lines
// 742–747, the chapter-6 sampler (6.59)–(6.60) at lines 4563–4572).
//
// # Tempered targets
//
// Every target is written as a base density times a tempered factor,
//
//	ln f_β(x) = ln p(x) + β·ln L(x),
//
// the intermediate distributions (6.50) of annealed importance sampling with
// p the prior and L the likelihood. A plain target uses β = 1 (or puts all of
// its log density in LogPrior). A model whose state holds parameters and
// hidden variables can put p(θ)·p(s|θ) in LogPrior and p(y|s,θ) in LogLik:
// then β = 0 is the joint prior, which can be sampled directly. A Point
// caches both terms of its state, so a sampler never evaluates a state twice
// and annealed importance sampling can read ln L of the current state
// without another likelihood evaluation.
//
// # Kernels
//
//	Kernel      one transition at inverse temperature β that leaves f_β invariant
//	MH          Metropolis–Hastings with a Proposal, eqs. (1.62), (6.59)–(6.60)
//	Proposal    draws x′ ~ q(·|x) and returns ln q(x|x′) − ln q(x′|x)
//	RandomWalk  symmetric Gaussian random walk on []float64
//	HMC         Hamiltonian Monte Carlo on []float64 for a GradTempered target,
//	            with persistent momenta (Persistence ρ, negated on rejection)
//	Stats       proposed and accepted counts, acceptance rate
//	Gibbs       the kernel of a Sweeper, a model that redraws its state from
//	            its full conditionals (core/model/gmm's mixture)
//
// # Runs and diagnostics
//
//	Plan        a burn-in and thinning plan; Run makes it with a Kernel
//	DualAveraging  tunes an HMC step toward a target acceptance in a burn-in
//	Chains      independent chains on core/parallel, chain c on the stream
//	            ChainStream(seed, c, labels…): results for any worker count
//	ESS         effective sample size by Geyer's initial monotone sequence;
//	            ESSChains pooled over chains (BDA3 §11.5)
//	SplitRHat   the split-R̂ of Gelman et al. (BDA3 §11.4)
//
// A model supplies its own Kernel when it needs more than one MH move, for
// example Gibbs sweeps over hidden variables followed by an MH step on the
// parameters given those variables; it may use an MH internally for the
// parameter part (see the ais tests for such a kernel).
//
// # Randomness and allocation
//
// Every random number comes from the *rand.Rand (math/rand/v2) passed to
// Step; nothing here touches the global generator. MH swaps the buffers of
// the current and the proposed state on acceptance instead of copying, so
// its Step does not allocate once the proposal buffer exists (after the
// first call for slice states).
//
// Invalid arguments (a nil target or proposal) panic with an "mcmc: " prefix.
package mcmc
