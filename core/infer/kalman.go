package infer

// The variational Kalman smoother of the linear-Gaussian state-space model
// (Beal 2003 section 5.3.2-5.3.5, Algorithms 5.1 and 5.2, eqs. 5.68-5.132;
// lines 3534-3877 of ../shared/seeds/000_055f6e591db3cc60.txt): LDSNatural
// (the expected natural parameters it consumes), KalmanSmoother (the forward
// and backward recursions and their buffers), LDSPosterior (the marginals
// and ln Z' of one sequence) and LDSStats (the hidden-state sufficient
// statistics of eqs. 5.126-5.132 summed over sequences). Layouts: see the
// package comment.

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/vbworkbench/vbw/core/numeric"
)

// LDSNatural holds the expected natural parameters φ̄ = ⟨φ(θ)⟩ of the
// linear-Gaussian state-space model (Beal 2003 eq. 5.51, line 3483; their
// values are eqs. 5.52-5.67) together with the prior N(μ_0, Λ_0⁻¹) of the
// auxiliary state x_0 (eq. 5.13). The model is x_t = A x_{t−1} + B u_t + w_t,
// y_t = C x_t + D u_t + v_t with w_t ~ N(0, I) and v_t ~ N(0, R),
// R⁻¹ = diag(ρ) (eqs. 5.2-5.5); ⟨·⟩ is the expectation under q_θ. In
// field names "Rho" stands for R⁻¹ = diag(ρ), the output-noise precision, so
// CtRhoC is ⟨CᵀR⁻¹C⟩.
//
// These are exactly the quantities the recursions read. ⟨C⟩, ⟨D⟩ and ⟨R⁻¹⟩
// separately are not needed: the filter sees the outputs only through
// ⟨R⁻¹C⟩, ⟨CᵀR⁻¹C⟩, ⟨CᵀR⁻¹D⟩, ⟨R⁻¹D⟩, ⟨DᵀR⁻¹D⟩ and, in ln Z', through
// yᵀ⟨R⁻¹⟩y and ⟨ln|R⁻¹|⟩. The natural-parameter map is not invertible, so
// no point parameters reproduce a general φ̄ (line 3553); with point
// parameters (SetPoint) the recursions are the ordinary Kalman filter and
// smoother and ln Z' is ln p(y_{1:T}).
//
// With D = 0 (no inputs) the input fields B, AtB, BtB, CtRhoD, RhoD and
// DtRhoD are empty.
type LDSNatural struct {
	K int // state dimension k
	P int // output dimension p
	D int // input dimension d (0: no inputs)

	A      []float64 // k×k ⟨A⟩ (eq. 5.52)
	AtA    []float64 // k×k ⟨AᵀA⟩ (5.53; symmetric)
	B      []float64 // k×d ⟨B⟩ (5.54)
	AtB    []float64 // k×d ⟨AᵀB⟩ (5.55)
	BtB    []float64 // d×d ⟨BᵀB⟩ (5.56; symmetric)
	CtRhoC []float64 // k×k ⟨CᵀR⁻¹C⟩ (5.63; symmetric)
	RhoC   []float64 // p×k ⟨R⁻¹C⟩ = diag(ρ̄)⟨C⟩ (5.64)
	CtRhoD []float64 // k×d ⟨CᵀR⁻¹D⟩ (5.65)
	RhoD   []float64 // p×d ⟨R⁻¹D⟩ = diag(ρ̄)⟨D⟩ (5.66)
	DtRhoD []float64 // d×d ⟨DᵀR⁻¹D⟩ (5.67; symmetric)
	// Rho[s] = ρ̄_s = ⟨ρ_s⟩, the diagonal of ⟨R⁻¹⟩ (5.57, 5.59).
	Rho []float64
	// LogDetRho = ⟨ln|R⁻¹|⟩ = Σ_s ⟨ln ρ_s⟩ (= Σ_s ψ(a_s) − ln b_s under
	// q(ρ_s) = Ga(a_s, b_s), eq. 5.58).
	LogDetRho float64

	Mu0     []float64 // k: μ_0, the prior mean of x_0
	Lambda0 []float64 // k×k: Σ_0⁻¹, the prior precision of x_0 (symmetric positive definite)
}

// NewLDSNatural returns an LDSNatural for k states, p outputs and d inputs
// with every slice allocated and zero (μ_0 = 0, Λ_0 = 0: set them).
func NewLDSNatural(k, p, d int) *LDSNatural {
	if k <= 0 || p <= 0 || d < 0 {
		panic(fmt.Sprintf("infer: LDS dimensions k=%d p=%d d=%d", k, p, d))
	}
	return &LDSNatural{
		K: k, P: p, D: d,
		A: make([]float64, k*k), AtA: make([]float64, k*k),
		B: make([]float64, k*d), AtB: make([]float64, k*d), BtB: make([]float64, d*d),
		CtRhoC: make([]float64, k*k), RhoC: make([]float64, p*k),
		CtRhoD: make([]float64, k*d), RhoD: make([]float64, p*d), DtRhoD: make([]float64, d*d),
		Rho: make([]float64, p), Mu0: make([]float64, k), Lambda0: make([]float64, k*k),
	}
}

// Check panics if a slice length disagrees with K, P and D.
func (n *LDSNatural) Check() {
	k, p, d := n.K, n.P, n.D
	if k <= 0 || p <= 0 || d < 0 {
		panic(fmt.Sprintf("infer: LDS dimensions k=%d p=%d d=%d", k, p, d))
	}
	for _, f := range []struct {
		name string
		s    []float64
		n    int
	}{
		{"A", n.A, k * k}, {"AtA", n.AtA, k * k}, {"B", n.B, k * d}, {"AtB", n.AtB, k * d},
		{"BtB", n.BtB, d * d}, {"CtRhoC", n.CtRhoC, k * k}, {"RhoC", n.RhoC, p * k},
		{"CtRhoD", n.CtRhoD, k * d}, {"RhoD", n.RhoD, p * d}, {"DtRhoD", n.DtRhoD, d * d},
		{"Rho", n.Rho, p}, {"Mu0", n.Mu0, k}, {"Lambda0", n.Lambda0, k * k},
	} {
		if len(f.s) != f.n {
			panic(fmt.Sprintf("infer: LDSNatural.%s has length %d, want %d (k=%d p=%d d=%d)", f.name, len(f.s), f.n, k, p, d))
		}
	}
}

