package drift

import (
	"errors"
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Term names of the bound of VB.E.
const (
	TermLogZ     = "ln Z~[w]"    // ln ∫ exp⟨ln p(y, w | λ, ψ_y)⟩ dw, every constant included
	TermKLLambda = "-KL[lambda]" // −KL(q(λ) ‖ p(λ)), eq. 3.13
	TermKLPsi    = "-KL[psi]"    // −KL(q(ψ_y) ‖ p(ψ_y)), eq. 3.14; 0 with ψ_y known
)

// Data is a regression sequence: T steps of d inputs x_n (X, T×d,
// time-major) and outputs y_n (Y, T).
type Data struct {
	X []float64
	Y []float64
	D int
}

// T returns the number of steps.
func (d Data) T() int { return len(d.Y) }

func (d Data) check() error {
	if d.D < 1 {
		return fmt.Errorf("drift: %d inputs, want at least 1", d.D)
	}
	if len(d.Y) == 0 || len(d.X) != len(d.Y)*d.D {
		return fmt.Errorf("drift: %d outputs and %d input values for d=%d", len(d.Y), len(d.X), d.D)
	}
	for _, v := range d.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errors.New("drift: an input is not finite")
		}
	}
	for _, v := range d.Y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errors.New("drift: an output is not finite")
		}
	}
	return nil
}

// Prior is the prior of the model (eqs. 3.13-3.15): λ ~ Ga(ALambda,
// BLambda), ψ_y ~ Ga(APsi, BPsi) (shape, rate), and the weight before the
// first step w_0 ~ N(W0, Zeta0⁻¹ I) (W0 nil: 0).
type Prior struct {
	ALambda, BLambda float64
	APsi, BPsi       float64
	W0               []float64
	Zeta0            float64
}

func (p Prior) check(d int) error {
	for _, v := range []float64{p.ALambda, p.BLambda, p.APsi, p.BPsi, p.Zeta0} {
		if !(v > 0) || math.IsInf(v, 1) {
			return fmt.Errorf("drift: prior %+v: shapes, rates and ζ_0 must be positive and finite", p)
		}
	}
	if p.W0 != nil && len(p.W0) != d {
		return fmt.Errorf("drift: prior mean of w_0 has %d values for d=%d", len(p.W0), d)
	}
	return nil
}

// Settings control NewVB. The zero value of every field means its default.
type Settings struct {
	// InitLambda and InitPsi are E[λ] and E[ψ_y] of the starting q(λ) and
	// q(ψ_y), whose shapes are those of the first M step (a + Td/2,
	// a + T/2). Defaults: InitLambda 1e3, InitPsi 1/Var(y) (divisor T;
	// 1 for a constant y).
	InitLambda, InitPsi float64
	// KnownPsi, when positive, fixes ψ_y at that value: q(ψ_y) is a point
	// mass, never updated, and its KL term is 0.
	KnownPsi float64
	// KnownLambda, when positive, fixes λ in the same way; with both known
	// E is the Kalman smoother and F = ln p(y | λ, ψ_y).
	KnownLambda float64
}

// VB is the variational Kalman smoother (vkS) of the drifting regression
// (eqs. 3.11-3.16): q(w_{0:T}) q(λ) q(ψ_y) with q(w) the Gaussian of the
// Kalman smoother at ⟨λ⟩, ⟨ψ_y⟩ (the forward and backward recursions of
// L983-991, run by core/infer's smoother with C_t = x_tᵀ) and gamma q(λ),
// q(ψ_y) (L996-1003, App B.3 L2312-2330). E updates q(w) and returns the
// complete bound; M updates q(λ) and q(ψ_y). Both are exact coordinate
// ascent steps, so the bound never decreases.
type VB struct {
	precisions
	data Data
	w0   []float64

	ks   *infer.KalmanSmoother
	phi  *infer.LDSNatural
	obs  infer.LDSVarying
	post infer.LDSPosterior
	lam  []float64 // T×d×d filtered precisions of the state s = √⟨λ⟩ w

	lbar   float64 // ⟨λ⟩ of the last E step
	sy, sw float64 // Σ⟨(y_n − x_nᵀw_n)²⟩ and Σ⟨‖w_n − w_{n−1}‖²⟩ of the last E step
	haveE  bool
	terms  []vb.Term
}

