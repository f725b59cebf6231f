// Package infer holds the exact inference routines that VBE steps reuse with
// expected natural parameters in place of the parameters (Beal 2003,
// Theorem 2.2 and Corollary 2.2): the scaled forward-backward recursion for
// discrete hidden Markov models, and brute-force enumeration for checking it
// on tiny cases.
package infer

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
)

// Chain holds the parameters of a discrete hidden Markov model in the
// layouts the recursions use. The entries need not be normalised: the VBE
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

// Workspace holds the buffers of the forward-backward recursion so that
// repeated calls do not allocate. A Workspace is not safe for concurrent use;
// give each goroutine its own.
type Workspace struct {
	alpha []float64 // T×K scaled forward messages
	lnz   []float64 // ln ζ_t
	beta  []float64 // current β_t
	prev  []float64 // β_{t−1} under construction
	tmp   []float64 // T×K: row t is c_{·,y_t} ⊙ β_t / ζ_t
	outer []float64 // K×K: Σ_t α_{t−1} tmp_tᵀ
}

func (w *Workspace) grow(t, k int) {
	if cap(w.alpha) < t*k {
		w.alpha = make([]float64, t*k)
	}
	w.alpha = w.alpha[:t*k]
	if cap(w.lnz) < t {
		w.lnz = make([]float64, t)
	}
	w.lnz = w.lnz[:t]
	if cap(w.tmp) < t*k {
		w.tmp = make([]float64, t*k)
	}
	w.tmp = w.tmp[:t*k]
	if cap(w.beta) < k {
		w.beta = make([]float64, k)
		w.prev = make([]float64, k)
	}
	if cap(w.outer) < k*k {
		w.outer = make([]float64, k*k)
	}
	w.beta, w.prev, w.outer = w.beta[:k], w.prev[:k], w.outer[:k*k]
}

// forward runs the scaled forward pass (Beal 2003 eqs. 3.21-3.23): α_t is
// normalised at every step by ζ_t = Σ_j α̂_t(j), and ln Z = Σ_t ln ζ_t. It
// returns −Inf, leaving the later messages undefined, as soon as some ζ_t is
// zero (the sequence is impossible under the weights).
func (w *Workspace) forward(c *Chain, y []int) float64 {
	k := c.K
	T := len(y)
	w.grow(T, k)
	var lnZ float64
	for t := 0; t < T; t++ {
		m := y[t]
		if m < 0 || m >= c.P {
			panic(fmt.Sprintf("infer: symbol %d at position %d outside [0,%d)", m, t, c.P))
		}
		e := c.E[m*k : (m+1)*k]
		cur := w.alpha[t*k : (t+1)*k]
		if t == 0 {
			for j := range cur {
				cur[j] = c.Pi[j] * e[j]
			}
		} else {
			prev := w.alpha[(t-1)*k : t*k]
			clear(cur)
			// α̂_t = Aᵀ α_{t−1}, row by row (assembly axpy), skipping the
			// exact zeros that maximum likelihood leaves.
			for j, aj := range prev {
				if aj != 0 {
					floats.AddScaled(cur, aj, c.A[j*k:(j+1)*k])
				}
			}
			for l := range cur {
				cur[l] *= e[l]
			}
		}
		var z float64
		for _, v := range cur {
			z += v
		}
		if !(z > 0) || math.IsInf(z, 0) {
			return math.Inf(-1)
		}
		inv := 1 / z
		for j := range cur {
			cur[j] *= inv
		}
		lz := math.Log(z)
		w.lnz[t] = lz
		lnZ += lz
	}
	return lnZ
}

// LogProb returns ln Σ_s Π_t weights along s for the sequence y: for
// normalised parameters ln p(y|θ) (eq. 3.23), for the Bayes-point weights
// the VB normaliser ln Z̃ (eq. 3.74). An impossible sequence gives −Inf.
func (w *Workspace) LogProb(c *Chain, y []int) float64 {
	if len(y) == 0 {
		return 0
	}
	return w.forward(c, y)
}

