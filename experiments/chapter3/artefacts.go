package chapter3

import "github.com/vbworkbench/vbw/experiments"

// The figures of chapter 3, by the lines of their captions in the thesis
// (../shared/seeds/000_055f6e591db3cc60.txt), and the experiments whose
// claims cover them (targets ch3-hmm.md §3); and the studies of ours beside
// them (targets §3, optional extensions E3-X1 and E3-X2), whose claims the
// report shows in the thesis's extensions table.
func init() {
	experiments.AddArtefacts(experiments.Thesis,
		experiments.Artefact{Label: "Figure 3.1", Line: 1703, Caption: "the HMM as a graphical model",
			Note: "a diagram of the model: nothing to compute"},
		experiments.Artefact{Label: "Figure 3.2", Line: 2140, Caption: "ML and VB training curves on the synthetic grammar strings",
			Experiments: []string{SyntheticID, SyntheticGrammarID}},
		experiments.Artefact{Label: "Figure 3.3", Line: 2143, Caption: "structure recovered by ML and VB (Hinton diagrams)",
			Experiments: []string{SyntheticID, SyntheticGrammarID}},
		experiments.Artefact{Label: "Figure 3.4", Line: 2178, Caption: "forwards/backwards discrimination of English sentences by ML, MAP and VB",
			Experiments: []string{AliceID, AliceGridID},
			Judged:      "the thesis's claims C1-C8 (targets §E3.3, L2171-L2184) on the medians over the 10 repeats",
			NotAttempted: "ML's own trends in n, k and u0 (L2171: its test log probability is -Inf, scored only floored), " +
				"MAP's near-uniform transitions at large k (L2180), and the k at which MAP and VB begin to decline moving left as u0 grows (L2182)"},
	)
	experiments.AddExtensions(experiments.Thesis,
		experiments.Extension{Label: "the number of states preferred by F, BIC and Cheeseman-Stutz on the thesis's 21 strings",
			Experiments: []string{ModelOrderID}},
		experiments.Extension{Label: "how tight F is for a small VB HMM, against the exact evidence by enumeration and importance sampling",
			Experiments: []string{TightnessID}},
	)
}