// NewVB returns vkS for the data under the prior; the first E step
// computes q(w).
func NewVB(data Data, prior Prior, s Settings) (*VB, error) {
	if err := checkAll(data, prior, s); err != nil {
		return nil, err
	}
	d := data.D
	m := &VB{precisions: precisions{prior: prior, set: s}, w0: make([]float64, d)}
	if prior.W0 != nil {
		copy(m.w0, prior.W0)
	}
	m.ks = infer.NewKalmanSmoother(d, 1, 0, data.T())
	m.phi = infer.NewLDSNatural(d, 1, 0)
	for i := 0; i < d; i++ {
		m.phi.A[i*d+i] = 1
		m.phi.AtA[i*d+i] = 1
	}
	m.terms = make([]vb.Term, 3)
	if err := m.SetData(data); err != nil {
		return nil, err
	}
	return m, nil
}

// SetData replaces the data by another sequence with the same d (a new
// window of a stream, say), keeping the current q(λ) and q(ψ_y) and reusing
// the buffers; the shapes of q(λ) and q(ψ_y) are set to those of the new
// length. The next E step computes q(w).
func (m *VB) SetData(data Data) error {
	if err := data.check(); err != nil {
		return err
	}
	d, T := data.D, data.T()
	if len(m.w0) != d {
		return fmt.Errorf("drift: data of d=%d for a model of d=%d", d, len(m.w0))
	}
	first := m.data.Y == nil
	m.data = data
	m.obs.CtRhoC = reuse(m.obs.CtRhoC, T*d*d)
	m.obs.RhoC = reuse(m.obs.RhoC, T*d)
	m.lam = reuse(m.lam, T*d*d)
	m.reshape(data.Y, d, first)
	m.haveE = false
	return nil
}

