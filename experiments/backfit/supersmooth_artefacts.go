package backfit

import "github.com/vbworkbench/vbw/experiments"

// The figure of D'Souza (2004) §3.3 that backfit/supersmooth reproduces,
// by the line of its caption in ../shared/seeds/003_a56118dfa4fca769.txt
// (targets other-seeds.md §4.2).
func init() {
	experiments.AddArtefacts(experiments.DSouza,
		experiments.Artefact{Label: "Figure 3.19", Line: 1227, Caption: "Bayesian supersmoothing against LWR with a global LOO bandwidth: fits and E[h] at each query on three data sets",
			Experiments: []string{SupersmoothID},
			Judged:      "the bandwidth's range and direction, the errors against the true function of (a) and of our stand-in (b), and the leave-one-out error on Old Faithful, over every noise draw",
			NotAttempted: "the text's own data set (b) (\"a step function with a linear trail-off, and a suddenly noisy section\", L1207, no formula): a stand-in of ours (configs/backfit/supersmooth.toml); " +
				"the comparison with Hastie & Tibshirani's published fits of Old Faithful (L1209): not in the seeds"},
	)
}
