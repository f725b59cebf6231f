// Package bnn is the two-layer regression network of Lawrence (2000),
// chapter 5 (../shared/seeds/001_7df1fb81bc835124.txt, L1802-2233; targets
// ../shared/targets/other-seeds.md §3), and the ways of being Bayesian about
// it that the chapter compares.
//
// The network (eq. 5.2) has I inputs, H hidden units with the activation g
// of eq. 5.3 and one linear output,
//
//	f(x, w) = Σ_h v_h g(u_hᵀx̃),   x̃ = (x, 1),
//
// with the biases as extra input and hidden nodes fixed at one (L1850). The
// activation is the cumulative Gaussian scaled to (−1, 1),
//
//	g(a) = √(2/π) ∫₀ᵃ exp(−t²/2) dt = erf(a/√2) = 2Φ(a) − 1,
//
// as in Barber and Bishop (1998), whom the text follows. Eq. 5.3 as printed
// has exp(−t²), whose limit is 1/√2, not 1: an erratum, since the text calls
// g "the cumulative Gaussian distribution function" and its closed-form
// expectations (eq. 5.49) are those of 2Φ − 1.
//
// The noise is Gaussian with precision β (eqs. 5.4, 5.5) and the weights
// have zero-mean Gaussian priors whose precisions are shared within groups
// (eq. 5.6 and L1878: one α, the four connectivity groups, one α per input,
// or the product α_i^(I) α_j^(H) of node relevance determination, eq. 6.30).
//
// # Map to the text
//
//   - [G], [GPrime]: eq. 5.3 (corrected, above).
//   - [Arch.Forward]: eq. 5.2.
//   - [Arch.ErrorGrad]: E_D of eq. 5.5 and its gradient in w.
//   - [Arch.Groups]: the weight groups of L1878, Table 6.1's priors.
package bnn
