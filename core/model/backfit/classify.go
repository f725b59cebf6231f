package backfit

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Term names of the bound of Classifier.E, in the order it reports them.
const (
	// TermJJ is Σ_i E[ln g(y_i 1ᵀz_i)] under the Jaakkola-Jordan bound
	// (eq. 4.31) plus E[ln p(Z|b)] + H[q(Z)], at the optimal q(Z), less
	// TermCoefVar's part.
	TermJJ = "E[ln p_xi(y|Z)]+E[ln p(Z|<b>)]+H[q(Z)]"
)

// Classifier is Bayesian backfitting for classification (section 4.4.4
// and 4.4.4.1, eqs. 4.31-4.32, L1692-1756): y_i ∈ {−1, +1} with
// p(y_i | z_i) = g(y_i 1ᵀz_i), the logistic g, the fake targets and the
// priors of VB (a shared α or ARD), and the Jaakkola-Jordan bound with one
// ξ_i a point (eq. 4.31), which leaves every factor conjugate. The bound is
// a Gaussian in u = 1ᵀz_i: exp(y_i u/2 − φ_i u²) ∝ N(t_i; u, 1/(2φ_i))
// with t_i = y_i/(4φ_i), so q(z_i) is the regression one of VB with ψ_y
// replaced by 1/(2φ_i) and y_i by t_i; with s_i = 1/(2φ_i) + Σ_m ψ_zm,
//
//	⟨z_im⟩ = ⟨b_m⟩f_im + (ψ_zm/s_i)(t_i − ⟨b⟩ᵀf_i),   σ²_zim = ψ_zm(1 − ψ_zm/s_i),
//
// which is the text's E step (L1727-1733, whose s_i = 1 + 2φ(ξ_i)Σψ_zm is
// 2φ_i times ours). ξ_i² = 1ᵀ⟨z_i z_iᵀ⟩1 maximises the bound (L1745-1752).
// E updates q(Z) and returns the bound; M updates q(b) (the mean update of
// L1760-1768), q(α), ψ_z and then ξ. Every step is exact coordinate ascent,
// O(d) a point.
type Classifier struct {
	p     *Problem
	prior Prior
	set   Settings
	mu    []float64
	v     []float64
	muE   []float64
	psiZ  []float64
	qAlpha
	xi    []float64 // ξ_i
	rho   []float64 // (t_i − ⟨b⟩ᵀf_i)/s_i at the last E
	g     []float64 // Σ_i ρ_i f_m(x_i)
	rr    float64   // Σ_i ρ_i²
	invS  float64   // Σ_i 1/s_i
	iter  int       // M steps so far
	terms []vb.Term
}

// NewClassifier returns backfitting classification for p, whose targets
// must be −1 or +1, under the prior, with ξ_i = 1 and ψ_zm = s.Noise.PsiZ
// (default 1/d); Settings.Noise.PsiY is not used (there is no ψ_y) and
// Settings.FixNoise holds ψ_z.
func NewClassifier(p *Problem, prior Prior, s Settings) (*Classifier, error) {
	if err := prior.check(); err != nil {
		return nil, err
	}
	for i, y := range p.y {
		if y != 1 && y != -1 {
			return nil, fmt.Errorf("backfit: classification target %d is %g, not −1 or +1", i, y)
		}
	}
	psiZ := s.Noise.PsiZ
	if psiZ == 0 {
		psiZ = 1 / float64(p.d)
	}
	if !(psiZ > 0) || math.IsInf(psiZ, 0) {
		return nil, fmt.Errorf("backfit: starting ψ_z = %g: must be positive and finite", psiZ)
	}
	init, err := startAlpha(prior, s)
	if err != nil {
		return nil, err
	}
	d, n := p.d, p.n
	m := &Classifier{p: p, prior: prior, set: s, mu: make([]float64, d), v: make([]float64, d), muE: make([]float64, d),
		psiZ: make([]float64, d), xi: make([]float64, n), rho: make([]float64, n), g: make([]float64, d), terms: make([]vb.Term, 5)}
	m.qAlpha = newQAlpha(prior, s.ARD, 1, d, init)
	for k := range m.psiZ {
		m.psiZ[k] = psiZ
		m.v[k] = 1 / (p.ff[k]/psiZ + init)
	}
	for i := range m.xi {
		m.xi[i] = 1
	}
	return m, nil
}

