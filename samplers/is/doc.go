// Package is estimates normalising constants by importance sampling in the
// log domain, as in Beal (2003) §4.7 ("Combining VB approximations with
// Monte Carlo"; ../shared/seeds/000_055f6e591db3cc60.txt lines 2911–3150).
//
// # Targets and proposals
//
// A Target is the unnormalised log density of a flat parameter vector θ,
//
//	ln p*(θ) = ln p(y | θ) + ln p(θ) = ln p(θ, y),
//
// whose normaliser Z = ∫ p*(θ) dθ = p(y) is the marginal likelihood. A
// Proposal is a normalised density q(θ) (the importance distribution g of
// eqs. (4.93)–(4.95)) that can draw θ into a caller's slice with an explicit
// *rand.Rand and report ln q(θ) of the draw, and evaluate ln q at any point.
// The types of this package allocate nothing when drawing or evaluating:
//
//   - Gaussian: N(μ, LLᵀ) from a mean and a Cholesky factor (a row of the
//     MFA posterior q(Λ̃), eq. (4.116) ff.);
//   - StudentT: the multivariate t with ν degrees of freedom and scale LLᵀ,
//     the heavy-tailed replacement of eqs. (4.122)–(4.127);
//   - Dirichlet and Gamma: blocks for q(π) and q(ν);
//   - Product: independent blocks laid out one after another in θ (the
//     "Student-t rows" of Table 4.3 are a Product of StudentT blocks);
//   - Mixture: the equal-weight mixture (1/R) Σ_r q_r of samplers 4–6 of
//     Table 4.3.
//
// Every type of this package is immutable after construction and safe for
// concurrent use. Targets written elsewhere may keep scratch space; the run
// helper therefore asks for one Proposal and Target per worker.
//
// # Estimators
//
// With θ_m ~ q and log weights ln w_m = ln p*(θ_m) − ln q(θ_m) (eqs.
// (4.103)–(4.105)), a run of M samples gives (see Estimate)
//
//	ln Ẑ  = ln (1/M) Σ_m w_m                (4.106)–(4.107)
//	F̂    = (1/M) Σ_m ln w_m                (4.108)–(4.109)
//	KL̂   = ln Ẑ − F̂                        (4.112)
//	ESS   = (Σ_m w_m)² / Σ_m w_m²
//
// Ẑ is unbiased for Z, so ln Ẑ is biased low (Jensen); F̂ is unbiased for the
// lower bound F(q) = ln Z − KL(q ‖ p(θ | y)); and KL̂ ≥ 0 for every sample.
// Independent runs, each with its own random stream, are summarised by the
// mean and standard error of ln Ẑ across runs and by the pooled estimate
// from all samples (Summary); SampleRuns spreads runs over goroutines with
// results that do not depend on the number of workers.
//
// # The variance hazard
//
// GaussianWeightVariance gives the closed-form weight variance of eq.
// (4.121), finite only when the proposal is less than twice as precise as
// the target, and HazardCurve produces the data of the chapter 4 extra figure
// that plots it against ν_q/ν_p.
//
// Defensive is the defensive mixture (1 − ε)q + εp(θ) (Hesterberg 1995): its
// weights are bounded by 1/ε times the likelihood, so a proposal q that
// misses a mode of the posterior (VB's q on the clutter problem) does not
// leave the estimate's error unbounded.
package is
