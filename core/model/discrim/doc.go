// Package discrim classifies by class-conditional Gaussian densities and
// Bayes' rule, the cheap baselines of Lawrence (2000) Table 3.1
// (../shared/seeds/001_7df1fb81bc835124.txt, L1467-L1475; the rows are
// Ripley's (1996), L1446):
//
//	p(c | x) ∝ π_c p(x | c),   ĉ(x) = argmax_c ln π_c + ln p(x | c),
//
// with π_c the classes' frequencies in the training set.
//
//   - LDA, the linear discriminant: p(x | c) = N(x | μ_c, Σ), one
//     covariance pooled over the classes, the within-class scatter over
//     n − K (the divisor of R's MASS::lda, the software of Ripley's rows),
//     μ_c the class means. Its decision boundaries are hyperplanes.
//   - Mixtures, a class-conditional mixture: p(x | c) = Σ_j w_cj N(x |
//     μ_cj, Σ_cj), M full-covariance components per class, each class's
//     mixture fitted by maximum-likelihood EM (type EM) from several seeded
//     starts, the start of highest likelihood kept. With M = 2 it is our
//     reading of the table's "2 Gaussian Mixture" row (the text names the
//     model and no more).
//
// EM is a vb.Model: E returns ln p(X | θ) and vb.Run checks that it never
// decreases.
//
// # Map to the text
//
//	NewLDA, LDA.LogPosterior   the linear discriminant (Table 3.1's row
//	                           "Linear Discriminant", L1467): Gaussian classes
//	                           with one pooled covariance
//	NewEM, EM.E, EM.M          ML EM for a Gaussian mixture: responsibilities
//	                           r_nj ∝ w_j N(x_n | μ_j, Σ_j) (PRML eq. 9.23), then
//	                           N_j, μ_j, Σ_j, w_j (PRML eqs. 9.24-9.27); E returns
//	                           ln p(X | θ) (PRML eq. 9.28)
//	FitMixtures, Mixtures      the class-conditional mixtures (Table 3.1's row
//	                           "2 Gaussian Mixture", L1467)
package discrim
