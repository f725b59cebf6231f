package backfit

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/vb"
)

// Term names of the bound of VB.E, in the order it reports them.
const (
	// TermData is ln N(y; F⟨b⟩, sI), the part of E[ln p(y, Z | b)] + H[q(Z)]
	// at the optimal q(Z) that ⟨b⟩ sets (eqs. 4.25, B.15-B.20).
	TermData = "ln N(y|F<b>,s)"
	// TermCoefVar is −Σ_m σ²_bm Σ_i f_m(x_i)²/(2ψ_zm), the rest of it: the
	// spread of q(b) seen through the fake targets.
	TermCoefVar = "-E[var b]/psi_z"
	// TermPriorB is E[ln p(b | α)] (eq. 4.24 or 4.27).
	TermPriorB = "E[ln p(b|alpha)]"
	// TermEntropyB is H[q(b)] of the Gaussian factors.
	TermEntropyB = "H[q(b)]"
	// TermKLAlpha is −KL(q(α) ‖ p(α)) (the gamma priors of 4.24, 4.27).
	TermKLAlpha = "-KL[alpha]"
)

// Prior is the gamma prior Gamma(α; a_α, b_α) (shape A, rate B) of the
// precision α of the regression coefficients (eq. 4.24) or of each α_m
// (eq. 4.27). The text takes a_α, b_α → 0 for a scale-free prior (L1555);
// the bound needs a proper prior, so both must be positive.
type Prior struct {
	A, B float64
}

func (p Prior) check() error {
	if !(p.A > 0) || !(p.B > 0) || math.IsInf(p.A, 0) || math.IsInf(p.B, 0) {
		return fmt.Errorf("backfit: gamma prior (a_alpha, b_alpha) = (%g, %g): both must be positive and finite", p.A, p.B)
	}
	return nil
}

// Settings control NewVB. The zero value of every field means its
// documented default.
type Settings struct {
	// ARD gives each coefficient its own precision α_m (eq. 4.27, section
	// 4.4.2: sparse regression, automatic relevance determination); false
	// shares one α among all coefficients (eq. 4.24, section 4.4.1: the
	// ridge-like shrinkage).
	ARD bool
	// Noise starts ψ_y and ψ_z (see Noise for the default).
	Noise Noise
	// FixNoise holds ψ_y and ψ_z at their start; by default M fits them by
	// maximising F, the M step of section 4.3.1 with the expectations under
	// q(Z) q(b) (L1565-1580).
	FixNoise bool
	// InitAlpha is E[α] (each E[α_m]) of the starting q(α), whose shape is
	// the fixed â_α of eqs. 4.26, 4.29. Default the prior mean a_α/b_α.
	InitAlpha float64
	// AlphaFrom is the first iteration whose M step updates q(α); before
	// it q(α) stays at its start (0 or 1: from the first). The text gives
	// no schedule. Each step changes a coefficient by at most ψ_zm/s < 1 of
	// its backfitting correction (eq. 4.26), about 1/d of it at the start,
	// while one q(α) update reacts at once to coefficients still near their
	// start of 0: from b = 0 with d ≈ 100 inputs, updating q(α) at every
	// iteration drives E[α] up faster than b grows and shrinks every
	// coefficient to 0. Holding q(α) for a few hundred iterations (with a
	// small InitAlpha) lets q(b) follow the data first; it is coordinate
	// ascent all the same, so F never decreases.
	AlphaFrom int
}

// VB is Bayesian backfitting (section 4.4, eqs. 4.24-4.29, App B.5.1
// L2400-2440): the model of eq. 4.13 with a Gaussian prior on b whose
// precision is one shared α (eq. 4.24) or one α_m a coefficient (ARD, eq.
// 4.27), both gamma distributed, approximated by Q(Z) Q(b) Q(α) (L1560).
// q(Z) is exact given q(b): every z_i has the posterior of probabilistic
// backfitting with b replaced by ⟨b⟩ (L1583); q(b) = Π_m N(μ_bm, σ²_bm)
// with
//
//	σ²_bm = (Σ_i f_m(x_i)²/ψ_zm + ⟨α_m⟩)⁻¹,  μ_bm = σ²_bm Σ_i ⟨z_im⟩ f_m(x_i)/ψ_zm
//
// (the ^{−1} printed at L1619 and missing at L1565 and L2431, targets §4.3),
// which is eq. 4.26 / 4.29 written out; q(α) = Gamma(a_α + d/2, b_α +
// ⟨bᵀb⟩/2) shared, or Gamma(a_α + 1/2, b_α + ⟨b_m²⟩/2) per coefficient.
// The noise variances ψ_y, ψ_z are parameters fitted in M (unless
// Settings.FixNoise), so F is a lower bound on ln p(y | X; ψ).
//
// E updates q(Z) and returns F; M updates q(b), then q(α), then ψ. Each is
// an exact coordinate ascent step, so the recorded F never decreases. An
// iteration is two passes over the design, O(Nd) with O(d) work a point and
// no d×d matrix: the backfitting RVM's N×N kernel design costs O(N²) per
// iteration.
type VB struct {
	p      *Problem
	prior  Prior
	set    Settings
	mu     []float64 // μ_bm
	v      []float64 // σ²_bm
	muE    []float64 // the μ_b that the last E's q(Z) was computed from
	passes int       // passes of residuals over the design so far (Problem.gramAfter)
	psiZ   []float64 // ψ_zm
	psiY   float64
	qAlpha
	g     []float64 // Σ_i r_i f_m(x_i) at the last E
	rr    float64   // Σ_i r_i² at the last E
	iter  int       // M steps so far
	terms []vb.Term
}

