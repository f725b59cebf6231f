package linreg

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Term names of the bound of VB.E, in the order it reports them (PRML eqs.
// 10.108–10.112).
const (
	TermLik       = "E[ln p(t|w)]"     // eq. 10.108
	TermWeights   = "E[ln p(w|alpha)]" // eq. 10.109
	TermAlpha     = "E[ln p(alpha)]"   // eq. 10.110, with ln Γ(a₀) (see doc.go)
	TermEntropyW  = "H[q(w)]"          // eq. 10.111
	TermEntropyAl = "H[q(alpha)]"      // eq. 10.112
)

// Settings control NewVB. The zero value of every field means its default.
type Settings struct {
	// InitAlpha is E[α] of the starting q(α) (the shape a_N = a₀ + M/2 of
	// eq. 10.94 and the rate a_N/InitAlpha). Default the prior mean a₀/b₀.
	InitAlpha float64
}

// VB is variational Bayes for linear regression with q(w, α) = q(w) q(α)
// (PRML section 10.3, eq. 10.91): q(w) = N(m_N, S_N) and q(α) =
// Gam(a_N, b_N). E updates q(w) from E[α] (eqs. 10.99–10.101) and returns
// the lower bound L(q) (eq. 10.107) of ln p(t), every constant included, at
// the new q(w) and the current q(α); M updates q(α) from E[wᵀw] (eqs.
// 10.93–10.95, 10.103). Each is an exact coordinate ascent step (eq. 10.9),
// so the bounds E returns never decrease (vb.Run checks it).
type VB struct {
	p     *Problem
	prior Prior
	aN    float64 // a₀ + M/2, eq. 10.94: fixed
	bN    float64 // b₀ + E[wᵀw]/2, eq. 10.95
	// q(w) in the eigenbasis of ΦᵀΦ, from the last E: m̃ = Vᵀm_N and
	// d_i = E[α] + βλ_i (S_N = V diag(1/d) Vᵀ + (I − VVᵀ)/E[α]); alphaW is
	// the E[α] they were computed with.
	mt, d  []float64
	alphaW float64
	eww    float64 // E[wᵀw] = m_Nᵀm_N + Tr S_N (eq. 10.103), from the last E
	terms  []vb.Term
}

// NewVB returns VB for the problem p under the prior, with q(α) =
// Gam(a₀ + M/2, (a₀ + M/2)/s.InitAlpha); the first E step computes q(w).
func NewVB(p *Problem, prior Prior, s Settings) (*VB, error) {
	if err := prior.check(); err != nil {
		return nil, err
	}
	init := s.InitAlpha
	if init <= 0 {
		init = prior.A0 / prior.B0
	}
	k := len(p.s2)
	m := &VB{p: p, prior: prior, aN: prior.A0 + 0.5*float64(p.m), mt: make([]float64, k), d: make([]float64, k),
		terms: make([]vb.Term, 5)}
	m.bN = m.aN / init
	return m, nil
}

// E sets q(w) = N(m_N, S_N) with m_N = βS_NΦᵀt and S_N = (E[α]I + βΦᵀΦ)⁻¹
// (eqs. 10.99–10.102), and returns L(q) (eq. 10.107) as the sum of its five
// terms (eqs. 10.108–10.112):
//
//	E[ln p(t|w)]   = (N/2) ln(β/2π) − (β/2)(‖t − Φm_N‖² + Tr(ΦᵀΦ S_N))           (10.108)
//	E[ln p(w|α)]   = −(M/2) ln 2π + (M/2)(ψ(a_N) − ln b_N) − (a_N/2b_N) E[wᵀw]    (10.109)
//	E[ln p(α)]     = a₀ ln b₀ − ln Γ(a₀) + (a₀ − 1)(ψ(a_N) − ln b_N) − b₀ a_N/b_N (10.110)
//	H[q(w)]        = ½ ln|S_N| + (M/2)(1 + ln 2π)                                 (10.111)
//	H[q(α)]        = ln Γ(a_N) − (a_N − 1)ψ(a_N) − ln b_N + a_N                   (10.112)
//
// with E[wᵀw] = m_Nᵀm_N + Tr S_N (eq. 10.103; the form of the errata's
// corrected 10.183). The first line is eq. 10.108 with its three data terms
// gathered into the residual, −(β/2)tᵀt + βm_NᵀΦᵀt − (β/2)m_NᵀΦᵀΦm_N =
// −(β/2)‖t − Φm_N‖²; eq. 10.110 is printed with −ln Γ(a_N), a misprint for
// the prior's normaliser −ln Γ(a₀) (see doc.go). Everything is evaluated in
// the eigenbasis of ΦᵀΦ (Problem): O(M) operations, no allocation.
func (m *VB) E() (vb.Bound, error) {
	p := m.p
	ea := m.aN / m.bN
	m.alphaW = ea
	k := len(p.s2)
	null := float64(p.m - k) // zero eigenvalues of ΦᵀΦ: d = E[α]
	resid, trPhiS, mtm := p.r2, 0.0, 0.0
	trS, logDetS := null/ea, -null*math.Log(ea)
	for i, l := range p.s2 {
		d := ea + p.beta*l
		m.d[i] = d
		m.mt[i] = p.beta * p.sc[i] / d
		r := p.c[i] * ea / d // c_i − s_i m̃_i
		resid += r * r
		trPhiS += l / d
		mtm += m.mt[i] * m.mt[i]
		trS += 1 / d
		logDetS -= math.Log(d)
	}
	m.eww = mtm + trS
	M, N := float64(p.m), float64(p.n)
	eLogA := numeric.Digamma(m.aN) - math.Log(m.bN)
	a0, b0 := m.prior.A0, m.prior.B0
	lik := 0.5*N*(math.Log(p.beta)-ln2Pi) - 0.5*p.beta*(resid+trPhiS)
	wts := -0.5*M*ln2Pi + 0.5*M*eLogA - 0.5*ea*m.eww
	pa := a0*math.Log(b0) - numeric.LogGamma(a0) + (a0-1)*eLogA - b0*ea
	hw := 0.5*logDetS + 0.5*M*(1+ln2Pi)
	ha := m.QAlpha().Entropy()
	m.terms[0] = vb.Term{Name: TermLik, Value: lik}
	m.terms[1] = vb.Term{Name: TermWeights, Value: wts}
	m.terms[2] = vb.Term{Name: TermAlpha, Value: pa}
	m.terms[3] = vb.Term{Name: TermEntropyW, Value: hw}
	m.terms[4] = vb.Term{Name: TermEntropyAl, Value: ha}
	return vb.Bound{F: lik + wts + pa + hw + ha, Terms: m.terms}, nil
}

// M sets q(α) = Gam(a_N, b_N) with b_N = b₀ + E[wᵀw]/2 from the q(w) of
// the last E (eqs. 10.93–10.95, 10.103).
func (m *VB) M() { m.bN = m.prior.B0 + 0.5*m.eww }

// QAlpha returns q(α) = Gam(a_N, b_N) (eq. 10.93); E[α] = a_N/b_N (eq. 10.102).
func (m *VB) QAlpha() dist.Gamma { return dist.Gamma{Alpha: m.aN, Beta: m.bN} }

// Mean returns m_N of q(w) (eq. 10.100) as computed by the last E step.
func (m *VB) Mean() []float64 {
	out := mat.NewVecDense(m.p.m, nil)
	out.MulVec(m.p.v, mat.NewVecDense(len(m.mt), m.mt))
	return out.RawVector().Data
}

// Cov returns S_N of q(w) (eq. 10.101) as computed by the last E step.
func (m *VB) Cov() *mat.SymDense {
	return spectralCov(m.p, m.d, m.alphaW)
}

// spectralCov returns V diag(1/d) Vᵀ + (I − VVᵀ)/alpha, the covariance
// (αI + βΦᵀΦ)⁻¹ with d_i = α + βλ_i (the second term only when K < M).
func spectralCov(p *Problem, d []float64, alpha float64) *mat.SymDense {
	M := p.m
	s := mat.NewSymDense(M, nil)
	for i := 0; i < M; i++ {
		for j := i; j < M; j++ {
			v, vv := 0.0, 0.0
			for k, dk := range d {
				v += p.v.At(i, k) * p.v.At(j, k) / dk
				vv += p.v.At(i, k) * p.v.At(j, k)
			}
			if len(d) < M { // (I − VVᵀ)/α on the null space of Φ; VVᵀ = I otherwise
				if i == j {
					vv--
				}
				v -= vv / alpha
			}
			s.SetSym(i, j, v)
		}
	}
	return s
}

// Predict returns the mean m_Nᵀφ and the variance 1/β + φᵀS_Nφ of the
// predictive density N(t | m_Nᵀφ, σ²(x)) at the basis vector φ = φ(x)
// (eqs. 10.105–10.106), with the q(w) of the last E step.
func (m *VB) Predict(phi []float64) (mean, variance float64) {
	return predict(m.p, phi, m.mt, m.d, m.alphaW)
}

// predict is Predict for q(w) = N(V m̃, spectralCov(d, alpha)).
func predict(p *Problem, phi, mt, d []float64, alpha float64) (mean, variance float64) {
	if len(phi) != p.m {
		panic("linreg: basis vector of the wrong length")
	}
	f := mat.NewVecDense(p.m, phi)
	z := mat.NewVecDense(len(d), nil)
	z.MulVec(p.v.T(), f)
	proj := 0.0
	variance = 1 / p.beta
	for i, zi := range z.RawVector().Data {
		mean += zi * mt[i]
		variance += zi * zi / d[i]
		proj += zi * zi
	}
	if len(d) < p.m { // the null space of Φ; empty (and not rounded) when K = M
		variance += (mat.Dot(f, f) - proj) / alpha
	}
	return mean, variance
}
