package approx

import "github.com/vbworkbench/vbw/results"

// The gallery's criteria, one table per experiment. A claim is what a text
// says of its figure, with its words and line in the text's seed file
// (the document of the claim's artefact; another document's line is
// prefixed with its name); a sanity check is a property of any valid
// computation, whatever the text says: a bound that never decreases, F
// below the evidence, an optimiser at least as good as a point of its own
// family that it starts from or that is the optimum, two estimators of one
// number agreeing, q exact where the target is in its family. An extension
// is a claim of ours beside the text's.

// oneDimCriteria are the criteria of approx/onedim: PRML Figs 10.1 (L45)
// and 10.14 (L1194), Lawrence Figs 1.12 (L578) and 1.13 (L629).
var oneDimCriteria = results.Criteria{
	results.Criterion{ID: "fig10.1-vb-mean-nearer", Text: "the KL(q‖p) Gaussian's mean is nearer the exact mean than Laplace's (|error of Laplace| − |error of VB|)", Target: results.Above(0)}.
		AsClaim("Laplace is a local Gaussian at the mode, VB a global criterion: the variational Gaussian sits on the mass (Fig. 10.1)", "L17, L45"),
	results.Criterion{ID: "fig10.1-vb-klqp-below-laplace", Text: "KL(q‖p) of the VB Gaussian is below Laplace's (difference Laplace − VB, nats)", Target: results.Above(0)}.AsSanity(),
	results.Criterion{ID: "fig10.14-ep-broader", Text: "the EP Gaussian is broader than the VB one (variance of EP − variance of VB)", Target: results.Above(0)}.
		AsClaim("\"the EP distribution is broader than that variational inference\"", "L1194"),
	results.Criterion{ID: "fig10.14-ep-moments", Text: "with one non-Gaussian factor EP's q has the exact mean and variance (largest absolute difference)", Target: results.AtMost(1e-7)}.AsSanity(),
	results.Criterion{ID: "fig10.14-ep-klpq-below-vb", Text: "KL(p‖q) of EP is below VB's (difference VB − EP, nats)", Target: results.Above(0)}.AsSanity(),
	results.Criterion{ID: "fig1.12a-laplace-overestimates-tails", Text: "sub-Gaussian density: Laplace's variance over the exact variance", Target: results.Above(1)}.
		AsClaim("(a) \"the approximation over-estimates the tails of the distribution\"", "L578"),
	results.Criterion{ID: "fig1.12b-laplace-ignores-left", Text: "skewed density: Laplace's mean (the mode) lies right of the exact mean (difference)", Target: results.Above(0)}.
		AsClaim("(b) \"it is unaffected by the region of probability to the left of the mode\"", "L578"),
	results.Criterion{ID: "fig1.13-vb-follows-mass", Text: "the VB Gaussian covers the mass better than Laplace: KL(p‖q) of Laplace − KL(p‖q) of VB, nats", Target: results.Above(0)}.
		AsClaim("the variational Gaussians \"respond to the mass of the true distributions far better\" than Laplace's", "L626, L629"),
}

