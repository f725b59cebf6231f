// Package score assembles the non-variational model-selection scores the
// thesis compares VB against: BIC (Beal 2003 eq. 1.49 and its large-data
// link to F, eqs. 2.128-2.132) and the Cheeseman-Stutz approximation
// (eq. 1.54; Theorem 2.3, eqs. 2.133-2.151, shows it is a lower bound on the
// marginal likelihood, and Corollary 2.5 that VB started from the CS point
// is at least as tight). The models assemble their scores from these
// pieces: hmm.BIC and hmm.CheesemanStutz, and dag's Problem.CheesemanStutz
// and Problem.EMScoresAt.
//
// # Map to the thesis
//
// Equation numbers are Beal (2003)'s, "line n" a line of
// ../shared/seeds/000_055f6e591db3cc60.txt.
//
//	BIC       ln p(y|θ̂) − (d/2) ln N                    eq. 1.49 (chapter 6: 6.26 without ln S)
//	BICp      BIC + ln p(θ̂), "BIC with the prior term"  line 4718 (cf. line 4388)
//	CSRow     one Dirichlet row's term of ln p_CS:      eq. 2.133 with Dirichlet priors; as
//	          ln ∫ Dir(θ|u) Π θ^N̂ dθ − Σ N̂ ln θ̂         eqs. 6.32 − 6.34 for one row
//	CSDagger  ln p_CS + (d′ − d)/2 ln N                 eq. 6.30 without d = d′; section 6.5.2,
//	                                                    lines 4985-4986
package score
