// Package hmm implements the discrete-output hidden Markov models of Beal
// (2003) chapter 3: maximum-likelihood Baum-Welch (section 3.2, eqs.
// 3.1-3.35), MAP-EM in the softmax basis (section 3.3, eqs. 3.36-3.44 and
// L1901 of the seed text), and variational Bayesian EM (section 3.4, eqs.
// 3.45-3.79), all on many sequences of different lengths.
//
// Layouts: Pi has K entries; A is K×K row-major (A[j*K+l] = p(s_t=l|s_{t−1}=j));
// C is K×P row-major (C[j*P+m] = p(y_t=m|s_t=j)). Dirichlet posteriors use the
// same layouts for their pseudo-counts w.
//
// Each algorithm is a vb.Model: its E method runs the scaled forward-backward
// recursion of package infer over all sequences and returns the objective
// (ln p(y|θ), the MAP objective, or the bound F), and M updates the
// parameters. Run them with vb.Run. Setting Workers spreads the E step's
// sequences over goroutines with bit-identical results (see blockSymbols).
//
// For data sets of a few tens of symbols, ExactLogEvidence computes the
// exact marginal likelihood ln p(y|m) (eq. 3.44) by enumerating every hidden
// path, and Joint is the log joint ln p(θ) + ln p(y|θ) of the parameters in
// a flat layout (ParamDim), the target of an importance sampler whose
// proposal is built from the Dirichlet rows of q(θ) (Posterior.Rows,
// Posterior.Relabel); see extension E3-X2 in experiments/chapter3.
package hmm
