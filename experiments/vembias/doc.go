// Package vembias reproduces Turner & Sahani, "Two problems with
// variational EM for time-series models" (the seed text
// ../shared/seeds/004_2d1c8b7c1e312d07.txt; targets
// ../shared/targets/other-seeds.md §1, §7 P1, Appendix A), every figure
// from the closed forms of core/model/vembias, and the bridge to Beal's
// chapter 5: the same bias measured on the VB-LDS of core/model/lds with
// k = p = 1 against the exact posterior by quadrature.
//
// The experiments, one config each in configs/vembias/:
//
//	vembias/motivating   Fig 1.1: EM and vEM on the factor model (y = 0.4, σ_q² = 0.4)
//	vembias/compactness  Figs 1.2, 1.3: a Gaussian fitted to mixtures; mean field over time
//	vembias/single       Figs 1.4, 1.5: one parameter learnt, Appendix A's optima, three optimisers
//	vembias/maps         Figs 1.6-1.8: bias maps, best-approximation maps, joint (λ, σ_y²) learning
//	vembias/bridge       the VB-LDS's E_q[A], Var_q[A] and F against the exact posterior
package vembias
