// Package infer holds the exact inference routines that VBE steps reuse with
// expected natural parameters in place of the parameters (Beal 2003,
// Theorem 2.2 and Corollary 2.2): the scaled forward-backward recursion for
// discrete hidden Markov models (chapter 3), and brute-force enumeration for
// checking it on tiny cases; and chapter 5's variational Kalman smoother for
// linear-Gaussian state-space models: the variational Kalman filter and the
// parallel backward recursion (Algorithms 5.1 and 5.2) in information form,
// which with point parameters are the Kalman filter and smoother.
//
// # Naming
//
// Each recursion's identifiers carry its name, so that the recursions share
// the package without clashes. The discrete HMM's are Chain (its weights)
// and LogChain (their logs), Counts and NewCounts (its expected sufficient
// statistics), ForwardBackward (the recursion and its buffers, with the
// methods LogProb, AddExpectedCounts and AddExpectedCountsLog),
// ChainMarginals and ChainEntropy; its unexported
// helpers start with fb. The Kalman smoother's names start with Kalman or
// LDS and never reuse the discrete HMM's: LDSNatural (the expected natural
// parameters φ̄ it reads, with the prior of x_0), KalmanSmoother (the
// recursions and their buffers, methods Smooth, SmoothSequences and
// Filter), LDSPosterior (the marginals and ln Z' of one sequence),
// LDSMoments (the moments of one sequence's data that ln Z' reads) and
// LDSStats (the hidden-state statistics of the VBM step, summed over
// sequences); its unexported helpers start with kalman.
//
// # Layouts
//
// Every matrix is a []float64 in row-major order, indexed as the thesis
// writes the matrix, so that mat.NewDense(rows, cols, s) views it without a
// copy. Time is 0-based: in the tables below t = 0, …, T−1 indexes the
// thesis's time steps 1, …, T. Two rules fix the orientation of the
// matrices that link hidden variables to data:
//
//   - Observation matrices are stored observation-major: one row per observed
//     symbol or output dimension, one column per hidden state or hidden
//     dimension.
//   - Sequences of vectors are stored time-major: one row per time step.
//
// For the discrete HMM with K states and P symbols (Beal 2003 eqs.
// 3.1-3.8, lines 1714-1742 of ../shared/seeds/000_055f6e591db3cc60.txt):
//
//	Pi  K       Pi[j]     = π_j, the initial-state weight
//	A   K×K     A[j*K+l]  = a_{jl}, the weight of the transition j → l (row j: from state j)
//	E   P×K     E[m*K+j]  = c_{jm}, the weight of symbol m in state j
//	y   T       y[t]      = the symbol at time t, in [0, P)
//
// E is the transpose of the thesis's K×P emission matrix C (and of the
// layout of package model/hmm, whose setChain transposes it): stored by
// symbol, the K weights of an observed symbol are contiguous, which is what
// the recursion reads at each step. Counts use the same layouts.
//
// For the linear-Gaussian state-space model with k hidden dimensions, p
// output dimensions and d input dimensions (Beal 2003 eqs. 5.2-5.5,
// x_t = A x_{t−1} + B u_t + w_t and y_t = C x_t + D u_t + v_t, with A k×k,
// B k×d, C p×k and D p×d; lines 3198-3221 of the same text), the Kalman
// smoother uses
//
//	A   k×k        A[i*k+j]  = coefficient of x_{t−1,j} in x_{t,i}
//	B   k×d        B[i*d+c]  = coefficient of u_{t,c} in x_{t,i}
//	C   p×k        C[s*k+j]  = coefficient of x_{t,j} in y_{t,s}
//	D   p×d        D[s*d+c]  = coefficient of u_{t,c} in y_{t,s}
//	y   T×p        y[t*p+s]  = y_{t,s}
//	u   T×d        u[t*d+c]  = u_{t,c}
//	x   T×k        x[t*k+j]  = E[x_{t,j}], the smoothed means
//	V   T×k×k      V[t*k*k+i*k+j] = Cov(x_{t,i}, x_{t,j}), one k×k block per step
//	W   (T−1)×k×k  W[t*k*k+i*k+j] = Cov(x_{t,i}, x_{t+1,j})
//
// The initial state x_0 of chapter 5, which precedes the first observation,
// is kept apart (a k-vector, a k×k covariance and its k×k cross-covariance
// with the first state: LDSPosterior's X0, V0, W0), so that row t of x and
// of y belong to the same time step. C is p×k, observation-major like the
// discrete E. A follows the matrix-vector product (row i: the new state's
// dimension i), whereas the discrete A follows the transition probabilities
// (row j: from state j); each is the thesis's own orientation.
//
// The expected natural parameters (LDSNatural, eq. 5.51) keep the shapes of
// the products they average, with R⁻¹ = diag(ρ) written "Rho":
//
//	A, AtA, CtRhoC   k×k     ⟨A⟩, ⟨AᵀA⟩, ⟨CᵀR⁻¹C⟩
//	B, AtB, CtRhoD   k×d     ⟨B⟩, ⟨AᵀB⟩, ⟨CᵀR⁻¹D⟩
//	BtB, DtRhoD      d×d     ⟨BᵀB⟩, ⟨DᵀR⁻¹D⟩
//	RhoC             p×k     ⟨R⁻¹C⟩ (observation-major, like C)
//	RhoD             p×d     ⟨R⁻¹D⟩
//	Rho              p       ⟨ρ_s⟩, the diagonal of ⟨R⁻¹⟩
//	Mu0, Lambda0     k, k×k  μ_0 and Σ_0⁻¹
//
// The statistics (LDSStats, eqs. 5.126-5.132) are WA, SA, WC k×k, GA, GC
// k×d and SC k×p (Σ_t ω_t y_tᵀ, as eq. 5.132 writes it).
//
// # Map to the thesis
//
// Equation numbers are Beal (2003)'s (../shared/seeds/000_055f6e591db3cc60.txt,
// chapter 3 at lines 1696-2196, chapter 5 at lines 3165-4226); § sections of
// ../shared/targets/ch3-hmm.md and ch5-lds.md.
//
//	Chain                              weights π, A, E; θ̃ = exp⟨ln θ⟩ in VBE  eqs. 3.3-3.9; 3.66-3.71
//	ForwardBackward.LogProb            ln Z = Σ_t ln ζ_t: ln p(y|θ), or ln Z̃  eqs. 3.21-3.23; 3.72-3.74
//	ForwardBackward.AddExpectedCounts  scaled forward-backward, counts        eqs. 3.19-3.35; counts of 3.16-3.18,
//	                                                                          3.55-3.59
//	LogChain                           logs of Chain's weights                ln θ̃ = ψ(w) − ψ(Σw): eqs. 3.66-3.71
//	ForwardBackward.AddExpectedCountsLog
//	                                   the scaled recursion in the log        eqs. 3.19-3.35, for weights that
//	                                   domain, counts                         underflow (ch3-hmm.md §1.4)
//	Counts                             N^π, N^A, N^C (Occupancy: Σ_t γ_t)     eqs. 3.16-3.18, 3.55-3.59
//	ChainMarginals                     γ_t, ξ_t and ln Z of one sequence      eqs. 3.30-3.35
//	ChainEntropy                       H(q(s)) of a Markov chain              eqs. 3.75-3.76
//	LDSNatural                         φ̄ = ⟨φ(θ)⟩ and the x_0 prior           eq. 5.51 (values 5.52-5.67); 5.13
//	LDSNatural.SetPoint                φ̄ of point parameters                  the point-parameter limit: eqs.
//	                                                                          5.71-5.86, 5.106-5.115
//	KalmanSmoother.Smooth              forward pass, ln Z'                    Algorithm 5.1, eqs. 5.89-5.93; ln ζ'_t
//	                                                                          of 5.1(c) as corrected in ch5-lds.md §1.6
//	                                   backward pass                          Algorithm 5.2 (eqs. 5.106-5.112 at φ̄),
//	                                                                          information form (ch5-lds.md §1.6, §1.12)
//	                                   marginals ω_t, Υ_{t,t}, Υ_{t,t+1}      eqs. 5.116-5.120, 5.125
//	KalmanSmoother.SmoothSequences     Smooth on many sequences, the          as Smooth, over the sequences of a VBE
//	                                   precision recursions once per length   step (section 5.3.8)
//	KalmanSmoother.Filter              filtered means μ_t = Λ_t⁻¹h_t          Algorithm 5.1, eqs. 5.89-5.93
//	KalmanSmoother.FilterPrecisions    filtered precisions Λ_t                Algorithm 5.1, eqs. 5.89-5.93
//	KalmanSmoother.SmoothVarying,      Smooth with an output matrix C_t per   Algorithms 5.1, 5.2 with C_t for C;
//	LDSVarying                         step (no inputs)                       D'Souza (2004) eqs. 3.11-3.12, L979-991
//	LDSMoments                         the data moments in ln Z'              the y, u terms of ln ζ'_t (ch5-lds.md
//	                                                                          §1.6) summed over t
//	LDSPosterior                       q(x_{0:T}) of one sequence, ln Z'      eqs. 5.116-5.125; 5.70
//	LDSStats.AddSequence               W_A, G_A, S_A, W_C, G_C, S_C; x_0      eqs. 5.126-5.132 summed as 5.148-5.149;
//	                                   statistics; ln Z'                      x_0 for 5.150-5.151
package infer