// E sets q(Z) from q(b) and ξ and returns the bound, every constant
// included. With h_i(u) = ln g(ξ_i) + (y_i u − ξ_i)/2 − φ_i(u² − ξ_i²) =
// c_i − φ_i(u − t_i)², c_i = ln g(ξ_i) − ξ_i/2 + φ_iξ_i² + φ_i t_i²,
// integrating z_i out of exp(h_i(1ᵀz_i)) N(z_i; ⟨b⟩∘f_i, Ψ_z) gives
// exp(c_i) √(π/φ_i) N(t_i; ⟨b⟩ᵀf_i, s_i), so
//
//	F = Σ_i [c_i + ½ ln(π/φ_i) + ln N(t_i; ⟨b⟩ᵀf_i, s_i)] − Σ_m σ²_bm Σ_i f_im²/(2ψ_zm)
//	  + E[ln p(b|α)] + H[q(b)] − KL(q(α) ‖ p(α))
//
// (eq. 4.32 with the expectations over q(Z)q(b) written in closed form).
func (m *Classifier) E() (vb.Bound, error) {
	p := m.p
	d := p.d
	copy(m.muE, m.mu)
	clear(m.g)
	psi := sumPsi(m.psiZ)
	data := 0.0
	m.rr, m.invS = 0, 0
	for i, yi := range p.y {
		row := p.x[i*d : (i+1)*d]
		xi := m.xi[i]
		phi := approx.JJLambda(xi)
		t := yi / (4 * phi)
		s := 1/(2*phi) + psi
		r := t - numeric.Dot(row, m.mu)
		c := approx.LogSigmoid(xi) - xi/2 + phi*xi*xi + phi*t*t
		data += c + 0.5*math.Log(math.Pi/phi) - 0.5*(ln2Pi+math.Log(s)) - 0.5*r*r/s
		rho := r / s
		m.rho[i] = rho
		m.rr += rho * rho
		m.invS += 1 / s
		numeric.Axpy(rho, row, m.g)
	}
	cv, pb, hb := m.coefTerms(p.ff, m.psiZ, m.mu, m.v)
	kl := m.klAlpha(m.prior)
	m.terms[0] = vb.Term{Name: TermJJ, Value: data}
	m.terms[1] = vb.Term{Name: TermCoefVar, Value: cv}
	m.terms[2] = vb.Term{Name: TermPriorB, Value: pb}
	m.terms[3] = vb.Term{Name: TermEntropyB, Value: hb}
	m.terms[4] = vb.Term{Name: TermKLAlpha, Value: -kl}
	return vb.Bound{F: data + cv + pb + hb - kl, Terms: m.terms}, nil
}

// M updates q(b), q(α), ψ_z (unless FixNoise) and ξ from the q(Z) of the
// last E. With ⟨z_im⟩ = ⟨b_m⟩f_im + ψ_zm ρ_i, ρ_i = (t_i − ⟨b⟩ᵀf_i)/s_i:
//
//	σ²_bm = (Σf_m²/ψ_zm + ⟨α_m⟩)⁻¹,  μ_bm = σ²_bm (⟨b_m⟩Σf_m²/ψ_zm + Σ_i ρ_i f_im)
//	ψ_zm = (1/N)[Δ_m²Σf_m² + 2Δ_mψ_zm Σρ_i f_im + ψ_zm²Σρ_i² + σ²_bm Σf_m²] + ψ_zm − ψ_zm² Σ_i(1/s_i)/N
//	ξ_i² = (1ᵀ⟨z_i⟩)² + Ψ(1 − Ψ/s_i),  1ᵀ⟨z_i⟩ = ⟨b⟩ᵀf_i + Ψρ_i
//
// (L1745-1752 for ξ; Δ_m the change of μ_bm since the last E). The ξ step
// needs ⟨b⟩ᵀf_i of the last E, recovered from ρ_i.
func (m *Classifier) M() {
	p := m.p
	n := float64(p.n)
	for k := range m.mu {
		ea := m.aHat / m.bHat[m.alphaIndex(k)]
		prec := p.ff[k]/m.psiZ[k] + ea
		m.v[k] = 1 / prec
		m.mu[k] = (m.muE[k]*p.ff[k]/m.psiZ[k] + m.g[k]) / prec
	}
	m.iter++
	if m.iter >= m.set.AlphaFrom {
		updateAlpha(m.bHat, m.prior.B, m.mu, m.v, m.set.ARD)
	}
	psi := sumPsi(m.psiZ)
	for i, yi := range p.y {
		phi := approx.JJLambda(m.xi[i])
		t := yi / (4 * phi)
		s := 1/(2*phi) + psi
		fb := t - m.rho[i]*s // ⟨b⟩ᵀf_i at the last E
		u := fb + psi*m.rho[i]
		m.xi[i] = math.Sqrt(u*u + psi*(1-psi/s))
	}
	if m.set.FixNoise {
		return
	}
	for k := range m.psiZ {
		w := m.psiZ[k]
		dlt := m.muE[k] - m.mu[k]
		ss := dlt*dlt*p.ff[k] + 2*dlt*w*m.g[k] + w*w*m.rr
		if ss < 0 {
			ss = 0
		}
		m.psiZ[k] = (ss+m.v[k]*p.ff[k])/n + w - w*w*m.invS/n
	}
}

// Mean returns the posterior means μ_b (a view; do not modify it).
func (m *Classifier) Mean() []float64 { return m.mu }

// Var returns the posterior variances σ²_b (a view; do not modify it).
func (m *Classifier) Var() []float64 { return m.v }

// Alpha returns E[α_k].
func (m *Classifier) Alpha(k int) float64 { return m.aHat / m.bHat[m.alphaIndex(k)] }

// Xi returns the variational parameters ξ_i (a view; do not modify it).
func (m *Classifier) Xi() []float64 { return m.xi }

// PsiZ returns ψ_z1 … ψ_zd (a view; do not modify it).
func (m *Classifier) PsiZ() []float64 { return m.psiZ }

// Predict returns the mean ⟨b⟩ᵀf and the variance Σ_m ψ_zm + Σ_m σ²_bm
// f_m² of the activation u = 1ᵀz at f = f(x), and p(y = +1 | x) by the
// probit approximation g(mean/√(1 + π var/8)) (MacKay 1992).
func (m *Classifier) Predict(f []float64) (mean, variance, prob float64) {
	if len(f) != m.p.d {
		panic("backfit: basis vector of the wrong length")
	}
	variance = sumPsi(m.psiZ)
	for k, v := range f {
		mean += m.mu[k] * v
		variance += m.v[k] * v * v
	}
	return mean, variance, math.Exp(approx.LogSigmoid(mean / math.Sqrt(1+math.Pi*variance/8)))
}
