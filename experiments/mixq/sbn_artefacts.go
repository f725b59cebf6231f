package mixq

import "github.com/vbworkbench/vbw/experiments"

// The figures of Lawrence (2000) §2.5.1 that mixq/sbn-random and
// mixq/sbn-span reproduce, by the lines of their captions in
// ../shared/seeds/001_7df1fb81bc835124.txt (targets other-seeds.md §7 P5).
func init() {
	experiments.AddArtefacts(experiments.Lawrence,
		experiments.Artefact{Label: "Figure 2.4", Line: 1132, Caption: "histograms of the relative error of the bound for mixtures of 1-5 components and the Markov-chain q",
			Experiments: []string{SBNRandomID}, Judged: "mean field, mixtures of 1-5 components and the Markov-chain q on random 2-4-6 nets at span 1: bounds below the exact ln P(V), the 5-component reduction of the mean error, the Markov chain against two components"},
		experiments.Artefact{Label: "Figure 2.5", Line: 1135, Caption: "mean percentage relative error against the number of mixture components",
			Experiments: []string{SBNRandomID}},
		experiments.Artefact{Label: "Figure 2.6", Line: 1138, Caption: "mean percentage relative error against the span W of the weights: mean field, Markov chain, two-component mixture",
			Experiments: []string{SBNSpanID}, Judged: "mean field, the Markov-chain q and the two-component mixture at W = 0.5, 1, ..., 4"},
	)
}
