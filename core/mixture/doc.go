// Package mixture holds the allocation part of a variational Bayesian
// mixture model, the pieces that do not depend on what a component is: the
// responsibilities q(s), the mixing weights q(π) and the bookkeeping of a
// birth or a death. The mixture of factor analysers of core/model/mfa (Beal
// (2003) chapter 4) uses it, and so will a Gaussian mixture (Bishop (2006)
// PRML section 10.2).
//
// Equation numbers are the thesis's own (its converted text is
// ../shared/seeds/000_055f6e591db3cc60.txt, chapter 4 at lines 2196–3165);
// PRML chapter 10 is ../shared/seeds/002_cc78f0884d114115.txt.
//
// # Layout
//
// The responsibilities of n points over S components are one flat slice r
// of length S·n, component-major: r[s*n+i] = q(s_i = s), so that the
// per-component loops of a model (sums of statistics, the E step of one
// component) run over contiguous memory. Every per-component array of a
// model (q(π)'s ω, the components themselves) is indexed by the same s.
//
// # Map to the thesis
//
// PRML equations are marked PRML; the others are the thesis's.
//
//	NormalizeLog   q_is = exp(ℓ_si − ln Z_i), ln Z_i = ln Σ_s exp ℓ_si, from the
//	               log-terms ℓ_si = ⟨ln π_s⟩ + ⟨ln p(y_i, x_i | s)⟩ of the
//	               update of q(s_i) (eq. (4.57); PRML (10.46), (10.49))
//	Counts         N_s = Σ_i q_is (PRML (10.51))
//	UpdateWeights  q(π) = Dir(ω), ω_s = α*/S + N_s (eq. (4.37); PRML (10.58))
//	KLWeights      KL(q(π) ‖ p(π)) against the symmetric prior Dir(α*/S, …),
//	               the first term of F (eq. (4.29); KL = PRML (10.76) − (10.73))
//	Entropy        H[q(s)] = −Σ_i Σ_s q_is ln q_is with 0 ln 0 = 0, the entropy
//	               term of F (eq. (4.29); PRML (10.75) with the sign of F)
//	Add, Remove    a birth (a new, empty component S, eqs. (4.73)–(4.76)) and a
//	               death (component s removed, each point's q renormalised over
//	               the others; section 4.3.1, lines 2631–2637), returning new
//	               slices
//	SplitWeight    the weight of a birth: ω_s shared equally with the child
//	               (targets ch4-mfa.md §1.9)
//	CheckResponsibilities
//	               q(s) of a hand-built start: each point's column a distribution
//	SplitResp      a local split (D'Souza (2004) Algorithm 2, lines 6–8): a new
//	               component takes the share 1 − ρ_i of q(s_i = j) of the points
//	               of j, j keeping ρ_i q(s_i = j)
//	SplitCache, LocalFits, ProposeSplit
//	               the search of D'Souza's Algorithm 2 (L771–786): the local
//	               1-vs-2 tests cached per state, the local fits' work, the
//	               first untried component whose test favours two
//
// Components are removed with slices.Delete on every per-component array,
// in the same order as Remove; a component is added by appending to each
// array, as Add and SplitWeight do.
//
// None of the functions allocates except Add, Remove and SplitResp, which return new
// slices so that a saved snapshot is never aliased (and Counts with a nil
// dst).
package mixture
