package bnn

import "github.com/vbworkbench/vbw/experiments"

// Fig. 6.17 of Lawrence (2000), by the line of its caption.
func init() {
	experiments.AddArtefacts(experiments.Lawrence,
		experiments.Artefact{Label: "Figure 6.17", Line: 2680, Experiments: []string{NRDID}, Caption: "hidden nodes kept by node relevance determination against the number of data"},
	)
}
