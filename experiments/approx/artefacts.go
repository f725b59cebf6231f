package approx

import "github.com/vbworkbench/vbw/experiments"

// The figures and tables of the four companion documents that the gallery
// reproduces, by the lines of their captions in each document's seed file
// (targets other-seeds.md §1-§4), and the experiments whose claims cover
// them. Each claim names its artefact after the document ("PRML Figure
// 10.3"); the other artefacts of these documents belong to other packages.
func init() {
	experiments.AddArtefacts(experiments.PRML,
		experiments.Artefact{Label: "Figure 10.1", Line: 45, Caption: "Laplace and the KL(q‖p) Gaussian on p ∝ exp(−z²/2)σ(20z+4)",
			Experiments: []string{OneDimID}},
		experiments.Artefact{Label: "Figure 10.2", Line: 134, Caption: "factorised q of a correlated Gaussian under KL(q‖p) and KL(p‖q)",
			Experiments: []string{FactorisedID}},
		experiments.Artefact{Label: "Figure 10.3", Line: 158, Caption: "one Gaussian fitted to a bimodal mixture under both KLs",
			Experiments: []string{BimodalID}},
		experiments.Artefact{Label: "Figure 10.4", Line: 234, Caption: "q(μ)q(τ) for a univariate Gaussian against the exact posterior",
			Experiments: []string{UnivariateID}},
		experiments.Artefact{Label: "Figure 10.13", Line: 1022, Caption: "VB logistic regression on separable 2-D data: predictive contours and posterior draws",
			Experiments: []string{SeparableID}},
		experiments.Artefact{Label: "Figure 10.14", Line: 1194, Caption: "EP against VB and Laplace on the density of Fig. 10.1",
			Experiments: []string{OneDimID}},
		experiments.Artefact{Label: "Figure 10.16", Line: 1335, Caption: "EP's site approximations on the 1-D clutter problem",
			Experiments: []string{ClutterID}},
		experiments.Artefact{Label: "Figure 10.17", Line: 1353, Caption: "EP, VB and Laplace on the clutter problem: error against cost",
			Experiments: []string{ClutterID}},
	)
	experiments.AddArtefacts(experiments.Lawrence,
		experiments.Artefact{Label: "Figure 1.9", Line: 482, Caption: "the asymmetry of KL: spherical fits of a correlated Gaussian",
			Experiments: []string{FactorisedID}},
		experiments.Artefact{Label: "Figure 1.12", Line: 578, Caption: "Laplace on a sub-Gaussian and a skewed density",
			Experiments: []string{OneDimID}},
		experiments.Artefact{Label: "Figure 1.13", Line: 629, Caption: "the variational Gaussian on the densities of Fig. 1.12",
			Experiments: []string{OneDimID}},
		experiments.Artefact{Label: "Table 3.1", Line: 1475, Caption: "classification rates on Pima and crabs (we reproduce the Pima test errors of logistic regression)",
			Experiments: []string{PimaID}},
		experiments.Artefact{Label: "Figure 5.6", Line: 2175, Caption: "a mixture of two diagonal Gaussians fitted to a correlated Gaussian",
			Experiments: []string{FactorisedID}},
	)
	experiments.AddArtefacts(experiments.DSouza,
		experiments.Artefact{Label: "Figure 2.5", Line: 646, Caption: "the factorised approximation as the correlation grows",
			Experiments: []string{FactorisedID}},
	)
	experiments.AddArtefacts(experiments.TurnerSahani,
		experiments.Artefact{Label: "Figure 1.2", Line: 124, Caption: "the KL(q‖p) Gaussian of mixtures of two Gaussians over separations and variance ratios",
			Experiments: []string{BimodalID}},
		experiments.Artefact{Label: "Figure 1.3", Line: 181, Caption: "compactness of mean field in a time series (AR(1) chain)",
			Experiments: []string{FactorisedID}},
	)
}
