package linreg

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/vb"
)

// Term names of the objective of EM.E.
const (
	TermLogLik   = "ln p(t|alpha)" // eq. 3.86
	TermLogPrior = "ln p(alpha)"   // eq. 10.89, MAP only
)

// EM is the point-estimate baseline: α fitted by EM with w the hidden
// variable (PRML section 9.3.4), by maximum likelihood (type-II ML, the
// evidence framework of section 3.5) or, with a prior, by MAP. E computes
// the exact posterior p(w | t, α) = N(m_N, S_N) (eqs. 3.53–3.54, 10.100–
// 10.101 with α for E[α]) and returns ln p(t|α) (eq. 3.86), plus ln p(α)
// for MAP; M sets α = M/E[wᵀw] (eq. 9.63) or, for MAP, the maximiser
// α = (M + 2a₀ − 2)/(E[wᵀw] + 2b₀) of E[ln p(w|α)] + ln Gam(α|a₀, b₀). With
// a₀ = b₀ → 0, VB's E[α] converges to the same point (eq. 10.104).
type EM struct {
	p      *Problem
	prior  *Prior
	alpha  float64
	mt, d  []float64
	alphaW float64
	eww    float64
	terms  []vb.Term
}

// NewEM returns EM from alpha0 > 0; prior nil is ML, otherwise MAP, which
// needs M + 2a₀ > 2 for the mode of the M step to be positive.
func NewEM(p *Problem, alpha0 float64, prior *Prior) (*EM, error) {
	if !(alpha0 > 0) || math.IsInf(alpha0, 1) {
		return nil, fmt.Errorf("linreg: starting alpha %g: must be positive and finite", alpha0)
	}
	nt := 1
	if prior != nil {
		if err := prior.check(); err != nil {
			return nil, err
		}
		if float64(p.m)+2*prior.A0 <= 2 {
			return nil, fmt.Errorf("linreg: MAP needs M + 2a0 > 2 (M = %d, a0 = %g)", p.m, prior.A0)
		}
		nt = 2
	}
	k := len(p.s2)
	return &EM{p: p, prior: prior, alpha: alpha0, mt: make([]float64, k), d: make([]float64, k), terms: make([]vb.Term, nt)}, nil
}

// E computes p(w | t, α) and returns ln p(t|α) (eq. 3.86), with ln p(α)
// (eq. 10.89) added for MAP.
func (m *EM) E() (vb.Bound, error) {
	p := m.p
	a := m.alpha
	m.alphaW = a
	m.eww = float64(p.m-len(p.s2)) / a
	for i, l := range p.s2 {
		m.d[i] = a + p.beta*l
		m.mt[i] = p.beta * p.sc[i] / m.d[i]
		m.eww += m.mt[i]*m.mt[i] + 1/m.d[i]
	}
	ll := p.LogLik(a)
	m.terms[0] = vb.Term{Name: TermLogLik, Value: ll}
	if m.prior == nil {
		return vb.Bound{F: ll, Terms: m.terms}, nil
	}
	lp := m.prior.logDensity(a)
	m.terms[1] = vb.Term{Name: TermLogPrior, Value: lp}
	return vb.Bound{F: ll + lp, Terms: m.terms}, nil
}

// M sets α to M/E[wᵀw] (ML, eq. 9.63) or (M + 2a₀ − 2)/(E[wᵀw] + 2b₀) (MAP).
func (m *EM) M() {
	M := float64(m.p.m)
	if m.prior == nil {
		m.alpha = M / m.eww
		return
	}
	m.alpha = (M + 2*m.prior.A0 - 2) / (m.eww + 2*m.prior.B0)
}

// Alpha returns the current α.
func (m *EM) Alpha() float64 { return m.alpha }

// Predict returns the mean and variance of the predictive density at φ
// (eqs. 3.58–3.59) with the posterior of the last E step.
func (m *EM) Predict(phi []float64) (mean, variance float64) {
	return predict(m.p, phi, m.mt, m.d, m.alphaW)
}
