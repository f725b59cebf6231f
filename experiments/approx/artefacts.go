package approx

import "github.com/vbworkbench/vbw/experiments"

// The figures and tables of three companion documents that the gallery
// reproduces, by the lines of their captions in the documents' seed files
// (targets other-seeds.md §1-§4). Each claim names its artefact after the
// document ("PRML Figure 10.3"); the other artefacts of these documents
// belong to other packages. Turner & Sahani's Figures 1.2 and 1.3, which
// approx/bimodal and approx/factorised also draw, are declared with the
// paper's other figures in experiments/vembias.
func init() {
	experiments.AddArtefacts(experiments.PRML,
		experiments.Artefact{Label: "Figure 10.1", Line: 45, Experiments: []string{OneDimID}, Caption: "Laplace and the KL(q‖p) Gaussian on p ∝ exp(−z²/2)σ(20z+4)"},
		experiments.Artefact{Label: "Figure 10.2", Line: 134, Experiments: []string{FactorisedID}, Caption: "factorised q of a correlated Gaussian under KL(q‖p) and KL(p‖q)"},
		experiments.Artefact{Label: "Figure 10.3", Line: 158, Experiments: []string{BimodalID}, Caption: "one Gaussian fitted to a bimodal mixture under both KLs"},
		experiments.Artefact{Label: "Figure 10.4", Line: 234, Experiments: []string{UnivariateID}, Caption: "q(μ)q(τ) for a univariate Gaussian against the exact posterior"},
		experiments.Artefact{Label: "Figure 10.13", Line: 1022, Experiments: []string{SeparableID}, Caption: "VB logistic regression on separable 2-D data: predictive contours and posterior draws",
			Judged:       "the left-hand plot: the VB predictive's boundary and contours (L1022)",
			NotAttempted: "the right-hand plot, the boundaries of five draws from p(w|t): drawn from HMC draws, not judged (PRML gives no prior; a finding counts the draws that cut a cluster)"},
		experiments.Artefact{Label: "Figure 10.14", Line: 1194, Experiments: []string{OneDimID}, Caption: "EP against VB and Laplace on the density of Fig. 10.1"},
		experiments.Artefact{Label: "Figure 10.16", Line: 1335, Experiments: []string{ClutterID}, Caption: "EP's site approximations on the 1-D clutter problem"},
		experiments.Artefact{Label: "Figure 10.17", Line: 1353, Experiments: []string{ClutterID}, Caption: "EP, VB and Laplace on the clutter problem: errors against iterations and cost",
			Judged:       "EP against VB on both errors and against Laplace on the posterior mean, at VB's cost at convergence, in one dimension (clutter-1d.toml; clutter-2d.toml is an extension)",
			NotAttempted: "EP against Laplace on the evidence (the right-hand plot): Laplace has no estimate where −∇∇ ln p is not positive definite; in prml_fig10_17_curves.csv, not judged"},
	)
	experiments.AddArtefacts(experiments.Lawrence,
		experiments.Artefact{Label: "Figure 1.9", Line: 482, Experiments: []string{FactorisedID}, Caption: "the asymmetry of KL: spherical fits of a correlated Gaussian"},
		experiments.Artefact{Label: "Figure 1.12", Line: 578, Experiments: []string{OneDimID}, Caption: "Laplace on a sub-Gaussian and a skewed density"},
		experiments.Artefact{Label: "Figure 1.13", Line: 629, Experiments: []string{OneDimID}, Caption: "the variational Gaussian on the densities of Fig. 1.12"},
		experiments.Artefact{Label: "Table 3.1", Line: 1475, Experiments: []string{PimaID, CrabsID, ltuPimaID, ltuCrabsID}, Caption: "test errors on Pima (of 332) and the crabs (of 120): Ripley's baselines and Lawrence's linear threshold units", Table: table31,
			Judged:       "the Logistic Regression and Linear Discriminant rows on Pima (66, 67 of 332; pima.toml) and on the crabs (4, 8 of 120, over seeded stratified 80/120 splits: Ripley's split is not published; crabs.toml), logistic regression by ML, VB (α fixed and q(w)q(α)), Laplace and EP; the 2 Gaussian Mixture row on Pima (64), in our reading (two Gaussians per class, one tied covariance, ML EM); the Average and Best Linear Threshold Unit rows (73.97 and 63 of 332, 6.08 and 2 of 120; configs/mixq/ltu-pima.toml, ltu-crabs.toml: the crabs on split 0)",
			NotAttempted: "the Neural Network, MARS, PP and Gaussian Process Classifier rows (fits of Ripley and of Barber & Williams whose settings these texts do not give)"},
		experiments.Artefact{Label: "Figure 5.6", Line: 2175, Experiments: []string{FactorisedID}, Caption: "a mixture of two diagonal Gaussians fitted to a correlated Gaussian"},
	)
	experiments.AddArtefacts(experiments.DSouza,
		experiments.Artefact{Label: "Figure 2.5", Line: 646, Experiments: []string{FactorisedID}, Caption: "the factorised approximation as the correlation grows"},
	)
}
