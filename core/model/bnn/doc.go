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
//   - [Arch.OutputGrad], [Arch.ErrorHessian], [Problem.Hessian]: ∇_w f and
//     the exact Hessian of M(w) = βE_D + Σ_g α_g E_{w,g} (eqs. 5.18, 5.43).
//   - [Arch.InitWeights]: the starting weights of every point fit.
//   - [Hyper], [DefaultHyper]: the gamma hyperpriors of eqs. 5.7-5.9, 5.44
//     at Table 5.1's constants (L2181).
//   - [NewPosterior], [Posterior]: ln p(w, D | α, β) and its gradient, the
//     HMC target (eqs. 5.4-5.6); [Posterior.Resample]: Neal's Gibbs updates
//     of α and β (cf. eqs. 5.46, 5.47); [NewBatch], [Batch]: E_D and its
//     gradient over a block of points.
//   - [HMCSettings], [HMCResult]: Table 5.1's HMC (persistence 0.95, burn-in,
//     thinning; the sampler is samplers/bnnhmc.SampleHMC, since core does not
//     import samplers); [HMCSettings.Ops] its cost.
//     HMCSettings.CapPriorStep caps each weight's step at 1/√α_g (the
//     leapfrog is unstable for ε√α > 2: the toy's switched-off output bias).
//   - [EarlyStopping], [PointFit]: the non-Bayesian baseline (L2190), on a
//     seeded random fifth of the training rows held out (the text gives no
//     split: ours).
//   - [Evidence], [Laplace]: the evidence procedure (eqs. 5.17, 5.43; α_g =
//     γ_g/2E_{w,g}, β = (N − γ)/2E_D, L2181, L2197), the log evidence with
//     ln(2^H H!); [Laplace.Predict]: the linearised predictive (L2164).
//   - [FitVB], [NewVB], [VB]: the diagonal-Gaussian (M = 1) and mixture
//     posteriors with q(α), q(β) (eqs. 5.22-5.32, 5.44-5.49); [VB.Bound] the
//     complete bound of eq. 5.32, ⟨g²⟩ exact by Owen's T (the text's eq.
//     C.34 approximates it); [VB.Predict], [VB.PredictF]: eqs. C.32, C.33.
//     The activation moments are computed for 16 points at a time
//     (vbmoments.go), bit for bit the point-by-point values.
//   - [VB.MutualInformation]: the lower bound of eq. 5.30 and the
//     minimum-overlap value −Σ Q(m) ln Q(m) (eq. C.14, L2026).
//   - [Arch.PrecisionNodes], [VB.EffectiveParameters],
//     [VB.InputEffectiveParameters]: node relevance determination (eqs.
//     6.30, 6.42-6.53; eq. 6.53 read as an erratum, see EffectiveParameters);
//     hidden-node and input removal (L2665).
package bnn