func reuse(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// E runs the Kalman smoother at ⟨λ⟩, ⟨ψ_y⟩ and returns
// F = ln Z̃ − KL(q(λ)‖p(λ)) − KL(q(ψ_y)‖p(ψ_y)), where
// ln Z̃ = ln ∫ exp⟨ln p(y, w_{0:T} | λ, ψ_y)⟩ dw (eq. 3.15 averaged over
// q(λ)q(ψ_y), every constant included).
//
// The smoother's state noise is N(0, I) (Beal 2003 eq. 5.2), so it runs on
// s_n = √⟨λ⟩ w_n: A = I, C_n = x_nᵀ/√⟨λ⟩, ⟨C_nᵀR⁻¹C_n⟩ = ⟨ψ_y⟩x_nx_nᵀ/⟨λ⟩,
// s_0 ~ N(√⟨λ⟩ŵ_0, (⟨λ⟩/ζ_0) I). The change of variables gives
// ln Z̃ = ln Z'_s − (Td/2)(ln⟨λ⟩ − ⟨ln λ⟩): the Jacobian ⟨λ⟩^{(T+1)d/2}
// against the normalisers of the T steps' N(0, I) (which have no ⟨ln λ⟩)
// and of the prior of s_0.
func (m *VB) E() (vb.Bound, error) {
	d, T := m.data.D, m.data.T()
	lbar, llog := m.lambda()
	pbar, plog := m.psi()
	sl := math.Sqrt(lbar)
	phi := m.phi
	phi.Rho[0] = pbar
	phi.LogDetRho = plog
	for i := 0; i < d; i++ {
		phi.Mu0[i] = sl * m.w0[i]
		for j := 0; j < d; j++ {
			phi.Lambda0[i*d+j] = 0
		}
		phi.Lambda0[i*d+i] = m.prior.Zeta0 / lbar
	}
	dd := d * d
	for t := 0; t < T; t++ {
		x := m.data.X[t*d : (t+1)*d]
		c := m.obs.CtRhoC[t*dd : (t+1)*dd]
		for i, xi := range x {
			for j, xj := range x {
				c[i*d+j] = pbar * xi * xj / lbar
			}
			m.obs.RhoC[t*d+i] = pbar * xi / sl
		}
	}
	if err := m.ks.SmoothVarying(&m.post, phi, &m.obs, m.data.Y); err != nil {
		return vb.Bound{}, err
	}
	m.ks.FilterPrecisions(m.lam, T)
	m.lbar = lbar
	m.haveE = true

	// The expected statistics of the M step, in w = s/√⟨λ⟩.
	p := &m.post
	var sy, sw float64
	for t := 0; t < T; t++ {
		x := m.data.X[t*d : (t+1)*d]
		mt := p.X[t*d : (t+1)*d]
		vt := p.V[t*dd : (t+1)*dd]
		r := m.data.Y[t] - numeric.Dot(x, mt)/sl
		sy += r*r + quad(vt, x)/lbar
		prevM, prevV, cross := p.X0, p.V0, p.W0
		if t > 0 {
			prevM, prevV, cross = p.X[(t-1)*d:t*d], p.V[(t-1)*dd:t*dd], p.W[(t-1)*dd:t*dd]
		}
		var s float64
		for i := 0; i < d; i++ {
			dm := mt[i] - prevM[i]
			s += dm*dm + vt[i*d+i] + prevV[i*d+i] - 2*cross[i*d+i]
		}
		sw += s / lbar
	}
	m.sy, m.sw = sy, sw

	lnZ := p.LogZ - 0.5*float64(T*d)*(math.Log(lbar)-llog)
	klL, klP := m.kls()
	m.terms[0] = vb.Term{Name: TermLogZ, Value: lnZ}
	m.terms[1] = vb.Term{Name: TermKLLambda, Value: -klL}
	m.terms[2] = vb.Term{Name: TermKLPsi, Value: -klP}
	return vb.Bound{F: lnZ - klL - klP, Terms: m.terms}, nil
}

// quad returns xᵀVx for the d×d matrix V.
func quad(v, x []float64) float64 {
	d := len(x)
	var s float64
	for i, xi := range x {
		s += xi * numeric.Dot(v[i*d:(i+1)*d], x)
	}
	return s
}

// M updates q(λ) and q(ψ_y) from the statistics of the last E step (L996-1003,
// App B.3 L2312-2330, with d weights drifting independently at precision λ):
//
//	â_ψ = a_ψ + T/2,  b̂_ψ = b_ψ + ½ Σ_n [(y_n − x_nᵀ⟨w_n⟩)² + x_nᵀCov(w_n)x_n]
//	â_λ = a_λ + Td/2, b̂_λ = b_λ + ½ Σ_n ⟨‖w_n − w_{n−1}‖²⟩,
//
// ⟨‖w_n − w_{n−1}‖²⟩ = ‖⟨w_n⟩ − ⟨w_{n−1}⟩‖² + tr Cov(w_n) + tr Cov(w_{n−1})
// − 2 tr Cov(w_{n−1}, w_n). It does nothing before the first E step.
func (m *VB) M() {
	if !m.haveE {
		return
	}
	m.update(m.data.T(), m.data.D, m.sw, m.sy)
}

// Mean writes ⟨w_n⟩ under q(w), n = 1, …, T, into dst (T×d) and returns it
// (allocated when dst is too short). It panics before the first E step.
func (m *VB) Mean(dst []float64) []float64 {
	m.mustE()
	d, T := m.data.D, m.data.T()
	dst = reuse(dst, T*d)
	s := 1 / math.Sqrt(m.lbar)
	for i, v := range m.post.X[:T*d] {
		dst[i] = v * s
	}
	return dst
}

// Last writes ⟨w_T⟩, the smoothed (and filtered) mean of the last step,
// into dst (d) and returns it.
func (m *VB) Last(dst []float64) []float64 {
	m.mustE()
	d, T := m.data.D, m.data.T()
	dst = reuse(dst, d)
	s := 1 / math.Sqrt(m.lbar)
	for i, v := range m.post.X[(T-1)*d : T*d] {
		dst[i] = v * s
	}
	return dst
}

// Cov writes Cov(w_n) (d×d; the smoothed precision φ_n of L979 is its
// inverse) of step n = 1, …, T into dst and returns it.
func (m *VB) Cov(dst []float64, n int) []float64 {
	m.mustE()
	d := m.data.D
	dd := d * d
	dst = reuse(dst, dd)
	for i, v := range m.post.V[(n-1)*dd : n*dd] {
		dst[i] = v / m.lbar
	}
	return dst
}

// FilteredPrecision writes the filtered precision ζ_n of w_n given
// y_{1:n} (d×d, L979 and the forward recursion of L983-985) of step
// n = 1, …, T into dst and returns it.
func (m *VB) FilteredPrecision(dst []float64, n int) []float64 {
	m.mustE()
	d := m.data.D
	dd := d * d
	dst = reuse(dst, dd)
	for i, v := range m.lam[(n-1)*dd : n*dd] {
		dst[i] = v * m.lbar
	}
	return dst
}

func (m *VB) mustE() {
	if !m.haveE {
		panic("drift: posterior of w read before the first E step")
	}
}