// Smooth runs the scaled forward-backward recursion (Beal 2003 eqs.
// 3.19-3.35) on y, adds the expected counts of the hidden states and
// transitions to acc, and returns ln Z = Σ_t ln ζ_t. The backward messages
// are scaled by the same ζ_t, so γ_t = α_t ⊙ β_t and
// ξ_t(j,l) = α_{t−1}(j) a_{jl} c_{l,y_t} β_t(l) / ζ_t need no further
// normalisation. The transition counts are accumulated as
// Σ_t ξ_t(j,l) = a_{jl} · [Σ_t α_{t−1} tmp_tᵀ]_{jl} with tmp_t = c_{·,y_t} ⊙ β_t / ζ_t,
// one matrix product over the whole sequence. When the sequence is
// impossible (ln Z = −Inf) acc is left unchanged.
func (w *Workspace) Smooth(c *Chain, y []int, acc *Counts) float64 {
	T := len(y)
	if T == 0 {
		return 0
	}
	k := c.K
	lnZ := w.forward(c, y)
	if math.IsInf(lnZ, -1) {
		return lnZ
	}
	beta := w.beta
	for j := range beta {
		beta[j] = 1
	}
	for t := T - 1; t >= 0; t-- {
		at := w.alpha[t*k : (t+1)*k]
		// γ_t = α_t β_t, added to the emission counts of symbol y_t.
		ec := acc.E[y[t]*k : (y[t]+1)*k]
		for j, a := range at {
			ec[j] += a * beta[j]
		}
		if t == 0 {
			for j, a := range at {
				acc.Pi[j] += a * beta[j]
			}
			break
		}
		// tmp_t(l) = c_{l,y_t} β_t(l) / ζ_t and β_{t−1}(j) = Σ_l a_{jl} tmp_t(l).
		e := c.E[y[t]*k : (y[t]+1)*k]
		inv := math.Exp(-w.lnz[t])
		tmp := w.tmp[t*k : (t+1)*k]
		for l := range tmp {
			tmp[l] = e[l] * beta[l] * inv
		}
		prev := w.prev
		for j := range prev {
			prev[j] = floats.Dot(c.A[j*k:(j+1)*k], tmp)
		}
		beta, w.prev = prev, beta
	}
	w.beta = beta
	if T > 1 {
		// outer = Σ_{t≥1} α_{t−1} tmp_tᵀ as one product of the T−1 rows.
		clear(w.outer)
		blas64.Gemm(blas.Trans, blas.NoTrans, 1,
			blas64.General{Rows: T - 1, Cols: k, Stride: k, Data: w.alpha[:(T-1)*k]},
			blas64.General{Rows: T - 1, Cols: k, Stride: k, Data: w.tmp[k : T*k]},
			0, blas64.General{Rows: k, Cols: k, Stride: k, Data: w.outer})
		for i, a := range c.A {
			acc.A[i] += a * w.outer[i]
		}
	}
	return lnZ
}

// Marginals returns the full posterior marginals of one sequence, allocating
// them: gamma[t][j] = q(s_t = j) and xi[t][j][l] = q(s_{t−1} = j, s_t = l) for
// t ≥ 1 (xi[0] is nil), with ln Z. It is for tests and diagnostics (for
// example the entropy of q(s) in the long form of F, eq. 3.75); training uses
// Smooth.
func Marginals(c *Chain, y []int) (gamma [][]float64, xi [][][]float64, lnZ float64) {
	var w Workspace
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
		z := math.Exp(w.lnz[t])
		for j := 0; j < k; j++ {
			var s float64
			for l := 0; l < k; l++ {
				s += c.A[j*k+l] * c.E[y[t]*k+l] * beta[t][l]
			}
			beta[t-1][j] = s / z
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
		z := math.Exp(w.lnz[t])
		xi[t] = make([][]float64, k)
		for j := 0; j < k; j++ {
			xi[t][j] = make([]float64, k)
			for l := 0; l < k; l++ {
				xi[t][j][l] = w.alpha[(t-1)*k+j] * c.A[j*k+l] * c.E[y[t]*k+l] * beta[t][l] / z
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
