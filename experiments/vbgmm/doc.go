// Package vbgmm holds the experiments of Bishop (2006), PRML chapter 10
// (../shared/seeds/002_cc78f0884d114115.txt), with the reproduction targets
// of ../shared/targets/other-seeds.md §2 and §7 P2 (cited below as
// "targets"). Each experiment's files are named after it; the package doc
// of each family is at the top of its first file.
//
// Every random stream comes from core/rng, named by the experiment, the
// purpose and the cell, so that a cell computes the same numbers alone, in
// a sweep or in a shard.
package vbgmm
