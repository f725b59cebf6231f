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
		experiments.Artefact{Label: "Figure 1.2", Line: 244, Caption: "MSE, log evidence and LOO-CV of three regression models", Experiments: []string{LinregID},
			Judged:       "the order each score picks among 1, 2 and 6 (MSE the largest, the evidence and LOO-CV order 2), over 100 data sets of a quadratic",
			NotAttempted: "D'Souza's scores (MSE 44.85, 15.55, 7.92; log evidence 100.25, 104.38, 59.91; LOO-CV 78.05, 25.84, 901.06, L240-L242): his data are not described (targets §4.2); dsouza.csv holds ours"},
		experiments.Artefact{Label: "Figure 3.2", Line: 755, Caption: "F of one and two Gaussians against the separation of two clusters", Experiments: []string{DSouzaID},
			Judged:       "the one-Gaussian evidence falling, the two-Gaussian fit collapsing to one with a lower F, and the crossover (L762-L765)",
			NotAttempted: "the two-Gaussian evidence \"essentially constant\" after the crossover (L763): in dsouza_fig3_2.csv, not judged"},
	)
}
