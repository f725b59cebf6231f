package hmm

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/infer"
)

// The flat parameter layout used by importance samplers (Beal 2003 §4.7
// applied to the HMM, targets extension E3-X2): θ is one vector of
// ParamDim(k, p) = k + k² + k·p entries,
//
//	θ = (π_1..π_k, a_1·, …, a_k·, c_1·, …, c_k·),
//
// π first, then the k rows of A, then the k rows of C, each row a
// probability vector in the row-major order of Params. The Dirichlet rows
// of q(θ) (Posterior.Rows) and of the prior (Prior.Rows) come in the same
// order, so a product of one Dirichlet per row, laid out one after another,
// is a density on this θ.
//
// Densities on θ follow the convention of core/dist and samplers/is: a
// Dirichlet on a row of length K is a density with respect to Lebesgue
// measure on its first K−1 coordinates, ln Dir(x|α) = Σ_l (α_l − 1) ln x_l
// − ln B(α) (Beal 2003 Appendix A), and a row that is not on the simplex
// (a negative entry, or a sum more than 1e-12·K away from 1) has density
// zero. A row of length 1 is the point 1 with density 1 (ln Dir = 0).

// ParamDim returns the length k + k² + k·p of the flat parameter vector.
func ParamDim(k, p int) int { return k + k*k + k*p }

// FlatTo writes θ into dst in the flat layout and returns dst, allocating
// it if nil. It panics if a non-nil dst has the wrong length.
func (θ Params) FlatTo(dst []float64) []float64 {
	n := ParamDim(θ.K, θ.P)
	if dst == nil {
		dst = make([]float64, n)
	}
	if len(dst) != n {
		panic(fmt.Sprintf("hmm: flat parameter length %d, want %d", len(dst), n))
	}
	copy(dst, θ.Pi)
	copy(dst[θ.K:], θ.A)
	copy(dst[θ.K+θ.K*θ.K:], θ.C)
	return dst
}

// ParamsFromFlat returns a copy of the flat vector theta as Params. It
// panics if len(theta) != ParamDim(k, p).
func ParamsFromFlat(k, p int, theta []float64) Params {
	if len(theta) != ParamDim(k, p) {
		panic(fmt.Sprintf("hmm: flat parameter length %d, want %d for k=%d p=%d", len(theta), ParamDim(k, p), k, p))
	}
	θ := NewParams(k, p)
	copy(θ.Pi, theta[:k])
	copy(θ.A, theta[k:k+k*k])
	copy(θ.C, theta[k+k*k:])
	return θ
}

// Rows returns the Dirichlet parameters of the factors of q(θ) =
// q(π) Π_j q(a_j) Π_j q(c_j) (Beal 2003 eqs. 3.53-3.59) in the flat layout:
// w^(π), then w^(A) row by row, then w^(C) row by row, 1 + 2k slices in all.
// The slices share w's storage. A product of Dirichlets with these
// parameters, in this order, is the VB posterior as a density on the flat
// θ, e.g. the importance distribution of a sampler (Beal 2003 §4.7).
func (w Posterior) Rows() [][]float64 {
	k, p := w.K, w.P
	rows := make([][]float64, 0, 1+2*k)
	rows = append(rows, w.Pi)
	for j := 0; j < k; j++ {
		rows = append(rows, w.A[j*k:(j+1)*k])
	}
	for j := 0; j < k; j++ {
		rows = append(rows, w.C[j*p:(j+1)*p])
	}
	return rows
}

// Rows returns the prior's Dirichlet parameters for k states in the flat
// layout: u^(π), then u^(A) once for each of the k rows of A, then u^(C)
// once for each of the k rows of C (eqs. 3.37-3.40). The slices share u's
// storage.
func (u Prior) Rows(k int) [][]float64 {
	rows := make([][]float64, 0, 1+2*k)
	rows = append(rows, u.Pi)
	for range k {
		rows = append(rows, u.A)
	}
	for range k {
		rows = append(rows, u.C)
	}
	return rows
}

