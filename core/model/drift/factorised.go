package drift

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Term names of the bound of Factorised.E.
const (
	TermLik     = "<ln p(y|w)>"       // E[ln p(y | w, ψ_y)] under q(w)q(ψ_y)
	TermWalks   = "<ln p(w)>+H[q(w)]" // Σ_m E[ln p(w_m,0:T | λ)] + H[q(w_m,0:T)]
	termsFactor = 4                   // the two above and the two KLs of VB.E
)

// Factorised is vkS with Bayesian backfitting's factorisation over the
// inputs, the combination D'Souza runs on the 105-dimensional regression of
// Fig. 3.15 ("integrating the vkS formulation with the Bayesian backfitting
// regression algorithm", L1019-1024): the model of VB (eqs. 3.11-3.15) with
// q(w_{1,0:T}) ⋯ q(w_{d,0:T}) q(λ) q(ψ_y). Each q(w_m) is the optimum given
// the others, the 1-D Kalman smoother of VB at ⟨λ⟩, ⟨ψ_y⟩ on the partial
// residual r_n = y_n − Σ_{k≠m} x_nk⟨w_nk⟩ (the backfitting target of eq.
// 4.26 with the others' fit held), so a sweep costs O(Td) where VB's joint
// q(w) costs O(Td³). E sweeps the inputs once and returns the complete
// bound; M updates q(λ) and q(ψ_y) as VB.M does. Both are exact coordinate
// ascent steps, so the bound never decreases. For Gaussian models the means
// of the factorised fixed point equal the joint posterior's (at the same
// ⟨λ⟩, ⟨ψ_y⟩); the variances are smaller.
//
// The bound is, with v and c the marginal variances and lag-one covariances
// of each chain,
//
//	F = (T/2)(⟨ln ψ_y⟩ − ln 2π) − (⟨ψ_y⟩/2) Σ_n [(y_n − x_nᵀ⟨w_n⟩)² + Σ_m x_nm² v_nm]
//	  + Σ_m { ½ ln ζ_0 − ½ ln 2π − (ζ_0/2)[(⟨w_m0⟩ − ŵ_0m)² + v_m0]
//	          + Σ_n [½⟨ln λ⟩ − ½ ln 2π − (⟨λ⟩/2)⟨(w_mn − w_m,n−1)²⟩]
//	          + ½ ln(2πe v_m0) + Σ_n ½ ln(2πe (v_mn − c_mn²/v_m,n−1)) }
//	  − KL(q(λ)‖p(λ)) − KL(q(ψ_y)‖p(ψ_y)),
//
// the last line of the braces the entropy of a Gauss-Markov chain.
type Factorised struct {
	precisions
	data Data

	mf     []float64 // T+1: the filtered means of the input being updated
	ga, aa []float64 // d×T: the filter's gain g_n = p_nψx_n and 1 − g_n x_n, per input
	jb     []float64 // d×T: the smoother's gain J_n, n = 0, …, T−1, per input
	col    []float64 // d×T: the inputs by column
	res    []float64 // T: the partial residual of the input being updated
	fit    []float64 // T: x_nᵀ⟨w_n⟩
	mu     []float64 // d×(T+1): ⟨w_mn⟩, n = 0, …, T
	mu2    []float64 // scratch of SetData's shift
	v      []float64 // d×(T+1): Var(w_mn)
	c      []float64 // d×T: Cov(w_m,n−1, w_mn), n = 1, …, T

	sy, sw float64
	haveE  bool
	terms  []vb.Term
}

// NewFactorised returns the factorised vkS for the data under the prior,
// with ⟨w⟩ started at the prior mean ŵ_0; the first E step sweeps the
// inputs once.
func NewFactorised(data Data, prior Prior, s Settings) (*Factorised, error) {
	if err := checkAll(data, prior, s); err != nil {
		return nil, err
	}
	d, T := data.D, data.T()
	m := &Factorised{precisions: precisions{prior: prior, set: s}, data: data,
		col: make([]float64, d*T), res: make([]float64, T), fit: make([]float64, T),
		mu: make([]float64, d*(T+1)), v: make([]float64, d*(T+1)), c: make([]float64, d*T),
		mf: make([]float64, T+1), ga: make([]float64, d*T), aa: make([]float64, d*T), jb: make([]float64, d*T),
		terms: make([]vb.Term, termsFactor)}
	for n := 0; n < T; n++ {
		for k := 0; k < d; k++ {
			m.col[k*T+n] = data.X[n*d+k]
		}
	}
	for k := 0; k < d; k++ {
		w0 := 0.0
		if prior.W0 != nil {
			w0 = prior.W0[k]
		}
		for n := 0; n <= T; n++ {
			m.mu[k*(T+1)+n] = w0
		}
		for n := 0; n < T; n++ {
			m.fit[n] += data.X[n*d+k] * w0
		}
	}
	m.reshape(data.Y, d, true)
	return m, nil
}