// SetPoint sets the parameter expectations to those of the point
// parameters A (k×k), B (k×d), C (p×k), D (p×d) and output-noise precisions
// rho (p): ⟨AᵀA⟩ = AᵀA, ⟨AᵀB⟩ = AᵀB, ⟨CᵀR⁻¹C⟩ = Cᵀdiag(ρ)C, ⟨R⁻¹C⟩ =
// diag(ρ)C, …, ⟨ln|R⁻¹|⟩ = Σ_s ln ρ_s (the point-parameter limit in which
// Algorithms 5.1 and 5.2 reduce to the Kalman filter and smoother, eqs.
// 5.77-5.86 and 5.106-5.112). b and d are ignored when n.D = 0. Mu0 and
// Lambda0 are left unchanged. It panics on a length mismatch.
func (n *LDSNatural) SetPoint(a, b, c, d, rho []float64) {
	n.Check()
	k, p, du := n.K, n.P, n.D
	if len(a) != k*k || len(c) != p*k || len(rho) != p || (du > 0 && (len(b) != k*du || len(d) != p*du)) {
		panic("infer: SetPoint shape mismatch")
	}
	copy(n.A, a)
	copy(n.B, b[:k*du])
	copy(n.Rho, rho)
	n.LogDetRho = 0
	for _, r := range rho {
		n.LogDetRho += math.Log(r)
	}
	// AᵀA, AᵀB and BᵀB from the stacked rows [a_(j)ᵀ b_(j)ᵀ].
	clear(n.AtA)
	clear(n.AtB)
	clear(n.BtB)
	for j := 0; j < k; j++ {
		aj, bj := a[j*k:(j+1)*k], b[j*du:(j+1)*du]
		kalmanAddOuter(n.AtA, aj, aj, 1)
		kalmanAddOuter(n.AtB, aj, bj, 1)
		kalmanAddOuter(n.BtB, bj, bj, 1)
	}
	clear(n.CtRhoC)
	clear(n.CtRhoD)
	clear(n.DtRhoD)
	for s := 0; s < p; s++ {
		cs, ds := c[s*k:(s+1)*k], d[s*du:(s+1)*du]
		for j, v := range cs {
			n.RhoC[s*k+j] = rho[s] * v
		}
		for j, v := range ds {
			n.RhoD[s*du+j] = rho[s] * v
		}
		kalmanAddOuter(n.CtRhoC, cs, cs, rho[s])
		kalmanAddOuter(n.CtRhoD, cs, ds, rho[s])
		kalmanAddOuter(n.DtRhoD, ds, ds, rho[s])
	}
}

// kalmanAddOuter adds w·a bᵀ to the len(a)×len(b) matrix dst.
func kalmanAddOuter(dst, a, b []float64, w float64) {
	m := len(b)
	for i, ai := range a {
		wa := w * ai
		di := dst[i*m : (i+1)*m]
		bj := b[:len(di)]
		for j := range di {
			di[j] += wa * bj[j]
		}
	}
}

// LDSPosterior is the variational posterior q(x_{0:T}) of one sequence as
// the smoother returns it (Beal 2003 eqs. 5.116-5.125): the marginals of
// x_1, …, x_T in the package comment's layouts, those of the auxiliary state
// x_0 kept apart, and the log normaliser. Time is 0-based: row t of X is
// ω_{t+1} = ⟨x_{t+1}⟩.
type LDSPosterior struct {
	K, T int

	X []float64 // T×k: X[t*k+j] = ⟨x_{t+1,j}⟩ (ω_{t+1})
	V []float64 // T×k×k: Cov(x_{t+1}) (Υ_{t+1,t+1}), each block exactly symmetric
	W []float64 // (T−1)×k×k: W[t*k*k+i*k+j] = Cov(x_{t+1,i}, x_{t+2,j}) (Υ_{t+1,t+2})

	X0 []float64 // k: ⟨x_0⟩ (ω_0)
	V0 []float64 // k×k: Cov(x_0) (Υ_{0,0})
	W0 []float64 // k×k: W0[i*k+j] = Cov(x_{0,i}, x_{1,j}) (Υ_{0,1})

	// LogZ is ln Z' = ln ∫ dx_{0:T} exp⟨ln p(x_{0:T}, y_{1:T} | θ)⟩_{q_θ}
	// (eq. 5.70) with every constant included:
	//
	//	⟨ln p(x, y|θ)⟩ = ln N(x_0|μ_0, Σ_0)
	//	   + Σ_t [−½⟨‖x_t − A x_{t−1} − B u_t‖²⟩ − (k/2) ln 2π]
	//	   + Σ_t [−½⟨(y_t − C x_t − D u_t)ᵀR⁻¹(y_t − C x_t − D u_t)⟩ + ½⟨ln|R⁻¹|⟩ − (p/2) ln 2π].
	//
	// Straight after the VBE step the bound is F = ln Z' − (the parameter
	// KL divergences) summed over sequences (eq. 5.147), so the model adds
	// nothing else from the hidden states. With point parameters ln Z' =
	// ln p(y_{1:T} | θ, μ_0, Σ_0).
	LogZ float64
}

// resize sets the shapes of p for k states and T steps, reusing its slices'
// storage when it is large enough.
func (p *LDSPosterior) resize(k, T int) {
	p.K, p.T = k, T
	p.X = kalmanReuse(p.X, T*k)
	p.V = kalmanReuse(p.V, T*k*k)
	p.W = kalmanReuse(p.W, (T-1)*k*k)
	p.X0 = kalmanReuse(p.X0, k)
	p.V0 = kalmanReuse(p.V0, k*k)
	p.W0 = kalmanReuse(p.W0, k*k)
}