// Relabel returns the parameters with hidden state j renamed perm[j]:
// π′_{perm[j]} = π_j, a′_{perm[j] perm[l]} = a_{jl}, c′_{perm[j]·} = c_{j·}.
// The likelihood p(y|θ) is invariant to it (the k! aliases of Beal 2003
// §1.3.3, L638-L646). It panics unless perm is a permutation of 0..K−1.
func (θ Params) Relabel(perm []int) Params {
	checkPerm(perm, θ.K)
	out := NewParams(θ.K, θ.P)
	relabel(out.Pi, out.A, out.C, θ.Pi, θ.A, θ.C, perm, θ.K, θ.P)
	return out
}

// Relabel returns the posterior with hidden state j renamed perm[j], as
// Params.Relabel does for the parameters: q′ is q of the relabelled θ. With
// a prior whose u^(π) and u^(A) have equal entries (SymmetricPrior) the
// exact posterior p(θ|y) is invariant to relabelling, so every relabelled
// q is as good an approximation to it as q. It panics unless perm is a
// permutation of 0..K−1.
func (w Posterior) Relabel(perm []int) Posterior {
	checkPerm(perm, w.K)
	out := Posterior{K: w.K, P: w.P, Pi: make([]float64, w.K), A: make([]float64, w.K*w.K), C: make([]float64, w.K*w.P)}
	relabel(out.Pi, out.A, out.C, w.Pi, w.A, w.C, perm, w.K, w.P)
	return out
}

func relabel(pi, a, c, srcPi, srcA, srcC []float64, perm []int, k, p int) {
	for j := 0; j < k; j++ {
		pj := perm[j]
		pi[pj] = srcPi[j]
		for l := 0; l < k; l++ {
			a[pj*k+perm[l]] = srcA[j*k+l]
		}
		copy(c[pj*p:(pj+1)*p], srcC[j*p:(j+1)*p])
	}
}

func checkPerm(perm []int, k int) {
	if len(perm) != k {
		panic(fmt.Sprintf("hmm: permutation of length %d for k = %d", len(perm), k))
	}
	seen := make([]bool, k)
	for _, v := range perm {
		if v < 0 || v >= k || seen[v] {
			panic(fmt.Sprintf("hmm: %v is not a permutation of 0..%d", perm, k-1))
		}
		seen[v] = true
	}
}