// SetData replaces the data by another sequence with the same d (the next
// window of a stream), keeping the current q(λ) and q(ψ_y) with their shapes
// set to the new length (as VB.SetData), and starts ⟨w_n⟩ from the current
// means shifted by shift steps: the new step n takes the old step n + shift,
// and steps past the old end the old last mean. The next E step sweeps.
func (m *Factorised) SetData(data Data, shift int) error {
	if err := data.check(); err != nil {
		return err
	}
	d, T, oldT := data.D, data.T(), m.data.T()
	if d != m.data.D {
		return fmt.Errorf("drift: data of d=%d for a model of d=%d", d, m.data.D)
	}
	if shift < 0 {
		return fmt.Errorf("drift: window shift %d, want at least 0", shift)
	}
	m.mu2 = reuse(m.mu2, d*(T+1))
	for k := 0; k < d; k++ {
		for n := 0; n <= T; n++ {
			m.mu2[k*(T+1)+n] = m.mu[k*(oldT+1)+min(n+shift, oldT)]
		}
	}
	m.mu, m.mu2 = m.mu2, m.mu
	m.data = data
	m.col, m.res, m.fit = reuse(m.col, d*T), reuse(m.res, T), reuse(m.fit, T)
	m.v, m.c = reuse(m.v, d*(T+1)), reuse(m.c, d*T)
	m.mf = reuse(m.mf, T+1)
	m.ga, m.aa, m.jb = reuse(m.ga, d*T), reuse(m.aa, d*T), reuse(m.jb, d*T)
	for n := 0; n < T; n++ {
		m.fit[n] = 0
		for k := 0; k < d; k++ {
			x := data.X[n*d+k]
			m.col[k*T+n] = x
			m.fit[n] += x * m.mu[k*(T+1)+n+1]
		}
	}
	m.reshape(data.Y, d, false)
	m.haveE = false
	return nil
}

// Last writes ⟨w_T⟩, the smoothed (and filtered) mean of the last step,
// into dst (d) and returns it.
func (m *Factorised) Last(dst []float64) []float64 {
	d, T := m.data.D, m.data.T()
	dst = reuse(dst, d)
	for k := 0; k < d; k++ {
		dst[k] = m.mu[k*(T+1)+T]
	}
	return dst
}

