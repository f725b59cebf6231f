// Package approx holds the approximations that the companion documents
// weigh variational Bayes against, side by side on densities whose exact
// quantities are known: Laplace's method, the Gaussian that minimises
// KL(q‖p) (variational Bayes's divergence) and the one that minimises
// KL(p‖q) (moment matching), factorised and spherical fits of a
// correlated Gaussian, a mixture q, expectation propagation, univariate
// Gaussian VB with its exact posterior, and Bayesian logistic regression
// with the Jaakkola–Jordan bound.
//
// A Density is ln p̃ on a box in one or two dimensions; Exact gives its
// normaliser, mean, covariance and entropy by adaptive Gauss–Kronrod
// quadrature (core/numeric), and KLqp, KLpq the two divergences of any
// normalised Q (a Normal or a Mixture). The fits take ln p̃ alone.
//
// Seeds: Bishop PRML ch. 10 is ../shared/seeds/002_cc78f0884d114115.txt,
// Lawrence's thesis 001_7df1fb81bc835124.txt, D'Souza's
// 003_a56118dfa4fca769.txt, Turner & Sahani 004_2d1c8b7c1e312d07.txt;
// "targets §n" is ../shared/targets/other-seeds.md.
//
// # Map to the text
//
//	Density.Exact         ln Z, E[x], Cov[x], H[p] by quadrature: the exact curves and
//	                      the "exact" rows of every gallery table (targets §7 P3)
//	KLqp, KLpq, Compare   KL(q‖p) (PRML eq. (10.4)) and KL(p‖q) (eq. (10.16)) by quadrature
//	Exact.Moments         the KL(p‖q) minimiser, moment matching (PRML eqs. (10.17)–(10.19))
//	Laplace               mode (Newton's method; gonum's Newton or BFGS otherwise) and
//	                      −∇∇ ln p̃ (PRML eqs. (4.133)–(4.135); Lawrence L560–578,
//	                      Figs 1.12–1.13; PRML Figs 10.1, 10.14)
//	FitKLqp               the Gaussian minimising KL(q‖p) (PRML eq. (10.3), Fig. 10.1;
//	                      Lawrence Figs 1.12–1.13; T&S eq. (1.16), Fig. 1.2; PRML Fig. 10.3)
//	FitMixtureKLqp        two diagonal Gaussians fitted by KL(q‖p) (Lawrence L2172–2177, Fig. 5.6)
//	FactorisedKLqp,       the factorised fits under both KLs (PRML eqs. (10.12)–(10.17),
//	FactorisedKLpq        Fig. 10.2; D'Souza Fig. 2.5; T&S eq. (1.18) corrected, targets §1.4)
//	SphericalKLqp, -KLpq  the spherical fits of Lawrence Fig. 1.9 (L482–490)
//	MeanField             the coordinate updates (10.12)–(10.13) as a vb.Model (T&S eqs.
//	                      (1.19)–(1.22), Fig. 1.3: (1 − λ²)/(1 + λ²) in a chain)
//	EP, ProjectedFactor   expectation propagation with site updates and damping (PRML
//	                      eqs. (10.184)–(10.207)); sites may have negative precision
//	                      (Fig. 10.16, L1335–1345); a projected factor's tilted moments
//	                      by Gauss–Hermite rules checked against each other, adaptive
//	                      quadrature where they disagree
//	EP.LogEvidence        PRML eq. (10.208) in natural parameters
//	FamilyEP, Family, SiteFactor   EP with sites in any exponential family (Minka 2001
//	                      §3.3); LogEvidence eq. (10.208) with A the family's log-partition
//	Dirichlets, MonomialMixture   products of Dirichlet rows; a point's likelihood summed
//	                      over hidden configurations, projected by its expected logs
//	                      (Minka & Lafferty 2002; dist.DirichletFromMeanLogTo)
//	Bernoullis            independent binary variables (fully factorised EP over latent units)
//	GaussVB               PRML eqs. (10.21)–(10.30), Fig. 10.4, with a_N = a₀ + (N+1)/2
//	                      for the conjugate prior; eq. (10.33) under the improper prior
//	GaussVB.ExactPosterior, KLToPosterior   the Normal–Gamma posterior and evidence
//	                      (PRML Exercise 2.44): the exact KL and gap of metric vb_kl_exact
//	JJLambda, JJLogSigmoidBound   λ(ξ) = (σ(ξ) − ½)/(2ξ) (eq. (10.150), erratum targets
//	                      §2.3) and the bound (10.144); D'Souza L1702 (tanh form)
//	Logistic              VB logistic regression (PRML eqs. (10.156)–(10.164)) and the
//	                      hyperprior q(w)q(α) (eqs. (10.165)–(10.183), errata §2.3)
//	Logistic.Predict      the probit approximation of the predictive (eqs. (4.153)–(4.155))
//	LogisticJoint         ln p(t, w) with its gradient and Hessian (PRML eqs. (4.142)–(4.143)),
//	                      Laplace's target for logistic regression
//	ClutterFactor         the clutter problem's factor (PRML eq. (10.209)) with closed-form
//	                      tilted moments for an isotropic cavity (eqs. (10.212)–(10.215))
//	ClutterProblem.Exact  the clutter posterior's ln p(D) and mean by quadrature (PRML
//	                      §10.7.1, L1271–1279), the prior's mass in closed form
//	ClutterEP             EP with isotropic sites (eqs. (10.211)–(10.224)), Figs 10.16–10.17
//	ClutterVB             mean-field q(θ)q(z) as a vb.Model (eq. (10.9) on (10.210)), Fig. 10.17
//	ClutterLaplace        Newton to a mode from a start and eq. (4.135), Fig. 10.17
//	ClutterProblem.ExactMoments   Exact with Var[θ | D] by quadrature (the atlas's gold)
//	ClutterProblem.CheesemanStutz, CompletedLogEvidence   Cheeseman–Stutz (Beal (2003)
//	                      eqs. (6.27)–(6.31)) with the indicators z as the hidden variables
//	                      (the atlas's CS cell; exact at w = 0)
//	LogisticTarget, ClutterTarget   ln p(θ, D) split into prior and likelihood with
//	                      gradients: the AIS/HMC and IS targets of the two models (PRML
//	                      eqs. (4.142), (10.209)–(10.210)), by method set (atlas rows)
//	                      (HighestDataPoint: a start)
//	Flops fields          operations counted per formula (TranscendentalFlops per exp/log/sqrt),
//	                      the cost axis of Fig. 10.17
//
// Sites, factors and the Laplace Func are generic: the clutter problem
// (PRML §10.7.1) is EP over ClutterFactors, logistic regression on Pima EP
// over a ProjectedFactor per data point and Laplace on LogisticJoint.
package approx
