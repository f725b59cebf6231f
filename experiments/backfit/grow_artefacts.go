package backfit

import "github.com/vbworkbench/vbw/experiments"

// The figures of D'Souza (2004) sections 3.1.1–3.1.4 (growing mixtures,
// local dimensionality, Dirichlet-process background) that backfit/spiral
// and backfit/localdim reproduce or set aside, by the lines of their
// captions in ../shared/seeds/003_a56118dfa4fca769.txt (targets §4.2).
// Figure 3.2 is vbgmm's, Figure 3.4 backfit's mixture of experts.
func init() {
	experiments.AddArtefacts(experiments.DSouza,
		experiments.Artefact{Label: "Figure 3.1", Line: 703, Caption: "the graphical model of one or two Gaussians on a local patch of data",
			Note: "a diagram: the model is gmm.VB at K = 2 (gmm.Splitter's local test)"},
		experiments.Artefact{Label: "Figure 3.3", Line: 775, Caption: "a mixture of Gaussians grown by local splits on the 3-D spiral, from 5 components to 14", Experiments: []string{SpiralID},
			Judged: "the growth from 5 and the final number of components, over 10 seeds of Beal's spiral (eqs. 4.86-4.87; D'Souza does not give his data)"},
		experiments.Artefact{Label: "Figure 3.5", Line: 811, Caption: "the graphical model of Bayesian factor analysis",
			Note: "a diagram: the model is core/model/mfa's analyser"},
		experiments.Artefact{Label: "Figure 3.6", Line: 827, Caption: "local 1-D and 2-D structure of 3-D data found by a mixture of factor analysers", Experiments: []string{LocalDimID},
			Judged: "the local dimensionalities on a stated stand-in (a line segment and a plane patch in 3-D): D'Souza's toy is not described"},
		experiments.Artefact{Label: "Figure 3.7", Line: 835, Caption: "the Sarcos SenSuit exoskeleton", Note: "a photograph: nothing to compute"},
		experiments.Artefact{Label: "Figure 3.8", Line: 848, Caption: "local dimensionality of 126,000 SenSuit movement points in 105 dimensions (SVD: 32 for 99% of the variance; mixture of VB factor analysers: mean 7.78, bulk 6-9)",
			Note:         "the SenSuit data are private (targets §4.2); backfit/localdim runs the method on a synthetic stand-in whose local dimensionalities are known",
			NotAttempted: "all: the SenSuit data are private"},
		experiments.Artefact{Label: "Figure 3.9", Line: 883, Caption: "samples from a Dirichlet process, base N(0, 10), α₀ = 1",
			Note:         "background to section 3.1.4 (Dirichlet-process mixtures sampled by Gibbs, Neal 1998), not a method of the thesis; nothing it claims is quantitative",
			NotAttempted: "all: background, not a result of the thesis"},
		experiments.Artefact{Label: "Figure 3.10", Line: 921, Caption: "a Dirichlet-process mixture's posterior over densities for an unspecified 1000-point data set",
			Note:         "background to section 3.1.4, on a data set the text does not describe; not a result of the thesis",
			NotAttempted: "all: background, data not described"},
	)
}
