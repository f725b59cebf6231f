package hmm

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/vb"
)

// Posterior holds the variational Dirichlet parameters (pseudo-counts) w of
// q(π) q(A) q(C) (Beal 2003 eqs. 3.53-3.59), in the layouts of Params.
type Posterior struct {
	K, P int
	Pi   []float64 // w^(π), K
	A    []float64 // w^(A), K×K row-major, one Dirichlet per row
	C    []float64 // w^(C), K×P row-major, one Dirichlet per row
}

// Clone returns a deep copy.
func (w Posterior) Clone() Posterior {
	return Posterior{K: w.K, P: w.P, Pi: append([]float64(nil), w.Pi...), A: append([]float64(nil), w.A...), C: append([]float64(nil), w.C...)}
}

// PosteriorFromParams returns Dirichlets whose means are θ and whose rows
// each have total pseudo-count strength, the VB initialisation of Beal
// (2003) L2129 ("the ML parameter as mean and a strength arbitrarily set to
// 10"). Entries below floor are raised to floor (an ML zero would otherwise
// give ψ(0) = −∞; targets §4 item 3).
func PosteriorFromParams(θ Params, strength, floor float64) Posterior {
	w := Posterior{K: θ.K, P: θ.P, Pi: make([]float64, θ.K), A: make([]float64, len(θ.A)), C: make([]float64, len(θ.C))}
	set := func(dst, src []float64) {
		for i, v := range src {
			dst[i] = math.Max(strength*v, floor)
		}
	}
	set(w.Pi, θ.Pi)
	set(w.A, θ.A)
	set(w.C, θ.C)
	return w
}

// Mean returns the row-normalised pseudo-counts, the posterior mean θ_MVB
// (eq. 3.85), which is also the mode in the softmax basis; the thesis's
// predictions use it (L2145).
func (w Posterior) Mean() Params {
	θ := NewParams(w.K, w.P)
	normalise(θ.Pi, w.Pi, nil, 1, 0)
	for j := 0; j < w.K; j++ {
		normalise(θ.A[j*w.K:(j+1)*w.K], w.A[j*w.K:(j+1)*w.K], nil, 1, 0)
		normalise(θ.C[j*w.P:(j+1)*w.P], w.C[j*w.P:(j+1)*w.P], nil, 1, 0)
	}
	return θ
}

// BayesPoint returns the sub-normalised parameters θ̃ = exp E_q[ln θ]
// (eqs. 3.66-3.71); each row sums to less than one.
func (w Posterior) BayesPoint() Params {
	θ := NewParams(w.K, w.P)
	bayesPointRow(θ.Pi, w.Pi)
	for j := 0; j < w.K; j++ {
		bayesPointRow(θ.A[j*w.K:(j+1)*w.K], w.A[j*w.K:(j+1)*w.K])
		bayesPointRow(θ.C[j*w.P:(j+1)*w.P], w.C[j*w.P:(j+1)*w.P])
	}
	return θ
}

// bayesPointRow sets dst = exp(ψ(w) − ψ(Σw)) without allocating.
func bayesPointRow(dst, w []float64) {
	dist.DirichletMeanLogTo(dst, w)
	for i, v := range dst {
		dst[i] = math.Exp(v)
	}
}

// bayesLogRow sets logs = ψ(w) − ψ(Σw) and dst = exp(logs), the values of
// bayesPointRow, without allocating.
func bayesLogRow(logs, dst, w []float64) {
	dist.DirichletMeanLogTo(logs, w)
	for i, v := range logs {
		dst[i] = math.Exp(v)
	}
}

