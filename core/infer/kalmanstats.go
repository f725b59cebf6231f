package infer

import (
	"fmt"

	"github.com/vbworkbench/vbw/core/numeric"
)

// LDSStats are the expected sufficient statistics of the hidden states that
// the VBM step of the linear-Gaussian state-space model reads (Beal 2003
// eqs. 5.126-5.132, lines 3852-3877), summed over sequences (eqs.
// 5.148-5.149), with what the x_0 prior update (eqs. 5.150-5.151) and the
// bound (eq. 5.147) need. With thesis times t = 1, …, T_i of sequence i,
// ω_t = ⟨x_t⟩, Υ_{t,t} = Cov(x_t) and Υ_{t−1,t} = Cov(x_{t−1}, x_t):
//
//	WA = Σ_i Σ_t Υ_{t−1,t−1} + ω_{t−1}ω_{t−1}ᵀ   k×k, ⟨x_{t−1}x_{t−1}ᵀ⟩ over t−1 = 0..T_i−1 (5.126)
//	GA = Σ_i Σ_t ω_{t−1} u_tᵀ                    k×d (5.127)
//	SA = Σ_i Σ_t Υ_{t−1,t} + ω_{t−1}ω_tᵀ         k×k, ⟨x_{t−1}x_tᵀ⟩ (5.129)
//	WC = Σ_i Σ_t Υ_{t,t} + ω_t ω_tᵀ              k×k, ⟨x_t x_tᵀ⟩ over t = 1..T_i (5.130)
//	GC = Σ_i Σ_t ω_t u_tᵀ                        k×d (5.131; M̃ of 5.128 is GCᵀ)
//	SC = Σ_i Σ_t ω_t y_tᵀ                        k×p (5.132)
//
// and, over sequences, X0Sum = Σ_i ω_{i,0}, X0Outer = Σ_i ω_{i,0}ω_{i,0}ᵀ,
// X0Cov = Σ_i Υ_{i,0,0} (so that μ_0 = X0Sum/N and Σ_0 = (X0Cov +
// X0Outer)/N − μ_0μ_0ᵀ, eqs. 5.150-5.151; the scatter X0Outer/N − μ_0μ_0ᵀ
// is kept apart from X0Cov/N so that for N = 1 it cancels exactly), N
// sequences, T = Σ_i T_i time steps and LogZ = Σ_i ln Z'_i. Ü, U_Y and the
// diagonal of Ÿ (eq. 5.34) depend on the data alone and are not included.
// WA, WC and X0Cov, X0Outer are exactly symmetric.
type LDSStats struct {
	K, P, D int
	N, T    int
	WA, SA  []float64 // k×k
	WC      []float64 // k×k
	GA, GC  []float64 // k×d
	SC      []float64 // k×p
	X0Sum   []float64 // k
	X0Outer []float64 // k×k
	X0Cov   []float64 // k×k
	LogZ    float64
}

// NewLDSStats returns zero statistics for k states, p outputs and d inputs.
func NewLDSStats(k, p, d int) *LDSStats {
	if k <= 0 || p <= 0 || d < 0 {
		panic(fmt.Sprintf("infer: LDS dimensions k=%d p=%d d=%d", k, p, d))
	}
	kk := k * k
	return &LDSStats{
		K: k, P: p, D: d,
		WA: make([]float64, kk), SA: make([]float64, kk), WC: make([]float64, kk),
		GA: make([]float64, k*d), GC: make([]float64, k*d), SC: make([]float64, k*p),
		X0Sum: make([]float64, k), X0Outer: make([]float64, kk), X0Cov: make([]float64, kk),
	}
}

// Zero sets all statistics to zero.
func (s *LDSStats) Zero() {
	for _, v := range s.slices() {
		clear(v)
	}
	s.N, s.T, s.LogZ = 0, 0, 0
}

func (s *LDSStats) slices() [9][]float64 {
	return [9][]float64{s.WA, s.SA, s.WC, s.GA, s.GC, s.SC, s.X0Sum, s.X0Outer, s.X0Cov}
}

// Add adds the statistics o (of other sequences) to s, for example those
// gathered by another goroutine. It panics if the dimensions differ.
func (s *LDSStats) Add(o *LDSStats) {
	if o.K != s.K || o.P != s.P || o.D != s.D {
		panic(fmt.Sprintf("infer: adding LDSStats k=%d p=%d d=%d to k=%d p=%d d=%d", o.K, o.P, o.D, s.K, s.P, s.D))
	}
	os := o.slices()
	for i, v := range s.slices() {
		for j, x := range os[i] {
			v[j] += x
		}
	}
	s.N += o.N
	s.T += o.T
	s.LogZ += o.LogZ
}

// AddSequence adds the statistics of one sequence with posterior post (from
// KalmanSmoother.Smooth), outputs y (T×p) and inputs u (T×d; nil when
// d = 0), including post.LogZ. It does not allocate. It panics if the
// shapes disagree.
func (s *LDSStats) AddSequence(post *LDSPosterior, y, u []float64) {
	k, p, d, T := s.K, s.P, s.D, post.T
	if post.K != k || len(y) != T*p || len(u) != T*d || T < 1 {
		panic(fmt.Sprintf("infer: AddSequence: posterior k=%d T=%d, len(y)=%d, len(u)=%d; stats k=%d p=%d d=%d",
			post.K, T, len(y), len(u), k, p, d))
	}
	kk := k * k
	// x_0: its own statistics, and its terms of WA, SA and GA.
	x0 := post.X0
	for i, v := range x0 {
		s.X0Sum[i] += v
	}
	for i, v := range post.V0 {
		s.X0Cov[i] += v
		s.WA[i] += v
	}
	kalmanAddOuter(s.X0Outer, x0, x0, 1)
	kalmanAddOuter(s.WA, x0, x0, 1)
	for i, v := range post.W0 {
		s.SA[i] += v
	}
	kalmanAddOuter(s.SA, x0, post.X[:k], 1)
	if d > 0 {
		kalmanAddOuter(s.GA, x0, u[:d], 1)
	}

	// The statistics that pair the states with the data, as products of
	// the T×k block of means with the T×p and T×d blocks of outputs and
	// inputs (each element summed in the order of t): SC += Xᵀ Y,
	// GC += Xᵀ U and GA += Xᵀ U shifted by one step (ω_t u_{t+1}ᵀ, t < T).
	numeric.MulAdd(k, p, T, post.X, 1, k, y, p, s.SC, p)
	if d > 0 {
		numeric.MulAdd(k, d, T, post.X, 1, k, u, d, s.GC, d)
		numeric.MulAdd(k, d, T-1, post.X, 1, k, u[d:], d, s.GA, d)
	}

	// t = 1..T: WC gets every step, WA all but the last, SA the pairs
	// (t, t+1) for t < T.
	for t := 0; t < T; t++ {
		xt := post.X[t*k : (t+1)*k]
		vt := post.V[t*kk : (t+1)*kk]
		for i, v := range vt {
			s.WC[i] += v
		}
		kalmanAddOuter(s.WC, xt, xt, 1)
		if t == T-1 {
			break
		}
		for i, v := range vt {
			s.WA[i] += v
		}
		kalmanAddOuter(s.WA, xt, xt, 1)
		for i, v := range post.W[t*kk : (t+1)*kk] {
			s.SA[i] += v
		}
		kalmanAddOuter(s.SA, xt, post.X[(t+1)*k:(t+2)*k], 1)
	}
	s.N++
	s.T += T
	s.LogZ += post.LogZ
}
