package gmm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

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
	equal bool    // every part of the same weight (NewProposal)

	// scratch
	logPi, l, a, terms, parts1, eps []float64
	perm                            []int
}

// relabelled is one fit's q(π, μ, Λ) (or the prior's), with its mixture
// weight.
type relabelled struct {
	lnWeight float64
	alpha    []float64
	lnC      float64 // ln C(α)
	beta     []float64
	nu       []float64
	m        []float64 // K×D
	winv     []float64 // K×D×D
	lw       []float64 // K×D×D factors of W_k
	lnZW     []float64 // K
}

// MaxProposalK is the largest K of NewProposal (8! = 40320 relabellings).
const MaxProposalK = 8

// NewProposal returns the relabelled VB posterior of the fits (at least
// one, all with the same K and D), mixed with equal weights.
func NewProposal(fits ...*VB) (*Proposal, error) {
	return newProposal(nil, 1, 0, fits)
}

// NewDefensiveProposal returns the equal-weight mixture of the fits'
// relabelled posteriors, each flattened to q^(1/c²) (c = widen ≥ 1), mixed
// with the prior p at weight eps (0 ≤ eps < 1): the defensive mixture of
// Hesterberg (1995) (as samplers/is.Defensive), so that every importance
// weight is at most p(X | θ)/eps. A power of a Dirichlet and of a
// Normal-Wishart is again one (PRML (10.57), (10.59)): Dir(α) becomes
// Dir(1 + (α − 1)/c²) and NW(m, β, W, ν) becomes NW(m, β/c², c²W,
// D + (ν − D)/c²) (the density ∝ |Λ|^((ν−D)/2) exp(−β(μ−m)ᵀΛ(μ−m)/2 −
// tr(W⁻¹Λ)/2) raised to 1/c²), so the flattened q has the same modes and
// spreads about √c² = c times wider. widen = 1 and eps = 0 is NewProposal.
func NewDefensiveProposal(p Prior, widen, eps float64, fits ...*VB) (*Proposal, error) {
	if !(widen >= 1) || math.IsInf(widen, 1) {
		return nil, fmt.Errorf("gmm: widen = %v must be at least 1 and finite", widen)
	}
	if !(eps >= 0 && eps < 1) {
		return nil, fmt.Errorf("gmm: eps = %v must be in [0, 1)", eps)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return newProposal(&p, widen, eps, fits)
}

func newProposal(prior *Prior, widen, eps float64, fits []*VB) (*Proposal, error) {
	if len(fits) == 0 {
		return nil, fmt.Errorf("gmm: a proposal needs a fit")
	}
	k, d := fits[0].k, fits[0].d
	if k > MaxProposalK {
		return nil, fmt.Errorf("gmm: K = %d > %d relabelled components", k, MaxProposalK)
	}
	if prior != nil && prior.Dim() != d {
		return nil, fmt.Errorf("gmm: the prior has D = %d; the fits have D = %d", prior.Dim(), d)
	}
	q := &Proposal{k: k, d: d, perms: permutations(k), lnKF: LogFactorial(k)}
	c2, df := widen*widen, float64(d)
	lnFit := math.Log1p(-eps) - math.Log(float64(len(fits)))
	for i, m := range fits {
		if m.k != k || m.d != d {
			return nil, fmt.Errorf("gmm: fit %d has K = %d, D = %d; fit 0 has K = %d, D = %d", i, m.k, m.d, k, d)
		}
		alpha, beta, nu, winv := slices.Clone(m.alpha), slices.Clone(m.beta), slices.Clone(m.nu), slices.Clone(m.winv)
		for c := range k {
			alpha[c] = 1 + (alpha[c]-1)/c2
			beta[c] /= c2
			nu[c] = df + (nu[c]-df)/c2
		}
		for j := range winv {
			winv[j] /= c2
		}
		var pchol []float64 // the fit's own factor of W⁻¹, unless widened
		if c2 == 1 {
			pchol = m.pchol
		}
		r, err := newRelabelled(lnFit, alpha, beta, nu, slices.Clone(m.m), winv, pchol, k, d)
		if err != nil {
			return nil, fmt.Errorf("gmm: fit %d: %w", i, err)
		}
		q.parts = append(q.parts, r)
	}
	if prior != nil && eps > 0 {
		alpha, beta, nu := make([]float64, k), make([]float64, k), make([]float64, k)
		mean, winv := make([]float64, k*d), make([]float64, k*d*d)
		w0inv := slices.Clone(prior.W0)
		if !numeric.CholFactor(w0inv, d) {
			return nil, fmt.Errorf("gmm: W0 is not positive definite")
		}
		numeric.CholInverse(w0inv, slices.Clone(w0inv), d, make([]float64, d*d))
		for c := range k {
			alpha[c], beta[c], nu[c] = prior.Alpha0, prior.Beta0, prior.Nu0
			copy(mean[c*d:(c+1)*d], prior.M0)
			copy(winv[c*d*d:(c+1)*d*d], w0inv)
		}
		r, err := newRelabelled(math.Log(eps), alpha, beta, nu, mean, winv, nil, k, d)
		if err != nil {
			return nil, fmt.Errorf("gmm: the prior: %w", err)
		}
		q.parts = append(q.parts, r)
	}
	q.equal = prior == nil || eps == 0
	q.initScratch()
	return q, nil
}

// newRelabelled returns the part of weight e^lnWeight with the given
// Dirichlet and Normal-Wishart parameters (winv: the K scale matrices W_k⁻¹,
// row-major; pchol: their Cholesky factors, or nil to factor winv).
func newRelabelled(lnWeight float64, alpha, beta, nu, mean, winv, pchol []float64, k, d int) (*relabelled, error) {
	r := &relabelled{lnWeight: lnWeight, alpha: alpha, beta: beta, nu: nu, m: mean, winv: winv,
		lw: make([]float64, k*d*d), lnZW: make([]float64, k)}
	for _, a := range alpha {
		if !(a > 0) {
			return nil, fmt.Errorf("a Dirichlet parameter %v is not positive", a)
		}
	}
	r.lnC = -dist.NewDirichlet(r.alpha).LogNormalizer()
	work, pc := make([]float64, d*d), make([]float64, d*d)
	for c := range k {
		if !(nu[c] > float64(d)-1) || !(beta[c] > 0) {
			return nil, fmt.Errorf("component %d: ν = %v, β = %v outside ν > D − 1, β > 0", c, nu[c], beta[c])
		}
		if pchol != nil {
			copy(pc, pchol[c*d*d:(c+1)*d*d])
		} else if copy(pc, winv[c*d*d:(c+1)*d*d]); !numeric.CholFactor(pc, d) {
			return nil, fmt.Errorf("W⁻¹ of component %d is not positive definite", c)
		}
		w := r.lw[c*d*d : (c+1)*d*d]
		numeric.CholInverse(w, pc, d, work)
		if !numeric.CholFactor(w, d) {
			return nil, fmt.Errorf("W of component %d is not positive definite", c)
		}
		r.lnZW[c] = wishartLogZ(nu[c], -numeric.CholLogDet(pc, d), d)
	}
	return r, nil
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
		q.parts1[f] = r.lnWeight + r.lnC + numeric.LogSumExp(q.terms)
	}
	return numeric.LogSumExp(q.parts1) - q.lnKF
}

// RandLogProb draws θ from the proposal into dst and returns its log density.
func (q *Proposal) RandLogProb(dst []float64, rnd *rand.Rand) float64 {
	k, d := q.k, q.d
	if len(dst) != q.Dim() {
		panic("gmm: Proposal: θ of the wrong length")
	}
	var r *relabelled
	if q.equal {
		r = q.parts[rnd.IntN(len(q.parts))]
	} else {
		r = q.parts[len(q.parts)-1]
		u := rnd.Float64()
		for _, p := range q.parts {
			if u -= math.Exp(p.lnWeight); u < 0 {
				r = p
				break
			}
		}
	}
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
