package gmm

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Unconstrained is ln p(θ, X) with Z summed out (as Target's) in
// unconstrained coordinates u, with the log Jacobian of θ(u) added, so that
// ∫ exp(LogProb(u)) du = p(X | K): the density of Laplace's approximation
// (core/approx.Laplace; PRML (4.133)–(4.135)). u holds, in order,
//
//   - η_1…η_{K−1}, the additive log-ratios η_k = ln(π_k/π_K), whose map to
//     (π_1, …, π_{K−1}) (the coordinates of the Dirichlet's density) has
//     Jacobian Π_{k=1}^{K} π_k;
//   - μ_1…μ_K (K·D values);
//   - for each component the lower triangle of the Cholesky factor L_k of
//     Λ_k = L_kL_kᵀ row by row, its diagonal as ln L_ii, whose map to the
//     D(D+1)/2 distinct entries of Λ_k (the Wishart's coordinates) has
//     Jacobian 2^D Π_i L_ii^{D−i+1} · Π_i L_ii (i = 1…D; Muirhead (1982)
//     Theorem 2.1.9 and the log of the diagonal).
//
// Each mode of p(θ | X) has K! relabelled copies; Laplace at one of them
// estimates p(X)/K! when the copies are separate, so the caller adds
// LogFactorial(K). An Unconstrained holds scratch: one per goroutine.
type Unconstrained struct {
	j      *Joint
	logPi  []float64 // K
	l      []float64 // K×D×D
	gc, lp []float64 // K
	// Grad's scratch: ∂/∂L_k (K×D×D), the counts α₀ + N_k (K), Lᵀy (D);
	// Hess's: v ± h e_i and the two gradients.
	gl, w, t   []float64
	vh, gp, gm []float64
}

// NewUnconstrained returns the Laplace density of K components with the
// prior on the data x (N×D row-major, not copied).
func NewUnconstrained(x []float64, d, k int, prior Prior) (*Unconstrained, error) {
	j, err := NewJoint(x, d, k, prior)
	if err != nil {
		return nil, err
	}
	p := UnconstrainedDim(k, d)
	return &Unconstrained{j: j, logPi: make([]float64, k), l: make([]float64, k*d*d), gc: make([]float64, k), lp: make([]float64, k),
		gl: make([]float64, k*d*d), w: make([]float64, k), t: make([]float64, d),
		vh: make([]float64, p), gp: make([]float64, p), gm: make([]float64, p)}, nil
}

// UnconstrainedDim returns the length of u: K − 1 + K·D + K·D(D+1)/2.
func UnconstrainedDim(k, d int) int { return ParamDim(k, d) - 1 }

// Dim returns UnconstrainedDim(K, D).
func (u *Unconstrained) Dim() int { return UnconstrainedDim(u.j.k, u.j.d) }

// unpack reads ln π and the factors L_k of v into u's scratch and returns
// the log Jacobian ln|∂θ/∂u|.
func (u *Unconstrained) unpack(v []float64) float64 {
	k, d := u.j.k, u.j.d
	copy(u.logPi, v[:k-1])
	u.logPi[k-1] = 0
	lse := numeric.LogSumExp(u.logPi) // ln(1 + Σ e^η)
	var lj float64
	for c := range k {
		u.logPi[c] -= lse
		lj += u.logPi[c]
	}
	off := k - 1 + k*d
	for c := range k {
		lc := u.l[c*d*d : (c+1)*d*d]
		for a := range d {
			for b := 0; b <= a; b++ {
				if a == b {
					lc[a*d+a] = math.Exp(v[off])
					lj += float64(d-a+1) * v[off] // (D − i + 1) + 1 with i = a + 1
				} else {
					lc[a*d+b] = v[off]
				}
				off++
			}
			for b := a + 1; b < d; b++ {
				lc[a*d+b] = 0
			}
		}
		lj += float64(d) * math.Ln2
	}
	return lj
}

// LogProb returns ln p(θ(v)) + ln p(X | θ(v)) + ln|∂θ/∂v|. It panics if
// len(v) != Dim(). It does not allocate.
func (u *Unconstrained) LogProb(v []float64) float64 {
	j, k, d := u.j, u.j.k, u.j.d
	if len(v) != u.Dim() {
		panic("gmm: Unconstrained: u of the wrong length")
	}
	lp := u.unpack(v)
	p := j.prior
	lp += j.lnC0
	for _, lw := range u.logPi {
		lp += (p.Alpha0 - 1) * lw
	}
	mu := v[k-1 : k-1+k*d]
	for c := range k {
		lp += logNW(mu[c*d:(c+1)*d], u.l[c*d*d:(c+1)*d*d], p.M0, p.Beta0, p.Nu0, j.c.w0inv, j.c.lnZ0, d)
	}
	u.gc = gaussConsts(u.gc, u.l, k, d)
	for c := range u.gc {
		u.gc[c] += u.logPi[c]
	}
	for i := range j.n {
		xi := j.x[i*d : (i+1)*d]
		for c := range k {
			u.lp[c] = u.gc[c] - 0.5*quadL(u.l[c*d*d:(c+1)*d*d], xi, mu[c*d:(c+1)*d], d)
		}
		lp += numeric.LogSumExp(u.lp)
	}
	return lp
}

// Grad writes ∇_v LogProb(v) into dst (len Dim()) and returns LogProb(v).
// With r_nk the responsibilities at θ(v), N_k = Σ_n r_nk, y = x_n − μ_k
// and Λ_k = L_kL_kᵀ, the terms of LogProb give
//
//	∂/∂η_j = w_j − π_j Σ_k w_k, w_k = α₀ + N_k (the Dirichlet's α₀ − 1,
//	         the Jacobian's 1 and the likelihood's N_k, each times ∂ ln π_k/∂η_j = δ_kj − π_j);
//	∂/∂μ_k = Σ_n r_nk Λ_k(x_n − μ_k) − β₀Λ_k(μ_k − m₀);
//	∂/∂L_k[a,b] (a ≥ b) = −Σ_n r_nk y_a (L_kᵀy)_b − β₀ y⁰_a (L_kᵀy⁰)_b − (W₀⁻¹L_k)_ab, y⁰ = μ_k − m₀
//	         (from −½ yᵀLLᵀy and −½ Tr(W₀⁻¹LLᵀ)), plus on the diagonal
//	         (N_k + ν₀ − D)/L_aa from the ln|Λ_k| terms (ν₀ − D + 1 of the
//	         Normal–Wishart, N_k of the likelihood), times L_aa for ln L_aa,
//	         plus the Jacobian's D − a + 1 (a = 0…D−1).
//
// It panics if len(v) or len(dst) != Dim(). It does not allocate.
func (u *Unconstrained) Grad(dst, v []float64) float64 {
	j, k, d := u.j, u.j.k, u.j.d
	if len(v) != u.Dim() || len(dst) != u.Dim() {
		panic("gmm: Unconstrained: u of the wrong length")
	}
	lp := u.unpack(v)
	p := j.prior
	lp += j.lnC0
	for _, lw := range u.logPi {
		lp += (p.Alpha0 - 1) * lw
	}
	mu := v[k-1 : k-1+k*d]
	gmu := dst[k-1 : k-1+k*d]
	clear(dst)
	clear(u.gl)
	df := float64(d)
	for c := range k {
		lc, gl := u.l[c*d*d:(c+1)*d*d], u.gl[c*d*d:(c+1)*d*d]
		mc := mu[c*d : (c+1)*d]
		lp += logNW(mc, lc, p.M0, p.Beta0, p.Nu0, j.c.w0inv, j.c.lnZ0, d)
		u.w[c] = p.Alpha0
		// −(β₀/2)‖Lᵀy⁰‖²: y⁰ = μ − m₀.
		u.quadGrad(lc, gl, gmu[c*d:(c+1)*d], mc, p.M0, p.Beta0, 1)
		// −½ Tr(W₀⁻¹ L Lᵀ): −(W₀⁻¹L)_ab.
		for a := range d {
			for b := 0; b <= a; b++ {
				var s float64
				for e := b; e < d; e++ {
					s += j.c.w0inv[a*d+e] * lc[e*d+b]
				}
				gl[a*d+b] -= s
			}
		}
	}
	u.gc = gaussConsts(u.gc, u.l, k, d)
	for c := range u.gc {
		u.gc[c] += u.logPi[c]
	}
	for i := range j.n {
		xi := j.x[i*d : (i+1)*d]
		for c := range k {
			u.lp[c] = u.gc[c] - 0.5*quadL(u.l[c*d*d:(c+1)*d*d], xi, mu[c*d:(c+1)*d], d)
		}
		lse := numeric.LogSumExp(u.lp)
		lp += lse
		for c := range k {
			r := math.Exp(u.lp[c] - lse)
			u.w[c] += r
			u.quadGrad(u.l[c*d*d:(c+1)*d*d], u.gl[c*d*d:(c+1)*d*d], gmu[c*d:(c+1)*d], xi, mu[c*d:(c+1)*d], r, -1)
		}
	}
	var wsum float64
	for _, w := range u.w {
		wsum += w
	}
	for c := 0; c < k-1; c++ {
		dst[c] = u.w[c] - math.Exp(u.logPi[c])*wsum
	}
	off := k - 1 + k*d
	for c := range k {
		lc, gl := u.l[c*d*d:(c+1)*d*d], u.gl[c*d*d:(c+1)*d*d]
		// N_k + (ν₀ − D + 1) − 1: the w_k above holds α₀ + N_k.
		nk := u.w[c] - p.Alpha0
		for a := range d {
			for b := 0; b <= a; b++ {
				if a == b {
					dst[off] = gl[a*d+a]*lc[a*d+a] + nk + p.Nu0 - df + float64(d-a+1)
				} else {
					dst[off] = gl[a*d+b]
				}
				off++
			}
		}
	}
	return lp
}

// Hess writes ∇∇_v LogProb(v) into dst (Dim()×Dim(), row-major) by
// central differences of Grad, column i from Grad(v ± h_i e_i) with h_i =
// 1e-5·max(1, |v_i|) (error O(h²) from the third derivatives, and about
// 1e-16·|∇|/h from round-off), symmetrised as (H + Hᵀ)/2: 2·Dim() calls
// of Grad. It panics as Grad does. It does not allocate.
func (u *Unconstrained) Hess(dst, v []float64) {
	n := u.Dim()
	if len(dst) != n*n {
		panic("gmm: Unconstrained: Hessian of the wrong size")
	}
	copy(u.vh, v)
	for i := range n {
		h := 1e-5 * math.Max(1, math.Abs(v[i]))
		u.vh[i] = v[i] + h
		u.Grad(u.gp, u.vh)
		u.vh[i] = v[i] - h
		u.Grad(u.gm, u.vh)
		u.vh[i] = v[i]
		for r := range n {
			dst[r*n+i] = (u.gp[r] - u.gm[r]) / (2 * h)
		}
	}
	for r := range n {
		for c := 0; c < r; c++ {
			m := 0.5 * (dst[r*n+c] + dst[c*n+r])
			dst[r*n+c], dst[c*n+r] = m, m
		}
	}
}

// quadGrad adds the gradient of −(s/2)‖Lᵀy‖², y = x − μ, to gl (∂/∂L,
// lower triangle: −s y_a (Lᵀy)_b) and to gmu, the gradient in the mean
// whose sign in y is sigma (−1 for a likelihood term, x_n − μ_k; +1 for the
// prior's, μ_k − m₀): −s·sigma·L Lᵀy. It does not allocate.
func (u *Unconstrained) quadGrad(l, gl, gmu, x, mu []float64, s, sigma float64) {
	d := u.j.d
	t := u.t
	for b := range d {
		var v float64
		for a := b; a < d; a++ {
			v += l[a*d+b] * (x[a] - mu[a])
		}
		t[b] = v
	}
	for a := range d {
		ya := x[a] - mu[a]
		var lt float64
		for b := 0; b <= a; b++ {
			gl[a*d+b] -= s * ya * t[b]
			lt += l[a*d+b] * t[b]
		}
		gmu[a] -= s * sigma * lt
	}
}

// Pack returns the coordinates u of θ (every weight positive, every
// precision positive definite).
func (u *Unconstrained) Pack(t Params) ([]float64, error) {
	k, d := u.j.k, u.j.d
	if t.K != k || t.D != d {
		return nil, fmt.Errorf("gmm: Pack: θ of K = %d, D = %d for K = %d, D = %d", t.K, t.D, k, d)
	}
	v := make([]float64, u.Dim())
	for c := range k {
		if !(t.Weights[c] > 0) {
			return nil, fmt.Errorf("gmm: Pack: weight %d is %v (an empty component has no unconstrained coordinates)", c, t.Weights[c])
		}
	}
	for c := 0; c < k-1; c++ {
		v[c] = math.Log(t.Weights[c]) - math.Log(t.Weights[k-1])
	}
	copy(v[k-1:], t.Means)
	off := k - 1 + k*d
	l := make([]float64, d*d)
	for c := range k {
		copy(l, t.Precisions[c*d*d:(c+1)*d*d])
		if !numeric.CholFactor(l, d) {
			return nil, fmt.Errorf("gmm: Pack: the precision of component %d is not positive definite", c)
		}
		for a := range d {
			for b := 0; b <= a; b++ {
				if a == b {
					v[off] = math.Log(l[a*d+a])
				} else {
					v[off] = l[a*d+b]
				}
				off++
			}
		}
	}
	return v, nil
}

// Unpack returns the parameters θ at the coordinates v.
func (u *Unconstrained) Unpack(v []float64) Params {
	k, d := u.j.k, u.j.d
	u.unpack(v)
	t := newParams(k, d)
	for c := range k {
		t.Weights[c] = math.Exp(u.logPi[c])
	}
	copy(t.Means, v[k-1:k-1+k*d])
	s := State{L: u.l}
	for c := range k {
		s.Precision(c, d, t.Precisions[c*d*d:(c+1)*d*d])
	}
	return t
}
