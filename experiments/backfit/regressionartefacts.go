package backfit

import "github.com/vbworkbench/vbw/experiments"

// The figures and tables of D'Souza (2004) that backfit/regression covers,
// by the lines of their captions in ../shared/seeds/003_a56118dfa4fca769.txt
// (targets §4.2, §7 P6).
func init() {
	experiments.AddArtefacts(experiments.DSouza,
		experiments.Artefact{Label: "Figure 3.15", Line: 1028, Caption: "Bayesian forgetting rates with Bayesian backfitting on a 105-dimensional regression", Experiments: []string{SequentialID, RegressionID},
			Judged:       "the text's sequential protocol (backfit/sequential, dsouza_fig3_15): 5000 pairs predicted one at a time in the four scenarios (noisy copies or combinations; fixed or drifting regression vector), batch regression, RLS with 1 − λ = 10⁻⁸ and 2·10⁻² and vkS with backfitting (drift.Factorised), 50 runs each; beside it a batch stand-in of the stationary half (backfit/regression, dsouza_fig3_15a): OLS, probabilistic and Bayesian backfitting, ARD's kept and pruned inputs against N",
			NotAttempted: "the redundant inputs as exact copies or linear combinations: they make the design singular, so ours carry noise; the drift path, shown only in the figure, is ours (a random walk; configs/backfit/sequential.toml)"},
		experiments.Artefact{Label: "Figure 4.8", Line: 1688, Caption: "the logistic, its Jaakkola-Jordan bounds at ξ = 3 and 7, and a toy classification", Experiments: []string{RegressionID}},
		experiments.Artefact{Label: "Table 4.1", Line: 1815, Caption: "Bayesian backfitting (ARD) against PLS on the neuron-muscle data", Experiments: []string{RegressionID},
			Judged:       "a synthetic stand-in with many irrelevant inputs (backfit/regression at judge_size, table4_1_standin.csv): the fraction of the relevant inputs ARD keeps (the text's neuron match) and its nMSE beside OLS and the shared α",
			NotAttempted: "the neuron-muscle recordings (2400 points, 71 neurons, 11 EMG channels; neuron match 93.6% against PLS's 18%, nMSE 0.8446 against 1.77, L1811-1815) are private; PLS is not run"},
	)
}
