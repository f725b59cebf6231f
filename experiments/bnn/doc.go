// Package bnn holds the experiments of Lawrence (2000), chapters 5 and 6
// (the seed text ../shared/seeds/001_7df1fb81bc835124.txt, L1802-2706;
// targets ../shared/targets/other-seeds.md §3, cited below as "targets"):
// Bayesian regression networks with erf hidden units by early stopping, the
// evidence procedure, diagonal and mixture variational posteriors and
// Hamiltonian Monte Carlo, on the toy of Fig. 5.3, sunspots and Tecator;
// node relevance determination; and Bayesian ICA with ARD on the mixing
// columns. Each experiment's files are named after it and open with what it
// reproduces. Every random stream comes from core/rng, named by the
// experiment, the purpose and the cell.
//
// # Map to the text
//
//   - tables*.go: bnn/sunspots and bnn/tecator, Tables 5.1 and 5.2
//     (L2183-2233) and, with the priors key, Tables 6.1 and 6.2
//     (L2682-2706): the five methods and the least-squares baselines, a
//     cell per method, prior and seed.
//   - toy*.go: bnn/toy, Figs 5.3-5.5 and the mutual-information check
//     (L2124-2172).
//   - nrd_*.go: bnn/nrd, Fig. 6.17 (L2658-2680).
//   - ica_toy.go: bnn/ica-toy, Figs 6.9/6.10 (L2493-2502); ica_images.go:
//     bnn/ica-images, the synthetic stand-in for Figs 6.11-6.14
//     (L2504-2526); ica_common.go: the [prior] table, the mixing stream,
//     the text's schedule, source matching; ica_artefacts.go: the figures.
package bnn
