package approx

import (
	"fmt"
	"strings"

	"github.com/vbworkbench/vbw/results"
)

// criteriaText is the gallery's table of acceptance criteria, one per
// claim the texts make about its figures: a line "id | target | text"
// per criterion (the target as results.Target renders it), "#" lines
// naming the figure and the lines of the text it comes from.
const criteriaText = `
# PRML Fig. 10.1 (L45): Laplace against the KL(q‖p) Gaussian.
fig10.1-vb-mean-nearer | > 0 | the KL(q‖p) Gaussian's mean is nearer the exact mean than Laplace's (|error of Laplace| − |error of VB|)
fig10.1-vb-klqp-below-laplace | > 0 | KL(q‖p) of the VB Gaussian is below Laplace's (difference Laplace − VB, nats)
# PRML Fig. 10.14 (L1194): EP is broader than VB.
fig10.14-ep-broader | > 0 | the EP Gaussian is broader than the VB one (variance of EP − variance of VB)
fig10.14-ep-moments | <= 1e-7 | with one non-Gaussian factor EP's q has the exact mean and variance (largest absolute difference)
fig10.14-ep-klpq-below-vb | > 0 | KL(p‖q) of EP is below VB's (difference VB − EP, nats)
# Lawrence Figs 1.12, 1.13 (L578, L629): Laplace misses the mass, VB follows it.
fig1.12a-laplace-overestimates-tails | > 1 | sub-Gaussian density: Laplace's variance over the exact variance
fig1.12b-laplace-ignores-left | > 0 | skewed density: Laplace's mean (the mode) lies right of the exact mean (difference)
fig1.13-vb-follows-mass | > 0 | the VB Gaussian covers the mass better than Laplace: KL(p‖q) of Laplace − KL(p‖q) of VB, nats
# PRML Fig. 10.2 (L98-150): factorised q under both KLs.
fig10.2a-mean-exact | <= 1e-6 | the mean-field fit (PRML eqs. 10.12-10.13, run to convergence) has the exact mean (largest absolute error)
fig10.2a-precision-matched | <= 1e-9 | the mean-field precisions equal the diagonal of p's precision (T&S L137; largest relative error)
fig10.2a-compact | < 1 | KL(q‖p) factorised q is too compact: largest ratio of its variance to p's marginal variance
fig10.2a-bound-monotone | = 0 | the mean-field bound F = −KL(q‖p) never decreased (decreases counted)
fig10.2b-marginals | <= 1e-7 | the KL(p‖q) factorised q has p's marginals (eq. 10.17): largest difference from the variances by quadrature
# Lawrence Fig. 1.9 (L482-490) and D'Souza Fig. 2.5 (L646-662).
fig1.9-klqp-compact | > 0 | spherical KL(q‖p) fit: H[p] − H[q] (nats; q too compact)
fig1.9-klpq-broad | > 0 | spherical KL(p‖q) fit: H[q] − H[p] (nats; q too broad)
fig2.5-compact | = 0 | correlated panels where the factorised KL(q‖p) fit is not more compact than p (entropy)
fig2.5-worse-with-correlation | = 0 | steps of the correlation sweep at which KL(q‖p) of the factorised fit did not grow
# T&S Fig. 1.3 (L141-181): mean field over time.
tns1.3-interior-variance | <= 1e-9 | mean-field marginal variance of an interior time step against (1 − λ²)/(1 + λ²) (largest absolute error over λ)
tns1.3-underestimates | < 1 | largest mean-field marginal variance of the chain (the true marginal variance is 1)
# Lawrence Fig. 5.6 (L2172-2177): two diagonal components.
fig5.6-separated | > 2 | distance between the two components' means over the largest component standard deviation (widely separated)
fig5.6-narrow | < 1 | largest component standard deviation over p's marginal standard deviation (narrow components)
fig5.6-inside | < 1 | largest Mahalanobis distance under p of a component mean (the components sit within p)
fig5.6-mixture-better | > 0 | KL(q‖p) of the factorised fit − KL(q‖p) of the two-component mixture (nats)
# PRML Fig. 10.3 (L158-162): one Gaussian to two modes.
fig10.3a-broad | > 1 | KL(p‖q) Gaussian (moment matching): its variance along the line of the modes over a component's (it averages the modes)
fig10.3a-klpq-best | > 0 | KL(p‖q) of the VB fits − KL(p‖q) of moment matching, smaller of the two (nats)
fig10.3bc-mode-seeking | < 0.1 | KL(q‖p) fits from each mode: largest distance of a fit's mean from its mode over the separation
fig10.3bc-two-minima | > 0.5 | distance between the means of the two KL(q‖p) local minima over the separation
# T&S Fig. 1.2 (L112-124): compactness is not universal.
tns1.2-exact-identical | <= 1e-8 | KL(q‖p) of the fit when both components coincide (Δ = 0, ratio 1): the mixture is a Gaussian
tns1.2-broader-mode | = 0 | panels at the largest separation with ratio > 1 whose fit is not nearer the broader component's mean
tns1.2-compact-separated | = 0 | panels at the largest separation where H[q] ≥ H[p]
tns1.2-entropy-exceeds | >= 1 | panels where the fit's entropy exceeds the mixture's (T&S: in some intermediate cases)
# PRML Fig. 10.4 and eq. (10.33) (L178-256).
fig10.4-bound-monotone | = 0 | the VB bound never decreased (vb.Run's check; decreases counted)
fig10.4-gap-is-kl | <= 1e-9 | |ln p(x) − F − KL(q‖p(μ,τ|x))|, the KL from the two densities in closed form (PRML eq. 10.2)
fig10.4-kl-quadrature | <= 1e-6 | |KL(q‖p) by quadrature − KL in closed form| at convergence
fig10.4-bound-below-evidence | > 0 | ln p(x) − F at convergence (nats; a lower bound)
eq10.33-unbiased | <= 1e-10 | under μ₀ = a₀ = b₀ = λ₀ = 0, relative error of 1/E[τ] against Σ(x − x̄)²/(N − 1) (eq. 10.33)
# PRML Figs 10.16, 10.17 (L1335-1353): the clutter problem.
fig10.16-negative-site | = 1 | EP ends with a site of negative precision on the drawn data set, q proper (1 = yes)
fig10.17-ep-beats-vb-mean | > 0 | at VB's cost at convergence: VB's median error of the posterior mean − EP's (EP more accurate for equal cost)
fig10.17-ep-beats-vb-lnp | > 0 | at VB's cost at convergence: VB's median error of ln p(D) − EP's (nats)
fig10.17-ep-beats-laplace-mean | > 0 | at VB's cost at convergence: Laplace's median error of the posterior mean − EP's
fig10.17-vb-bound-below | = 0 | data sets in which VB's bound exceeds the exact ln p(D) beyond the quadrature's tolerance
fig10.17-vb-monotone | = 0 | VB runs whose bound decreased (vb.Run's check)
# Lawrence Table 3.1 (L1436-1476) and PRML §10.6 on Pima.
table3.1-ripley-66 | in [62, 70] | test errors of 332, within 4 of Ripley's logistic regression (66, Lawrence L1467)
pima-vb-below-ais | > 0 | ln p(t) by AIS − the VB bound (nats; the bound is below the evidence)
pima-is-ais-agree | <= 3 | |ln p(t) by IS − by AIS| over their combined standard error
pima-vb-monotone | = 0 | VB runs (α fixed, and q(w)q(α)) whose JJ bound decreased (vb.Run's check)
# PRML Fig. 10.13 (L1022): VB logistic regression on separable data.
fig10.13-separates | = 0 | training points on the wrong side of the VB mean's boundary (the data are separable)
fig10.13-midway | > 0.5 | distance from the boundary to the nearer class's nearest point over the farther's (1 = exactly mid-way)
fig10.13-splay | > 1 | width of the band 0.25 < p(t = 1 | x) < 0.75 across the boundary 3 units along it from the data (smaller of the two sides) over its width at the data
fig10.13-vb-monotone | = 0 | the JJ bound decreased during the VB run (vb.Run's check; 1 = yes)
`

