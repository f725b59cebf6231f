// Package vbgmm holds the experiments of Bishop's PRML chapter 10 (the seed
// text ../shared/seeds/002_cc78f0884d114115.txt; targets
// ../shared/targets/other-seeds.md §2 and §7 P2, P4, cited below as
// "targets"), with the D'Souza thesis's model-selection figures beside them
// (../shared/seeds/003_a56118dfa4fca769.txt, targets §4):
//
//	vbgmm/fig10_6        the VB Gaussian mixture (core/model/gmm) on Old
//	                     Faithful: components kept against α₀, ellipses by
//	                     iteration (Fig. 10.6)
//	vbgmm/fig10_7        F + ln K! against K beside AIS and IS estimates of
//	                     ln p(X|K) (Fig. 10.7)
//	vbgmm/dsouza_fig3_2  one against two Gaussians as two clusters separate,
//	                     with and without ln 2, AIS and IS (D'Souza Fig. 3.2)
//	vbgmm/linreg         variational linear regression (core/model/linreg):
//	                     the bound against the polynomial order beside the
//	                     exact evidence by quadrature over α (Fig. 10.9), and
//	                     MSE, evidence and leave-one-out CV of orders 1, 2
//	                     and 6 (D'Souza Fig. 1.2)
//
// Each experiment's files are named after it. Every random stream comes
// from core/rng, named by the experiment, the purpose and the cell, so that
// a cell computes the same numbers alone, in a sweep or in a shard.
package vbgmm