// factorisedCriteria are the criteria of approx/factorised: PRML Fig 10.2
// (L126-148), Lawrence Figs 1.9 (L482) and 5.6 (L2177), D'Souza Fig 2.5
// (L646) and T&S Fig 1.3 (L181).
var factorisedCriteria = results.Criteria{
	results.Criterion{ID: "fig10.2a-mean-exact", Text: "the mean-field fit (PRML eqs. 10.12-10.13, run to convergence) has the exact mean (largest absolute error)", Target: results.AtMost(1e-6)}.
		AsClaim("(a) \"the mean is correctly captured\"", "L126"),
	results.Criterion{ID: "fig10.2a-precision-matched", Text: "the mean-field precisions equal the diagonal of p's precision (T&S L137; largest relative error)", Target: results.AtMost(1e-9)}.
		AsClaim("(a) q_j = N(m_j, Λ_jj⁻¹): the variance is controlled by the direction of smallest variance of p", "L112-L120, L126"),
	results.Criterion{ID: "fig10.2a-compact", Text: "KL(q‖p) factorised q is too compact: largest ratio of its variance to p's marginal variance", Target: results.Below(1)}.
		AsClaim("(a) the variance along the orthogonal direction \"significantly under-estimated\": too compact", "L126"),
	results.Criterion{ID: "fig10.2a-bound-monotone", Text: "the mean-field bound F = −KL(q‖p) never decreased (decreases counted)", Target: results.Equal(0)}.AsSanity(),
	results.Criterion{ID: "fig10.2b-marginals", Text: "the KL(p‖q) factorised q has p's marginals (eq. 10.17): largest difference from the variances by quadrature", Target: results.AtMost(1e-7)}.
		AsClaim("(b) q_j* = p(Z_j), the marginals (eq. 10.17)", "L144-L148"),
	results.Criterion{ID: "fig1.9-klqp-compact", Text: "spherical KL(q‖p) fit: H[p] − H[q] (nats; q too compact)", Target: results.Above(0)}.
		AsClaim("(b) \"the approximation has low probability where the true distribution has low value\"", "L482, L490"),
	results.Criterion{ID: "fig1.9-klpq-broad", Text: "spherical KL(p‖q) fit: H[q] − H[p] (nats; q too broad)", Target: results.Above(0)}.
		AsClaim("(a) \"the approximation has high probability where the true distribution has high probability\"", "L482, L490"),
	results.Criterion{ID: "fig2.5-compact", Text: "correlated panels where the factorised KL(q‖p) fit is not more compact than p (entropy)", Target: results.Equal(0)}.
		AsClaim("the approximation \"tends to be more compact than the true distribution\"", "L646, L654"),
	results.Criterion{ID: "fig2.5-worse-with-correlation", Text: "steps of the correlation sweep at which KL(q‖p) of the factorised fit did not grow", Target: results.Equal(0)}.
		AsClaim("\"the approximation is worsened as the assumption is more incorrect\"", "L646"),
	results.Criterion{ID: "tns1.3-interior-variance", Text: "mean-field marginal variance of an interior time step against (1 − λ²)/(1 + λ²) (largest absolute error over λ)", Target: results.AtMost(1e-9)}.
		AsClaim("the mean-field marginal variance is (1 − λ²)/(1 + λ²)", "L181"),
	results.Criterion{ID: "tns1.3-underestimates", Text: "largest mean-field marginal variance of the chain (the true marginal variance is 1)", Target: results.Below(1)}.
		AsClaim("the true marginal variance is 1; the mean-field one \"tiny for typical values of λ\"", "L181"),
	results.Criterion{ID: "fig5.6-separated", Text: "distance between the two components' means over the largest component standard deviation (widely separated)", Target: results.Above(2)}.
		AsClaim("\"two widely separated components\"", "L2177"),
	results.Criterion{ID: "fig5.6-narrow", Text: "largest component standard deviation over p's marginal standard deviation (narrow components)", Target: results.Below(1)}.
		AsClaim("\"the narrow widths associated with the components\"", "L2177"),
	results.Criterion{ID: "fig5.6-inside", Text: "largest Mahalanobis distance under p of a component mean (the components sit within p)", Target: results.Below(1)}.
		AsClaim("components \"which sit within the correlated Gaussian\"", "L2177"),
	results.Criterion{ID: "fig5.6-mixture-better", Text: "KL(q‖p) of the factorised fit − KL(q‖p) of the two-component mixture (nats)", Target: results.Above(0)}.AsExtension(),
}

