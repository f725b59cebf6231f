// Package moe is the variational Bayesian mixture of linear experts that
// D'Souza (2004) grows by local splits (section 3.1.2, Algorithm 2 and
// Fig. 3.4; the seed text ../shared/seeds/003_a56118dfa4fca769.txt,
// L775–797; targets ../shared/targets/other-seeds.md §4).
//
// # The model, and what is taken from the text
//
// The text gives the 1-vs-2 Gaussian model in full (eqs. (3.1)–(3.6), its
// updates at L756) and says only that "the mathematics of the previous
// section can be extended to incorporate the additional 'expert'
// parameters" by integrating over "the parameter spaces of a local
// regression … with the factorial assumption" (L791). This package takes
// the joint-density form of that extension (the input density of each
// component times its expert, as in Ueda & Ghahramani 2002, the mixture the
// text cites for its growing search):
//
//	p(x, y | s = k) = N(x | μ_k, Λ_k⁻¹) · N(y | w_kᵀφ(x), ψ_k⁻¹),  φ(x) = (x, 1),
//	s ~ Cat(π),  π ~ Dir(α₀, …, α₀),
//	μ_k | Λ_k ~ N(m₀, (β₀Λ_k)⁻¹),  Λ_k ~ W(W₀, ν₀),        (eqs. (3.2)–(3.3), W₀ for R)
//	w_k | ψ_k ~ N(0, (ψ_kκ₀I)⁻¹),  ψ_k ~ Ga(a₀, b₀),
//
// with the Dirichlet in place of the text's Beta (3.5) for K components and
// a Gaussian-gamma prior on each expert's weights and noise precision (the
// text leaves the expert's prior open). The factorisation is q(s) q(π)
// Π_k q(μ_k, Λ_k) q(w_k, ψ_k) (the text's Q(μ, P) Q(S) Q(ζ), L753, with
// the experts added); each factor but q(s) is then the exact conjugate
// posterior given q(s), and with one component F is exactly ln p(x, y).
//
// The split search is Algorithm 2 run through vb.Search: for each
// component, largest first, the local test fits its points (weighted by
// their responsibilities) by one component and by two; if two have the
// larger bound the split is proposed, applied with the local fit's q(s),
// and the whole mixture re-converged. Beyond the text, a split is kept only
// if the global F rises too (vb.Search's rule), so the search never lowers
// F. The search ends when no component's local test favours a split
// ("until no split occurs", L789).
//
// # Map to the text
//
// "L" is a line of the seed text, § a section of the targets.
//
//	Prior, DefaultPrior      eqs. (3.2)–(3.5), generalised as above; the defaults are ours
//	NewVB                    a hard partition by the nearest of k random points (the text's
//	                         start is K = 1 for Fig. 3.3's Algorithm 2, 4 for Fig. 3.4)
//	VB.M                     the updates of Q(μ_m | P_m), Q(P_m), Q(ζ) at L756 (weighted
//	                         counts, a general m₀), and the Normal-gamma posterior of each expert
//	VB.E                     ln Q(s_im = 1) at L756 with the expert's term; F = ln Z − KLs
//	VB.KLInput, KLExpert     dist.NormalWishartKL, dist.NormalGammaKL (Beal (2003) App. C.3)
//	Settings                 the local test's knobs (its VBEM run, the points' weight floor,
//	                         the margin, the cuts tried); ours, the text gives none
//	VB.Local, LocalTest      the 1-vs-2 decision of section 3.1.1.1 applied to one component's
//	                         data, Algorithm 2 lines 4–5 (L783–785)
//	VB.Propose, Apply        Algorithm 2 lines 3–11 (L783–789) as a vb.Mover
//	VB.Occupied              the components with N_k ≥ a floor, the count Fig. 3.4 reports
//	VB.Predict               E[y | x] with the gate q(s | x) of the input terms (Fig. 3.4(b))
package moe
