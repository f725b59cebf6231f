package backfit

import "github.com/vbworkbench/vbw/experiments"

// The figure of D'Souza (2004) that backfit/cross reproduces, by the line
// of its caption in ../shared/seeds/003_a56118dfa4fca769.txt.
func init() {
	experiments.AddArtefacts(experiments.DSouza,
		experiments.Artefact{Label: "Figure 3.4", Line: 797, Caption: "mixture of linear experts grown by local splits from 4 to 14 components on 2000 points of the cross function rotated into 15-D",
			Experiments:  []string{CrossID},
			Judged:       "the final number of components against the text's 14 (fraction of data sets in a stated band) and whether the search grows at all; our nMSE beside it",
			NotAttempted: "the fitted surface of Fig. 3.4(b) is drawn (dsouza_fig3_4) but not compared: the text prints it only as a picture"},
	)
}
