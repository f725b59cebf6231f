package hmm

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/infer"
)

// Data is a set of symbol sequences over the alphabet {0, …, P−1}.
type Data struct {
	P    int
	Seqs [][]int
}

// Validate checks that there is at least one non-empty sequence and that every
// symbol lies in [0, P).
func (d Data) Validate() error {
	if d.P < 1 {
		return fmt.Errorf("hmm: alphabet size P = %d, want ≥ 1", d.P)
	}
	if len(d.Seqs) == 0 {
		return errors.New("hmm: no sequences")
	}
	for i, s := range d.Seqs {
		if len(s) == 0 {
			return fmt.Errorf("hmm: sequence %d is empty", i)
		}
		for t, m := range s {
			if m < 0 || m >= d.P {
				return fmt.Errorf("hmm: sequence %d position %d: symbol %d outside [0,%d)", i, t, m, d.P)
			}
		}
	}
	return nil
}

// Symbols returns the total number of symbols Σ_i T_i.
func (d Data) Symbols() int {
	n := 0
	for _, s := range d.Seqs {
		n += len(s)
	}
	return n
}

// Params are the parameters θ = (π, A, C) of a discrete HMM (Beal 2003 eqs.
// 3.3-3.9), each row a probability vector.
type Params struct {
	K, P int
	Pi   []float64 // K
	A    []float64 // K×K row-major
	C    []float64 // K×P row-major
}

// NewParams returns zero parameters of the given size.
func NewParams(k, p int) Params {
	return Params{K: k, P: p, Pi: make([]float64, k), A: make([]float64, k*k), C: make([]float64, k*p)}
}

// RandomParams draws every probability vector's components independently
// from U(0,1) and normalises them, the initialisation of Beal (2003) L2129.
func RandomParams(k, p int, rnd *rand.Rand) Params {
	θ := NewParams(k, p)
	fill := func(row []float64) {
		var s float64
		for i := range row {
			row[i] = rnd.Float64()
			s += row[i]
		}
		for i := range row {
			row[i] /= s
		}
	}
	fill(θ.Pi)
	for j := 0; j < k; j++ {
		fill(θ.A[j*k : (j+1)*k])
	}
	for j := 0; j < k; j++ {
		fill(θ.C[j*p : (j+1)*p])
	}
	return θ
}

// Clone returns a deep copy.
func (θ Params) Clone() Params {
	return Params{K: θ.K, P: θ.P, Pi: append([]float64(nil), θ.Pi...), A: append([]float64(nil), θ.A...), C: append([]float64(nil), θ.C...)}
}

// Validate checks shapes and that every row is a probability vector (to
// 1e-9).
func (θ Params) Validate() error {
	if θ.K < 1 || θ.P < 1 || len(θ.Pi) != θ.K || len(θ.A) != θ.K*θ.K || len(θ.C) != θ.K*θ.P {
		return fmt.Errorf("hmm: parameter shapes do not match K=%d P=%d", θ.K, θ.P)
	}
	check := func(name string, row []float64) error {
		var s float64
		for _, v := range row {
			if !(v >= 0) {
				return fmt.Errorf("hmm: %s has entry %v", name, v)
			}
			s += v
		}
		if math.Abs(s-1) > 1e-9 {
			return fmt.Errorf("hmm: %s sums to %v", name, s)
		}
		return nil
	}
	if err := check("pi", θ.Pi); err != nil {
		return err
	}
	for j := 0; j < θ.K; j++ {
		if err := check(fmt.Sprintf("row %d of A", j), θ.A[j*θ.K:(j+1)*θ.K]); err != nil {
			return err
		}
		if err := check(fmt.Sprintf("row %d of C", j), θ.C[j*θ.P:(j+1)*θ.P]); err != nil {
			return err
		}
	}
	return nil
}

// setChain fills c with θ in the recursion's layout (emissions by symbol).
func setChain(c *infer.Chain, k, p int, pi, a, cRows []float64) {
	if c.K != k || c.P != p || len(c.E) != k*p {
		*c = infer.Chain{K: k, P: p, Pi: make([]float64, k), A: make([]float64, k*k), E: make([]float64, k*p)}
	}
	copy(c.Pi, pi)
	copy(c.A, a)
	for j := 0; j < k; j++ {
		for m := 0; m < p; m++ {
			c.E[m*k+j] = cRows[j*p+m]
		}
	}
}

// Chain returns θ in the layout of package infer.
func (θ Params) Chain() *infer.Chain {
	var c infer.Chain
	setChain(&c, θ.K, θ.P, θ.Pi, θ.A, θ.C)
	return &c
}

// Scorer computes log probabilities of sequences under fixed parameters
// without allocating per call. It is not safe for concurrent use.
type Scorer struct {
	chain infer.Chain
	ws    infer.ForwardBackward
}

// NewScorer returns a Scorer for θ.
func NewScorer(θ Params) *Scorer {
	s := &Scorer{}
	setChain(&s.chain, θ.K, θ.P, θ.Pi, θ.A, θ.C)
	return s
}

// LogProb returns ln p(y|θ) by the scaled forward pass (eq. 3.23); −Inf if y
// is impossible under θ.
func (s *Scorer) LogProb(y []int) float64 { return s.ws.LogProb(&s.chain, y) }

// LogLik returns Σ_i ln p(y_i|θ), each term by the scaled forward pass
// (eq. 3.23).
func (θ Params) LogLik(d Data) float64 {
	s := NewScorer(θ)
	var l float64
	for _, y := range d.Seqs {
		l += s.LogProb(y)
	}
	return l
}

// Floored returns a copy of θ with every entry below floor raised to floor
// and each row renormalised. It is for reporting only (targets §E3.3: ML
// test scores computed with probabilities floored at 1e-10).
func (θ Params) Floored(floor float64) Params {
	f := θ.Clone()
	fix := func(row []float64) {
		var s float64
		for i, v := range row {
			if v < floor {
				row[i] = floor
			}
			s += row[i]
		}
		for i := range row {
			row[i] /= s
		}
	}
	fix(f.Pi)
	for j := 0; j < f.K; j++ {
		fix(f.A[j*f.K : (j+1)*f.K])
		fix(f.C[j*f.P : (j+1)*f.P])
	}
	return f
}

// NumFree returns the number of free parameters (k−1) + k(k−1) + k(p−1)
// (Beal 2003 L1867), for BIC.
func (θ Params) NumFree() int {
	k, p := θ.K, θ.P
	return (k - 1) + k*(k-1) + k*(p-1)
}
