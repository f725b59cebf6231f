package mixq

import "github.com/vbworkbench/vbw/experiments"

// The linear-threshold-unit experiments of Lawrence's chapter 3 (ltu_
// files). Their claims are judged with Table 3.1's, declared by
// experiments/approx (artefacts.go) with the logistic baselines.
func init() {
	experiments.Add(LTUPimaID, "linear threshold unit networks (zero-temperature SBN mean field, a maximum-margin problem per unit) on Ripley's Pima split: Lawrence Table 3.1's LTU rows",
		DefaultLTUPima, RunLTU, PlotLTU)
	experiments.Add(LTUCrabsID, "linear threshold unit networks on a seeded stratified 80/120 split of the Leptograpsus crabs: Lawrence Table 3.1's LTU rows",
		DefaultLTUCrabs, RunLTU, PlotLTU)
	experiments.AddArtefacts(experiments.Lawrence,
		experiments.Artefact{Label: "Figure 3.6", Line: 1451, Experiments: []string{LTUPimaID}, Caption: "test errors of every network on Pima against H for C = 1, 10, 100: the ten initialisations, their mean and one standard deviation"},
		experiments.Artefact{Label: "Figure 3.7", Line: 1454, Experiments: []string{LTUCrabsID}, Caption: "the same on the crabs"},
	)
}

// The Galland association task (Fig. 4.4) and the digits machine (Figs
// 4.8, 4.9) of chapter 4, with their artefacts.
func init() {
	experiments.Add(GallandID, "Galland's binary association task: deterministic Boltzmann learning with the joint mean field started from zero or from the conditional (Lawrence Fig. 4.4)",
		DefaultGalland, RunGalland, PlotGalland)
	experiments.AddArtefacts(experiments.Lawrence,
		experiments.Artefact{Label: "Figure 4.4", Line: 1731, Experiments: []string{GallandID}, Caption: "learning curves (F_mft and F_obs) of the association task, zero starts against the joint started from the conditional"},
	)
}

func init() {
	experiments.Add(BMDigitsID, "a 74-unit Boltzmann machine learnt on binarised optdigits with mean-field and 10-component mixture joints: the stability of the objective and of the joint (Lawrence Figs 4.8, 4.9)",
		DefaultBMDigits, RunBMDigits, PlotBMDigits)
	experiments.AddArtefacts(experiments.Lawrence,
		experiments.Artefact{Label: "Figure 4.8", Line: 1778, Experiments: []string{BMDigitsID}, Caption: "F_mft and F_mix during learning on the digits"},
		experiments.Artefact{Label: "Figure 4.9", Line: 1792, Experiments: []string{BMDigitsID}, Caption: "the visible means of the joint approximation at each learning step: the mixture's ten components and mean field"},
	)
}