// kalmanReuse returns s resliced to length n, reallocated only when its
// capacity is too small.
func kalmanReuse(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// LDSMoments are the moments of one sequence's outputs y_t and inputs u_t
// through which ln Z' depends on the data alone (the last line of ln ζ'_t
// in KalmanSmoother.Smooth), summed over its T steps:
//
//	YY_s = Σ_t y_ts²   (p),   YU = Σ_t y_t u_tᵀ   (p×d),   UU = Σ_t u_t u_tᵀ   (d×d),
//
// so that Σ_t [−½ y_tᵀ⟨R⁻¹⟩y_t + y_tᵀ⟨R⁻¹D⟩u_t − ½ u_tᵀ(⟨DᵀR⁻¹D⟩ + ⟨BᵀB⟩)u_t]
// = −½ Σ_s ρ̄_s YY_s + Σ_sc ⟨R⁻¹D⟩_sc YU_sc − ½ Σ_ab (⟨DᵀR⁻¹D⟩ + ⟨BᵀB⟩)_ab UU_ab,
// which costs O(p + pd + d²) per sequence instead of O(T(p + pd + d²)).
// The moments depend on the data only: a caller that smooths the same
// sequences many times (a VBE step per iteration) computes them once with
// Set and passes them to SmoothSequences.
type LDSMoments struct {
	P, D, T int
	YY      []float64 // p
	YU      []float64 // p×d
	UU      []float64 // d×d, exactly symmetric
}

// Set sets m to the moments of the outputs y (T×p) and inputs u (T×d; nil
// when d = 0), reusing m's slices when they are large enough. It panics
// if the lengths do not match.
func (m *LDSMoments) Set(y, u []float64, p, d int) {
	if p <= 0 || d < 0 || len(y) == 0 || len(y)%p != 0 || len(u) != len(y)/p*d {
		panic(fmt.Sprintf("infer: LDSMoments.Set: len(y)=%d, len(u)=%d for p=%d, d=%d", len(y), len(u), p, d))
	}
	T := len(y) / p
	m.P, m.D, m.T = p, d, T
	m.YY = kalmanReuse(m.YY, p)
	m.YU = kalmanReuse(m.YU, p*d)
	m.UU = kalmanReuse(m.UU, d*d)
	clear(m.YY)
	for t := 0; t < T; t++ {
		for s, v := range y[t*p : (t+1)*p] {
			m.YY[s] += v * v
		}
	}
	clear(m.YU)
	clear(m.UU)
	// YU = Yᵀ U and UU = Uᵀ U, each element summed in the order of t (so
	// UU_ab and UU_ba are the same sum).
	numeric.MulAdd(p, d, T, y, 1, p, u, d, m.YU, d)
	numeric.MulAdd(d, d, T, u, 1, d, u, d, m.UU, d)
}

// KalmanSmoother runs the variational Kalman filter (Beal 2003 Algorithm
// 5.1, lines 3664-3690) and the parallel backward recursion (Algorithm 5.2,
// lines 3777-3790), and combines them into the marginals (eqs. 5.116-5.125),
// for one sequence at a time. It holds every buffer, sized for the longest
// sequence seen, so that calls do not allocate once it has seen the longest
// sequence (NewKalmanSmoother sizes it in advance). A KalmanSmoother is not
// safe for concurrent use; give each goroutine its own.
//
// Both messages are carried in information form, as chapter 5's targets
// (§1.6, §1.12) recommend: the forward message α_t = N(μ_t, Σ_t) as
// (Λ_t = Σ_t⁻¹, h_t = Σ_t⁻¹μ_t) and the backward message β_t ∝ N(η_t, Ψ_t) as
// (P_t = Ψ_t⁻¹, g_t = Ψ_t⁻¹η_t), because P_T = 0 and P_t is singular whenever
// a direction of the state has been pruned, so Ψ_t and η_t need not exist.
// Every matrix that is inverted is symmetric positive definite in exact
// arithmetic and is factorised by Cholesky; inverses are applied by
// triangular solves, and the only explicit inverses formed are the output
// covariances Υ_{t,t}.
//
// Each call has two parts. The precision pass (precisions) runs the
// recursions of the precisions, Λ_t forwards and P_t backwards, and
// everything they determine: the Cholesky factors the means are solved
// with, Υ_{t,t}, Υ_{t,t+1} and the log-determinants in ln Z'. None of it
// involves the outputs or the inputs; it depends on T and on the
// parameters alone. The mean pass (forwardMeans, backwardMeans) runs the
// recursions of h_t and g_t, the means ω_t and ln Z' from those factors.
// SmoothSequences smooths many sequences under the same parameters, as a
// VBE step does, and runs the precision pass once for each length among
// them, whatever their outputs and inputs: a sequence after the first of
// its length copies the first one's covariances and costs
// O(T(k² + pk + dk)) and, for the terms of the data alone, O(pd + d²)
// from its moments (LDSMoments), instead of O(T(k³ + pk + …)). The results
// are identical, bit for bit, to those of Smooth on each sequence, since
// the precision pass would repeat the same operations on the same numbers.
//
// Within one precision pass, the recursions usually settle on their fixed
// points exactly, bit for bit, within a few tens of steps; from there on
// the pass reuses the factors it has instead of recomputing the same
// numbers, so that a step costs O(k²) instead of O(k³). The results are
// identical either way.
type KalmanSmoother struct {
	k, p, d int

	// Forms of the parameters used at every step (prepare).
	at   []float64 // k×k ⟨A⟩ᵀ
	ata  []float64 // k×k (⟨AᵀA⟩ + ⟨AᵀA⟩ᵀ)/2
	icrc []float64 // k×k I + (⟨CᵀR⁻¹C⟩ + ⟨CᵀR⁻¹C⟩ᵀ)/2
	rct  []float64 // k×p ⟨R⁻¹C⟩ᵀ
	bmc  []float64 // k×d ⟨B⟩ − ⟨CᵀR⁻¹D⟩
	quu  []float64 // d×d ⟨BᵀB⟩ + ⟨DᵀR⁻¹D⟩

	// Precision pass, forwards.
	lam     []float64 // (T+1)×k×k Λ_t = Σ_t⁻¹, t = 0..T
	lstar   []float64 // T×k×k Cholesky factor L*_t of Σ*_t⁻¹ = Λ_t + ⟨AᵀA⟩, t = 0..T−1
	xs      []float64 // T×k×k X_t = L*_t⁻¹⟨A⟩ᵀ, t = 0..T−1
	ldstar  []float64 // T: ½ ln|Σ*_t⁻¹|, t = 0..T−1
	ldlam0  float64   // ln|Σ_0⁻¹|
	steadyF int       // first t with Λ_t = Λ_{t−1} exactly, T+1 if none (see precisions)

	// Precision pass, backwards.
	lpsi    []float64 // T×k×k row t−1: Cholesky factor Lψ_t of Ψ*_t⁻¹ = I + ⟨CᵀR⁻¹C⟩ + P_t, t = 1..T
	ypsi    []float64 // T×k×k row t−1: Y_t = Lψ_t⁻¹⟨A⟩
	lmar    []float64 // (T+1)×k×k Cholesky factor of Υ_{t,t}⁻¹ = Λ_t + P_t, t = 0..T
	ldlamT  float64   // ln|Λ_T|
	steadyP int       // largest t with P_t = P_{t+1} exactly, −1 if none (see precisions)
	vTop    int       // Υ_{t,t} = Υ_{vTop,vTop} exactly for steadyF ≤ t < vTop (0: no such t)
	pc, pn  []float64 // k×k P_t and P_{t−1}
	z       []float64 // k×k scratch

	// Mean pass.
	h      []float64  // (T+1)×k h_t = Σ_t⁻¹μ_t
	drive  []float64  // T×k row t−1: ⟨R⁻¹C⟩ᵀy_t + (⟨B⟩ − ⟨CᵀR⁻¹D⟩)u_t, the x_t term of step t
	back   []float64  // T×k row t−1: ⟨AᵀB⟩u_t, minus the x_{t−1} term of step t
	gc, gn []float64  // k g_t and g_{t−1}
	v      []float64  // k scratch
	mom    LDSMoments // Smooth: the moments of the sequence

	order []int // SmoothSequences: the sequences by length

	vary *LDSVarying // SmoothVarying: the per-step observation terms (nil otherwise)
	icv  []float64   // k×k SmoothVarying: I + ⟨C_tᵀR⁻¹C_t⟩ of the step at hand

	passes  int  // tests: precision passes run
	noReuse bool // tests: recompute every step even at the fixed points, and every sequence
}

// NewKalmanSmoother returns a smoother for k states, p outputs and d inputs
// whose buffers hold sequences of up to tmax steps; longer sequences grow
// them.
func NewKalmanSmoother(k, p, d, tmax int) *KalmanSmoother {
	if k <= 0 || p <= 0 || d < 0 || tmax < 0 {
		panic(fmt.Sprintf("infer: Kalman smoother dimensions k=%d p=%d d=%d tmax=%d", k, p, d, tmax))
	}
	kk := k * k
	ks := &KalmanSmoother{
		k: k, p: p, d: d,
		at: make([]float64, kk), ata: make([]float64, kk), icrc: make([]float64, kk),
		rct: make([]float64, k*p), bmc: make([]float64, k*d), quu: make([]float64, d*d),
		pc: make([]float64, kk), pn: make([]float64, kk), z: make([]float64, kk),
		gc: make([]float64, k), gn: make([]float64, k), v: make([]float64, k),
		icv: make([]float64, kk),
	}
	ks.grow(tmax)
	return ks
}

// grow makes the per-step buffers hold T steps.
func (ks *KalmanSmoother) grow(T int) {
	k := ks.k
	kk := k * k
	ks.lam = kalmanReuse(ks.lam, (T+1)*kk)
	ks.lstar = kalmanReuse(ks.lstar, T*kk)
	ks.xs = kalmanReuse(ks.xs, T*kk)
	ks.ldstar = kalmanReuse(ks.ldstar, T)
	ks.lpsi = kalmanReuse(ks.lpsi, T*kk)
	ks.ypsi = kalmanReuse(ks.ypsi, T*kk)
	ks.lmar = kalmanReuse(ks.lmar, (T+1)*kk)
	ks.h = kalmanReuse(ks.h, (T+1)*k)
	ks.drive = kalmanReuse(ks.drive, T*k)
	ks.back = kalmanReuse(ks.back, T*k)
}

// Smooth computes q(x_{0:T}) for the outputs y (T×p) and inputs u (T×d; nil
// when d = 0) under the expected natural parameters phi, writing the
// marginals ω_t, Υ_{t,t}, Υ_{t,t+1} and ln Z' into dst (whose slices are
// reused when large enough). T = len(y)/p must be at least 1.
//
// Forward pass (Algorithm 5.1, eqs. 5.89-5.93), from Λ_0 = Σ_0⁻¹ and
// h_0 = Σ_0⁻¹μ_0, for t = 1, …, T:
//
//	Σ*_{t−1}⁻¹ = Λ_{t−1} + ⟨AᵀA⟩ = L*L*ᵀ
//	Λ_t = I + ⟨CᵀR⁻¹C⟩ − ⟨A⟩Σ*_{t−1}⟨A⟩ᵀ
//	h_t = ⟨R⁻¹C⟩ᵀy_t + (⟨B⟩ − ⟨CᵀR⁻¹D⟩)u_t + ⟨A⟩Σ*_{t−1}(h_{t−1} − ⟨AᵀB⟩u_t),
//
// and ln Z' = Σ_t ln ζ'_t with (Algorithm 5.1(c) as corrected in the
// chapter 5 targets §1.6: the printed formula drops the quadratic form of
// its last term and the term in ⟨BᵀB⟩)
//
//	ln ζ'_t = ½[ln|Σ*_{t−1}| − ln|Σ_{t−1}| + ln|Σ_t|]
//	          − ½ μ_{t−1}ᵀΛ_{t−1}μ_{t−1} + ½ μ_tᵀΛ_tμ_t
//	          + ½ (h_{t−1} − ⟨AᵀB⟩u_t)ᵀ Σ*_{t−1} (h_{t−1} − ⟨AᵀB⟩u_t)
//	          + ½⟨ln|R⁻¹|⟩ − (p/2) ln 2π − ½ y_tᵀ⟨R⁻¹⟩y_t + y_tᵀ⟨R⁻¹D⟩u_t
//	          − ½ u_tᵀ(⟨DᵀR⁻¹D⟩ + ⟨BᵀB⟩)u_t.
//
// The ln|Σ_t| and μ_tᵀΛ_tμ_t terms telescope, leaving those of t = 0 and
// t = T; the latter come from the Cholesky factor of Λ_T that the backward
// pass forms anyway.
//
// Backward pass (Algorithm 5.2 in information form), from P_T = 0, g_T = 0,
// for t = T, …, 1:
//
//	Ψ*_t⁻¹ = I + ⟨CᵀR⁻¹C⟩ + P_t = LψLψᵀ
//	P_{t−1} = ⟨AᵀA⟩ − ⟨A⟩ᵀΨ*_t⟨A⟩
//	g_{t−1} = −⟨AᵀB⟩u_t + ⟨A⟩ᵀΨ*_t(⟨R⁻¹C⟩ᵀy_t + (⟨B⟩ − ⟨CᵀR⁻¹D⟩)u_t + g_t),
//
// and, for t = T, …, 0, the marginals (eqs. 5.119, 5.120, 5.125)
//
//	Υ_{t,t} = (Λ_t + P_t)⁻¹,  ω_t = Υ_{t,t}(h_t + g_t),  Υ_{t,t+1} = Σ*_t⟨A⟩ᵀΥ_{t+1,t+1}.
//
// Smooth returns an error, leaving dst partly written, if a matrix that
// should be positive definite fails its Cholesky factorisation (non-finite
// or invalid parameters). It panics if phi's dimensions differ from the
// smoother's or the lengths of y and u do not match.
func (ks *KalmanSmoother) Smooth(dst *LDSPosterior, phi *LDSNatural, y, u []float64) error {
	return ks.smooth(dst, phi, y, u, nil, nil)
}

// FilterPrecisions writes into dst (T×k×k) the filtered precisions
// Λ_t = Σ_t⁻¹ of x_t given y_{1:t}, t = 1, …, T, of the forward pass
// (Algorithm 5.1, eqs. 5.89-5.93) of the last successful Smooth or
// SmoothVarying call, whose sequence had T steps. It panics if
// len(dst) ≠ T·k·k.
func (ks *KalmanSmoother) FilterPrecisions(dst []float64, T int) {
	kk := ks.k * ks.k
	if len(dst) != T*kk || len(ks.lam) < (T+1)*kk {
		panic(fmt.Sprintf("infer: FilterPrecisions: len(dst)=%d for T=%d, k=%d", len(dst), T, ks.k))
	}
	for t := 1; t <= T; t++ {
		copy(dst[(t-1)*kk:t*kk], ks.lamAt(t))
	}
}

// LDSVarying holds the observation terms of a state-space model whose output
// matrix changes with time, y_t = C_t x_t + v_t (no inputs), for a sequence
// of T steps: the expected natural parameters ⟨C_tᵀR⁻¹C_t⟩ and ⟨R⁻¹C_t⟩ of
// eq. 5.51 with C_t in place of C, one block per step, time-major. A
// regression whose weights drift as a random walk is such a model, with
// C_t = x_tᵀ the regressors of step t (D'Souza 2004 eqs. 3.11-3.12, L940-944
// of ../shared/seeds/003_a56118dfa4fca769.txt).
type LDSVarying struct {
	CtRhoC []float64 // T×k×k: CtRhoC[t*k*k+i*k+j] = ⟨C_tᵀR⁻¹C_t⟩_ij of step t+1
	RhoC   []float64 // T×p×k: RhoC[t*p*k+s*k+j] = ⟨R⁻¹C_t⟩_sj of step t+1
}

// SmoothVarying is Smooth for time-varying observation matrices: step t
// reads obs's ⟨C_tᵀR⁻¹C_t⟩ and ⟨R⁻¹C_t⟩ where Smooth reads phi.CtRhoC and
// phi.RhoC (which it ignores); everything else (⟨A⟩, ⟨AᵀA⟩, ⟨R⁻¹⟩ and
// ⟨ln|R⁻¹|⟩ in ln Z', the prior of x_0) comes from phi, and the recursions
// and their outputs are those of Smooth. The precisions now differ from
// step to step, so none of Smooth's fixed-point shortcuts applies: a call
// costs O(T(k³ + pk)). The smoother must have no inputs (d = 0). It returns
// Smooth's errors and panics as Smooth does, and if obs's lengths are not
// T·k·k and T·p·k.
func (ks *KalmanSmoother) SmoothVarying(dst *LDSPosterior, phi *LDSNatural, obs *LDSVarying, y []float64) error {
	k, p := ks.k, ks.p
	if ks.d != 0 {
		panic(fmt.Sprintf("infer: SmoothVarying: the smoother has d=%d inputs, want 0", ks.d))
	}
	if len(y) == 0 || len(y)%p != 0 {
		panic(fmt.Sprintf("infer: Kalman smoother: len(y)=%d is not a positive multiple of p=%d", len(y), p))
	}
	T := len(y) / p
	if len(obs.CtRhoC) != T*k*k || len(obs.RhoC) != T*p*k {
		panic(fmt.Sprintf("infer: SmoothVarying: len(CtRhoC)=%d, len(RhoC)=%d, want T·k·k = %d and T·p·k = %d",
			len(obs.CtRhoC), len(obs.RhoC), T*k*k, T*p*k))
	}
	ks.vary = obs
	defer func() { ks.vary = nil }()
	return ks.smooth(dst, phi, y, nil, nil, nil)
}

// Filter smooths one sequence as Smooth does (into post) and writes into
// dst (T×k) the filtered means μ_t = ⟨x_t | y_{1:t}, u_{1:t}⟩ = Λ_t⁻¹h_t,
// t = 1, …, T, of the forward pass (Algorithm 5.1, eqs. 5.89-5.93): row
// t−1 of dst is, bit for bit, the last smoothed mean ω_t of Smooth on the
// prefix y_{1:t} (whose backward message is P_t = 0, g_t = 0), at the cost
// of one smoothing instead of T. It returns Smooth's errors and panics as
// Smooth does, and if len(dst) ≠ T·k.
func (ks *KalmanSmoother) Filter(dst []float64, post *LDSPosterior, phi *LDSNatural, y, u []float64) error {
	k := ks.k
	if err := ks.smooth(post, phi, y, u, nil, nil); err != nil {
		return err
	}
	T := post.T
	if len(dst) != T*k {
		panic(fmt.Sprintf("infer: Filter: len(dst)=%d, want T·k = %d", len(dst), T*k))
	}
	for t := 1; t <= T; t++ {
		// Υ⁻¹ = Λ_t + P with P = 0, as in the smoother's last step.
		sm := ks.z
		for i, v := range ks.lamAt(t) {
			sm[i] = v + 0
		}
		if !numeric.CholFactor(sm, k) {
			return kalmanErr("Σ_t⁻¹", t)
		}
		mu := dst[(t-1)*k : t*k]
		for i, v := range ks.h[t*k : (t+1)*k] {
			mu[i] = v + 0
		}
		numeric.CholSolveVec(sm, k, mu)
		numeric.CholSolveVecT(sm, k, mu)
	}
	return nil
}

// SmoothSequences smooths the sequences i = 0, …, len(y)−1, with outputs
// y[i] (T_i×p) and inputs u[i] (T_i×d; nil when d = 0), under phi into
// dst[i], exactly as Smooth does one at a time. It smooths them in order of
// length (a stable sort) and runs the precision pass once for each length
// (see KalmanSmoother). If a sequence's smoothing fails it returns the
// sequence's index and the error, leaving the posteriors of the sequences
// not yet smoothed unchanged; otherwise −1 and nil. mom[i] are the
// moments of y[i] and u[i] (LDSMoments.Set), from which the data terms of
// ln Z' are formed; with mom nil they are computed for each call. The
// results are the same either way. It panics as Smooth does, if the
// numbers of posteriors, outputs, inputs and moments differ, and if a
// moment's shape differs from its sequence's.
func (ks *KalmanSmoother) SmoothSequences(dst []LDSPosterior, phi *LDSNatural, y, u [][]float64, mom []LDSMoments) (int, error) {
	if len(dst) != len(y) || len(u) != len(y) || (mom != nil && len(mom) != len(y)) {
		panic(fmt.Sprintf("infer: SmoothSequences: %d posteriors, %d outputs, %d inputs, %d moments", len(dst), len(y), len(u), len(mom)))
	}
	ks.order = ks.order[:0]
	for i := range y {
		ks.order = append(ks.order, i)
	}
	slices.SortStableFunc(ks.order, func(i, j int) int { return cmp.Compare(len(y[i]), len(y[j])) })
	var first *LDSPosterior // the posterior of the last precision pass
	for _, i := range ks.order {
		var shared *LDSPosterior
		if !ks.noReuse && first != nil && first.T*ks.p == len(y[i]) {
			shared = first
		}
		var mi *LDSMoments
		if mom != nil {
			mi = &mom[i]
		}
		if err := ks.smooth(&dst[i], phi, y[i], u[i], shared, mi); err != nil {
			return i, err
		}
		if shared == nil {
			first = &dst[i]
		}
	}
	return -1, nil
}

// smooth is Smooth. When shared is not nil, the precision pass of the
// previous call is reused, with its covariances from shared, the posterior
// it wrote: the caller guarantees the same T and phi. mom holds the
// moments of y and u (nil: smooth computes them).
func (ks *KalmanSmoother) smooth(dst *LDSPosterior, phi *LDSNatural, y, u []float64, shared *LDSPosterior, mom *LDSMoments) error {
	phi.Check()
	k, p, d := ks.k, ks.p, ks.d
	if phi.K != k || phi.P != p || phi.D != d {
		panic(fmt.Sprintf("infer: LDSNatural is k=%d p=%d d=%d, smoother k=%d p=%d d=%d", phi.K, phi.P, phi.D, k, p, d))
	}
	if len(y) == 0 || len(y)%p != 0 {
		panic(fmt.Sprintf("infer: Kalman smoother: len(y)=%d is not a positive multiple of p=%d", len(y), p))
	}
	T := len(y) / p
	if len(u) != T*d {
		panic(fmt.Sprintf("infer: Kalman smoother: len(u)=%d, want T·d = %d", len(u), T*d))
	}
	if mom == nil {
		ks.mom.Set(y, u, p, d)
		mom = &ks.mom
	} else if mom.P != p || mom.D != d || mom.T != T || len(mom.YY) != p || len(mom.YU) != p*d || len(mom.UU) != d*d {
		panic(fmt.Sprintf("infer: Kalman smoother: moments of p=%d d=%d T=%d for a sequence of p=%d d=%d T=%d", mom.P, mom.D, mom.T, p, d, T))
	}
	dst.resize(k, T)
	if shared == nil {
		ks.grow(T)
		ks.prepare(phi)
		if err := ks.precisions(dst, phi, T); err != nil {
			return err
		}
	} else {
		copy(dst.V, shared.V)
		copy(dst.W, shared.W)
		copy(dst.V0, shared.V0)
		copy(dst.W0, shared.W0)
	}
	lnZ := ks.forwardMeans(phi, y, u, T) + ks.dataTerms(phi, mom)
	dst.LogZ = ks.backwardMeans(dst, lnZ, T)
	return nil
}

// prepare forms the per-call parameter matrices: ⟨A⟩ᵀ, the symmetric parts
// of ⟨AᵀA⟩ and I + ⟨CᵀR⁻¹C⟩, ⟨R⁻¹C⟩ᵀ, ⟨B⟩ − ⟨CᵀR⁻¹D⟩ and
// ⟨BᵀB⟩ + ⟨DᵀR⁻¹D⟩.
func (ks *KalmanSmoother) prepare(phi *LDSNatural) {
	k, d := ks.k, ks.d
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			ks.at[j*k+i] = phi.A[i*k+j]
			ks.ata[i*k+j] = 0.5 * (phi.AtA[i*k+j] + phi.AtA[j*k+i])
			ks.icrc[i*k+j] = 0.5 * (phi.CtRhoC[i*k+j] + phi.CtRhoC[j*k+i])
		}
		ks.icrc[i*k+i]++
	}
	for s := 0; s < ks.p; s++ {
		for j := 0; j < k; j++ {
			ks.rct[j*ks.p+s] = phi.RhoC[s*k+j]
		}
	}
	for i := range ks.bmc {
		ks.bmc[i] = phi.B[i] - phi.CtRhoD[i]
	}
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			ks.quu[i*d+j] = 0.5 * (phi.BtB[i*d+j] + phi.BtB[j*d+i] + phi.DtRhoD[i*d+j] + phi.DtRhoD[j*d+i])
		}
	}
}

