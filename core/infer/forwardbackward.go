package infer

// The scaled forward-backward recursion of the discrete hidden Markov model
// (Beal 2003 section 3.2, eqs. 3.19-3.35): Chain (the weights), Counts (the
// expected sufficient statistics), ForwardBackward (the recursion and its
// buffers), ChainMarginals and ChainEntropy (full marginals and the entropy
// of q(s), for tests and diagnostics). Layouts: see the package comment.

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Chain holds the parameters of a discrete hidden Markov model in the
// layouts the recursions use (the package comment's convention: the
// emission matrix is stored observation-major, by symbol). The entries need not be normalised: the VBE
// step runs the same recursion with the sub-normalised "Bayes-point"
// parameters exp E[ln θ] (Beal 2003 eqs. 3.66-3.71).
type Chain struct {
	K, P int // number of hidden states and of output symbols
	// Pi[j] is the initial-state weight π_j.
	Pi []float64
	// A is K×K row-major: A[j*K+l] = a_{jl}, the weight of j → l.
	A []float64
	// E is P×K, emission weights stored by symbol: E[m*K+j] = c_{jm}, so
	// that the weights of one observed symbol are contiguous.
	E []float64
}

// Check panics if the slice lengths disagree with K and P.
func (c *Chain) Check() {
	if c.K <= 0 || c.P <= 0 || len(c.Pi) != c.K || len(c.A) != c.K*c.K || len(c.E) != c.K*c.P {
		panic(fmt.Sprintf("infer: chain shape mismatch: K=%d P=%d len(Pi)=%d len(A)=%d len(E)=%d",
			c.K, c.P, len(c.Pi), len(c.A), len(c.E)))
	}
}

// Counts are expected sufficient statistics of a discrete HMM, in the same
// layouts as Chain: Pi[j] = Σ_i γ_{i,1}(j); A[j*K+l] = Σ_i Σ_{t≥2} ξ_{i,t}(j,l);
// E[m*K+j] = Σ_i Σ_t γ_{i,t}(j)[y_{i,t} = m] (Beal 2003 eqs. 3.16-3.18,
// 3.55-3.59).
type Counts struct {
	K, P     int
	Pi, A, E []float64
}

// NewCounts returns zero counts for K states and P symbols.
func NewCounts(k, p int) *Counts {
	return &Counts{K: k, P: p, Pi: make([]float64, k), A: make([]float64, k*k), E: make([]float64, k*p)}
}

// Zero sets all counts to zero.
func (c *Counts) Zero() {
	clear(c.Pi)
	clear(c.A)
	clear(c.E)
}

// Add adds o to c.
func (c *Counts) Add(o *Counts) {
	for i, v := range o.Pi {
		c.Pi[i] += v
	}
	for i, v := range o.A {
		c.A[i] += v
	}
	for i, v := range o.E {
		c.E[i] += v
	}
}

// Occupancy returns Σ_i Σ_t γ_{i,t}(j) for each state j, the expected number
// of symbols emitted from it.
func (c *Counts) Occupancy() []float64 {
	occ := make([]float64, c.K)
	for m := 0; m < c.P; m++ {
		for j, v := range c.E[m*c.K : (m+1)*c.K] {
			occ[j] += v
		}
	}
	return occ
}

// fbChunkSteps is the number of time steps whose transition-count
// contributions the backward pass gathers before adding them to the K×K
// accumulator (see AddExpectedCounts): large enough to keep each accumulator
// row in cache over many steps, small enough that the chunk (fbChunkSteps×K)
// stays in the first-level cache for the K of chapter 3.
const fbChunkSteps = 32

// ForwardBackward runs the scaled forward-backward recursion of a discrete
// HMM (Beal 2003 eqs. 3.19-3.35) and holds its buffers, so that repeated
// calls do not allocate. Its zero value is ready to use. A ForwardBackward
// is not safe for concurrent use; give each goroutine its own.
type ForwardBackward struct {
	alpha []float64 // T×K scaled forward messages
	at    []float64 // K×K: Aᵀ, so that β_{t−1} = A tmp_t is a row times a matrix
	inv   []float64 // 1/ζ_t, the forward scale factors
	beta  []float64 // current β_t
	prev  []float64 // β_{t−1} under construction
	chunk []float64 // fbChunkSteps×K: row t−lo is c_{·,y_t} ⊙ β_t / ζ_t
	outer []float64 // K×K: Σ_t α_{t−1} (c_{·,y_t} ⊙ β_t / ζ_t)ᵀ
}

func (w *ForwardBackward) grow(t, k int) {
	if cap(w.alpha) < t*k {
		w.alpha = make([]float64, t*k)
	}
	w.alpha = w.alpha[:t*k]
	if cap(w.inv) < t {
		w.inv = make([]float64, t)
	}
	w.inv = w.inv[:t]
	if cap(w.beta) < k {
		w.beta = make([]float64, k)
		w.prev = make([]float64, k)
	}
	if cap(w.chunk) < fbChunkSteps*k {
		w.chunk = make([]float64, fbChunkSteps*k)
	}
	if cap(w.outer) < k*k {
		w.outer = make([]float64, k*k)
		w.at = make([]float64, k*k)
	}
	w.beta, w.prev, w.chunk, w.outer, w.at = w.beta[:k], w.prev[:k], w.chunk[:fbChunkSteps*k], w.outer[:k*k], w.at[:k*k]
}

