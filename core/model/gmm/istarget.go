package gmm

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// The flat parameter vector of importance sampling, θ = (ln π_1…ln π_K,
// μ_1…μ_K, Λ_1…Λ_K): K log weights, K·D means, then each precision's upper
// triangle row by row (D(D+1)/2 values). The weights are stored as logs so
// that the tiny weights of a Dirichlet with α₀ = 10⁻³ do not underflow; both
// the target and the proposal are densities with respect to the same
// measure (the Dirichlet's on the simplex, the Wishart's on the upper
// triangle), so their ratio, the importance weight, does not depend on how
// θ is stored.

// ParamDim returns the length of θ for K components in D dimensions.
func ParamDim(k, d int) int { return k + k*d + k*d*(d+1)/2 }

// Target is the log joint density ln p(θ, X) = ln p(θ) + Σ_n ln Σ_k π_k
// N(x_n | μ_k, Λ_k⁻¹) of the flat θ, with Z summed out (PRML (10.37)–(10.40)),
// whose normaliser is p(X | K): the target of importance sampling
// (samplers/is.Target by its method set; Beal (2003) eq. (4.103)). A Target
// holds scratch space: one per goroutine (Clone).
type Target struct {
	j       *Joint
	l       []float64 // K×D×D factors of Λ_k
	lp, gc  []float64 // K
	logPi   []float64 // K
	precBuf []float64 // D×D
}

// NewTarget returns the importance-sampling target of K components.
func NewTarget(x []float64, d, k int, prior Prior) (*Target, error) {
	j, err := NewJoint(x, d, k, prior)
	if err != nil {
		return nil, err
	}
	return j.newTarget(), nil
}

func (j *Joint) newTarget() *Target {
	d := j.d
	return &Target{j: j, l: make([]float64, j.k*d*d), lp: make([]float64, j.k), gc: make([]float64, j.k), logPi: make([]float64, j.k),
		precBuf: make([]float64, d*d)}
}

// Clone returns a Target with the same data and prior and its own scratch.
func (t *Target) Clone() *Target { return t.j.newTarget() }

// Dim returns ParamDim(K, D).
func (t *Target) Dim() int { return ParamDim(t.j.k, t.j.d) }

// unpack reads the log weights and the factors of the precisions of θ into
// t.logPi and t.l; it returns false if a weight is not positive or a
// precision is not positive definite (θ outside the support).
func unpack(theta []float64, k, d int, logPi, l []float64) bool {
	for c := 0; c < k; c++ {
		if math.IsNaN(theta[c]) || math.IsInf(theta[c], 0) {
			return false
		}
		logPi[c] = theta[c]
	}
	off := k + k*d
	for c := 0; c < k; c++ {
		lc := l[c*d*d : (c+1)*d*d]
		for a := 0; a < d; a++ {
			for b := a; b < d; b++ {
				lc[b*d+a] = theta[off] // lower triangle of the symmetric Λ
				off++
			}
		}
		if !numeric.CholFactor(lc, d) {
			return false
		}
	}
	return true
}

// LogProb returns ln p(θ) + ln p(X | θ), −Inf outside the support. It
// panics if len(theta) != Dim(). It does not allocate.
func (t *Target) LogProb(theta []float64) float64 {
	j, k, d := t.j, t.j.k, t.j.d
	if len(theta) != t.Dim() {
		panic("gmm: Target: θ of the wrong length")
	}
	if !unpack(theta, k, d, t.logPi, t.l) {
		return math.Inf(-1)
	}
	p := j.prior
	lp := j.lnC0
	for _, lw := range t.logPi {
		lp += (p.Alpha0 - 1) * lw
	}
	mu := theta[k : k+k*d]
	for c := 0; c < k; c++ {
		lp += logNW(mu[c*d:(c+1)*d], t.l[c*d*d:(c+1)*d*d], p.M0, p.Beta0, p.Nu0, j.c.w0inv, j.c.lnZ0, d)
	}
	t.gc = gaussConsts(t.gc, t.l, k, d)
	for c := range t.gc {
		t.gc[c] += t.logPi[c]
	}
	for i := 0; i < j.n; i++ {
		xi := j.x[i*d : (i+1)*d]
		for c := 0; c < k; c++ {
			t.lp[c] = t.gc[c] - 0.5*quadL(t.l[c*d*d:(c+1)*d*d], xi, mu[c*d:(c+1)*d], d)
		}
		lp += numeric.LogSumExp(t.lp)
	}
	return lp
}