// kalmanErr is the error of a failed Cholesky factorisation.
func kalmanErr(what string, t int) error {
	return fmt.Errorf("infer: Kalman smoother: %s is not positive definite at t=%d", what, t)
}

// precisions runs the precision pass for T steps (see KalmanSmoother and
// Smooth): forwards Λ_t, L*_t, X_t and ½ ln|Σ*_t⁻¹|, backwards P_t, Lψ_t,
// Y_t and the factors of Υ_{t,t}⁻¹, with ln|Σ_0⁻¹| and ln|Λ_T| for ln Z';
// it writes the covariances Υ_{t,t}, Υ_{t,t+1} into dst.
//
// The precisions Λ_t converge to a fixed point of the Riccati map
// Λ_{t−1} ↦ Λ_t; in floating point they usually reach it exactly, bit for
// bit, after a few steps. From the first t = F at which Λ_t equals Λ_{t−1}
// exactly, every later step would repeat the same operations on the same
// numbers, so the pass stores no more matrices: Λ_t for t ≥ F is Λ_F and
// L*_t, X_t for t ≥ F−1 are L*_{F−1}, X_{F−1} (lamAt, starAt, xsAt).
// Likewise the backward precisions P_t: once P_{t−1} equals P_t bit for
// bit, so do all earlier ones, and so do Lψ and Lψ⁻¹⟨A⟩, which are then
// kept rather than recomputed (psiAt). Where Λ_t = Λ_{t+1} and
// P_t = P_{t+1} exactly, Υ_{t,t} = Υ_{t+1,t+1} and its factor is kept
// (marAt); where moreover L*_t = L*_{t+1}, X_t = X_{t+1} and
// Υ_{t+1,t+1} = Υ_{t+2,t+2}, Υ_{t,t+1} = Υ_{t+1,t+2}. Each shortcut copies
// what the same operations on the same numbers would compute, so the
// results are identical to the full recursion's.
func (ks *KalmanSmoother) precisions(dst *LDSPosterior, phi *LDSNatural, T int) error {
	k := ks.k
	kk := k * k
	ks.passes++

	// Forwards, from Λ_0 = Σ_0⁻¹ (eq. 5.13).
	ks.steadyF = T + 1
	lam0 := ks.lam[:kk]
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			lam0[i*k+j] = 0.5 * (phi.Lambda0[i*k+j] + phi.Lambda0[j*k+i])
		}
	}
	copy(ks.z, lam0)
	if !numeric.CholFactor(ks.z, k) {
		return kalmanErr("the prior precision Σ_0⁻¹", 0)
	}
	ks.ldlam0 = numeric.CholLogDet(ks.z, k)
	for t := 1; t <= T && t <= ks.steadyF; t++ {
		// Σ*_{t−1}⁻¹ = Λ_{t−1} + ⟨AᵀA⟩ = L*L*ᵀ.
		ls, x := ks.lstar[(t-1)*kk:t*kk], ks.xs[(t-1)*kk:t*kk]
		lamPrev, lamCur := ks.lam[(t-1)*kk:t*kk], ks.lam[t*kk:(t+1)*kk]
		for i := range ls {
			ls[i] = lamPrev[i] + ks.ata[i]
		}
		if !numeric.CholFactor(ls, k) {
			return kalmanErr("Σ*⁻¹ = Σ_{t−1}⁻¹ + ⟨AᵀA⟩", t)
		}
		ks.ldstar[t-1] = 0.5 * numeric.CholLogDet(ls, k)
		// X = L*⁻¹⟨A⟩ᵀ, so ⟨A⟩Σ*⟨A⟩ᵀ = XᵀX and Λ_t = I + ⟨CᵀR⁻¹C⟩ − XᵀX.
		copy(x, ks.at)
		numeric.CholSolve(ls, k, x, k)
		copy(lamCur, ks.icrcAt(t))
		kalmanSubGram(lamCur, k, x, k)
		kalmanMirror(lamCur, k)
		if !ks.noReuse && ks.vary == nil && kalmanEqual(lamCur, lamPrev) {
			ks.steadyF = t
		}
	}

	// Backwards, from P_T = 0.
	pc, pn := ks.pc, ks.pn
	clear(pc)
	ks.steadyP, ks.vTop = -1, 0
	pSame := false     // P_t = P_{t+1} exactly
	vSameNext := false // Υ_{t+1,t+1} = Υ_{t+2,t+2} exactly
	for t := T; t >= 0; t-- {
		vt, wt := dst.V0, dst.W0
		if t > 0 {
			vt, wt = dst.V[(t-1)*kk:t*kk], nil
			if t < T {
				wt = dst.W[(t-1)*kk : t*kk]
			}
		}

		// Υ_{t,t}⁻¹ = Λ_t + P_t = LLᵀ.
		vSame := t < T && t >= ks.steadyF && pSame
		if vSame {
			copy(vt, dst.V[t*kk:(t+1)*kk])
			if ks.vTop == 0 {
				ks.vTop = t + 1
			}
		} else {
			sm, lamT := ks.lmar[t*kk:(t+1)*kk], ks.lamAt(t)
			for i := range sm {
				sm[i] = lamT[i] + pc[i]
			}
			if !numeric.CholFactor(sm, k) {
				return kalmanErr("Υ_{t,t}⁻¹ = Σ_t⁻¹ + Ψ_t⁻¹", t)
			}
			numeric.CholInverse(vt, sm, k, ks.z)
			if t == T {
				ks.ldlamT = numeric.CholLogDet(sm, k) // P_T = 0
			}
		}

		// Υ_{t,t+1} = Σ*_t⟨A⟩ᵀΥ_{t+1,t+1} = L*_t⁻ᵀ(X_t Υ_{t+1,t+1}).
		if t < T {
			if t+1 < T && t >= ks.steadyF-1 && vSameNext {
				copy(wt, dst.W[t*kk:(t+1)*kk])
			} else {
				kalmanMul(wt, ks.xsAt(t), k, k, dst.V[t*kk:(t+1)*kk], k)
				numeric.CholSolveT(ks.starAt(t), k, wt, k)
			}
		}
		vSameNext = vSame
		if t == 0 {
			break
		}

		// Ψ*_t⁻¹ = I + ⟨CᵀR⁻¹C⟩ + P_t = LψLψᵀ, Y = Lψ⁻¹⟨A⟩,
		// P_{t−1} = ⟨AᵀA⟩ − YᵀY.
		if !pSame {
			sp, yy := ks.lpsi[(t-1)*kk:t*kk], ks.ypsi[(t-1)*kk:t*kk]
			ic := ks.icrcAt(t)
			for i := range sp {
				sp[i] = ic[i] + pc[i]
			}
			if !numeric.CholFactor(sp, k) {
				return kalmanErr("Ψ*⁻¹ = I + ⟨CᵀR⁻¹C⟩ + Ψ_t⁻¹", t)
			}
			copy(yy, phi.A)
			numeric.CholSolve(sp, k, yy, k)
			copy(pn, ks.ata)
			kalmanSubGram(pn, k, yy, k)
			kalmanMirror(pn, k)
			if !ks.noReuse && ks.vary == nil && kalmanEqual(pn, pc) {
				pSame = true
				ks.steadyP = t - 1
			} else {
				pc, pn = pn, pc
			}
		}
	}
	ks.pc, ks.pn = pc, pn
	return nil
}