// variances sets, for every input k, the variances of the 1-D Kalman
// smoother of w_n = w_{n−1} + η_n, η_n ~ N(0, 1/λ), r_n = x_n w_n + ε_n,
// ε_n ~ N(0, 1/ψ), w_0 ~ N(ŵ_0k, 1/ζ_0) (the recursions of L983-991 in one
// dimension), which do not depend on the residuals: the filtered
// p_n = p̄/(1 + ψx_n²p̄), p̄ = p_{n−1} + 1/λ, the filter's gain g_n = p_nψx_n,
// the Rauch-Tung-Striebel gain J_n = p_n/(p_n + 1/λ), the smoothed Var(w_n)
// into v and Cov(w_n, w_{n+1}) = J_n Var(w_{n+1}) into c (v holds p_n until
// the backward pass overwrites it). The filter's recursion is a chain of
// divisions; four inputs run side by side so that their chains overlap.
func (m *Factorised) variances(lambda, psi float64) {
	d, T := m.data.D, m.data.T()
	q := 1 / lambda
	p0 := 1 / m.prior.Zeta0
	k := 0
	for ; k+4 <= d; k += 4 {
		x0, x1, x2, x3 := m.col[k*T:(k+1)*T], m.col[(k+1)*T:(k+2)*T], m.col[(k+2)*T:(k+3)*T], m.col[(k+3)*T:(k+4)*T]
		v0, v1, v2, v3 := m.v[k*(T+1):(k+1)*(T+1)], m.v[(k+1)*(T+1):(k+2)*(T+1)], m.v[(k+2)*(T+1):(k+3)*(T+1)], m.v[(k+3)*(T+1):(k+4)*(T+1)]
		x0, x1, x2, x3 = x0[:T], x1[:T], x2[:T], x3[:T]
		v0, v1, v2, v3 = v0[:T+1], v1[:T+1], v2[:T+1], v3[:T+1]
		p_0, p_1, p_2, p_3 := p0, p0, p0, p0
		v0[0], v1[0], v2[0], v3[0] = p0, p0, p0, p0
		for n := 0; n < T; n++ {
			a0, a1, a2, a3 := p_0+q, p_1+q, p_2+q, p_3+q
			p_0 = a0 / (1 + psi*x0[n]*x0[n]*a0)
			p_1 = a1 / (1 + psi*x1[n]*x1[n]*a1)
			p_2 = a2 / (1 + psi*x2[n]*x2[n]*a2)
			p_3 = a3 / (1 + psi*x3[n]*x3[n]*a3)
			v0[n+1], v1[n+1], v2[n+1], v3[n+1] = p_0, p_1, p_2, p_3
		}
	}
	for ; k < d; k++ {
		x, v := m.col[k*T:(k+1)*T], m.v[k*(T+1):(k+1)*(T+1)]
		v[0] = p0
		for n := 1; n <= T; n++ {
			pp := v[n-1] + q
			v[n] = pp / (1 + psi*x[n-1]*x[n-1]*pp)
		}
	}
	for k := 0; k < d; k++ {
		x := m.col[k*T : (k+1)*T]
		v := m.v[k*(T+1) : (k+1)*(T+1)]
		ga, aa, jb := m.ga[k*T:(k+1)*T], m.aa[k*T:(k+1)*T], m.jb[k*T:(k+1)*T]
		for n := 1; n <= T; n++ {
			g := v[n] * psi * x[n-1]
			ga[n-1], aa[n-1] = g, 1-g*x[n-1]
		}
		for n := 0; n < T; n++ {
			jb[n] = v[n] / (v[n] + q)
		}
	}
	// The backward pass, Var(w_n) = p_n + J_n²(Var(w_{n+1}) − p_n − 1/λ), is
	// a chain in n: again four inputs side by side.
	k = 0
	for ; k+4 <= d; k += 4 {
		v0, v1, v2, v3 := m.v[k*(T+1):(k+1)*(T+1)], m.v[(k+1)*(T+1):(k+2)*(T+1)], m.v[(k+2)*(T+1):(k+3)*(T+1)], m.v[(k+3)*(T+1):(k+4)*(T+1)]
		j0, j1, j2, j3 := m.jb[k*T:(k+1)*T], m.jb[(k+1)*T:(k+2)*T], m.jb[(k+2)*T:(k+3)*T], m.jb[(k+3)*T:(k+4)*T]
		c0, c1, c2, c3 := m.c[k*T:(k+1)*T], m.c[(k+1)*T:(k+2)*T], m.c[(k+2)*T:(k+3)*T], m.c[(k+3)*T:(k+4)*T]
		v0, v1, v2, v3 = v0[:T+1], v1[:T+1], v2[:T+1], v3[:T+1]
		j0, j1, j2, j3 = j0[:T], j1[:T], j2[:T], j3[:T]
		c0, c1, c2, c3 = c0[:T], c1[:T], c2[:T], c3[:T]
		for n := T - 1; n >= 0; n-- {
			c0[n], c1[n], c2[n], c3[n] = j0[n]*v0[n+1], j1[n]*v1[n+1], j2[n]*v2[n+1], j3[n]*v3[n+1]
			v0[n] += j0[n] * j0[n] * (v0[n+1] - v0[n] - q)
			v1[n] += j1[n] * j1[n] * (v1[n+1] - v1[n] - q)
			v2[n] += j2[n] * j2[n] * (v2[n+1] - v2[n] - q)
			v3[n] += j3[n] * j3[n] * (v3[n+1] - v3[n] - q)
		}
	}
	for ; k < d; k++ {
		v, c, jb := m.v[k*(T+1):(k+1)*(T+1)], m.c[k*T:(k+1)*T], m.jb[k*T:(k+1)*T]
		for n := T - 1; n >= 0; n-- {
			c[n] = jb[n] * v[n+1]
			v[n] += jb[n] * jb[n] * (v[n+1] - v[n] - q)
		}
	}
}

// smooth sets the means of q(w_k) by the smoother of variances on the
// partial residual m.res: the filtered m_n = (1 − g_n x_n) m_{n−1} + g_n r_n
// from m_0 = ŵ_0k, then ⟨w_n⟩ = m_n + J_n(⟨w_{n+1}⟩ − m_n), and moves m.fit
// by the change of x_n⟨w_n⟩.
func (m *Factorised) smooth(k int) {
	T := m.data.T()
	x := m.col[k*T : (k+1)*T]
	mu := m.mu[k*(T+1) : (k+1)*(T+1)]
	ga, aa, jb := m.ga[k*T:(k+1)*T], m.aa[k*T:(k+1)*T], m.jb[k*T:(k+1)*T]
	mf, res := m.mf, m.res
	mf[0] = 0
	if m.prior.W0 != nil {
		mf[0] = m.prior.W0[k]
	}
	for n := 1; n <= T; n++ {
		mf[n] = aa[n-1]*mf[n-1] + ga[n-1]*res[n-1]
	}
	old := mu[T]
	mu[T] = mf[T]
	m.fit[T-1] += x[T-1] * (mu[T] - old)
	for n := T - 1; n >= 0; n-- {
		old := mu[n]
		mu[n] = mf[n] + jb[n]*(mu[n+1]-mf[n])
		if n > 0 {
			m.fit[n-1] += x[n-1] * (mu[n] - old)
		}
	}
}

