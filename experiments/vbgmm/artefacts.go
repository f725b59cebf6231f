package vbgmm

import "github.com/vbworkbench/vbw/experiments"

// The figures of PRML chapter 10 and of D'Souza (2004) that this package
// reproduces, by the lines of their captions in the seeds
// (../shared/seeds/002_cc78f0884d114115.txt, 003_a56118dfa4fca769.txt),
// and the experiments whose claims cover them (targets other-seeds.md §2,
// §4.2, §7 P2 and P4).
func init() {
	experiments.AddArtefacts(experiments.PRML,
		experiments.Artefact{Label: "Figure 10.6", Line: 460, Caption: "VB mixture of K = 6 Gaussians on Old Faithful: components kept, ellipses by iteration", Experiments: []string{Fig106ID}},
		experiments.Artefact{Label: "Figure 10.7", Line: 544, Caption: "the bound (with ln K!) against K on Old Faithful, 100 random starts each", Experiments: []string{Fig107ID}},
		experiments.Artefact{Label: "Figure 10.9", Line: 708, Caption: "the bound against polynomial order for 10 points of a cubic", Experiments: []string{LinregID}},
	)
	experiments.AddArtefacts(experiments.DSouza,
		experiments.Artefact{Label: "Figure 1.2", Line: 244, Caption: "MSE, log evidence and LOO-CV of three regression models", Experiments: []string{LinregID}},
		experiments.Artefact{Label: "Figure 3.2", Line: 755, Caption: "F of one and two Gaussians against the separation of two clusters", Experiments: []string{DSouzaID}},
	)
}