// icrcAt returns I + ⟨C_tᵀR⁻¹C_t⟩ of step t = 1, …, T: the symmetric part
// formed by prepare, or under SmoothVarying that of step t's term, formed in
// a scratch matrix that the next call overwrites.
func (ks *KalmanSmoother) icrcAt(t int) []float64 {
	if ks.vary == nil {
		return ks.icrc
	}
	k := ks.k
	kk := k * k
	c := ks.vary.CtRhoC[(t-1)*kk : t*kk]
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			ks.icv[i*k+j] = 0.5 * (c[i*k+j] + c[j*k+i])
		}
		ks.icv[i*k+i]++
	}
	return ks.icv
}

// lamAt returns Λ_t (see precisions).
func (ks *KalmanSmoother) lamAt(t int) []float64 {
	kk := ks.k * ks.k
	t = min(t, ks.steadyF)
	return ks.lam[t*kk : (t+1)*kk]
}

// starAt returns L*_t, the Cholesky factor of Λ_t + ⟨AᵀA⟩ (see precisions).
func (ks *KalmanSmoother) starAt(t int) []float64 {
	kk := ks.k * ks.k
	t = min(t, ks.steadyF-1)
	return ks.lstar[t*kk : (t+1)*kk]
}

// xsAt returns X_t = L*_t⁻¹⟨A⟩ᵀ (see precisions).
func (ks *KalmanSmoother) xsAt(t int) []float64 {
	kk := ks.k * ks.k
	t = min(t, ks.steadyF-1)
	return ks.xs[t*kk : (t+1)*kk]
}

