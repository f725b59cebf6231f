package mixq

import "github.com/vbworkbench/vbw/experiments"

// The linear-threshold-unit experiments of Lawrence's chapter 3 (ltu_
// files). Their claims are judged with Table 3.1's, declared by
// experiments/approx (artefacts.go) with the logistic baselines.
func init() {
	experiments.Add(LTUPimaID, "linear threshold unit networks (zero-temperature SBN mean field, a maximum-margin problem per unit) on Ripley's Pima split: Lawrence Table 3.1's LTU rows",
		DefaultLTUPima, RunLTU, nil)
	experiments.Add(LTUCrabsID, "linear threshold unit networks on a seeded stratified 80/120 split of the Leptograpsus crabs: Lawrence Table 3.1's LTU rows",
		DefaultLTUCrabs, RunLTU, nil)
}
