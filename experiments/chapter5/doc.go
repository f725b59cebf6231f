// Package chapter5 holds the experiments of Beal (2003) chapter 5, the
// variational Bayesian linear dynamical system (package core/model/lds),
// with the specification and its corrections in ../shared/targets/ch5-lds.md
// (cited below as "targets"):
//
//   - chapter5/dimensionality: the hidden-state dimensionality of an LDS
//     without inputs discovered by ARD against the sequence length, and the
//     trajectories of the hyperparameters α, γ as dimensions go extinct
//     (section 5.4.1, Figures 5.4 and 5.5; targets §3.1-§3.2), with the
//     run on the longest sequence continued to the end of its pruning and
//     compared with another hyperparameter schedule: its end state, the
//     true structure or the local optimum of line 4115 (extended.go);
//   - chapter5/inputs: the input-driven example, its data, F and ΔF during
//     learning, and the reciprocal hyperparameters 1/α, 1/β, 1/γ, 1/δ
//     recovering the true structure (section 5.4.2, Figures 5.6-5.8;
//     targets §3.3-§3.5);
//   - chapter5/genes: the feedback model on the published T-cell data
//     (section 5.5, Figures 5.9 and 5.11-5.13; targets §3.6-§3.9), and
//     chapter5/genes-surrogate: the same pipeline on the surrogate of
//     targets §3.6, whose known sparse interaction matrix scores the
//     recovery of significant interactions.
//
// Every random stream comes from core/rng, named by the experiment, the
// purpose and the cell, so that a cell computes the same numbers alone, in
// a sweep or in a shard.
package chapter5
