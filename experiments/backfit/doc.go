// Package backfit holds the experiments of D'Souza (2004), Towards
// Tractable Parameter-Free Statistical Learning (the seed text
// ../shared/seeds/003_a56118dfa4fca769.txt; targets
// ../shared/targets/other-seeds.md §4 and §7 P6, cited below as "targets"):
// Bayesian backfitting and the sparse regression it makes cheap, the
// backfitting RVM, variational Kalman forgetting rates, Bayesian
// supersmoothing and growing mixtures. Each experiment's files are named
// after it and open with what it reproduces. Every random stream comes from
// core/rng, named by the experiment, the purpose and the cell.
package backfit