// bimodalCriteria are the criteria of approx/bimodal: PRML Fig 10.3
// (L158-162) and T&S Fig 1.2 (L119-124).
var bimodalCriteria = results.Criteria{
	results.Criterion{ID: "fig10.3a-broad", Text: "KL(p‖q) Gaussian (moment matching): its variance along the line of the modes over a component's (it averages the modes)", Target: results.Above(1)}.
		AsClaim("(a) minimising KL(p‖q), \"the resulting approximations would average across all of the modes\"", "L158, L162"),
	results.Criterion{ID: "fig10.3a-klpq-best", Text: "KL(p‖q) of the VB fits − KL(p‖q) of moment matching, smaller of the two (nats)", Target: results.Above(0)}.AsSanity(),
	results.Criterion{ID: "fig10.3bc-mode-seeking", Text: "KL(q‖p) fits from each mode: largest distance of a fit's mean from its mode over the separation", Target: results.Below(0.1)}.
		AsClaim("(b), (c) minimising KL(q‖p) \"will tend to find one of these modes\"", "L158, L162"),
	results.Criterion{ID: "fig10.3bc-two-minima", Text: "distance between the means of the two KL(q‖p) local minima over the separation", Target: results.Above(0.5)}.
		AsClaim("(c) \"a different local minimum\" of KL(q‖p)", "L158"),
	results.Criterion{ID: "tns1.2-exact-identical", Text: "KL(q‖p) of the fit when both components coincide (Δ = 0, ratio 1): the mixture is a Gaussian", Target: results.AtMost(1e-8)}.AsSanity(),
	results.Criterion{ID: "tns1.2-broader-mode", Text: "panels at the largest separation with ratio > 1 whose fit is not nearer the broader component's mean", Target: results.Equal(0)}.
		AsClaim("with two clearly defined modes (right-hand column) q \"matches the mode with the largest variance\"", "L119"),
	results.Criterion{ID: "tns1.2-compact-separated", Text: "panels at the largest separation where H[q] ≥ H[p]", Target: results.Equal(0)}.
		AsClaim("in these cases (the right-hand column) the entropy of q is less than that of p", "L119-L121"),
	results.Criterion{ID: "tns1.2-entropy-exceeds", Text: "panels where the fit's entropy exceeds the mixture's (T&S: in some intermediate cases)", Target: results.AtLeast(1)}.
		AsClaim("\"in some cases the entropy of the approximation is larger than the true distribution\" (bold panels)", "L121, L124"),
}

// univariateCriteria are the criteria of approx/univariate-gaussian: PRML
// Fig 10.4 (L234) and eq. (10.33) (L252-256).
var univariateCriteria = results.Criteria{
	results.Criterion{ID: "fig10.4-bound-monotone", Text: "the VB bound never decreased (vb.Run's check; decreases counted)", Target: results.Equal(0)}.AsSanity(),
	results.Criterion{ID: "fig10.4-gap-is-kl", Text: "|ln p(x) − F − KL(q‖p(μ,τ|x))|, the KL from the two densities in closed form (PRML eq. 10.2)", Target: results.AtMost(1e-9)}.AsSanity(),
	results.Criterion{ID: "fig10.4-kl-quadrature", Text: "|KL(q‖p) by quadrature − KL in closed form| at convergence", Target: results.AtMost(1e-6)}.AsSanity(),
	results.Criterion{ID: "fig10.4-bound-below-evidence", Text: "ln p(x) − F at convergence (nats; a lower bound)", Target: results.Above(0)}.AsSanity(),
	results.Criterion{ID: "eq10.33-unbiased", Text: "under μ₀ = a₀ = b₀ = λ₀ = 0, relative error of 1/E[τ] against Σ(x − x̄)²/(N − 1) (eq. 10.33)", Target: results.AtMost(1e-10)}.
		AsClaim("1/E[τ] = Σ(xₙ − x̄)²/(N − 1), \"the familiar unbiased estimator\" (eq. 10.33)", "L252, L256"),
}