// Proposal is the VB posterior q(π) Π_k q(μ_k, Λ_k) of PRML (10.57),
// (10.59), symmetrised over the K! relabellings of the components,
//
//	q_K!(θ) = (1/K!) Σ_σ q(θ_σ),
//
// the proposal of importance sampling (samplers/is.Proposal by its method
// set; Beal (2003) section 4.7, and the relabelled proposals of the HMM
// tightness study). Given several fits (the distinct local optima of
// restarts) it is the equal-weight mixture of their relabelled posteriors,
// so that a mode of the true posterior that one fit misses can be covered
// by another. A draw picks a fit uniformly, takes θ ~ q and permutes its
// components by a uniform random σ. The density of one fit sums over the K!
// permutations of the K×K matrix of each q-component's log density at each
// θ-component (the Dirichlet's normaliser does not depend on the order).
// Up to K = 8. A Proposal holds scratch space: one per goroutine (Clone).
type Proposal struct {
	k, d  int
	parts []*relabelled
	perms [][]int
	lnKF  float64 // ln K!

	// scratch
	logPi, l, a, terms, parts1, eps []float64
	perm                            []int
}

// relabelled is one fit's q(π, μ, Λ).
type relabelled struct {
	alpha []float64
	lnC   float64 // ln C(α)
	beta  []float64
	nu    []float64
	m     []float64 // K×D
	winv  []float64 // K×D×D
	lw    []float64 // K×D×D factors of W_k
	lnZW  []float64 // K
}

// MaxProposalK is the largest K of NewProposal (8! = 40320 relabellings).
const MaxProposalK = 8

// NewProposal returns the relabelled VB posterior of the fits (at least
// one, all with the same K and D), mixed with equal weights.
func NewProposal(fits ...*VB) (*Proposal, error) {
	if len(fits) == 0 {
		return nil, fmt.Errorf("gmm: a proposal needs a fit")
	}
	k, d := fits[0].k, fits[0].d
	if k > MaxProposalK {
		return nil, fmt.Errorf("gmm: K = %d > %d relabelled components", k, MaxProposalK)
	}
	q := &Proposal{k: k, d: d, perms: permutations(k), lnKF: LogFactorial(k)}
	work := make([]float64, d*d)
	for i, m := range fits {
		if m.k != k || m.d != d {
			return nil, fmt.Errorf("gmm: fit %d has K = %d, D = %d; fit 0 has K = %d, D = %d", i, m.k, m.d, k, d)
		}
		r := &relabelled{alpha: append([]float64(nil), m.alpha...), beta: append([]float64(nil), m.beta...),
			nu: append([]float64(nil), m.nu...), m: append([]float64(nil), m.m...), winv: append([]float64(nil), m.winv...),
			lw: make([]float64, k*d*d), lnZW: make([]float64, k)}
		r.lnC = -dist.NewDirichlet(r.alpha).LogNormalizer()
		for c := 0; c < k; c++ {
			w := r.lw[c*d*d : (c+1)*d*d]
			numeric.CholInverse(w, m.pchol[c*d*d:(c+1)*d*d], d, work)
			if !numeric.CholFactor(w, d) {
				return nil, fmt.Errorf("gmm: fit %d: W of component %d is not positive definite", i, c)
			}
			r.lnZW[c] = wishartLogZ(r.nu[c], m.logDetW(c), d)
		}
		q.parts = append(q.parts, r)
	}
	q.initScratch()
	return q, nil
}

