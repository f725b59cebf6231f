// Package numeric provides the special functions and the log-domain and
// linear-algebra helpers shared by the variational Bayesian models of vbw,
// a reproduction of M. J. Beal, "Variational Algorithms for Approximate
// Bayesian Inference" (PhD thesis, 2003).
//
// Equation numbers are the thesis's own; its converted text is
// ../shared/seeds/000_055f6e591db3cc60.txt (Appendix C.1 at lines 5215–5239).
//
// # Special functions
//
// The VB expectations of conjugate-exponential models are built from the
// digamma function: E[ln π_j] = ψ(α_j) − ψ(α₀) for a Dirichlet (eq. (3.68)),
// E[ln τ] = ψ(a) − ln b for a gamma, E[ln|W|] = Σ_i ψ((ν+1−i)/2) + … for a
// Wishart (Appendix A).
//
//	Digamma        ψ(x), Appendix C.1: recurrence (C.5) to x > 6, series (C.3) to O(x⁻¹⁴)
//	Trigamma       ψ'(x), for the Newton steps (C.10)–(C.11)
//	LogGamma       ln Γ(x) (math.Lgamma)
//	LogMultiGamma  ln Γ_d(a), the Wishart normaliser of Appendix A
//	MultiDigamma   Σ_j ψ(a + (1−j)/2), the derivative of ln Γ_d
//	InvDigamma     ψ⁻¹(y), for hyperparameter fixed points (C.6)–(C.12), (4.67)
//
// Digamma and Trigamma are accurate to about 1e-14 (absolute for x ≥ 0.01,
// relative below) and do not allocate; they are called in the inner loops of
// the VBE steps.
//
// # Log-domain helpers
//
//	LogSumExp, LogAddExp   max-shifted log-sum-exp; all −Inf gives −Inf, never NaN
//	NormalizeLogTo         responsibilities from log-weights, returning ln Z
//	XLogY, Entropy         x ln y with 0·ln 0 = 0; categorical entropy
//
// These are the normalisers of the scaled forward–backward pass (eqs.
// (3.21)–(3.23)) and of the responsibilities of mixture models.
//
// # Linear algebra
//
//	Symmetrize     (A + Aᵀ)/2
//	CholeskySPD    Cholesky of the symmetric part with a jitter policy:
//	               ε·mean(diag) added, ε = 1e-10 ×10 per retry, at most six retries
//	LogDetChol     ln|A| = 2 Σ ln L_ii
//	CholeskyMinPivot  where and by how much a Cholesky breaks down, for error messages
//
// CholeskySPD is used for the Gaussian and Wishart posteriors of chapters 4
// and 5; the jitter it added is returned so callers can record it.
//
// # Small dense matrices
//
// The models' inner loops factorise many small matrices (k×k posterior
// covariances, k ≲ 20) held as flat row-major []float64; for them gonum's
// types cost more than the arithmetic. One allocation-free kernel set
// serves them all (lds, mfa, the Kalman smoother of infer):
//
//	CholFactor          A = LLᵀ in place (lower triangle), false if not positive definite
//	CholLogDet          ln|A| = 2 Σ ln L_ii (the one convention: never ln|L|)
//	CholLogDetBlock     the same over a diagonal range: ln|A₁₁| and ln|A/A₁₁|
//	CholSolve(T)        L⁻¹B and L⁻ᵀB for an n×m B, in place
//	CholSolveVec(T)     L⁻¹v and L⁻ᵀv
//	CholInverse         A⁻¹ = L⁻ᵀL⁻¹, exactly symmetric
//	CholFactorUpper     A = UᵀU in place (upper triangle), lapack64.Potrf's factor bit for bit
//	CholInverseUpper    the upper triangle of (UᵀU)⁻¹, and whether it is finite
//	CholSolveUpperVec   (UᵀU)⁻¹v by the two triangular solves
//	PrincipalAxis       the leading eigenvector, by 200 power iterations (gmm, moe births)
//	Sum                 Σ x_i in a fixed order with four partial sums
//	FlushSubnormals     subnormal elements to zero (they stall the vector kernels)
//
// # Minimisation
//
//	LBFGS               limited-memory BFGS with a strong-Wolfe line search, in
//	                    the caller's goroutine, f and ∇f in one call, reusable
//	                    buffers (the Markov-chain fits of core/model/sbn)
//
// # Vector kernels
//
// The products of the models' hot loops over blocks of points, in
// hand-written AVX2/FMA assembly where the CPU has it and portable Go
// elsewhere (or with the purego build tag), both in the same order of
// summation and, on a CPU with FMA, the same bits; vec.go says how the
// route was chosen and the order of each:
//
//	Dot, Axpy           Σ x_i y_i; y += αx
//	MulAdd              C += A·B, A small with any strides, B and C long rows
//	MulAddT             C += A·Bᵀ, dot products of long rows
//	SqNormsLower        ‖L(x_j − μ)‖² for the columns of a block (Mahalanobis distances)
//	ScatterLower        Σ_j r_j x̃_j x̃_jᵀ, x̃_j = (x_j − μ, 1), over the columns of a block
//	ExpSubTo            exp(x_i − y_i), math.Exp bit for bit, four at a time
//	MulTo, Scale, AddMul  x∘y, αx and dst += x∘y elementwise
//	Vectorised          which of the two paths runs
//
// # Quadrature
//
//	Integrate, IntegrateVec  ∫_a^b f by globally adaptive Gauss–Kronrod (7–15),
//	                    QUADPACK's QAG scheme; a vector of integrands shares the
//	                    intervals (a normaliser and its moments in one pass)
//	IntegrateBreaks,    the same started from caller-given breaks (at a peak and
//	IntegrateVecBreaks  its width), with the error estimates
//	IntegrateVec2       iterated adaptive quadrature over a rectangle
//
// gonum's integrate/quad applies a fixed rule; the exact normalisers,
// moments, entropies and KL divergences of core/approx and the exact
// marginal likelihoods of core/model/linreg (p(t) = ∫ p(t|α) p(α) dα)
// need error control.
//
// # z-scoring
//
//	MeanSD              mean and standard deviation with divisor n, vbw's one
//	                    z-scoring convention (mfa.Standardize, chapter 4's data)
//
// Errors follow gonum: shape mismatches and invalid arguments panic with a
// "numeric: " prefix; numerical failures (a matrix that is not positive
// definite) are returned as errors.
package numeric
