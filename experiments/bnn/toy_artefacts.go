package bnn

import "github.com/vbworkbench/vbw/experiments"

// The toy's figures of Lawrence (2000), by the lines of their captions in
// the seed text.
func init() {
	experiments.AddArtefacts(experiments.Lawrence,
		experiments.Artefact{Label: "Figure 5.3", Line: 2154, Experiments: []string{ToyID}, Caption: "the toy: mixture, Laplace, diagonal and HMC posteriors' draws, means and error bars",
			Judged: "the diagonal posterior's Var f below HMC's away from the data (d), the components' spread (a), the Laplace expectation off scale (c); the draws are drawn, not judged"},
		experiments.Artefact{Label: "Figure 5.4", Line: 2157, Experiments: []string{ToyID}, Caption: "the log Laplace approximation against the log posterior along the covariance's eigenvectors"},
		experiments.Artefact{Label: "Figure 5.5", Line: 2168, Experiments: []string{ToyID}, Caption: "the log mixture approximation against the log posterior between pairs of component means, and the mutual-information check (L2170)"},
	)
}
