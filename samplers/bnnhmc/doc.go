// Package bnnhmc samples the weights of Lawrence's erf network
// (core/model/bnn) by Hamiltonian Monte Carlo, with Gibbs updates of the
// prior precisions α and the noise precision β between trajectories (Neal
// 1996's scheme; Lawrence (2000) Fig 5.3 and Tables 5.1, 5.2,
// ../shared/seeds/001_7df1fb81bc835124.txt L2124-2172, L2183-2211).
//
// The model's maths (the posterior, its gradient, the gamma conditionals,
// the settings and the predictive of the samples) lives in core/model/bnn
// (bnn.Posterior, bnn.HMCSettings, bnn.HMCResult); the kernel and the
// diagnostics are samplers/mcmc's (HMC with persistence, Plan, Chains,
// ESSChains, SplitRHat). This package only joins them: core/ may not
// import samplers/ (deps_test.go), so the driver of bnn's HMC lives here.
package bnnhmc
