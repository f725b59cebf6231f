package backfit

import (
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Term names of the bound of StudentT.E, in the order it reports them.
const (
	// TermDataT is ln N(y; F⟨b⟩, s̃I) with s̃ = ψ_y + Σ_m ψ_zm/E[α_m].
	TermDataT = "ln N(y|F<b>,s~)"
	// TermLogAlpha is (N/2) Σ_m (E[ln α_m] − ln E[α_m]), what the α in the
	// variance of z leaves beside s̃.
	TermLogAlpha = "N/2 (E[ln alpha]-ln E[alpha])"
	// TermKLB is −E_α KL(q(b|α) ‖ p(b|α)).
	TermKLB = "-E KL[b|alpha]"
)

// StudentT is Bayesian backfitting with the alternative factorisation
// Q(Z)Q(b, α) of section 4.4.3 (eq. 4.30, App B.5.2 L2445-2484), on the
// model in which α also scales the fake targets' noise,
//
//	z_im | b_m, α ~ N(b_m f_m(x_i), ψ_zm/α),  b | α ~ N(0, I/α),  α ~ Gamma(a_α, b_α)
//
// (Fig 4.7(a)), or with one α_m per coefficient in both places (ARD, Fig
// 4.7(b)). Q(b, α) = Q(α) Π_m Q(b_m | α) is exact given Q(Z):
//
//	Q(b_m | α) = N(μ_bm, σ̃²_m/α),  μ_bm = Σ_i⟨z_im⟩f_im/(Σ_i f_im² + ψ_zm),  σ̃²_m = ψ_zm/(Σ_i f_im² + ψ_zm)
//	Q(α) = Gamma(a_α + Nd/2, b_α + Σ_m [Σ_i⟨z_im²⟩ − (Σ_i⟨z_im⟩f_im)²/(Σf_m² + ψ_zm)]/(2ψ_zm))
//
// (a_α + N/2 and the m-th term alone with ARD), so the marginal of each b_m
// is a Student t with ν = 2â_α, location μ_bm and scale² (b̂_α/â_α)σ̃²_m
// (MarginalB). Q(Z) is the regression one with ψ_zm replaced by
// ψ_zm/E[α_m]. The noise variances are fitted in M unless FixNoise;
// AlphaFrom is not used (q(b, α) is one factor).
type StudentT struct {
	p      *Problem
	prior  Prior
	set    Settings
	mu     []float64 // μ_bm
	v      []float64 // σ̃²_m
	muE    []float64
	passes int // passes of residuals over the design so far (Problem.gramAfter)
	psiZ   []float64
	psiY   float64
	qAlpha
	g     []float64 // Σ_i r_i f_m(x_i) at the last E
	rr    float64   // Σ_i r_i² at the last E
	om    []float64 // ω̃_m of the last E (M's scratch)
	zz    []float64 // Σ_i ⟨z_im²⟩ (M's scratch)
	terms []vb.Term
}

// NewStudentT returns the alternative Bayesian backfitting for p under the
// prior, from q(b|α) with mean 0 and the σ̃² of the starting ψ, and q(α)
// with mean s.InitAlpha (default the prior mean).
func NewStudentT(p *Problem, prior Prior, s Settings) (*StudentT, error) {
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
	d, n := p.d, float64(p.n)
	m := &StudentT{p: p, prior: prior, set: s, mu: make([]float64, d), v: make([]float64, d), muE: make([]float64, d),
		psiZ: make([]float64, d), psiY: psiY, g: make([]float64, d), om: make([]float64, d), zz: make([]float64, d), terms: make([]vb.Term, 4)}
	m.qAlpha = newQAlpha(prior, s.ARD, n, d, init)
	for k := range m.psiZ {
		m.psiZ[k] = psiZ
		m.v[k] = psiZ / (p.ff[k] + psiZ)
	}
	return m, nil
}

// tilde returns ψ̃_zk = ψ_zk/E[α_k].
func (m *StudentT) tilde(k int) float64 { return m.psiZ[k] * m.bHat[m.alphaIndex(k)] / m.aHat }

// sTilde returns s̃ = ψ_y + Σ_m ψ̃_zm.
func (m *StudentT) sTilde() float64 {
	s := m.psiY
	for k := range m.psiZ {
		s += m.tilde(k)
	}
	return s
}

// E sets q(Z) from q(b, α) and returns the bound, every constant included:
// with E_{b,α} ln p(z_i|b, α) = ln N(z_i; ⟨b⟩∘f_i, Ψ̃) + Σ_m [½(E ln α_m −
// ln E α_m) − f_im²σ̃²_m/(2ψ_zm)], integrating z_i out leaves
//
//	F = ln N(y; F⟨b⟩, s̃I) + (N/2)Σ_m(E ln α_m − ln E α_m) − Σ_m σ̃²_m Σf_m²/(2ψ_zm)
//	  − Σ_m ½E_α[σ̃²_m + α μ_bm² − 1 − ln σ̃²_m] − KL(q(α) ‖ p(α)),
//
// the fourth term being E_α KL(N(μ_bm, σ̃²_m/α) ‖ N(0, 1/α)) (with ARD each
// m has its own α_m; shared, the (N/2)(E ln α − ln E α) counts d times).
func (m *StudentT) E() (vb.Bound, error) {
	p := m.p
	copy(m.muE, m.mu)
	m.rr = p.residuals(m.mu, m.g, &m.passes)
	s := m.sTilde()
	n := float64(p.n)
	data := -0.5*n*(ln2Pi+math.Log(s)) - 0.5*m.rr/s
	la, cv, klb := 0.0, 0.0, 0.0
	for k, v := range m.v {
		qa := m.alphaK(k)
		la += 0.5 * n * (qa.MeanLog() - math.Log(qa.Mean()))
		cv -= 0.5 * v * p.ff[k] / m.psiZ[k]
		klb += 0.5 * (v + qa.Mean()*m.mu[k]*m.mu[k] - 1 - math.Log(v))
	}
	kl := m.klAlpha(m.prior)
	m.terms[0] = vb.Term{Name: TermDataT, Value: data}
	m.terms[1] = vb.Term{Name: TermLogAlpha, Value: la}
	m.terms[2] = vb.Term{Name: TermCoefVar, Value: cv}
	m.terms[3] = vb.Term{Name: TermKLB + " " + TermKLAlpha, Value: -klb - kl}
	return vb.Bound{F: data + la + cv - klb - kl, Terms: m.terms}, nil
}

// M updates q(b, α) from the q(Z) of the last E (B.24 and the q(α) that
// follows it, L2450-2484), then ψ unless FixNoise. With ⟨z_im⟩ = μ_m f_im +
// ω̃_m r_i (ω̃_m = ψ̃_zm/s̃, μ of the last E): Σ_i⟨z_im⟩f_im = μ_mΣf_m² + ω̃_m g_m,
// Σ_i⟨z_im⟩² = μ_m²Σf_m² + 2μ_m ω̃_m g_m + ω̃_m²Σr², and σ²_z = ψ̃_zm(1 − ω̃_m).
// ψ_zm maximises E[ln p(Z|b, α)] with q fixed: ψ_zm = (E[α_m] S_m +
// Σf_m² σ̃²_m)/N, S_m = Σ_i E(z_im − μ_bm f_im)²; ψ_y is VB's.
func (m *StudentT) M() {
	p := m.p
	n := float64(p.n)
	st := m.sTilde()
	sumTilde := st - m.psiY
	for k := range m.mu { // the q(Z) of the last E, before q(α) moves
		w := m.tilde(k) / st
		m.om[k] = w
		m.zz[k] = m.muE[k]*m.muE[k]*p.ff[k] + 2*m.muE[k]*w*m.g[k] + w*w*m.rr + n*m.tilde(k)*(1-w)
	}
	for k := range m.bHat {
		m.bHat[k] = m.prior.B
	}
	for k := range m.mu {
		c := m.muE[k]*p.ff[k] + m.om[k]*m.g[k] // Σ_i ⟨z_ik⟩ f_ik
		den := p.ff[k] + m.psiZ[k]
		m.mu[k] = c / den
		m.v[k] = m.psiZ[k] / den
		r := (m.zz[k] - c*c/den) / (2 * m.psiZ[k])
		if r < 0 { // rounding: Σ⟨z²⟩ ≥ (Σ⟨z⟩f)²/(Σf² + ψ) by Cauchy-Schwarz
			r = 0
		}
		m.bHat[m.alphaIndex(k)] += r
	}
	if m.set.FixNoise {
		return
	}
	for k := range m.psiZ {
		// S_k = Σ⟨z²⟩ − 2μ_bk Σ⟨z⟩f + μ_bk² Σf², with Σ⟨z⟩f = μ_bk(Σf² + ψ_zk)
		sk := m.zz[k] - 2*m.mu[k]*m.mu[k]*(p.ff[k]+m.psiZ[k]) + m.mu[k]*m.mu[k]*p.ff[k]
		if sk < 0 {
			sk = 0
		}
		ea := m.aHat / m.bHat[m.alphaIndex(k)]
		m.psiZ[k] = (ea*sk + p.ff[k]*m.v[k]) / n
	}
	ry := m.psiY / st
	m.psiY = ry*ry*m.rr/n + sumTilde*ry
}

// Mean returns the locations μ_b of the Student-t marginals (a view).
func (m *StudentT) Mean() []float64 { return m.mu }

// MarginalB returns the Student-t marginal of b_k under q(b, α): degrees
// of freedom ν = 2â_α, location μ_bk and squared scale (b̂_α/â_α)σ̃²_k
// (L1630-1640, B.25).
func (m *StudentT) MarginalB(k int) (nu, loc, scale2 float64) {
	return 2 * m.aHat, m.mu[k], m.bHat[m.alphaIndex(k)] / m.aHat * m.v[k]
}

// LogMarginalB returns ln t_ν(b; μ_bk, scale²) of MarginalB.
func (m *StudentT) LogMarginalB(k int, b float64) float64 {
	nu, loc, s2 := m.MarginalB(k)
	z := (b - loc) * (b - loc) / (nu * s2)
	return numeric.LogGamma((nu+1)/2) - numeric.LogGamma(nu/2) - 0.5*math.Log(nu*math.Pi*s2) - 0.5*(nu+1)*math.Log1p(z)
}

// QAlpha returns q(α_k) (the shared q(α) without ARD).
func (m *StudentT) QAlpha(k int) dist.Gamma {
	return m.alphaK(k)
}

// CondVar returns σ̃²_k: Var(b_k | α) = σ̃²_k/α.
func (m *StudentT) CondVar(k int) float64 { return m.v[k] }

// PsiY returns ψ_y.
func (m *StudentT) PsiY() float64 { return m.psiY }

// PsiZ returns ψ_z (a view; do not modify it).
func (m *StudentT) PsiZ() []float64 { return m.psiZ }
