package vembias

import "github.com/vbworkbench/vbw/experiments"

// The figures of the paper (it has no tables), by the lines of their
// captions in the seed file, and the experiments whose claims cover them.
// Figures 1.2 and 1.3 are drawn by the approximation gallery too
// (approx/bimodal, approx/factorised). The bridge to Beal's chapter 5
// (vembias/bridge, every config of it) is ours, not a figure of the paper:
// an extension, whose claims are judged in the document's extensions table.
func init() {
	experiments.AddArtefacts(experiments.TurnerSahani,
		experiments.Artefact{Label: "Figure 1.1", Line: 100, Caption: "EM and vEM on the one-dimensional factor model: F's contours, iterations, the bound", Experiments: []string{MotivatingID}},
		experiments.Artefact{Label: "Figure 1.2", Line: 124, Caption: "a Gaussian fitted by KL(q‖p) to mixtures of two Gaussians, entropy differences", Experiments: []string{CompactnessID, "approx/bimodal"}},
		experiments.Artefact{Label: "Figure 1.3", Line: 181, Caption: "compactness of mean field for an AR(1) chain", Experiments: []string{CompactnessID, "approx/factorised"}},
		experiments.Artefact{Label: "Figure 1.4", Line: 282, Caption: "free energies for learning λ and σ_y², with zooms", Experiments: []string{SingleID}},
		experiments.Artefact{Label: "Figure 1.5", Line: 317, Caption: "free energies for learning the orientation and magnitude of w₂", Experiments: []string{SingleID}},
		experiments.Artefact{Label: "Figure 1.6", Line: 320, Caption: "bias maps for λ and σ_y², and the best-approximation map with r = 1", Experiments: []string{MapsID}},
		experiments.Artefact{Label: "Figure 1.7", Line: 345, Caption: "bias maps for the weights' orientation and magnitude", Experiments: []string{MapsID}},
		experiments.Artefact{Label: "Figure 1.8", Line: 348, Caption: "joint learning of (λ, σ_y²): arrows and the best-approximation map", Experiments: []string{MapsID}},
	)
	experiments.AddExtensions(experiments.TurnerSahani, experiments.Extension{
		Label:       "the bias of L290 measured on Beal's chapter 5 VB-LDS (k = p = 1) against the exact posterior",
		Experiments: []string{BridgeID},
	})
}
