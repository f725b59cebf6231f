package bnn

import "github.com/vbworkbench/vbw/experiments"

// The figures of Lawrence (2000) section 6.5.5 that bnn/ica-toy and
// bnn/ica-images reproduce, by the lines of their captions in
// ../shared/seeds/001_7df1fb81bc835124.txt (targets other-seeds.md §3).
func init() {
	experiments.AddArtefacts(experiments.Lawrence,
		experiments.Artefact{Label: "Figure 6.9", Line: 2487, Experiments: []string{ICAToyID}, Caption: "scatter plots of the toy's samples with the discovered and the true embedded dimensions"},
		experiments.Artefact{Label: "Figure 6.10", Line: 2502, Experiments: []string{ICAToyID}, Caption: "evolution of log10 alpha_i during learning: one rises three orders of magnitude"},
		experiments.Artefact{Label: "Figure 6.11", Line: 2517, Experiments: []string{ICAImagesID}, Caption: "two images, their noisy mixtures and the two sources recovered by the two-source model",
			Judged: icaStandIn, NotAttempted: icaCorel},
		experiments.Artefact{Label: "Figure 6.12", Line: 2520, Experiments: []string{ICAImagesID}, Caption: "the three-source model's recovered sources with the phantom left in",
			Judged: icaStandIn, NotAttempted: icaCorel},
		experiments.Artefact{Label: "Figure 6.13", Line: 2523, Experiments: []string{ICAImagesID}, Caption: "the recovered sources with the phantom removed after learning",
			Judged: icaStandIn, NotAttempted: icaCorel},
		experiments.Artefact{Label: "Figure 6.14", Line: 2526, Experiments: []string{ICAImagesID}, Caption: "scatter plots of the observed images with the discovered and true mixing directions",
			Judged: icaStandIn, NotAttempted: icaCorel},
	)
}

const (
	icaStandIn = "a synthetic stand-in: two unit-variance sub-Gaussian sources, uniform and bimodal, 1000 pixels drawn independently"
	icaCorel   = "the two Corel images themselves (proprietary, not available)"
)
