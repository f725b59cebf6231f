// Package approx is the approximation gallery of the companion documents
// (targets ../shared/targets/other-seeds.md §7 P3): the
// figures in which Bishop (PRML ch. 10, ../shared/seeds/002_…), Lawrence
// (thesis ch. 1 and 5, 001_…), D'Souza (thesis §2, 003_…) and Turner &
// Sahani (§1.3, 004_…) set Laplace's method, the Gaussian that minimises
// KL(q‖p), the one that minimises KL(p‖q) (moment matching), factorised
// fits and expectation propagation beside the exact density. Every panel
// has the exact density, by adaptive quadrature, and a table beside it:
// the mean, variance, entropy and KL in both directions of every
// approximation (core/approx).
//
// The experiments, each with its config in configs/approx:
//
//	approx/onedim               PRML Figs 10.1, 10.14; Lawrence Figs 1.12, 1.13
//	approx/factorised           PRML Fig 10.2; Lawrence Figs 1.9, 5.6; D'Souza
//	                            Fig 2.5 (correlation swept); T&S Fig 1.3
//	approx/bimodal              PRML Fig 10.3; T&S Fig 1.2
//	approx/univariate-gaussian  PRML Fig 10.4 with the exact KL and gap (vb_kl_exact)
//	approx/clutter              PRML Figs 10.16, 10.17 (configs clutter-1d, clutter-2d):
//	                            EP, VB and Laplace against quadrature, errors against
//	                            counted operations
//	approx/pima                 Bayesian logistic regression on Pima (PRML §10.6, Lawrence
//	                            Table 3.1): VB, Laplace, EP, ML, the linear discriminant and
//	                            a class-conditional mixture; ln p(t) by VB, Laplace, EP, IS
//	                            and AIS with HMC
//	approx/crabs                the same on the crabs over seeded stratified splits
//	                            (Lawrence Table 3.1's crabs column)
//	approx/logistic-separable   PRML Fig 10.13: the VB predictive on separable data
//
// The gallery experiments (the first four) write, per figure stem F, F_table.csv (one row per
// panel and method: the numbers that matter) and F_curves.csv (1-D:
// panel, method, x, density) or F_grid.csv (2-D: panel, method, x, y,
// density), from which Plot redraws F.svg and F.png.
package approx

import (
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/experiments"
)

// Numerics are the [numerics] keys shared by the gallery's configs.
type Numerics struct {
	// QuadRelTol is the relative tolerance of the adaptive quadratures
	// (numeric.QuadTol.Rel) behind every exact number and KL.
	QuadRelTol float64 `toml:"quad_rel_tol" range:"[1e-14,1e-2]"`
	// HermiteOrder is the number of Gauss–Hermite nodes per dimension of
	// the KL(q‖p) fits' objective; 0 means core/approx's default (in one
	// dimension a composite Gauss–Legendre rule of 2048 nodes, 32
	// Gauss–Hermite nodes per axis in two).
	HermiteOrder int `toml:"hermite_order" range:"0|[2,256]"`
	// GridPoints is the number of points per axis of the drawn curves and
	// contour grids.
	GridPoints int `toml:"grid_points" range:"[11,4001]"`
}

func defaultNumerics() Numerics { return Numerics{QuadRelTol: 1e-10, GridPoints: 201} }

func (n Numerics) validate() error { return nil }

func (n Numerics) tol() numeric.QuadTol { return numeric.QuadTol{Rel: n.QuadRelTol} }

// Per-unit costs of the estimates (operations of one evaluation of a
// density; an adaptive quadrature takes a few hundred to a few thousand
// evaluations in one dimension, their square in two; a fit a few hundred
// objective evaluations of Hermite-order^d nodes).
const (
	evalOps     = 50
	quad1DEvals = 3000
	quad2DEvals = 3e6
	fitEvals    = 400
)

// quadOps is the work of the exact numbers and the KLs of one panel with
// the given number of approximations.
func quadOps(d, methods int) float64 {
	evals := quad1DEvals
	if d == 2 {
		evals = quad2DEvals
	}
	return float64(evals) * evalOps * float64(1+2*methods)
}

// hermiteNodes is the estimate's count of the fits' quadrature nodes.
func (n Numerics) hermiteNodes(d int) experiments.Factor {
	o := n.HermiteOrder
	if o == 0 {
		o = 2048 // core/approx's normalRule1D
		if d == 2 {
			o = 32
		}
	}
	v := float64(o)
	if d == 2 {
		v *= v
	}
	return experiments.KeyN("numerics.hermite_order", n.HermiteOrder, v, "Gauss–Hermite nodes of a fit")
}