// Partial products of the scale factors ζ_t are closed (their log added to
// ln Z) before they leave [lnProdMin, lnProdMax]; a single ζ_t outside that
// range has its log taken on its own. A partial product therefore never
// under- or overflows.
const (
	lnProdMin = 0x1p-500
	lnProdMax = 0x1p500
)

// forward runs the scaled forward pass (Beal 2003 eqs. 3.21-3.23): α̂_t =
// (Aᵀ α_{t−1}) ⊙ c_{·,y_t}, normalised at every step by ζ_t = Σ_j α̂_t(j),
// whose inverse is stored for the backward pass; ln Z = Σ_t ln ζ_t. The logs
// are taken of partial products of the ζ_t (one log per hundred or so steps
// instead of one per step), which keeps ln Z exact to rounding: each partial
// product stays in the normal range and carries a relative rounding error of
// a few ulps per factor. It returns −Inf, leaving the later messages
// undefined, as soon as some ζ_t is zero (the sequence is impossible under
// the weights).
func (w *ForwardBackward) forward(c *Chain, y []int) float64 {
	k := c.K
	T := len(y)
	w.grow(T, k)
	var lnZ float64
	prod := 1.0
	for t := 0; t < T; t++ {
		m := y[t]
		if m < 0 || m >= c.P {
			panic(fmt.Sprintf("infer: symbol %d at position %d outside [0,%d)", m, t, c.P))
		}
		e := c.E[m*k : (m+1)*k]
		cur := w.alpha[t*k : (t+1)*k]
		if t == 0 {
			numeric.MulTo(cur, c.Pi, e)
		} else {
			// (Aᵀ α_{t−1})_l = Σ_j α_{t−1}(j) a_jl, summed in j.
			clear(cur)
			numeric.MulAdd(1, k, k, w.alpha[(t-1)*k:t*k], k, 1, c.A, k, cur, k)
			numeric.MulTo(cur, cur, e)
		}
		var z float64
		for _, v := range cur {
			z += v
		}
		if !(z > 0) || math.IsInf(z, 0) {
			return math.Inf(-1)
		}
		inv := 1 / z
		numeric.Scale(inv, cur)
		w.inv[t] = inv
		if z < lnProdMin || z > lnProdMax {
			lnZ += math.Log(z)
			continue
		}
		prod *= z
		if prod < lnProdMin || prod > lnProdMax {
			lnZ += math.Log(prod)
			prod = 1
		}
	}
	return lnZ + math.Log(prod)
}

// LogProb returns ln Σ_s Π_t weights along s for the sequence y: for
// normalised parameters ln p(y|θ) (eq. 3.23), for the Bayes-point weights
// the VB normaliser ln Z̃ (eq. 3.74). An impossible sequence gives −Inf.
func (w *ForwardBackward) LogProb(c *Chain, y []int) float64 {
	if len(y) == 0 {
		return 0
	}
	return w.forward(c, y)
}

