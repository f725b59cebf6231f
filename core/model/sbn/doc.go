// Package sbn holds layered sigmoid belief networks of 0/1 units and their
// variational bounds on ln P(V): mean field with the Saul-Jaakkola-Jordan
// bound, and mixtures of mean-field distributions with smoothing
// distributions (Lawrence 2000, chapter 2, L775-1160 of
// ../shared/seeds/001_7df1fb81bc835124.txt, Appendix A L2712-2760; targets
// other-seeds.md §3 and §7 P5).
//
// A unit is on with probability σ(z_i), z_i = b_i + Σ_j w_ij s_j over the
// units of the layer above (eq. 2.3). For a factorised q,
//
//	⟨ln P(H,V)⟩ ≥ Σ_i [⟨s_i⟩⟨z_i⟩ − ξ_i⟨z_i⟩ − ln⟨e^{−ξ_i z_i} + e^{(1−ξ_i)z_i}⟩] = Λ   (eqs. 2.12-2.13)
//
// with every expectation a product over the parents (eqs. A.5-A.7), and the
// mean-field bound is 𝓛 = Λ + Σ_k H(μ_k) (eq. 2.15). A mixture
// Q(H) = Σ_m Q(m) Π_k Q(h_k|m) (eq. 2.19) adds the mutual information
// I(m, H) (eq. 2.21), bounded below with smoothing tables R(h_k|m) and
// λ_m (eqs. 2.22-2.28), giving 𝓛_λ (eq. 2.25). Every constant is kept, so
// every bound is a bound on ln P(V) itself, computed exactly by enumeration
// for the small nets of the text (eq. 2.6). Beside the bounds, EP (ep.go)
// approximates ln P(V) by fully factorised expectation propagation over
// the latent units, not a bound.
//
// The text's fixed point for μ (eq. 2.18 with φ_k of eq. A.8; eq. 2.32 for
// a component) replaces ln⟨·⟩ by ⟨ln ·⟩ over s_k (eq. A.3), which can
// lower the bound; updateMu keeps it only where the exact one-dimensional
// bound rises and otherwise moves to that bound's stationary point, so
// every update is a coordinate ascent step and vb.Run's check of the bound
// holds.
//
// # Map to the text
//
//   - Net, NewNet, Random: eqs. 2.1-2.5, L790-818; random nets U(−W, W), L1127, L1140.
//   - Net.LogJoint: eq. 2.5. Net.ExactLogLik: eq. 2.6 by enumeration, L1127.
//   - Net.LogConditional: the Gibbs conditional P(h_i | rest), L834 (§2.3).
//   - component (its cached e^{−ξw} and parent products), sjj, bound: the SJJ bound of eq. 2.12 / A.2
//     with eqs. A.5-A.7 and its ξ derivatives.
//   - updateXi: the ξ_i optimisation, L905 and L1019 (one-dimensional, convex).
//   - updateMu, muCoefficients: eqs. 2.16-2.18, A.3-A.8 (mean field) and 2.29-2.32 (a component).
//   - MeanField (E, M, Bound): eq. 2.15, L857-909.
//   - Mixture.Bound: eqs. 2.24-2.28; Mixture.E: eqs. 2.32, 2.35, 2.36, 2.37 (the
//     λ term of eq. 2.34 carries − rather than the text's +, as the derivative of
//     eq. 2.24 in Q(m) requires); Mixture.M: ξ_im, L1019.
//   - Mixture.MutualInformation: eq. 2.21 by enumeration (tests).
//   - Variant, Settings.StartFromMeanField, NewMixtureFromMeanField: departures from the
//     text's mixture fit for the study of its gain (eq. 2.31 and 2.34 as printed, shared ξ,
//     R or λ fixed, raw fixed points, a mean-field start).
//   - Markov (Eval, Fit), NewMarkov, FitMarkovPattern: the Markov-chain q of eqs. 2.38-2.50,
//     its gradient by App. B.1 (eqs. B.1-B.5), started from mean field (L1141).
//   - FitPattern, Settings: the inference runs of §2.5.1, L1127-1140.
//   - Net.Params, Net.Step, MeanField.Gradient, Mixture.Gradient, FitQ, LearnStep: learning by
//     gradient ascent of the bound in W (L1119, §2.5.2 L1145-1150; ∂Λ/∂W from eqs. 2.13, A.5-A.7).
//   - Net.ExactMeans, Mixture.Means: exact (eq. 2.6 by enumeration) and approximate (eq. 2.19) ⟨h_k⟩.
//   - Posterior: P(H | V) as a Gibbs (L834) and AIS target by its method set (prior × likelihood).
//   - EP, NewEP (Sweep, Run, LogLik, Means), Net.EPSweepOps: fully factorised EP over the latent
//     units (approx.FamilyEP with approx.Bernoullis, one site per unit's P(s_i | pa(s_i)) of eqs.
//     2.2-2.4; Minka 2001 §3.3, loopy BP by §4.4 and Heskes & Zoeter 2002), ln P(V) of eq. 2.6 as
//     ln Z_EP + h ln 2 (the uniform p₀ = 2^{−h}); exact on tree-structured nets.
//   - Net.SweepOps, StepOps, IterationOps, DrawOps: operation counts for comparisons at matched compute.
//   - Posterior.Bernoulli, Bernoulli, Posterior.LogProb: the mean-field q (eq. 2.10) as an importance
//     proposal over the latent states and ln P(H, V) (eq. 2.5) as its target (samplers/is by method set).
//
// Markov is fitted by a gradient optimiser, not by coordinate steps, so it is
// not a vb.Model and has no vbtest.CheckModel run; its tests are in
// markov_test.go.
//
// Not here: learning with the Markov-chain q (App. B.2).
package sbn