// psiAt returns Lψ_t and Y_t = Lψ_t⁻¹⟨A⟩ for 1 ≤ t ≤ T (see precisions).
func (ks *KalmanSmoother) psiAt(t int) (lpsi, y []float64) {
	kk := ks.k * ks.k
	t = max(t, ks.steadyP+1)
	return ks.lpsi[(t-1)*kk : t*kk], ks.ypsi[(t-1)*kk : t*kk]
}

// marAt returns the Cholesky factor of Υ_{t,t}⁻¹ = Λ_t + P_t (see
// precisions).
func (ks *KalmanSmoother) marAt(t int) []float64 {
	kk := ks.k * ks.k
	if t >= ks.steadyF && t < ks.vTop {
		t = ks.vTop
	}
	return ks.lmar[t*kk : (t+1)*kk]
}

// forwardMeans runs the mean part of Algorithm 5.1 (see Smooth) on the
// factors of the precision pass and returns ln Z' without the t = T terms
// ½ ln|Σ_T| + ½ μ_TᵀΛ_Tμ_T, which backwardMeans adds, and without the terms
// of the data alone, which dataTerms returns.
func (ks *KalmanSmoother) forwardMeans(phi *LDSNatural, y, u []float64, T int) float64 {
	k, p, d := ks.k, ks.p, ks.d

	// The linear terms of every step t at once: row t−1 of drive, a_t =
	// ⟨R⁻¹C⟩ᵀy_t + (⟨B⟩ − ⟨CᵀR⁻¹D⟩)u_t, multiplies x_t, and row t−1 of
	// back, e_t = ⟨AᵀB⟩u_t, multiplies −x_{t−1}: drive = Y⟨R⁻¹C⟩ + U(⟨B⟩ −
	// ⟨CᵀR⁻¹D⟩)ᵀ and back = U⟨AᵀB⟩ᵀ, as products of T×p and T×d blocks.
	drive, back := ks.drive[:T*k], ks.back[:T*k]
	clear(drive)
	clear(back)
	if ks.vary != nil {
		// Time-varying observations (SmoothVarying): a_t = ⟨R⁻¹C_t⟩ᵀy_t.
		pk := p * k
		for t := 0; t < T; t++ {
			kalmanMulTVec(drive[t*k:(t+1)*k], ks.vary.RhoC[t*pk:(t+1)*pk], p, k, y[t*p:(t+1)*p])
		}
	} else {
		numeric.MulAddT(T, k, p, y, p, ks.rct, p, drive, k)
	}
	if d > 0 {
		numeric.MulAddT(T, k, d, u, d, ks.bmc, d, drive, k)
		numeric.MulAddT(T, k, d, u, d, phi.AtB, d, back, k)
	}

	// t = 0: the prior N(μ_0, Σ_0) of x_0 (eq. 5.13); ln Z' starts with
	// −½ ln|Σ_0| − ½ μ_0ᵀΛ_0μ_0.
	h0 := ks.h[:k]
	clear(h0)
	kalmanMulVec(h0, ks.lam[:k*k], k, k, phi.Mu0)
	lnZ := 0.5*ks.ldlam0 - 0.5*kalmanDot(phi.Mu0, h0)

	for t := 1; t <= T; t++ {
		ls, x := ks.starAt(t-1), ks.xsAt(t-1)
		lnZ -= ks.ldstar[min(t-1, ks.steadyF-1)] // −½ ln|Σ*_{t−1}⁻¹|

		// w = L*⁻¹(h_{t−1} − e_t): h_t = a_t + Xᵀw and ½‖w‖² enters ln ζ'_t.
		a := drive[(t-1)*k : t*k]
		e := back[(t-1)*k : t*k]
		hPrev, hCur := ks.h[(t-1)*k:t*k], ks.h[t*k:(t+1)*k]
		w := ks.v
		for i := range w {
			w[i] = hPrev[i] - e[i]
		}
		numeric.CholSolveVec(ls, k, w)
		lnZ += 0.5 * kalmanDot(w, w)
		copy(hCur, a)
		kalmanMulTVec(hCur, x, k, k, w)
	}
	return lnZ
}