// StatePermutations returns the k! permutations of 0..k−1 in lexicographic
// order, the first being the identity: the relabellings of Relabel. It
// panics unless 1 ≤ k ≤ 8 (8! = 40320).
func StatePermutations(k int) [][]int {
	if k < 1 || k > 8 {
		panic(fmt.Sprintf("hmm: StatePermutations(%d): want 1 ≤ k ≤ 8", k))
	}
	var out [][]int
	cur := make([]int, 0, k)
	used := make([]bool, k)
	var rec func()
	rec = func() {
		if len(cur) == k {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for v := 0; v < k; v++ {
			if used[v] {
				continue
			}
			used[v] = true
			cur = append(cur, v)
			rec()
			cur = cur[:len(cur)-1]
			used[v] = false
		}
	}
	rec()
	return out
}

// Joint is the unnormalised log posterior density of the flat parameter
// vector θ of a k-state HMM with Dirichlet priors u on data d,
//
//	ln p*(θ) = ln p(θ) + ln p(y|θ) = ln p(θ, y),
//
// whose normaliser ∫ p*(θ) dθ is the marginal likelihood p(y|m) (Beal 2003
// eqs. 3.36, 3.44; the target of importance sampling, eq. 4.103). ln p(θ)
// is the product of the Dirichlet priors of eqs. 3.37-3.40 in the
// convention of the flat layout (see ParamDim), and ln p(y|θ) = Σ_i
// ln p(y_i|θ) comes from the scaled forward pass (eq. 3.23). Its LogProb
// method makes it a samplers/is Target.
//
// A Joint keeps scratch space: it is not safe for concurrent use, and
// LogProb allocates nothing after the first call. Clone gives another one
// for another goroutine.
type Joint struct {
	data  Data
	k, p  int
	prior Prior
	lnB   [3]float64 // ln B(u) of u^(π), u^(A), u^(C)

	chain infer.Chain
	ws    infer.ForwardBackward
}

// NewJoint returns the log joint of a k-state HMM with prior u on d; the
// data and prior are shared, not copied, and must not change. It returns
// an error if d or u is invalid.
func NewJoint(d Data, k int, u Prior) (*Joint, error) {
	if k < 1 {
		return nil, fmt.Errorf("hmm: joint density needs k ≥ 1, got %d", k)
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if err := u.Validate(k, d.P); err != nil {
		return nil, err
	}
	j := &Joint{data: d, k: k, p: d.P, prior: u}
	for i, a := range [][]float64{u.Pi, u.A, u.C} {
		j.lnB[i] = dist.NewDirichlet(a).LogNormalizer()
	}
	return j, nil
}

// Clone returns a Joint with the same data and prior and its own scratch
// space.
func (j *Joint) Clone() *Joint {
	c := *j
	c.chain, c.ws = infer.Chain{}, infer.ForwardBackward{}
	return &c
}

// Dim returns ParamDim(k, p).
func (j *Joint) Dim() int { return ParamDim(j.k, j.p) }

// LogProb returns ln p(θ) + ln p(y|θ), −Inf if a row of θ is off the
// simplex or the data are impossible under θ. It panics if len(theta) !=
// Dim().
func (j *Joint) LogProb(theta []float64) float64 {
	lp := j.LogPrior(theta)
	if math.IsInf(lp, -1) {
		return lp
	}
	return lp + j.LogLik(theta)
}

// LogPrior returns ln p(θ) = ln Dir(π|u^(π)) + Σ_j ln Dir(a_j|u^(A)) +
// Σ_j ln Dir(c_j|u^(C)) (eqs. 3.37-3.40) in the convention of the flat
// layout, −Inf if a row is off the simplex. It panics if len(theta) !=
// Dim().
func (j *Joint) LogPrior(theta []float64) float64 {
	j.check(theta)
	k, p, u := j.k, j.p, j.prior
	lp := dirichletLogDensity(theta[:k], u.Pi, j.lnB[0])
	off := k
	for r := 0; r < k; r++ {
		lp += dirichletLogDensity(theta[off:off+k], u.A, j.lnB[1])
		off += k
	}
	for r := 0; r < k; r++ {
		lp += dirichletLogDensity(theta[off:off+p], u.C, j.lnB[2])
		off += p
	}
	return lp
}

// LogLik returns ln p(y|θ) = Σ_i ln p(y_i|θ) by the scaled forward pass
// (eq. 3.23), −Inf if some sequence is impossible under θ. θ's rows are
// used as given (not checked against the simplex). It panics if
// len(theta) != Dim().
func (j *Joint) LogLik(theta []float64) float64 {
	j.check(theta)
	k := j.k
	setChain(&j.chain, k, j.p, theta[:k], theta[k:k+k*k], theta[k+k*k:])
	var l float64
	for _, y := range j.data.Seqs {
		l += j.ws.LogProb(&j.chain, y)
	}
	return l
}

func (j *Joint) check(theta []float64) {
	if len(theta) != ParamDim(j.k, j.p) {
		panic(fmt.Sprintf("hmm: flat parameter length %d, want %d", len(theta), ParamDim(j.k, j.p)))
	}
}

// dirichletLogDensity returns Σ_l (α_l − 1) ln x_l − lnB, or −Inf if x is
// off the simplex (a negative entry or a sum more than 1e-12·K from 1), as
// dist.Dirichlet.LogProb does with lnB = ln B(α) precomputed.
func dirichletLogDensity(x, alpha []float64, lnB float64) float64 {
	var s, lp float64
	for l, v := range x {
		if v < 0 {
			return math.Inf(-1)
		}
		s += v
		if a := alpha[l]; a != 1 {
			lp += (a - 1) * math.Log(v)
		}
	}
	if math.Abs(s-1) > 1e-12*float64(len(x)) {
		return math.Inf(-1)
	}
	return lp - lnB
}
