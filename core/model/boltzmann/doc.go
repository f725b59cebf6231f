// Package boltzmann is the fully connected Boltzmann machine on ±1 units
// of Lawrence (2000), chapter 4 (the seed text
// ../shared/seeds/001_7df1fb81bc835124.txt, L1526-1790; targets
// ../shared/targets/other-seeds.md §3 and §7 P5):
//
//	P(S) = exp(φ(S)/T)/Z,  φ(S) = Σ_{i<j} w_ij s_i s_j + Σ_i b_i s_i     (4.1-4.3)
//
// with symmetric weights, no self-connections and temperature T, its units
// split into visible and hidden ones by a Clamp. The exact answers (ln Z,
// ⟨s_i⟩, ⟨s_i s_j⟩, the log-likelihood of eq. 4.5 and its gradient, eq. 4.6)
// come from enumerating up to 16 free units; the approximations are
// mean-field theory for the joint (Q⁻) and the conditional (Q⁺) and the
// mixture of mean-field distributions for the joint, each a lower bound on
// the ln Z it approximates (the joint's, or the sum over the free units
// given the clamped ones), driven by fixed points that never lower it at
// fixed T and annealed over a schedule of temperatures.
//
// With Z intractable the learning objective F = L⁺ − L⁻ (eq. 1.40, 4.12)
// is a difference of two lower bounds and not itself a bound on ln P(V)
// (L695-744): its error is KL(Q⁺‖P(H|V)) − KL(Q⁻‖P(H,V)) (eq. 1.42). The
// package therefore offers the two bounds (MeanField.Bound,
// Mixture.Bound), each checked against the exact ln Z in the tests, and
// the gradient from any pair of moments; it has no vb.Model, whose
// objective must be a bound that the whole of an iteration never lowers.
//
// # Map to the text
//
//   - Machine, NewRandom, Phi: eqs. 4.1-4.2 (L1530-1537); NewRandom draws the
//     networks of Fig. 4.2 (L1701).
//   - Machine.Exact: eq. 4.3 (L1541) and the exact ⟨s_i⟩, ⟨s_i s_j⟩ under the
//     joint (nil Clamp, ⟨·⟩_F) or the conditional (⟨·⟩_C).
//   - Machine.LogLik: eqs. 4.4-4.5 (L1551-1555).
//   - Machine.Gradient: eq. 4.6 (L1559) with exact moments; eq. 4.15
//     (L1620) with MeanField.Moments; eq. 4.25 (L1693) with
//     Mixture.Moments. Divided by T, as φ/T is the exponent.
//   - MeanField, NewMeanField: eqs. 4.7-4.8 (L1587-1591).
//   - MeanField.Iterate: eqs. 4.9-4.11 (L1595-1604), asynchronous.
//   - MeanField.Bound: L⁻ (or L⁺) of eqs. 1.38, 4.13-4.14 (L703-710, L1612-1616),
//     complete.
//   - MeanField.Anneal, Mixture.Anneal, GeometricSchedule: deterministic
//     annealing (L1626; Fig. 4.2's 8 steps from 60 to 1, L1703).
//   - Mixture, NewMixture: eq. 4.16 (L1640), smoothing functions R and λ
//     (eqs. 4.19-4.21, L1654-1665; factorised R as eq. 2.26).
//   - Mixture.Bound: eqs. 4.17, 4.21 (L1644, L1665).
//   - Mixture.updateMeans: eqs. 4.22-4.24 (L1674-1683), with the
//     derivative of the bound (sum over components, difference of R's) where
//     eq. 4.23 as printed has λ_m alone and a sum.
//   - Mixture.updateSmoothing, updateLambda, updateWeights: the fixed
//     points of chapter 2, eqs. 2.35-2.37 (L1010-1024), for ±1 units; λ_m =
//     Q(m)/Σ_k Q(k)π(m,k) with the weights Q(k) that eq. 2.37 as printed
//     omits.
//   - Gibbs: the Gibbs sampler of section 4.3 (L1569) as a samplers/mcmc
//     Tempered and Sweeper; with SamplePrior (the uniform base on the free
//     units) a samplers/ais Model, with LogProb (φ/T) a samplers/is Target
//     (sampling.go).
//   - Product: a product of ±1 units (mean field's Q of eq. 4.8) as a
//     samplers/is Proposal (sampling.go).
//   - EP, NewEP (ep.go): fully factorised EP over the units of the joint
//     (approx.FamilyEP with approx.Bernoullis on b = (s + 1)/2; one site per
//     pair, f_ij = exp(w_ij s_i s_j/T); the biases in the prior), ln Z as
//     ln Z_EP + Σ_i ln 2cosh(b_i/T); loopy BP (Minka 2001 §4.4), exact on a
//     forest of weights. Not in the text.
//   - Association, LayeredMask, Association.Phases, Association.Gradient,
//     Association.Learn (learn.go): supervised deterministic Boltzmann learning,
//     Galland's association task (L1719-1734, Fig. 4.3): eq. 4.15 summed over
//     the patterns with the inputs clamped in both phases, F_mft (eq. 4.12)
//     and F_obs (eq. 4.27), the − phase from zero or from the + phase (L1727).
//   - Mixture.Moments: Σ_m Q(m)⟨s_i⟩_m⟨s_j⟩_m (eq. 4.26, L1710).
//
// MeanField and Mixture are vb.Models: E is the bound with its named terms,
// M one pass of the fixed-point updates, and Run and Anneal drive them by
// vb.Run, the engine's one driver, which checks that no iteration lowers
// the bound (vbtest.CheckModel in conformance_test.go). Each block of the
// mixture's updates is the exact maximiser of the bound in its variables,
// so the bound never falls at fixed T; M checks it after every block too,
// and the next E returns an error wrapping ErrDecreased if it did.
package boltzmann
