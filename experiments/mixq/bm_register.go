package mixq

import "github.com/vbworkbench/vbw/experiments"

// The Boltzmann-machine experiments of Lawrence's chapter 4 (bm_, kr_
// files), registered in one place, and the artefacts they reproduce. The
// other artefacts of the document are declared by experiments/approx and
// by the other experiments of this package.
func init() {
	experiments.Add(BMExpectationsID, "Boltzmann machines: mixtures of M = 1…10 mean-field distributions against exact ⟨s_i s_j⟩ on random 10-unit networks (Lawrence Fig. 4.2, eqs. 4.16-4.26)",
		DefaultBMExpectations, RunBMExpectations, PlotBMExpectations)
	experiments.Add(KRToyID, "Kappen-Rodriguez toy: Boltzmann learning with exact, mean-field and 2-component mixture expectations, KL to the data (Lawrence Figs 4.5, 4.6)",
		DefaultKRToy, RunKRToy, PlotKRToy)
	experiments.AddArtefacts(experiments.Lawrence,
		experiments.Artefact{Label: "Figure 4.2", Line: 1704, Experiments: []string{BMExpectationsID}, Caption: "histograms of approximate − exact ⟨s_i s_j⟩ for M = 1…10 mixture components on 100 random ten-unit machines, and the mean sum of squares against M"},
		experiments.Artefact{Label: "Figure 4.5", Line: 1748, Experiments: []string{KRToyID}, Caption: "KL between the data and the network during learning, and the weight and biases, for exact, mean-field and mixture learning"},
		experiments.Artefact{Label: "Figure 4.6", Line: 1757, Experiments: []string{KRToyID}, Caption: "a bias parameter and the mean-field parameters during mean-field learning: mode hopping"},
	)
}
