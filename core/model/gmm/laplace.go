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
}

// NewUnconstrained returns the Laplace density of K components with the
// prior on the data x (N×D row-major, not copied).
func NewUnconstrained(x []float64, d, k int, prior Prior) (*Unconstrained, error) {
	j, err := NewJoint(x, d, k, prior)
	if err != nil {
		return nil, err
	}
	return &Unconstrained{j: j, logPi: make([]float64, k), l: make([]float64, k*d*d), gc: make([]float64, k), lp: make([]float64, k)}, nil
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
