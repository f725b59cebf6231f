package mfa

import (
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// Predictor evaluates the lower bound on the log predictive density of the
// fitted model at test points (Beal (2003) eq. (4.85), lines 2730–2747).
// It holds the quantities of q(π), q(Λ̃) and Ψ that the bound needs, as they
// were when VB.Predictor was called. A Predictor is not safe for
// concurrent use (it reuses its buffers); make one per goroutine.
type Predictor struct {
	p     int
	elnpi []float64
	c0    float64 // −½(p ln 2π + Σ_q ln ψ_q)
	ipsi  []float64
	comps []predComp
	ell   []float64
}

type predComp struct {
	k, d  int
	tx0   float64 // ½(k + ln|Σ| − tr Σ)
	trAS  float64 // tr(A[:k,:k] Σ)
	wt    []float64
	cv    []float64
	mt    []float64
	afull []float64
	xt, u []float64
}

// Predictor returns the predictive bound of the model's current q(π),
// q(Λ̃) and Ψ. For each test point y′ it performs the two updates of line
// 2747: q(x′|s) (eqs. (4.53)–(4.55), which do not depend on q(s′)), then
// q(s′) (eq. (4.57), corrected as in E).
func (m *VB) Predictor() *Predictor {
	m.prepPsi()
	S := len(m.comps)
	pr := &Predictor{p: m.p, elnpi: dist.DirichletMeanLogTo(nil, m.omega),
		c0:   -0.5 * (float64(m.p)*ln2Pi + m.lnPsiSum),
		ipsi: append([]float64(nil), m.ipsi...), comps: make([]predComp, S), ell: make([]float64, S)}
	for s, c := range m.comps {
		// A scratch copy so that the model's q(x|s) is not touched.
		t := newComponent(1, m.p, c.k)
		t.rows = c.rows
		if err := m.updateSigma(t); err != nil {
			// Σ⁻¹ = I + PSD cannot fail but for a NaN; mark the analyser
			// impossible.
			t.logDetSigma = math.NaN()
		}
		m.fullA(t)
		t.rows.MeanTo(t.mean)
		pc := predComp{k: c.k, d: c.d, wt: t.wt, cv: t.cv, afull: t.afull,
			mt: make([]float64, m.p*c.d), xt: make([]float64, c.d), u: make([]float64, c.d)}
		mean := t.mean.RawMatrix()
		for q := 0; q < m.p; q++ {
			for j := 0; j < c.d; j++ {
				pc.mt[q*c.d+j] = mean.Data[q*mean.Stride+j] * m.ipsi[q]
			}
		}
		for a := 0; a < c.k; a++ {
			pc.trAS += dot(t.afull[a*c.d:a*c.d+c.k], t.sigma[a*c.k:(a+1)*c.k])
		}
		pc.tx0 = 0.5 * (float64(c.k) + t.logDetSigma - t.traceSigma)
		pr.comps[s] = pc
	}
	return pr
}

// LogBound returns the bound (4.85) on ln p(y′|y) for one test point y
// (length p),
//
//	ln Σ_s exp(ψ(ω_s) − ψ(ω_0) + T_x(y′,s) + T_y(y′,s)),
//
// with T_x, T_y as in E at the optimal q(x′|s). It is a lower bound on the
// "poor man's" predictive ln ∫ q(π, Λ̃) p(y′ | π, Λ̃, Ψ) (eq. (4.79)), not
// on ln p(y′|y) itself (line 2919). If resp is not nil (length S) it is set
// to the optimal q(s′), the responsibilities of the analysers for y′. It
// panics if the lengths differ and does not allocate.
func (pr *Predictor) LogBound(y, resp []float64) float64 {
	if len(y) != pr.p || (resp != nil && len(resp) != len(pr.comps)) {
		panic("mfa: Predictor dimension mismatch")
	}
	var yPy float64
	for q, v := range y {
		yPy += v * v * pr.ipsi[q]
	}
	for s := range pr.comps {
		c := &pr.comps[s]
		k, d := c.k, c.d
		for l := 0; l < k; l++ {
			c.xt[l] = dot(c.wt[l*pr.p:(l+1)*pr.p], y) - c.cv[l]
		}
		c.xt[k] = 1
		for j := range c.u {
			c.u[j] = 0
		}
		for q, yq := range y {
			for j, v := range c.mt[q*d : (q+1)*d] {
				c.u[j] += yq * v
			}
		}
		var quad, lin float64
		for a, xa := range c.xt {
			quad += xa * dot(c.afull[a*d:(a+1)*d], c.xt)
			lin += xa * c.u[a]
		}
		q := yPy - 2*lin + quad + c.trAS
		pr.ell[s] = pr.elnpi[s] + c.tx0 - 0.5*dot(c.xt[:k], c.xt[:k]) + pr.c0 - 0.5*q
	}
	if resp != nil {
		return numeric.NormalizeLogTo(resp, pr.ell)
	}
	return numeric.LogSumExp(pr.ell)
}
