package backfit

import "github.com/vbworkbench/vbw/experiments"

// The figures of D'Souza (2004) section 3.2.2 that backfit/forgetting
// reproduces, by the lines of their captions in
// ../shared/seeds/003_a56118dfa4fca769.txt (targets §4.2, §7 P6).
func init() {
	experiments.AddArtefacts(experiments.DSouza,
		experiments.Artefact{Label: "Figure 3.13", Line: 993, Caption: "the drifting regression weight and the estimates of λ by vkS and vkF (ψ_y = 10⁴)", Experiments: []string{ForgettingID},
			Judged:       "vkF's ⟨λ⟩ below vkS's (L1013) on more than half of the data sets at each noise level",
			NotAttempted: "the text's drift path, shown only in panel (a): ours is stated in configs/backfit/forgetting.toml"},
		experiments.Artefact{Label: "Figure 3.14", Line: 1017, Caption: "MSE of the estimated w for vkS, vkF and RLS at ψ_y = 10², 10³, 10⁴", Experiments: []string{ForgettingID},
			Judged: "vkS's median MSE against vkF's and RLS's at each noise level, and one-sided sign tests over the 50 data sets (L1013, L1017)"},
		experiments.Artefact{Label: "Figure 3.16", Line: 1038, Caption: "effect of increasing window size on the estimation error", Experiments: []string{ForgettingID},
			Judged: "vkS's median MSE falling from the smallest window to the largest and its last gain below 10 % (L1040, L1046)"},
		experiments.Artefact{Label: "Figure 3.17", Line: 1044, Caption: "the ratio of smoothed to filtered precision φ_n/ζ_n back from the last step", Experiments: []string{ForgettingID},
			Judged: "the ratio 1 at the last step, and the horizon over which it settles longer for smaller ψ_y and for larger λ (L1048-L1050)"},
	)
}
