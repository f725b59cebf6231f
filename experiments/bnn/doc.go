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
package bnn