// NewVB returns Bayesian backfitting for p under the prior, starting from
// q(b) with mean 0 and the variances that the starting q(α) and noise give,
// so that the first E step has a complete q to bound.
func NewVB(p *Problem, prior Prior, s Settings) (*VB, error) {
	if err := prior.check(); err != nil {
		return nil, err
	}
	psiY, psiZ, err := s.Noise.start(p)
	if err != nil {
		return nil, err
	}
	init, err := startAlpha(prior, s)
	if err != nil {
		return nil, err
	}
	d := p.d
	m := &VB{p: p, prior: prior, set: s, mu: make([]float64, d), v: make([]float64, d), muE: make([]float64, d),
		psiZ: make([]float64, d), psiY: psiY, g: make([]float64, d), terms: make([]vb.Term, 5)}
	m.qAlpha = newQAlpha(prior, s.ARD, 1, d, init) // eqs. 4.26, 4.29
	for k := range m.psiZ {
		m.psiZ[k] = psiZ
		m.v[k] = 1 / (p.ff[k]/psiZ + init)
	}
	return m, nil
}

// E sets q(Z) from q(b) (eqs. B.15-B.20 with ⟨b⟩ for b; only the
// residuals r_i = y_i − ⟨b⟩ᵀf(x_i), g_m = Σ_i r_i f_m(x_i) and Σ r_i² are
// kept, since ⟨z_im⟩ = ⟨b_m⟩f_m(x_i) + (ψ_zm/s) r_i) and returns the bound
// at the new q(Z), every constant included:
//
//	F = ln N(y; F⟨b⟩, sI) − Σ_m σ²_bm Σ_i f_m(x_i)²/(2ψ_zm)
//	  + E[ln p(b|α)] + H[q(b)] − KL(q(α) ‖ p(α)),
//
// the first two terms being E[ln p(y|Z)] + E[ln p(Z|b)] + H[q(Z)] at the
// optimal q(Z) in closed form: with E_b ln p(z_i|b) = ln N(z_i; ⟨b⟩∘f_i, Ψ_z)
// − Σ_m σ²_bm f_im²/(2ψ_zm), integrating z_i out leaves N(y_i; ⟨b⟩ᵀf_i,
// ψ_y + Σ_m ψ_zm). Here E[ln p(b|α)] = Σ_m [−½ ln 2π + ½⟨ln α_m⟩ −
// ½⟨α_m⟩⟨b_m²⟩] (eq. 4.28's ½ ln α_m, not its printed d/2, targets §4.3)
// and H[q(b)] = Σ_m ½ ln(2πe σ²_bm).
func (m *VB) E() (vb.Bound, error) {
	p := m.p
	copy(m.muE, m.mu)
	m.rr = p.residuals(m.mu, m.g, &m.passes)
	s := m.psiY + sumPsi(m.psiZ)
	data := -0.5*float64(p.n)*(ln2Pi+math.Log(s)) - 0.5*m.rr/s
	cv, pb, hb := m.coefTerms(p.ff, m.psiZ, m.mu, m.v)
	kl := m.klAlpha(m.prior)
	m.terms[0] = vb.Term{Name: TermData, Value: data}
	m.terms[1] = vb.Term{Name: TermCoefVar, Value: cv}
	m.terms[2] = vb.Term{Name: TermPriorB, Value: pb}
	m.terms[3] = vb.Term{Name: TermEntropyB, Value: hb}
	m.terms[4] = vb.Term{Name: TermKLAlpha, Value: -kl}
	return vb.Bound{F: data + cv + pb + hb - kl, Terms: m.terms}, nil
}