// E updates q(w_1), …, q(w_d) in turn (each the 1-D smoother on its partial
// residual) and returns the bound of the type's comment, in four terms.
func (m *Factorised) E() (vb.Bound, error) {
	d, T := m.data.D, m.data.T()
	lbar, llog := m.lambda()
	pbar, plog := m.psi()
	m.variances(lbar, pbar)
	for k := 0; k < d; k++ {
		x := m.col[k*T : (k+1)*T]
		mu := m.mu[k*(T+1) : (k+1)*(T+1)]
		for n := 0; n < T; n++ {
			m.res[n] = m.data.Y[n] - (m.fit[n] - x[n]*mu[n+1])
		}
		m.smooth(k)
	}
	m.haveE = true

	// The expected statistics of M and the bound.
	const ln2pi = 1.8378770664093453 // ln 2π
	var sy, sw, walks float64
	for n := 0; n < T; n++ {
		r := m.data.Y[n] - m.fit[n]
		sy += r * r
	}
	z0 := m.prior.Zeta0
	for k := 0; k < d; k++ {
		x := m.col[k*T : (k+1)*T]
		mu, v, c := m.mu[k*(T+1):(k+1)*(T+1)], m.v[k*(T+1):(k+1)*(T+1)], m.c[k*T:(k+1)*T]
		w0 := 0.0
		if m.prior.W0 != nil {
			w0 = m.prior.W0[k]
		}
		dm0 := mu[0] - w0
		walks += 0.5*math.Log(z0) - 0.5*ln2pi - 0.5*z0*(dm0*dm0+v[0]) + 0.5*(math.Log(v[0])+1+ln2pi)
		var swk float64
		var hk numeric.LogProduct // Σ_n ln Var(w_n | w_{n−1}), one log a chain
		for n := 1; n <= T; n++ {
			sy += x[n-1] * x[n-1] * v[n]
			dm := mu[n] - mu[n-1]
			swk += dm*dm + v[n] + v[n-1] - 2*c[n-1]
			hk.Add(v[n] - c[n-1]*c[n-1]/v[n-1])
		}
		sw += swk
		walks += float64(T)*(0.5*llog-0.5*ln2pi) - 0.5*lbar*swk + 0.5*hk.Log() + 0.5*float64(T)*(1+ln2pi)
	}
	m.sy, m.sw = sy, sw
	lik := 0.5*float64(T)*(plog-ln2pi) - 0.5*pbar*sy
	klL, klP := m.kls()
	m.terms[0] = vb.Term{Name: TermLik, Value: lik}
	m.terms[1] = vb.Term{Name: TermWalks, Value: walks}
	m.terms[2] = vb.Term{Name: TermKLLambda, Value: -klL}
	m.terms[3] = vb.Term{Name: TermKLPsi, Value: -klP}
	return vb.Bound{F: lik + walks - klL - klP, Terms: m.terms}, nil
}

// M updates q(λ) and q(ψ_y) from the statistics of the last E step, as
// VB.M (L996-1003, App B.3 L2312-2330), with Cov(w_n) diagonal under the
// factorised q. It does nothing before the first E step.
func (m *Factorised) M() {
	if !m.haveE {
		return
	}
	m.update(m.data.T(), m.data.D, m.sw, m.sy)
}

// Mean writes ⟨w_n⟩, n = 1, …, T, into dst (T×d, time-major as Data.X) and
// returns it (allocated when dst is too short). Before the first E step it
// is the start, ŵ_0 at every step.
func (m *Factorised) Mean(dst []float64) []float64 {
	d, T := m.data.D, m.data.T()
	dst = reuse(dst, T*d)
	for k := 0; k < d; k++ {
		for n := 1; n <= T; n++ {
			dst[(n-1)*d+k] = m.mu[k*(T+1)+n]
		}
	}
	return dst
}

// Variance writes Var(w_n) under the factorised q (the diagonal of Cov(w_n);
// its off-diagonal is 0), n = 1, …, T, into dst (T×d) and returns it.
func (m *Factorised) Variance(dst []float64) []float64 {
	m.mustE()
	d, T := m.data.D, m.data.T()
	dst = reuse(dst, T*d)
	for k := 0; k < d; k++ {
		for n := 1; n <= T; n++ {
			dst[(n-1)*d+k] = m.v[k*(T+1)+n]
		}
	}
	return dst
}

func (m *Factorised) mustE() {
	if !m.haveE {
		panic("drift: posterior of w read before the first E step")
	}
}
