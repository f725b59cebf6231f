package mixture

import (
	"fmt"
	"math"
	"slices"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Floor is the responsibility below which NormalizeLog sets q_is to 0.
// Smaller values (down to subnormal numbers, for points far from a
// component) make every product with them subnormal and a model's
// statistics many times slower; dropping them changes F by less than
// 1e-190 nats.
const Floor = 1e-200

// chunk is the number of points NormalizeLog handles at a time, so that its
// row maxima and sums stay in cache (and on the stack).
const chunk = 512

// NormalizeLog replaces the log-terms ℓ_si held in r (S×n, component-major)
// by the responsibilities
//
//	q_is = exp(ℓ_si − ln Z_i),  ln Z_i = ln Σ_s exp ℓ_si,
//
// the update of q(s_i) of eq. (4.57) (PRML (10.46), (10.49)), and writes ln Z_i
// into lnZ (length n). Each point is normalised in the log domain with its
// largest term m_i subtracted: the largest term gives exp(0) = 1 exactly,
// exponentials that underflow give 0 (numeric.ExpSubTo, math.Exp four
// at a time), the rest are multiplied by the reciprocal of their sum, and
// values below Floor become 0; ln Z_i = m_i + ln Σ_s exp(ℓ_si − m_i).
// NormalizeLog does not allocate.
//
// If a point's log-terms hold a NaN or have no finite maximum it returns an
// error naming the point, with r partly overwritten. It panics if len(r) is
// not a multiple of n or lnZ is shorter than n.
func NormalizeLog(r []float64, n int, lnZ []float64) error {
	if n == 0 {
		return nil
	}
	if len(r)%n != 0 || len(lnZ) < n {
		panic("mixture: NormalizeLog: bad lengths")
	}
	S := len(r) / n
	var mxBuf, zBuf [chunk]float64
	for i0 := 0; i0 < n; i0 += chunk {
		i1 := min(i0+chunk, n)
		mx, z := mxBuf[:i1-i0], zBuf[:i1-i0]
		for i := range mx {
			mx[i] = math.Inf(-1)
		}
		// chk is NaN if a term is NaN (or +Inf meets −Inf, or finite terms
		// overflow and meet −Inf; badLogTerms then looks term by term):
		// one addition per term instead of a test.
		var chk float64
		for s := 0; s < S; s++ {
			l := r[s*n+i0 : s*n+i1]
			l = l[:len(mx)]
			for i, v := range l {
				if v > mx[i] {
					mx[i] = v
				}
				chk += v
			}
		}
		bad := chk != chk
		for _, v := range mx {
			bad = bad || math.IsInf(v, 0)
		}
		if bad {
			if err := badLogTerms(r, n, i0, i1); err != nil {
				return err
			}
		}
		// e = exp(ℓ − m) (the largest term exp(0) = 1 exactly, an
		// underflow 0) and z += e, by the vector kernels; they are
		// math.Exp and the sum e + z bit for bit.
		clear(z)
		for s := 0; s < S; s++ {
			l := r[s*n+i0 : s*n+i1]
			numeric.ExpSubTo(l, l, mx)
			numeric.Axpy(1, l, z)
		}
		for i, v := range z {
			lnZ[i0+i] = mx[i]
			if v != 1 { // v = 1 when every other term underflowed
				lnZ[i0+i] += math.Log(v)
			}
			z[i] = 1 / v
		}
		for s := 0; s < S; s++ {
			l := r[s*n+i0 : s*n+i1]
			for i, v := range l {
				v *= z[i]
				if v < Floor {
					v = 0
				}
				l[i] = v
			}
		}
	}
	return nil
}

// badLogTerms returns the error of NormalizeLog for the first point in
// i0 ≤ i < i1 whose log-terms have a NaN or no finite maximum, or nil if
// there is none.
func badLogTerms(r []float64, n, i0, i1 int) error {
	S := len(r) / n
	for i := i0; i < i1; i++ {
		mx := math.Inf(-1)
		for s := 0; s < S; s++ {
			v := r[s*n+i]
			if v > mx || math.IsNaN(v) {
				mx = v
			}
			if math.IsNaN(v) {
				break
			}
		}
		if math.IsNaN(mx) || math.IsInf(mx, 0) {
			return fmt.Errorf("q(s) of point %d: log-normaliser %v", i, mx)
		}
	}
	return nil
}

// Counts sets dst[s] = N_s = Σ_i q_is (PRML (10.51); numeric.Sum, a fixed
// order) for the responsibilities r (S×n) and returns dst; a nil dst is
// allocated.
func Counts(dst, r []float64, n int) []float64 {
	S := len(r) / n
	if dst == nil {
		dst = make([]float64, S)
	}
	for s := range dst[:S] {
		dst[s] = numeric.Sum(r[s*n : (s+1)*n])
	}
	return dst
}

// UpdateWeights sets q(π) = Dir(ω) to its VB update given q(s) (eq. (4.37);
// PRML (10.58)) under the symmetric prior Dir(α/S, …, α/S):
//
//	ω_s = α/S + N_s,  N_s = Σ_i q_is,
//
// with S = len(omega) components and r (S×n) the responsibilities.
func UpdateWeights(omega, r []float64, n int, alpha float64) {
	S := len(omega)
	for s := range omega {
		omega[s] = alpha/float64(S) + numeric.Sum(r[s*n:(s+1)*n])
	}
}

// KLWeights returns KL(Dir(ω) ‖ Dir(α/S, …, α/S)), S = len(omega), the
// Dirichlet KL of Beal (2003) Appendix A (dist.DirichletKL) against the
// symmetric prior of the mixing weights (eqs. (4.15), (4.29); it is
// PRML (10.76) − (10.73)):
//
//	ln Γ(ω_0) − ln Γ(α) + Σ_s [ln Γ(α/S) − ln Γ(ω_s) + (ω_s − α/S)(ψ(ω_s) − ψ(ω_0))],
//
// with ω_0 = Σ_s ω_s (and α summed as S terms α/S, as dist.DirichletKL
// would). It panics if α or some ω_s is not positive. It does not
// allocate.
func KLWeights(omega []float64, alpha float64) float64 {
	a := alpha / float64(len(omega))
	if !(a > 0) {
		panic("mixture: Dirichlet prior strength not positive")
	}
	var q0, p0 float64
	for _, w := range omega {
		if !(w > 0) {
			panic("mixture: Dirichlet parameter not positive")
		}
		q0 += w
		p0 += a
	}
	psiQ0 := numeric.Digamma(q0)
	lgA := numeric.LogGamma(a)
	kl := numeric.LogGamma(q0) - numeric.LogGamma(p0)
	for _, w := range omega {
		kl += lgA - numeric.LogGamma(w)
		if d := w - a; d != 0 {
			kl += d * (numeric.Digamma(w) - psiQ0)
		}
	}
	return kl
}

// Entropy returns the entropy of q(s) = Π_i q(s_i),
//
//	H[q(s)] = −Σ_s Σ_i q_is ln q_is,  0 ln 0 = 0,
//
// the entropy term of F (eq. (4.29); −E[ln q(Z)], PRML (10.75)), for the
// responsibilities r in any layout (the sum runs over r in order). Right
// after NormalizeLog a model may instead use ln q_is = ℓ_si − ln Z_i, which
// needs no logarithm per term and can share a pass with the model's other
// sums over q_is (mfa's bound does).
func Entropy(r []float64) float64 { return numeric.Entropy(r) }

// Add returns the responsibilities r (S×n) of a birth: a new slice with a
// component S appended whose q_iS are 0. The caller moves mass to it (for
// example the parent's q_is′ of the points on one side of a split, eqs.
// (4.73)–(4.76)), so that every point still sums to 1.
func Add(r []float64, n int) []float64 {
	out := make([]float64, len(r)+n)
	copy(out, r)
	return out
}

// Remove returns the responsibilities r (S×n) after the death of component
// s: a new slice without it, each point's q renormalised over the other S−1
// components, and a point whose mass was all on s made uniform (a death,
// Beal (2003) section 4.3.1, lines 2631–2637). It panics unless 0 ≤ s < S
// and S ≥ 2.
func Remove(r []float64, n, s int) []float64 {
	S := len(r) / n
	if s < 0 || s >= S || S < 2 {
		panic("mixture: Remove: bad component")
	}
	out := slices.Delete(slices.Clone(r), s*n, (s+1)*n)
	S--
	for i := 0; i < n; i++ {
		var tot float64
		for t := 0; t < S; t++ {
			tot += out[t*n+i]
		}
		for t := 0; t < S; t++ {
			if tot > 0 {
				out[t*n+i] /= tot
			} else {
				out[t*n+i] = 1 / float64(S)
			}
		}
	}
	return out
}

// SplitWeight returns ω after the birth of a child of component s: ω_s is
// shared equally between s and the child, appended as component S (targets
// ch4-mfa.md §1.9: the parent's Dirichlet count is halved). The result may
// share omega's array (as append does).
func SplitWeight(omega []float64, s int) []float64 {
	half := omega[s] / 2
	omega[s] = half
	return append(omega, half)
}

// Owned returns, for each of the S components of the responsibilities r
// (S×n), the points whose largest q(s_i = s) is s's (ties to the lower s):
// the data a component "covers" (D'Souza (2004) Algorithm 2, L776).
func Owned(r []float64, n int) [][]int {
	S := len(r) / n
	out := make([][]int, S)
	for i := 0; i < n; i++ {
		best := 0
		for s := 1; s < S; s++ {
			if r[s*n+i] > r[best*n+i] {
				best = s
			}
		}
		out[best] = append(out[best], i)
	}
	return out
}

// CheckResponsibilities returns an error unless r holds S×n
// responsibilities (component-major, as NormalizeLog writes them) whose
// every point's column is a distribution: each q_is ≥ 0, summing to 1
// within 10⁻⁹. A model's hand-built start (SetResponsibilities) checks
// its argument with it.
func CheckResponsibilities(r []float64, s, n int) error {
	if len(r) != s*n {
		return fmt.Errorf("%d responsibilities, want K·N = %d", len(r), s*n)
	}
	for i := 0; i < n; i++ {
		var sum float64
		for j := 0; j < s; j++ {
			v := r[j*n+i]
			if !(v >= 0) {
				return fmt.Errorf("responsibility of point %d not a probability", i)
			}
			sum += v
		}
		if math.Abs(sum-1) > 1e-9 {
			return fmt.Errorf("responsibilities of point %d sum to %v", i, sum)
		}
	}
	return nil
}