// M updates, in turn and each from the others' current values,
//
//	q(b):  σ²_bm = (Σf_m²/ψ_zm + ⟨α_m⟩)⁻¹,  μ_bm = σ²_bm (⟨b_m⟩Σf_m² + ω_m g_m)/ψ_zm
//	       (Σ_i ⟨z_im⟩ f_im with eq. B.19 substituted: eqs. 4.26, 4.29)
//	q(α):  b̂_α = b_α + Σ_m ⟨b_m²⟩/2 (shared) or b_α + ⟨b_m²⟩/2 (ARD)
//	ψ_zm = (1/N) Σ_i E[(z_im − b_m f_im)²]
//	     = (1/N)[Δ_m² Σf_m² + 2Δ_m ω_m g_m + ω_m² Σr² + σ²_bm Σf_m²] + ψ_zm(1 − ω_m)
//	ψ_y  = (ψ_y/s)² Σr²/N + Ψ ψ_y/s
//
// (the M step of L1460-1475 with expectations under q(Z)q(b); Δ_m is the
// change of μ_bm since the last E, ω_m = ψ_zm/s, Ψ = Σ_m ψ_zm). O(d).
func (m *VB) M() {
	p := m.p
	n := float64(p.n)
	psi := sumPsi(m.psiZ)
	s := m.psiY + psi
	for k := range m.mu {
		ea := m.aHat / m.bHat[m.alphaIndex(k)]
		prec := p.ff[k]/m.psiZ[k] + ea
		w := m.psiZ[k] / s
		m.v[k] = 1 / prec
		m.mu[k] = (m.muE[k]*p.ff[k] + w*m.g[k]) / m.psiZ[k] / prec
	}
	m.iter++
	if m.iter >= m.set.AlphaFrom {
		updateAlpha(m.bHat, m.prior.B, m.mu, m.v, m.set.ARD)
	}
	if m.set.FixNoise {
		return
	}
	for k := range m.psiZ {
		w := m.psiZ[k] / s
		dlt := m.muE[k] - m.mu[k]
		ss := dlt*dlt*p.ff[k] + 2*dlt*w*m.g[k] + w*w*m.rr
		if ss < 0 { // rounding: it is a sum of squares
			ss = 0
		}
		m.psiZ[k] = (ss+m.v[k]*p.ff[k])/n + m.psiZ[k]*(1-w)
	}
	ry := m.psiY / s
	m.psiY = ry*ry*m.rr/n + psi*ry
}

// updateAlpha sets the rates of q(α): b̂_α = b_α + Σ_m ⟨b_m²⟩/2 (shared,
// eq. 4.26's q(α)) or b̂_α^(m) = b_α + ⟨b_m²⟩/2 (ARD, eq. 4.29's).
func updateAlpha(bHat []float64, b0 float64, mu, v []float64, ard bool) {
	if ard {
		for k := range bHat {
			bHat[k] = b0 + 0.5*(mu[k]*mu[k]+v[k])
		}
		return
	}
	bb := 0.0
	for k := range mu {
		bb += mu[k]*mu[k] + v[k]
	}
	bHat[0] = b0 + 0.5*bb
}

// Mean returns the posterior means μ_b (a view; do not modify it).
func (m *VB) Mean() []float64 { return m.mu }

// Var returns the posterior variances σ²_b (a view; do not modify it).
func (m *VB) Var() []float64 { return m.v }

// QAlpha returns q(α_k): the shared q(α) for every k without ARD.
func (m *VB) QAlpha(k int) dist.Gamma {
	return dist.Gamma{Alpha: m.aHat, Beta: m.bHat[m.alphaIndex(k)]}
}

// Alpha returns E[α_k] = â_α/b̂_α (the shared E[α] without ARD).
func (m *VB) Alpha(k int) float64 { return m.aHat / m.bHat[m.alphaIndex(k)] }

// PsiY returns ψ_y.
func (m *VB) PsiY() float64 { return m.psiY }

// PsiZ returns ψ_z1 … ψ_zd (a view; do not modify it).
func (m *VB) PsiZ() []float64 { return m.psiZ }

// ARD reports whether each coefficient has its own precision.
func (m *VB) ARD() bool { return m.set.ARD }

// Predict returns the mean ⟨b⟩ᵀf and the variance s + Σ_m σ²_bm f_m² of
// the predictive density of y at the basis vector f = f(x): y = 1ᵀz + ε
// with z_m ~ N(b_m f_m, ψ_zm) and b ~ q(b).
func (m *VB) Predict(f []float64) (mean, variance float64) {
	if len(f) != m.p.d {
		panic("backfit: basis vector of the wrong length")
	}
	variance = m.psiY + sumPsi(m.psiZ)
	for k, v := range f {
		mean += m.mu[k] * v
		variance += m.v[k] * v * v
	}
	return mean, variance
}
