// Package mixq holds the experiments of Lawrence (2000), Variational
// Inference in Probabilistic Models (the seed text
// ../shared/seeds/001_7df1fb81bc835124.txt; targets
// ../shared/targets/other-seeds.md §3 and §7 P5, cited below as "targets"):
// richer q than mean field (mixtures and Markov chains of mean-field
// distributions) for sigmoid belief networks and Boltzmann machines, and
// linear threshold units, scored against exact answers by enumeration and
// against sampling at matched compute. Each experiment's files are named
// after it and open with what it reproduces. Every random stream comes from
// core/rng, named by the experiment, the purpose and the cell.
package mixq