// AddExpectedCounts runs the scaled forward-backward recursion (Beal 2003
// eqs. 3.19-3.35) on y, adds the expected counts of the hidden states and
// transitions (eqs. 3.16-3.18) to acc, and returns ln Z = Σ_t ln ζ_t. The backward messages
// are scaled by the same ζ_t, so γ_t = α_t ⊙ β_t and
// ξ_t(j,l) = α_{t−1}(j) a_{jl} c_{l,y_t} β_t(l) / ζ_t need no further
// normalisation. With tmp_t = c_{·,y_t} ⊙ β_t / ζ_t the backward step is
// β_{t−1} = A tmp_t, and the transition counts are
// Σ_t ξ_t(j,l) = a_{jl} · [Σ_t α_{t−1} tmp_tᵀ]_{jl}. The sum is accumulated
// inside the backward recursion: the tmp_t of up to fbChunkSteps consecutive
// steps are kept and added to the K×K accumulator as one serial product per
// chunk, so no T×K buffer of them is needed. Entries of β_{t−1} whose α_{t−1}
// is zero are set to zero: they multiply only zero-probability paths.
// When the sequence is impossible (ln Z = −Inf) acc is left unchanged.
func (w *ForwardBackward) AddExpectedCounts(c *Chain, y []int, acc *Counts) float64 {
	T := len(y)
	if T == 0 {
		return 0
	}
	k := c.K
	lnZ := w.forward(c, y)
	if math.IsInf(lnZ, -1) {
		return lnZ
	}
	clear(w.outer)
	for j := 0; j < k; j++ {
		for l, a := range c.A[j*k : (j+1)*k] {
			w.at[l*k+j] = a
		}
	}
	beta := w.beta
	for j := range beta {
		beta[j] = 1
	}
	// The current chunk covers the steps lo..hi (lo ≥ 1), filled from hi down.
	hi := T - 1
	lo := max(1, hi-fbChunkSteps+1)
	for t := T - 1; t >= 0; t-- {
		at := w.alpha[t*k : (t+1)*k]
		// γ_t = α_t β_t, added to the emission counts of symbol y_t.
		numeric.AddMul(acc.E[y[t]*k:(y[t]+1)*k], at, beta)
		if t == 0 {
			numeric.AddMul(acc.Pi, at, beta)
			break
		}
		// tmp_t(l) = c_{l,y_t} β_t(l) / ζ_t and β_{t−1} = A tmp_t.
		tmp := w.chunk[(t-lo)*k : (t-lo+1)*k]
		numeric.MulTo(tmp, c.E[y[t]*k:(y[t]+1)*k], beta)
		numeric.Scale(w.inv[t], tmp)
		// β_{t−1}(j) = Σ_l a_jl tmp_t(l), summed in l.
		prev := w.prev
		clear(prev)
		numeric.MulAdd(1, k, k, tmp, k, 1, w.at, k, prev, k)
		for j, a := range w.alpha[(t-1)*k : t*k] {
			if a == 0 {
				prev[j] = 0
			}
		}
		beta, w.prev = prev, beta
		if t == lo {
			// outer[j,l] += Σ_{s=lo..hi} α_{s−1}(j) tmp_s(l), summed in s:
			// the chunk's α rows (transposed) times its tmp rows.
			n := hi - lo + 1
			numeric.MulAdd(k, k, n, w.alpha[(lo-1)*k:hi*k], 1, k, w.chunk[:n*k], k, w.outer, k)
			hi = lo - 1
			lo = max(1, hi-fbChunkSteps+1)
		}
	}
	w.beta = beta
	for i, a := range c.A {
		acc.A[i] += a * w.outer[i]
	}
	return lnZ
}

// ChainMarginals returns the full posterior marginals of one sequence of a
// discrete HMM (Beal 2003 eqs. 3.19-3.35), allocating them:
// gamma[t][j] = q(s_t = j) and xi[t][j][l] = q(s_{t−1} = j, s_t = l) for
// t ≥ 1 (xi[0] is nil), with ln Z. It is for tests and diagnostics (for
// example the entropy of q(s) in the long form of F, eq. 3.75); training uses
// AddExpectedCounts.
func ChainMarginals(c *Chain, y []int) (gamma [][]float64, xi [][][]float64, lnZ float64) {
	var w ForwardBackward
	k := c.K
	T := len(y)
	lnZ = w.forward(c, y)
	if math.IsInf(lnZ, -1) {
		return nil, nil, lnZ
	}
	beta := make([][]float64, T)
	beta[T-1] = make([]float64, k)
	for j := range beta[T-1] {
		beta[T-1][j] = 1
	}
	for t := T - 1; t > 0; t-- {
		beta[t-1] = make([]float64, k)
		inv := w.inv[t]
		for j := 0; j < k; j++ {
			var s float64
			for l := 0; l < k; l++ {
				s += c.A[j*k+l] * c.E[y[t]*k+l] * beta[t][l]
			}
			beta[t-1][j] = s * inv
		}
	}
	gamma = make([][]float64, T)
	xi = make([][][]float64, T)
	for t := 0; t < T; t++ {
		gamma[t] = make([]float64, k)
		for j := 0; j < k; j++ {
			gamma[t][j] = w.alpha[t*k+j] * beta[t][j]
		}
		if t == 0 {
			continue
		}
		inv := w.inv[t]
		xi[t] = make([][]float64, k)
		for j := 0; j < k; j++ {
			xi[t][j] = make([]float64, k)
			for l := 0; l < k; l++ {
				xi[t][j][l] = w.alpha[(t-1)*k+j] * c.A[j*k+l] * c.E[y[t]*k+l] * beta[t][l] * inv
			}
		}
	}
	return gamma, xi, lnZ
}

// ChainEntropy returns the entropy of the Markov-chain posterior q(s) with
// the given marginals: −Σ_j γ_1(j) ln γ_1(j) − Σ_{t≥2} Σ_{jl} ξ_t(j,l)
// ln(ξ_t(j,l)/γ_{t−1}(j)), with 0·ln 0 = 0 (the H(q(s)) of eq. 3.75).
func ChainEntropy(gamma [][]float64, xi [][][]float64) float64 {
	var h float64
	for _, g := range gamma[0] {
		if g > 0 {
			h -= g * math.Log(g)
		}
	}
	for t := 1; t < len(gamma); t++ {
		for j, row := range xi[t] {
			for _, x := range row {
				if x > 0 {
					h -= x * math.Log(x/gamma[t-1][j])
				}
			}
		}
	}
	return h
}
