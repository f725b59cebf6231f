package hmm

import (
	"errors"
	"math"

	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/vb"
)

// EM is Baum-Welch for maximum likelihood (Prior nil; Beal 2003 eqs.
// 3.16-3.35) or, with a Prior, MAP-EM in the softmax basis (section 3.3,
// L1901). In the softmax basis the Dirichlet exponents u − 1 become u, so the
// MAP estimate is a_{jl} = (u^(A)_l + N^A_{jl}) / (Σ_l u^(A)_l + N^A_j), which
// is positive even when u < 1, and MAP-EM maximises
//
//	ln p(y|θ) + Σ_j u^(π)_j ln π_j + Σ_{jl} u^(A)_l ln a_{jl} + Σ_{jm} u^(C)_m ln c_{jm}.
//
// EM implements vb.Model: E returns that objective (the log-likelihood for
// ML), which never decreases.
//
// Workers > 1 spreads the E step's sequences over that many goroutines when
// the data span several blocks (see blockSymbols); 0 or 1 runs it in the
// calling goroutine. The results are bit-identical for every setting.
type EM struct {
	Data    Data
	Params  Params
	Prior   *Prior // nil for maximum likelihood
	Workers int

	chain infer.Chain
	est   estep // counts of the last E step
}

// NewEM returns Baum-Welch (prior nil) or MAP-EM started at init, which is
// copied. It panics if shapes disagree; validate data and prior first.
func NewEM(d Data, init Params, prior *Prior) *EM {
	if init.P != d.P {
		panic("hmm: parameters and data have different alphabets")
	}
	if prior != nil && (len(prior.Pi) != init.K || len(prior.A) != init.K || len(prior.C) != init.P) {
		panic("hmm: prior shape does not match parameters")
	}
	return &EM{Data: d, Params: init.Clone(), Prior: prior, est: newEStep(init.K, init.P)}
}

// ErrImpossible is returned when a training sequence has zero probability
// under the current parameters.
var ErrImpossible = errors.New("hmm: a training sequence has zero probability")

// E runs forward-backward (eqs. 3.19-3.35) on every sequence with the
// current parameters (over Workers goroutines), pooling the expected counts
// (L1857), and returns the objective with terms "lnp(y|theta)" and, for
// MAP, "lnprior".
func (m *EM) E() (vb.Bound, error) {
	θ := m.Params
	setChain(&m.chain, θ.K, θ.P, θ.Pi, θ.A, θ.C)
	lnp := m.est.run(&m.chain, nil, m.Data.Seqs, m.Workers)
	b := vb.Bound{F: lnp, Terms: []vb.Term{{Name: "lnp(y|theta)", Value: lnp}}}
	if math.IsInf(lnp, -1) {
		return b, ErrImpossible
	}
	if m.Prior != nil {
		lp := m.logPrior()
		b.F += lp
		b.Terms = append(b.Terms, vb.Term{Name: "lnprior", Value: lp})
	}
	return b, nil
}

// logPrior is Σ u ln θ over π, the rows of A and the rows of C (the
// softmax-basis log prior without its constant normalisers).
func (m *EM) logPrior() float64 {
	θ, u := m.Params, m.Prior
	k, p := θ.K, θ.P
	var s float64
	for j := 0; j < k; j++ {
		s += u.Pi[j] * math.Log(θ.Pi[j])
		for l := 0; l < k; l++ {
			s += u.A[l] * math.Log(θ.A[j*k+l])
		}
		for o := 0; o < p; o++ {
			s += u.C[o] * math.Log(θ.C[j*p+o])
		}
	}
	return s
}

// M sets the parameters to the normalised expected counts (eqs. 3.16-3.18),
// plus the prior pseudo-counts for MAP (eq. 3.42 in the softmax basis,
// without the −1; L1901). A row with no expected counts under ML keeps its
// previous values (targets §1.4: never divide 0 by 0).
func (m *EM) M() {
	θ, c := m.Params, m.est.counts
	k, p := θ.K, θ.P
	var uPi, uA, uC []float64
	if m.Prior != nil {
		uPi, uA, uC = m.Prior.Pi, m.Prior.A, m.Prior.C
	}
	normalise(θ.Pi, c.Pi, uPi, 1, 0)
	for j := 0; j < k; j++ {
		normalise(θ.A[j*k:(j+1)*k], c.A[j*k:(j+1)*k], uA, 1, 0)
		normalise(θ.C[j*p:(j+1)*p], c.E, uC, k, j)
	}
}

// normalise sets dst[i] ∝ u[i] + n[off+i*stride] (u may be nil), leaving dst
// unchanged when the total is zero.
func normalise(dst, n, u []float64, stride, off int) {
	var s float64
	for i := range dst {
		v := n[off+i*stride]
		if u != nil {
			v += u[i]
		}
		s += v
	}
	if !(s > 0) {
		return
	}
	for i := range dst {
		v := n[off+i*stride]
		if u != nil {
			v += u[i]
		}
		dst[i] = v / s
	}
}

// Counts returns the expected counts of the last E step (in package infer's
// layout). They are overwritten by the next E step.
func (m *EM) Counts() *infer.Counts { return m.est.counts }
