// Package ltu holds networks of linear threshold units learnt as the
// zero-temperature limit of a sigmoid belief network's mean field, with a
// maximum-margin problem per unit (Lawrence 2000, chapter 3, L1178-1476 of
// ../shared/seeds/001_7df1fb81bc835124.txt; targets other-seeds.md §3).
//
// A ±1 unit with field a_i = Σ_j w_ij s_j + w_i0 is on with probability
// σ(a_i/T) (eq. 3.2), so ln P(s_i | pa) = (a_i/T)(s_i + 1)/2 − ln(1 + e^{a_i/T})
// (eqs. 3.3-3.6). With the inputs observed and the output clamped, mean
// field over the hidden units (eqs. 3.10-3.21) sets
// ⟨s_j⟩ = tanh(Δ_j/2T), Δ_j the difference of T ln P between s_j = ±1 with
// the other units at their means. As T → 0 the unit becomes the threshold
// unit of eq. 3.1, the entropies vanish, and T times the bound tends to
//
//	T𝓛 = Σ_i (a_i s_i − |a_i|)/2 ≤ 0     (eqs. 3.26-3.28),
//
// zero exactly when every unit is the sign of its field: the pattern is
// stored with likelihood 1. Inference maximises T𝓛 over the hidden states
// one unit at a time (eq. 3.23); learning satisfies each unit's sign
// constraints given the states, a perceptron problem per unit (eq. 3.29)
// solved instead by the maximum margin (§3.5.2) with slack penalty C.
//
// The text's eq. 3.23, with ⟨φ_ij⟩ of eq. 3.24, linearises the child's
// term in s_j; flipGain keeps the exact zero-temperature difference,
// a_j + V_j t − (|r + V_j| − |r − V_j|)/2 (r the output's field from the
// other units), the limit of eq. 3.21 itself, so that every
// zero-temperature update is coordinate ascent on T𝓛 (checked in Infer).
// At T > 0 the output's softplus is evaluated at the other units' means
// (the annealing heuristic of L1416-1418 needs a finite-T update; the text
// gives none): a heuristic, not a bound.
//
// Fit is not a vb.Model: the maximum-margin step does not maximise T𝓛
// (any weights meeting the constraints give 0; the margin and the slack
// are another objective), and the text itself notes that the training
// error may rise between iterations (L1426), hence Result.Best.
//
// # Map to the text
//
//   - Net, NewNet, Net.Forward, Net.Errors: eq. 3.1, Fig. 3.1; the forward
//     pass initialises the expectations (L1422).
//   - Net.Objective: eqs. 3.26-3.27 (T𝓛 of one pattern), L1356.
//   - flipGain: eqs. 3.18-3.23 (the mean-field update and its
//     zero-temperature limit), tested against eqs. 3.2-3.6 written out.
//   - Net.Infer, InferSettings: §3.4 (L1335, updates in random order to a
//     stable state), the annealing of L1416-1418 with the schedule
//     T_k = 1000·0.8^{k−1}, zero below 0.001, then at most 70 passes (L1442).
//   - TrainSVM, SMOSettings, SVM.Primal, SVM.Dual: the maximum-margin
//     problem with slack (L1381-1406, Figs 3.4-3.5) by SMO (Platt 1998,
//     L1438), KKT accuracy 1e-4, cap 100,000 steps (L1434, L1442).
//   - Fit, Settings, Result: the algorithm of §3.6 with the heuristics of
//     §3.7: 7 iterations (L1438), the relaxed KKT accuracy 10^{−(k−1)} for
//     k ≤ 4 (L1434), weight normalisation (L1430, our reading:
//     incoming weights rescaled to the norm of the outgoing ones), the
//     network of fewest training errors kept (L1426).
//
// Not here: networks with more than one hidden layer or output (the text's
// theory covers them; its experiments use Fig. 3.1's shape), the
// perceptron rule of eq. 3.29 as a learner.
package ltu