// VB is variational Bayesian EM for the HMM (Beal 2003 section 3.4.1). It
// implements vb.Model: E is the VBE step (forward-backward with the
// Bayes-point weights) and returns
//
//	F = Σ_i ln Z̃_i − KL(w^(π)‖u^(π)) − Σ_j KL(w^(A)_j‖u^(A)) − Σ_j KL(w^(C)_j‖u^(C))
//
// (eq. 3.79 in its multi-sequence form, L4042-L4048), every term evaluated
// with the same w; M is the VBM step w = u + expected counts (eqs. 3.55,
// 3.57, 3.59; the thesis prints u^(A) in 3.59 where u^(C) is meant).
//
// Workers > 1 spreads the VBE step's sequences over that many goroutines
// when the data span several blocks (see blockSymbols); 0 or 1 runs it in
// the calling goroutine. The results are bit-identical for every setting.
type VB struct {
	Data    Data
	Prior   Prior
	W       Posterior
	Workers int

	bayes    Params // θ̃ of the last E step
	logBayes Params // ln θ̃ = E[ln θ] = ψ(w) − ψ(Σw) of the last E step
	chain    infer.Chain
	logChain infer.LogChain // ln θ̃ in the recursion's layout
	est      estep          // counts and per-sequence ln Z̃_i of the last E step
}

// NewVB returns VBEM for data d with prior u, started from the posterior w
// (both copied). It panics if shapes disagree; validate data and prior first.
func NewVB(d Data, u Prior, w Posterior) *VB {
	if w.P != d.P || len(u.Pi) != w.K || len(u.A) != w.K || len(u.C) != w.P {
		panic(fmt.Sprintf("hmm: shapes disagree: data P=%d, posterior K=%d P=%d, prior (%d,%d,%d)",
			d.P, w.K, w.P, len(u.Pi), len(u.A), len(u.C)))
	}
	u = Prior{Pi: append([]float64(nil), u.Pi...), A: append([]float64(nil), u.A...), C: append([]float64(nil), u.C...)}
	m := &VB{Data: d, Prior: u, W: w.Clone(), bayes: NewParams(w.K, w.P), logBayes: NewParams(w.K, w.P), est: newEStep(w.K, w.P)}
	m.est.lnZ = make([]float64, len(d.Seqs))
	return m
}

// Term names of the VB bound, in the order E reports them.
const (
	TermLnZ  = "lnZ"
	TermKLPi = "-KL[pi]" // −KL(q(π)‖p(π))
	TermKLA  = "-KL[A]"  // −Σ_j KL(q(a_j)‖p(a_j))
	TermKLC  = "-KL[C]"  // −Σ_j KL(q(c_j)‖p(c_j))
)

// E is the VBE step: forward-backward with θ̃ = exp E[ln θ] on every
// sequence (over Workers goroutines; eqs. 3.66-3.74), then F (eq. 3.79).
// A weight θ̃ = exp(ψ(w) − ψ(Σw)) is exactly 0 in float64 once ψ(w) − ψ(Σw)
// < −745.13 (targets §1.4): for a row of total pseudo-count s ≪ 1 that is
// an entry of mean below about 1/(1 + 745 s) (an initial q(θ) of strength
// 0.01 from the ML point zeroes every transition of ML probability below
// 0.12), and a sequence can become impossible under θ̃ though every path
// has a positive weight under q. Such a sequence is run again in the log
// domain, on ln θ̃ (infer.ForwardBackward.AddExpectedCountsLog), which
// gives its ln Z̃ and counts exactly; the others keep the scaled
// recursion. F = −Inf and ErrImpossible remain for a sequence impossible
// under ln θ̃ too (a weight whose log is −Inf).
func (m *VB) E() (vb.Bound, error) {
	w := m.W
	k, p := w.K, w.P
	bayesLogRow(m.logBayes.Pi, m.bayes.Pi, w.Pi)
	for j := 0; j < k; j++ {
		bayesLogRow(m.logBayes.A[j*k:(j+1)*k], m.bayes.A[j*k:(j+1)*k], w.A[j*k:(j+1)*k])
		bayesLogRow(m.logBayes.C[j*p:(j+1)*p], m.bayes.C[j*p:(j+1)*p], w.C[j*p:(j+1)*p])
	}
	setChain(&m.chain, k, p, m.bayes.Pi, m.bayes.A, m.bayes.C)
	setChain((*infer.Chain)(&m.logChain), k, p, m.logBayes.Pi, m.logBayes.A, m.logBayes.C)
	lnZ := m.est.run(&m.chain, &m.logChain, m.Data.Seqs, m.Workers)
	klPi, klA, klC := m.KL()
	b := vb.Bound{F: lnZ - klPi - klA - klC, Terms: []vb.Term{
		{Name: TermLnZ, Value: lnZ}, {Name: TermKLPi, Value: -klPi}, {Name: TermKLA, Value: -klA}, {Name: TermKLC, Value: -klC},
	}}
	if math.IsInf(lnZ, -1) {
		return b, ErrImpossible
	}
	return b, nil
}

