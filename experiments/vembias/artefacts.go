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
		experiments.Artefact{Label: "Figure 1.4", Line: 282, Caption: "free energies for learning λ and σ_y², with zooms", Experiments: []string{SingleID},
			Judged:       "learning λ and σ_y² alone at the caption's θ: the orderings of L290-L302",
			NotAttempted: "learning σ_x² alone (L304: q_FC under-, q_FT over-estimates, q_MF between, q_MAP to 0), which the text reports without a figure"},
		experiments.Artefact{Label: "Figure 1.5", Line: 317, Caption: "free energies for learning the orientation and magnitude of w₂", Experiments: []string{SingleID}},
		experiments.Artefact{Label: "Figure 1.6", Line: 320, Caption: "bias maps for λ and σ_y², and the best-approximation map with r = 1", Experiments: []string{MapsID},
			Judged:       "the signs and orderings of the biases in λ and σ_y² (L320-L324) and q_MF's share as the best for σ_y²",
			NotAttempted: "that q_FT is the tightest below the line r = 1 and q_FC above it (L320): the line is drawn from its formula, not judged"},
		experiments.Artefact{Label: "Figure 1.7", Line: 345, Caption: "bias maps for the weights' orientation and magnitude", Experiments: []string{MapsID},
			Judged:       "the angle biases (A, B), q_MAP's infinite |w₂| (C) and q_MF's share as the least biased for |w₂| (D)",
			NotAttempted: "where q_FT and q_FC are each the least biased for |w₂| (L328) and the line KL_FC = KL_FT (D): drawn, not judged"},
		experiments.Artefact{Label: "Figure 1.8", Line: 348, Caption: "joint learning of (λ, σ_y²): arrows and the best-approximation map", Experiments: []string{MapsID},
			Judged:       "q_MF never the best, and the biases larger than when each parameter is learnt alone (L336, L348)",
			NotAttempted: "that many truths give one estimate (L334) and tightness as a poor guide (L336): drawn in the arrows and markers, not judged; learning all three parameters, 'data not shown' (L336)"},
	)
	experiments.AddExtensions(experiments.TurnerSahani, experiments.Extension{
		Label:       "the bias of L290 measured on Beal's chapter 5 VB-LDS (k = p = 1) against the exact posterior",
		Experiments: []string{BridgeID},
	})
}
