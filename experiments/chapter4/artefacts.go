package chapter4

import "github.com/vbworkbench/vbw/experiments"

// The figures and tables of chapter 4, by the lines of their captions in
// the thesis (../shared/seeds/000_055f6e591db3cc60.txt), and the
// experiments whose claims cover them (targets ch4-mfa.md §3).
func init() {
	diagram := "a diagram of the model: nothing to compute"
	experiments.AddArtefacts(experiments.Thesis,
		experiments.Artefact{Label: "Figure 4.1", Line: 2271, Caption: "factor analysis as a graphical model", Note: diagram},
		experiments.Artefact{Label: "Figure 4.2", Line: 2340, Caption: "the Bayesian MFA as a graphical model", Note: diagram},
		experiments.Artefact{Label: "Figure 4.3", Line: 2777, Caption: "the number of components found on 18 Gaussian clusters", Experiments: []string{LatticeID}},
		experiments.Artefact{Label: "Figure 4.4", Line: 2780, Caption: "factor loadings of the embedded clusters (Hinton diagrams)", Experiments: []string{EmbeddedID, EmbeddedFaithfulID}},
		experiments.Artefact{Label: "Table 4.1", Line: 2791, Caption: "analysers and dimensionalities recovered against data size", Experiments: []string{EmbeddedID, EmbeddedFaithfulID}, Table: table41},
		experiments.Artefact{Label: "Figure 4.5", Line: 2807, Caption: "the spiral data set, viewed from two angles", Experiments: []string{SpiralID},
			Note: "the data: drawn, no criterion judges it"},
		experiments.Artefact{Label: "Figure 4.6", Line: 2816, Caption: "the number of components during the spiral search", Experiments: []string{SpiralID}},
		experiments.Artefact{Label: "Figure 4.7", Line: 2819, Caption: "F during the spiral search, with rejected births", Experiments: []string{SpiralID}},
		experiments.Artefact{Label: "Figure 4.8", Line: 2822, Caption: "examples of the digits", Experiments: []string{DigitExamplesID}},
		experiments.Artefact{Label: "Figure 4.9", Line: 2833, Caption: "the analysers of unsupervised VBMFA on the digits", Experiments: []string{UnsupervisedID}},
		experiments.Artefact{Label: "Figure 4.10", Line: 2855, Caption: "confusion matrices of the unsupervised classifier", Experiments: []string{UnsupervisedID}},
		experiments.Artefact{Label: "Table 4.2", Line: 2885, Caption: "test accuracy of per-digit BIC-ML MFA and VBMFA classifiers", Experiments: []string{ClassifyID}, Table: table42},
		experiments.Artefact{Label: "Figure 4.11", Line: 2905, Caption: "components per digit class against training size", Experiments: []string{ClassifyID}},
		experiments.Artefact{Label: "Figure 4.12", Line: 3062, Caption: "F and importance-sampled ln p along a search", Experiments: []string{ISTightnessID}},
		experiments.Artefact{Label: "Figure 4.13", Line: 3090, Caption: "the gap ln p − F against the number of components", Experiments: []string{ISTightnessID}},
		experiments.Artefact{Label: "Table 4.3", Line: 3140, Caption: "the heavy-tailed and mixture importance samplers", Experiments: []string{ISSamplersID}, Table: table43},
		experiments.Artefact{Label: "Figure 4.14", Line: 3149, Caption: "importance-sampled ln p of the six samplers on three data sets", Experiments: []string{ISSamplersID}},
	)
}