// dataTerms returns the terms of ln Z' = Σ_t ln ζ'_t (see Smooth) that
// involve neither the states nor the means h_t, from the moments of the
// sequence (LDSMoments):
//
//	T[½⟨ln|R⁻¹|⟩ − (p/2) ln 2π] − ½ Σ_s ρ̄_s YY_s + Σ_sc ⟨R⁻¹D⟩_sc YU_sc
//	− ½ Σ_ab (⟨BᵀB⟩ + ⟨DᵀR⁻¹D⟩)_ab UU_ab.
func (ks *KalmanSmoother) dataTerms(phi *LDSNatural, mom *LDSMoments) float64 {
	q := float64(mom.T)*(0.5*phi.LogDetRho-0.5*float64(ks.p)*math.Log(2*math.Pi)) - 0.5*numeric.Dot(phi.Rho, mom.YY)
	if ks.d > 0 {
		q += numeric.Dot(phi.RhoD, mom.YU) - 0.5*numeric.Dot(ks.quu, mom.UU)
	}
	return q
}

// backwardMeans runs the mean part of Algorithm 5.2 and the means ω_t (see
// Smooth) on the factors of the precision pass, writing ω_t into dst, and
// returns lnZ completed with the t = T terms of the forward pass.
func (ks *KalmanSmoother) backwardMeans(dst *LDSPosterior, lnZ float64, T int) float64 {
	k := ks.k
	gc, gn := ks.gc, ks.gn
	clear(gc) // g_T = 0
	for t := T; t >= 0; t-- {
		om := dst.X0
		if t > 0 {
			om = dst.X[(t-1)*k : t*k]
		}

		// ω_t = L⁻ᵀL⁻¹(h_t + g_t) with Υ_{t,t}⁻¹ = LLᵀ.
		sm := ks.marAt(t)
		ht := ks.h[t*k : (t+1)*k]
		for i := range om {
			om[i] = ht[i] + gc[i]
		}
		numeric.CholSolveVec(sm, k, om)
		if t == T {
			// P_T = 0, so sm = Λ_T: add ½ ln|Σ_T| + ½ h_TᵀΛ_T⁻¹h_T.
			lnZ += 0.5*kalmanDot(om, om) - 0.5*ks.ldlamT
		}
		numeric.CholSolveVecT(sm, k, om)
		if t == 0 {
			break
		}

		// β_t → β_{t−1}: g_{t−1} = −e_t + Yᵀ Lψ⁻¹(a_t + g_t).
		sp, yy := ks.psiAt(t)
		v := ks.v
		a := ks.drive[(t-1)*k : t*k]
		for i := range v {
			v[i] = a[i] + gc[i]
		}
		numeric.CholSolveVec(sp, k, v)
		e := ks.back[(t-1)*k : t*k]
		for i := range gn {
			gn[i] = -e[i]
		}
		kalmanMulTVec(gn, yy, k, k, v)
		gc, gn = gn, gc
	}
	ks.gc, ks.gn = gc, gn
	return lnZ
}

// kalmanEqual reports whether a and b are equal element by element (bit
// patterns aside, as ==: a NaN is never equal).
func kalmanEqual(a, b []float64) bool {
	b = b[:len(a)]
	for i, v := range a {
		if v != b[i] {
			return false
		}
	}
	return true
}

// kalmanDot returns Σ_i a_i b_i over the length of a.
func kalmanDot(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}
