// Package atlas holds the atlas of issue 36: for every model family of
// core/model and core/approx, the evidence ln p(D) (and, where it applies,
// the posterior mean and variance) of each approximation (VB's bound, BIC,
// Cheeseman-Stutz, Laplace, EP, importance sampling with q as the
// proposal, AIS) set against a gold standard (closed form, quadrature,
// enumeration, or a long AIS run with its standard error stated), and
// against its cost in operations and CPU seconds.
//
// One experiment per row of the grid, registered as atlas/<row> and run by
// configs/atlas/<row>.toml, each in a file named after its row:
//
//	atlas/gmm     the VB Gaussian mixture (core/model/gmm) against exact
//	              enumeration of the assignments; CS by gmm.CheesemanStutz,
//	              Laplace on gmm.Unconstrained, + ln K!; EP by gmm.NewEP
//	              (Dirichlet × Normal-Wishart sites) (gmm.go)
//	atlas/linreg  variational linear regression (core/model/linreg) against
//	              the evidence by quadrature over α (linreg.go)
//	atlas/clutter the clutter problem (core/approx) against quadrature of
//	              ln p(D) and of the posterior moments; CS by
//	              ClutterProblem.CheesemanStutz (clutter.go)
//	atlas/logistic Bayesian logistic regression (core/approx) on Pima and
//	              synthetic sets against a long AIS, the posterior moments
//	              against HMC chains (logistic.go)
//	atlas/dag     discrete DAGs with hidden nodes (core/model/dag) against
//	              the exact sum over the hidden completions; Laplace on
//	              dag.Unconstrained, EP by dag.EP (dag.go, dag_ep.go)
//	atlas/mfa     one Bayesian factor analyser (core/model/mfa at S = 1,
//	              k = 1, p = 2) against quadrature over Λ; CS by
//	              mfa.Annealed.CheesemanStutz (mfa.go)
//	atlas/lds     the LDS with one hidden dimension and one output
//	              (core/model/lds) against ln p(y) by quadrature over
//	              (A, C, ln ρ), the moments of (A, ln ρ) against HMC
//	              chains; CS by lds.CheesemanStutz (lds.go)
//	atlas/sbn     Lawrence's sigmoid belief networks (core/model/sbn):
//	              ln P(V) of random 2-4-6 nets against enumeration; EP by
//	              sbn.EP (sbn.go)
//	atlas/hmm     the discrete Bayesian HMM (core/model/hmm) against exact
//	              enumeration of the K^T hidden paths; EP by hmm.EP, a site
//	              per sequence (hmm.go)
//	atlas/bm      Lawrence's Boltzmann machines (core/model/boltzmann): ln Z
//	              of random 10-unit machines against enumeration; EP by
//	              boltzmann.EP, a site per pair (bm.go)
//
// rows_sampling.go holds what the rows share: their cell (rowCell, with
// its variants that are not columns, rowCell.alt), the IS ladder
// (isRungs), the [ep] table of the rows whose EP is core/approx.FamilyEP
// (epRun), the gold posterior moments by HMC chains (goldHMC), the HMC
// [ais] table (hmcLadder) and the thread CPU clock (startClock, cpuNow). What every row shares
// is in grid.go (the Estimate, GoldStandard and Absent types; WriteGrid,
// which writes estimates.csv and grid.csv, the summary metrics and the
// per-cell criteria; the crossover where a sampler's error falls below
// VB's) and grid_figure.go (PlotGrid: the figure atlas_<row> of |error|
// against operations on log-log axes, drawn from estimates.csv alone).
//
// These are our experiments, not a text's: every criterion is a sanity
// check or an extension. Every random stream comes from core/rng, named by
// the row, the data set, the seed and the method, so that a cell computes
// the same numbers alone, in a sweep or in a shard.
package atlas