// criteria is criteriaText parsed; each experiment judges the criteria
// whose IDs begin with its figures' prefixes (pick).
var criteria = parseCriteria(criteriaText)

// parseCriteria reads the table; it panics on a malformed line (the table
// is a constant of the package, so a test run finds it).
func parseCriteria(text string) results.Criteria {
	var out results.Criteria
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, " | ", 3)
		if len(f) != 3 {
			panic(fmt.Sprintf("approx: criteria line %q: want id | target | text", line))
		}
		t, err := results.ParseTarget(f[1])
		if err != nil {
			panic("approx: criteria line " + f[0] + ": " + err.Error())
		}
		out = append(out, results.Criterion{ID: f[0], Text: f[2], Target: t})
	}
	if err := out.Validate(); err != nil {
		panic("approx: " + err.Error())
	}
	return out
}

// pick returns the criteria whose IDs begin with one of the prefixes.
func pick(prefixes ...string) results.Criteria {
	var out results.Criteria
	for _, c := range criteria {
		for _, p := range prefixes {
			if strings.HasPrefix(c.ID, p) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// oneDimCriteria are the claims of PRML Figs 10.1, 10.14 and Lawrence Figs 1.12, 1.13 (approx/onedim).
var oneDimCriteria = pick("fig10.1-", "fig10.14-", "fig1.12", "fig1.13-")

// factorisedCriteria are the claims of PRML Fig 10.2, Lawrence Figs 1.9, 5.6, D'Souza Fig 2.5 and T&S Fig 1.3 (approx/factorised).
var factorisedCriteria = pick("fig10.2", "fig1.9-", "fig2.5-", "tns1.3-", "fig5.6-")

// bimodalCriteria are the claims of PRML Fig 10.3 and T&S Fig 1.2 (approx/bimodal).
var bimodalCriteria = pick("fig10.3", "tns1.2-")

// univariateCriteria are the claims of PRML Fig 10.4 and eq. (10.33) (approx/univariate-gaussian).
var univariateCriteria = pick("fig10.4-", "eq10.33-")

// separableCriteria are the claims of PRML Fig. 10.13 (approx/logistic-separable).
var separableCriteria = pick("fig10.13-")

// pimaCriteria are the claims on Pima (approx/pima).
var pimaCriteria = pick("table3.1-", "pima-")

// clutterCriteria are the claims of PRML Figs 10.16 and 10.17 (approx/clutter).
var clutterCriteria = pick("fig10.16-", "fig10.17-")
