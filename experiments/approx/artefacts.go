package approx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vbworkbench/vbw/experiments"
)

// artefactsText lists the figures and tables of the four companion
// documents that the gallery reproduces: a "## document" line, then a
// line "label | caption line | experiment | what it shows" per artefact,
// the line counted in the document's seed file (targets other-seeds.md
// §1-§4). Each claim names its artefact after the document ("PRML Figure
// 10.3"); the other artefacts of these documents belong to other packages.
// Turner & Sahani's Figures 1.2 and 1.3, which approx/bimodal and
// approx/factorised also draw, are declared with the paper's other figures
// in experiments/vembias.
const artefactsText = `
## bishop2006
Figure 10.1 | 45 | approx/onedim | Laplace and the KL(q‖p) Gaussian on p ∝ exp(−z²/2)σ(20z+4)
Figure 10.2 | 134 | approx/factorised | factorised q of a correlated Gaussian under KL(q‖p) and KL(p‖q)
Figure 10.3 | 158 | approx/bimodal | one Gaussian fitted to a bimodal mixture under both KLs
Figure 10.4 | 234 | approx/univariate-gaussian | q(μ)q(τ) for a univariate Gaussian against the exact posterior
Figure 10.13 | 1022 | approx/logistic-separable | VB logistic regression on separable 2-D data: predictive contours and posterior draws
Figure 10.14 | 1194 | approx/onedim | EP against VB and Laplace on the density of Fig. 10.1
Figure 10.16 | 1335 | approx/clutter | EP's site approximations on the 1-D clutter problem
Figure 10.17 | 1353 | approx/clutter | EP, VB and Laplace on the clutter problem: errors against iterations and cost
## lawrence2000
Figure 1.9 | 482 | approx/factorised | the asymmetry of KL: spherical fits of a correlated Gaussian
Figure 1.12 | 578 | approx/onedim | Laplace on a sub-Gaussian and a skewed density
Figure 1.13 | 629 | approx/onedim | the variational Gaussian on the densities of Fig. 1.12
Table 3.1 | 1475 | approx/pima | classification rates on Pima and crabs (we reproduce the Pima test errors of logistic regression)
Figure 5.6 | 2175 | approx/factorised | a mixture of two diagonal Gaussians fitted to a correlated Gaussian
## dsouza2004
Figure 2.5 | 646 | approx/factorised | the factorised approximation as the correlation grows
`

func init() {
	docs := map[string]experiments.Document{}
	for _, d := range []experiments.Document{experiments.PRML, experiments.Lawrence, experiments.DSouza} {
		docs[d.ID] = d
	}
	for doc, as := range parseArtefacts(artefactsText) {
		d, ok := docs[doc]
		if !ok {
			panic("approx: artefacts of unknown document " + doc)
		}
		experiments.AddArtefacts(d, as...)
	}
}

// parseArtefacts reads the table by document ID; it panics on a malformed
// line (the table is a constant of the package, so a test run finds it).
func parseArtefacts(text string) map[string][]experiments.Artefact {
	out := map[string][]experiments.Artefact{}
	doc := ""
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if id, ok := strings.CutPrefix(line, "## "); ok {
			doc = id
			continue
		}
		f := strings.SplitN(line, " | ", 4)
		n, err := strconv.Atoi(f[min(1, len(f)-1)])
		if len(f) != 4 || err != nil || doc == "" {
			panic(fmt.Sprintf("approx: artefacts line %q: want label | line | experiment | caption after a ## document line", line))
		}
		out[doc] = append(out[doc], experiments.Artefact{Label: f[0], Line: n, Experiments: []string{f[2]}, Caption: f[3]})
	}
	return out
}