func (q *Proposal) initScratch() {
	k, d := q.k, q.d
	q.logPi, q.l, q.a = make([]float64, k), make([]float64, k*d*d), make([]float64, k*k)
	q.terms, q.parts1, q.eps, q.perm = make([]float64, len(q.perms)), make([]float64, len(q.parts)), make([]float64, d), make([]int, k)
}

// Clone returns a Proposal with the same parameters and its own scratch.
func (q *Proposal) Clone() *Proposal {
	c := *q
	c.initScratch()
	return &c
}

// Dim returns ParamDim(K, D).
func (q *Proposal) Dim() int { return ParamDim(q.k, q.d) }

// LogProb returns ln of the proposal density at θ, −Inf outside the
// support. It does not allocate.
func (q *Proposal) LogProb(theta []float64) float64 {
	k, d := q.k, q.d
	if len(theta) != q.Dim() {
		panic("gmm: Proposal: θ of the wrong length")
	}
	if !unpack(theta, k, d, q.logPi, q.l) {
		return math.Inf(-1)
	}
	mu := theta[k : k+k*d]
	for f, r := range q.parts {
		// a[c*k+s]: ln density of q's component c at θ's component s.
		for c := 0; c < k; c++ {
			for s := 0; s < k; s++ {
				q.a[c*k+s] = (r.alpha[c]-1)*q.logPi[s] + logNW(mu[s*d:(s+1)*d], q.l[s*d*d:(s+1)*d*d],
					r.m[c*d:(c+1)*d], r.beta[c], r.nu[c], r.winv[c*d*d:(c+1)*d*d], r.lnZW[c], d)
			}
		}
		for i, p := range q.perms {
			var v float64
			for c, s := range p {
				v += q.a[c*k+s]
			}
			q.terms[i] = v
		}
		q.parts1[f] = r.lnC + numeric.LogSumExp(q.terms)
	}
	return numeric.LogSumExp(q.parts1) - q.lnKF - math.Log(float64(len(q.parts)))
}

// RandLogProb draws θ from the proposal into dst and returns its log density.
func (q *Proposal) RandLogProb(dst []float64, rnd *rand.Rand) float64 {
	k, d := q.k, q.d
	if len(dst) != q.Dim() {
		panic("gmm: Proposal: θ of the wrong length")
	}
	r := q.parts[rnd.IntN(len(q.parts))]
	for i := range q.perm {
		q.perm[i] = i
	}
	rnd.Shuffle(k, func(a, b int) { q.perm[a], q.perm[b] = q.perm[b], q.perm[a] })
	dist.Dirichlet{Alpha: r.alpha}.RandLog(q.logPi, rnd)
	off := k + k*d
	tri := d * (d + 1) / 2
	for c, s := range q.perm {
		dst[s] = q.logPi[c]
		l := q.l[s*d*d : (s+1)*d*d]
		sampleNW(rnd, r.m[c*d:(c+1)*d], r.beta[c], r.lw[c*d*d:(c+1)*d*d], r.nu[c], d, dst[k+s*d:k+(s+1)*d], l, q.eps)
		// Λ = LLᵀ, upper triangle row by row.
		o := off + s*tri
		for a := 0; a < d; a++ {
			for b := a; b < d; b++ {
				var v float64
				for c2 := 0; c2 <= a; c2++ {
					v += l[a*d+c2] * l[b*d+c2]
				}
				dst[o] = v
				o++
			}
		}
	}
	return q.LogProb(dst)
}

// permutations returns the k! permutations of 0…k−1 in lexicographic order.
func permutations(k int) [][]int {
	var out [][]int
	p := make([]int, k)
	used := make([]bool, k)
	var rec func(i int)
	rec = func(i int) {
		if i == k {
			out = append(out, append([]int(nil), p...))
			return
		}
		for v := 0; v < k; v++ {
			if !used[v] {
				used[v], p[i] = true, v
				rec(i + 1)
				used[v] = false
			}
		}
	}
	rec(0)
	return out
}
