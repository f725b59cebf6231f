package backfit

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/vb"
)

// TermLogLik names the objective of EM.E, the incomplete log likelihood.
const TermLogLik = "ln p(y|X;phi)" // eq. 4.14, marginal variance s

const ln2Pi = 1.8378770664093453 // ln 2π

// Noise is the start of the noise variances of probabilistic and Bayesian
// backfitting, the parameters ψ_y and ψ_z1 … ψ_zd of eq. 4.13. The text
// does not say how it starts them; a zero field means the default, which
// splits the mean square Σy²/N of the targets into halves: ψ_y = Σy²/(2N)
// and ψ_zm = Σy²/(2Nd) for every m (so s = ψ_y + Σ_m ψ_zm = Σy²/N, the
// variance of y about b = 0).
type Noise struct {
	PsiY float64
	PsiZ float64
}

// start returns the starting ψ_y and ψ_z (the same for every m).
func (n Noise) start(p *Problem) (psiY, psiZ float64, err error) {
	psiY, psiZ = n.PsiY, n.PsiZ
	ms := p.yy / float64(p.n)
	if psiY == 0 {
		psiY = ms / 2
	}
	if psiZ == 0 {
		psiZ = ms / (2 * float64(p.d))
	}
	if !(psiY > 0) || !(psiZ > 0) || math.IsInf(psiY, 0) || math.IsInf(psiZ, 0) {
		return 0, 0, fmt.Errorf("backfit: starting noise variances ψ_y = %g, ψ_z = %g: must be positive and finite", psiY, psiZ)
	}
	return psiY, psiZ, nil
}

// EM is probabilistic backfitting (section 4.3.1, eqs. 4.13-4.17, App B.4
// L2340-2399): maximum likelihood for φ = (b, ψ_z1 … ψ_zd, ψ_y) with a
// hidden fake target z_im on every branch of the fan-in,
//
//	y_i | z_i ~ N(1ᵀz_i, ψ_y),   z_im | x_i ~ N(b_m f_m(x_i), ψ_zm)   (4.13)
//
// E computes the exact posterior of each z_i (eqs. B.15-B.20, only the
// scalars the M step needs: O(d) a point) and returns the incomplete log
// likelihood it makes tight, ln p(y | X; φ) = Σ_i ln N(y_i; bᵀf(x_i), s)
// with s = ψ_y + Σ_m ψ_zm (eq. 4.14, whose printed ψ_y is the variance of y
// given z; the z's integrated out leave s). M is the M step of L1460-1475.
// Substituting ⟨z_im⟩ into the update of b_m gives eq. 4.17,
//
//	b_m ← b_m + (ψ_zm/s) Σ_i r_i f_m(x_i) / Σ_i f_m(x_i)²,   r_i = y_i − bᵀf(x_i),
//
// the relaxed Gauss-Seidel (backfitting) update of eq. 4.19 with the
// relaxation ω_m = ψ_zm/s (section 4.3.2, L1480-1495), applied to every m
// from the same residual. Since Σ_m ω_m < 1 the step never overshoots
// (EM is monotone), and the fixed point is the OLS solution (section
// 4.3.3, eqs. 4.20-4.23). A whole iteration is two passes over the design,
// O(Nd), with no d×d matrix and no allocation.
type EM struct {
	p      *Problem
	b      []float64 // regression coefficients
	psiZ   []float64 // ψ_zm
	psiY   float64
	g      []float64 // Σ_i r_i f_m(x_i) at the last E
	rr     float64   // Σ_i r_i² at the last E
	passes int       // passes of residuals over the design so far (Problem.gramAfter)
	term   []vb.Term
}

// NewEM returns probabilistic backfitting for p from b = 0 and the noise
// variances of start.
func NewEM(p *Problem, start Noise) (*EM, error) {
	psiY, psiZ, err := start.start(p)
	if err != nil {
		return nil, err
	}
	m := &EM{p: p, b: make([]float64, p.d), psiZ: make([]float64, p.d), psiY: psiY,
		g: make([]float64, p.d), term: make([]vb.Term, 1)}
	for k := range m.psiZ {
		m.psiZ[k] = psiZ
	}
	return m, nil
}

// sumPsi returns Σ_m ψ_zm.
func sumPsi(psiZ []float64) float64 {
	s := 0.0
	for _, v := range psiZ {
		s += v
	}
	return s
}

// E computes the residuals r_i = y_i − bᵀf(x_i), the correlations
// g_m = Σ_i r_i f_m(x_i) and Σ r_i² that the posterior moments of z need
// (eqs. B.17-B.20), and returns ln p(y | X; φ) = −(N/2) ln 2πs − Σr²/(2s)
// (eq. 4.14 with the marginal variance s, every constant included).
func (m *EM) E() (vb.Bound, error) {
	p := m.p
	m.rr = p.residuals(m.b, m.g, &m.passes)
	s := m.psiY + sumPsi(m.psiZ)
	ll := -0.5*float64(p.n)*(ln2Pi+math.Log(s)) - 0.5*m.rr/s
	m.term[0] = vb.Term{Name: TermLogLik, Value: ll}
	return vb.Bound{F: ll, Terms: m.term}, nil
}

// M is the M step of section 4.3.1 (L1460-1475, App B.4) from the posterior
// of the last E: b_m by eq. 4.17, then
//
//	ψ_zm = (1/N) Σ_i (⟨z_im⟩ − b_m f_im)² + σ²_zm,   σ²_zm = ψ_zm(1 − ψ_zm/s)
//	ψ_y  = (1/N) Σ_i (y_i − 1ᵀ⟨z_i⟩)² + 1ᵀΣ_z1,      1ᵀΣ_z1 = Ψ(1 − Ψ/s)
//
// with Ψ = Σ_m ψ_zm and the new b_m. With ⟨z_im⟩ = b_m f_im + ω_m r_i (B.19)
// and ω_m = ψ_zm/s, the sums reduce to ω_m²(Σr² − g_m²/Σf_m²) and
// (ψ_y/s)²Σr², so the M step is O(d).
func (m *EM) M() {
	p := m.p
	n := float64(p.n)
	psi := sumPsi(m.psiZ)
	s := m.psiY + psi
	for k := range m.b {
		w := m.psiZ[k] / s
		step := m.g[k] / p.ff[k]
		m.b[k] += w * step
		ss := w * w * (m.rr - m.g[k]*step)
		if ss < 0 { // rounding: Σr² ≥ g²/Σf² by Cauchy-Schwarz
			ss = 0
		}
		m.psiZ[k] = ss/n + m.psiZ[k]*(1-w)
	}
	ry := m.psiY / s
	m.psiY = ry*ry*m.rr/n + psi*ry
}

// Coef returns the regression coefficients b (a view; do not modify it).
func (m *EM) Coef() []float64 { return m.b }

// PsiY returns ψ_y.
func (m *EM) PsiY() float64 { return m.psiY }

// PsiZ returns ψ_z1 … ψ_zd (a view; do not modify it).
func (m *EM) PsiZ() []float64 { return m.psiZ }

// Relaxation returns ω_m = ψ_zm/s, the relaxation factor of the
// Gauss-Seidel view of eq. 4.17 (eq. 4.19, L1490).
func (m *EM) Relaxation(k int) float64 { return m.psiZ[k] / (m.psiY + sumPsi(m.psiZ)) }