// KL returns the three KL divergences of q(θ) from the prior: of q(π), and
// summed over the rows of q(A) and of q(C) (the KL terms of eq. 3.79,
// Appendix A).
func (m *VB) KL() (pi, a, c float64) {
	w, u := m.W, m.Prior
	k, p := w.K, w.P
	pi = dist.DirichletKL(w.Pi, u.Pi)
	for j := 0; j < k; j++ {
		a += dist.DirichletKL(w.A[j*k:(j+1)*k], u.A)
		c += dist.DirichletKL(w.C[j*p:(j+1)*p], u.C)
	}
	return pi, a, c
}

// M is the VBM step: w = u + the expected counts of the last E step (eqs.
// 3.55, 3.57, 3.59).
func (m *VB) M() { m.W.setFromCounts(m.Prior, m.est.counts) }

// Counts returns the expected counts of the last E step (package infer's
// layout). They are overwritten by the next E step.
func (m *VB) Counts() *infer.Counts { return m.est.counts }

// SeqLnZ returns the per-sequence ln Z̃_i of the last E step.
func (m *VB) SeqLnZ() []float64 { return m.est.lnZ }

// PredictiveBound returns ln Z̃(y′) from a VBE pass over y′ with the current
// posterior and no VBM: a lower bound on ln ∫ q(θ) p(y′|θ) dθ (eqs.
// 3.82-3.84). It uses θ̃ from the last E step.
func (m *VB) PredictiveBound(y []int) float64 {
	var ws infer.ForwardBackward
	return ws.LogProb(&m.chain, y)
}

// Hyperparameter groups of VB: the symmetric strengths f^(π), f^(A) and
// f^(C) of eq. 3.43.
const (
	HyperPi = "u_pi"
	HyperA  = "u_A"
	HyperC  = "u_C"
)

// HyperGroups returns HyperPi, HyperA and HyperC.
func (m *VB) HyperGroups() []string { return []string{HyperPi, HyperA, HyperC} }

// UpdateHyper maximises F over one symmetric prior strength, f^(π), f^(A)
// or f^(C) (eq. 3.43), for the current q(θ) (Beal 2003 eq. 2.79; the
// thesis's chapter-3 experiments keep them fixed, L2083). F depends on the
// prior only through −KL(q‖p), which for R rows of dimension K with entries
// f/K is maximised by dist.FitSymmetricStrength with S = Σ_rows Σ_j E[ln θ_rj].
// A group with a single entry per row (k = 1 for π and A, p = 1 for C) has
// nothing to fit. vb.Run calls it as Settings.Hyper schedules; it panics on
// an unknown group.
func (m *VB) UpdateHyper(group string) {
	w := m.W
	k, p := w.K, w.P
	buf := make([]float64, max(k, p))
	fit := func(u []float64, rows [][]float64) {
		K := len(u)
		if K < 2 {
			return
		}
		var S float64
		for _, row := range rows {
			for _, v := range dist.DirichletMeanLogTo(buf[:K], row) {
				S += v
			}
		}
		f := dist.FitSymmetricStrength(len(rows), K, S)
		for i := range u {
			u[i] = f / float64(K)
		}
	}
	rows := func(data []float64, n int) [][]float64 {
		r := make([][]float64, k)
		for j := range r {
			r[j] = data[j*n : (j+1)*n]
		}
		return r
	}
	switch group {
	case HyperPi:
		fit(m.Prior.Pi, [][]float64{w.Pi})
	case HyperA:
		fit(m.Prior.A, rows(w.A, k))
	case HyperC:
		fit(m.Prior.C, rows(w.C, p))
	default:
		panic(fmt.Sprintf("hmm: unknown hyperparameter group %q", group))
	}
}
