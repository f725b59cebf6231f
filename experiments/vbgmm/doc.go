// Package vbgmm holds the experiments of Bishop's PRML chapter 10 (the seed
// text ../shared/seeds/002_cc78f0884d114115.txt; targets
// ../shared/targets/other-seeds.md §2 and §7 P2, P4), with the D'Souza
// thesis's model-selection figures beside them (../shared/seeds/003_a56118dfa4fca769.txt,
// targets §4):
//
//	vbgmm/linreg   variational linear regression (core/model/linreg): the
//	               bound against the polynomial order beside the exact
//	               evidence by quadrature over α (Fig. 10.9), and MSE,
//	               evidence and leave-one-out CV of orders 1, 2 and 6
//	               (D'Souza Fig. 1.2)
//
// Every random stream comes from core/rng, named by the experiment, the
// purpose and the data set, so that a cell computes the same numbers alone,
// in a sweep or in a shard.
package vbgmm
