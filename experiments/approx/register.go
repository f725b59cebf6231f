package approx

import "github.com/vbworkbench/vbw/experiments"

// The gallery's experiments, registered in one place.

// OneDimID is the experiment of the one-dimensional panels.
const OneDimID = "approx/onedim"

// FactorisedID is the experiment of the factorised, spherical and mixture
// fits of correlated Gaussians.
const FactorisedID = "approx/factorised"

// BimodalID is the experiment of single Gaussians fitted to mixtures.
const BimodalID = "approx/bimodal"

// UnivariateID is the experiment of PRML Fig. 10.4.
const UnivariateID = "approx/univariate-gaussian"

// ClutterID is the experiment of PRML Figs 10.16-10.17.
const ClutterID = "approx/clutter"

// PimaID is Bayesian logistic regression on Pima.
const PimaID = "approx/pima"

// CrabsID is the same on the crabs, over seeded stratified splits (its
// defaults are the crabs').
const CrabsID = "approx/crabs"

// SeparableID is PRML Fig. 10.13.
const SeparableID = "approx/logistic-separable"

func init() {
	experiments.Add(OneDimID, "Laplace, the KL(q‖p) Gaussian, EP and moment matching on skewed and sub-Gaussian densities (PRML Figs 10.1, 10.14; Lawrence Figs 1.12, 1.13)",
		DefaultOneDim, RunOneDim, PlotOneDim)
	experiments.Add(FactorisedID, "factorised, spherical and mixture q fitted to correlated Gaussians under both KLs (PRML Fig 10.2; Lawrence Figs 1.9, 5.6; D'Souza Fig 2.5; T&S Fig 1.3)",
		DefaultFactorised, RunFactorised, PlotFactorised)
	experiments.Add(BimodalID, "a single Gaussian fitted to a mixture of two under both KLs (PRML Fig 10.3; T&S Fig 1.2)",
		DefaultBimodal, RunBimodal, PlotBimodal)
	experiments.Add(UnivariateID, "VB for the mean and precision of a univariate Gaussian, with the exact Normal–Gamma posterior, KL and evidence gap (PRML Fig 10.4, eqs. 10.21-10.33)",
		DefaultUnivariate, RunUnivariate, PlotUnivariate)
	experiments.Add(ClutterID, "EP, VB and Laplace on the clutter problem against the truth by quadrature, errors against counted operations (PRML Figs 10.16, 10.17)",
		DefaultClutter, RunClutter, PlotClutter)
	experiments.Add(PimaID, "Bayesian logistic regression on Pima: test errors of VB (JJ), Laplace, EP and ML beside the linear discriminant and a class-conditional Gaussian mixture, ln p(t) by the VB bound, Laplace, EP, IS and AIS (PRML §10.6; Lawrence Table 3.1)",
		DefaultPima, RunPima, nil)
	experiments.Add(CrabsID, "the same on the crabs, sex from five measurements, over seeded 80/120 splits stratified by species × sex (Lawrence Table 3.1's crabs column)",
		DefaultCrabs, RunPima, nil)
	experiments.Add(SeparableID, "VB logistic regression on separable 2-D data: the predictive's contours and boundaries of posterior draws (PRML Fig 10.13)",
		DefaultSeparable, RunSeparable, PlotSeparable)
}
