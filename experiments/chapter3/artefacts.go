package chapter3

import "github.com/vbworkbench/vbw/experiments"

// The figures of chapter 3, by the lines of their captions in the thesis
// (../shared/seeds/000_055f6e591db3cc60.txt), and the experiments whose
// claims cover them (targets ch3-hmm.md §3).
func init() {
	experiments.AddArtefacts(experiments.Thesis,
		experiments.Artefact{Label: "Figure 3.1", Line: 1703, Caption: "the HMM as a graphical model",
			Note: "a diagram of the model: nothing to compute"},
		experiments.Artefact{Label: "Figure 3.2", Line: 2140, Caption: "ML and VB training curves on the synthetic grammar strings",
			Experiments: []string{SyntheticID, SyntheticGrammarID}},
		experiments.Artefact{Label: "Figure 3.3", Line: 2143, Caption: "structure recovered by ML and VB (Hinton diagrams)",
			Experiments: []string{SyntheticID, SyntheticGrammarID}},
		experiments.Artefact{Label: "Figure 3.4", Line: 2178, Caption: "forwards/backwards discrimination of English sentences by ML, MAP and VB",
			Experiments: []string{AliceID, AliceGridID}},
	)
}