// separableCriteria are the criteria of approx/logistic-separable: PRML
// Fig. 10.13 (L1022).
var separableCriteria = results.Criteria{
	results.Criterion{ID: "fig10.13-separates", Text: "training points on the wrong side of the VB mean's boundary (the data are separable)", Target: results.Equal(0)}.
		AsClaim("\"the decision boundary lies roughly mid way between the clusters\": it separates them", "L1022"),
	results.Criterion{ID: "fig10.13-midway", Text: "distance from the boundary to the nearer class's nearest point over the farther's (1 = exactly mid-way)", Target: results.Above(0.5)}.
		AsClaim("\"the decision boundary lies roughly mid way between the clusters\"", "L1022"),
	results.Criterion{ID: "fig10.13-splay", Text: "width of the band 0.25 < p(t = 1 | x) < 0.75 across the boundary 3 units along it from the data (smaller of the two sides) over its width at the data", Target: results.Above(1)}.
		AsClaim("\"the contours of the predictive distribution splay out away from the data\"", "L1022"),
	results.Criterion{ID: "fig10.13-vb-monotone", Text: "the JJ bound decreased during the VB run (vb.Run's check; 1 = yes)", Target: results.Equal(0)}.AsSanity(),
}

// pimaCriteria are the criteria of approx/pima: Lawrence Table 3.1
// (L1467) and PRML §10.6 on Pima.
var pimaCriteria = results.Criteria{
	results.Criterion{ID: "table3.1-ripley-66", Text: "test errors of 332, within 4 of Ripley's logistic regression (66, Lawrence L1467)", Target: results.Within(62, 70)}.
		AsClaim("Logistic Regression: 66 errors on the 332 Pima test points", "Table 3.1, L1467"),
	results.Criterion{ID: "pima-vb-below-ais", Text: "ln p(t) by AIS − the VB bound (nats; the bound is below the evidence)", Target: results.Above(0)}.AsSanity(),
	results.Criterion{ID: "pima-is-ais-agree", Text: "|ln p(t) by IS − by AIS| over their combined standard error", Target: results.AtMost(3)}.AsSanity(),
	results.Criterion{ID: "pima-vb-monotone", Text: "VB runs (α fixed, and q(w)q(α)) whose JJ bound decreased (vb.Run's check)", Target: results.Equal(0)}.AsSanity(),
}

// clutterCriteria are the criteria of approx/clutter for config c: PRML
// Figs 10.16 (L1345) and 10.17 (L1353). They are claims of the text in
// one dimension, the targets' reading of Fig. 10.17 (other-seeds.md §7
// P3; Fig. 10.16 is one-dimensional), and claims of ours, extensions, in
// two (clutter-2d.toml).
func clutterCriteria(c *ClutterConfig) results.Criteria {
	cs := results.Criteria{
		results.Criterion{ID: "fig10.16-negative-site", Text: "fraction of data sets (every size) on which EP ends with a site of negative precision (q stays proper: its precision is the inverse of a tilted variance)", Target: results.Above(0)}.
			AsClaim("the factor approximations \"can have infinite or even negative values for the 'variance' parameter v_n\", harmless while q has positive variance", "L1345"),
		results.Criterion{ID: "fig10.17-ep-beats-vb-mean", Text: "at VB's cost at convergence: VB's median error of the posterior mean − EP's (EP more accurate for equal cost)", Target: results.Above(0)}.
			AsClaim("EP's error of the posterior mean below VB's for the same operations (Fig. 10.17, left)", "L1345, L1353"),
		results.Criterion{ID: "fig10.17-ep-beats-vb-lnp", Text: "at VB's cost at convergence: VB's median error of ln p(D) − EP's (nats)", Target: results.Above(0)}.
			AsClaim("EP's error of the evidence below VB's for the same operations (Fig. 10.17, right)", "L1345, L1353"),
		results.Criterion{ID: "fig10.17-ep-beats-laplace-mean", Text: "at VB's cost at convergence: Laplace's median error of the posterior mean − EP's", Target: results.Above(0)}.
			AsClaim("EP's error of the posterior mean below Laplace's for the same operations (Fig. 10.17, left)", "L1345, L1353"),
		results.Criterion{ID: "fig10.17-vb-bound-below", Text: "data sets in which VB's bound exceeds the exact ln p(D) beyond the quadrature's tolerance", Target: results.Equal(0)}.AsSanity(),
		results.Criterion{ID: "fig10.17-vb-monotone", Text: "VB runs whose bound decreased (vb.Run's check)", Target: results.Equal(0)}.AsSanity(),
	}
	if c.Dim != 1 {
		return cs.AsOurs()
	}
	return cs
}
