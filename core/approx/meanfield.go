package approx

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Factorised and spherical Gaussian approximations of a Gaussian p =
// N(μ, Λ⁻¹) (PRML §10.1.2, eqs. (10.10)–(10.17), Fig. 10.2; Lawrence Fig. 1.9,
// L482–490; D'Souza Fig. 2.5, L646–662; Turner & Sahani eqs. (1.17)–(1.22),
// with the corrected MF variance 1/Λ_ii of targets other-seeds.md §1.4).

// precision returns Λ = Σ⁻¹ of p.
func precision(p Normal) ([]float64, error) {
	inv, _, ok := invertSPD(p.Cov, p.Dim())
	if !ok {
		return nil, errNotProper
	}
	return inv, nil
}

// FactorisedKLqp returns the fixed point of the mean-field updates
// (10.12)–(10.13): q(z) = Π_i N(z_i | μ_i, 1/Λ_ii), the correct mean with
// each variance set by the precision (the narrow direction).
func FactorisedKLqp(p Normal) (Normal, error) {
	lam, err := precision(p)
	if err != nil {
		return Normal{}, err
	}
	d := p.Dim()
	q := Normal{Mean: append([]float64(nil), p.Mean...), Cov: make([]float64, d*d)}
	for i := range d {
		q.Cov[i*d+i] = 1 / lam[i*d+i]
	}
	return q, nil
}

// FactorisedKLpq returns the minimiser of KL(p‖q) over factorised q, the
// product of p's marginals (PRML eq. (10.17)): variances Σ_ii.
func FactorisedKLpq(p Normal) Normal {
	d := p.Dim()
	q := Normal{Mean: append([]float64(nil), p.Mean...), Cov: make([]float64, d*d)}
	for i := range d {
		q.Cov[i*d+i] = p.Var(i)
	}
	return q
}

// SphericalKLqp returns the N(μ, s I) that minimises KL(q‖p): ∂KL/∂s =
// ½(tr Λ − d/s) = 0 gives s = d / tr Λ (Lawrence Fig. 1.9).
func SphericalKLqp(p Normal) (Normal, error) {
	lam, err := precision(p)
	if err != nil {
		return Normal{}, err
	}
	d := p.Dim()
	var tr float64
	for i := range d {
		tr += lam[i*d+i]
	}
	return spherical(p.Mean, float64(d)/tr), nil
}

// SphericalKLpq returns the N(μ, s I) that minimises KL(p‖q): s = tr Σ / d.
func SphericalKLpq(p Normal) Normal {
	d := p.Dim()
	var tr float64
	for i := range d {
		tr += p.Var(i)
	}
	return spherical(p.Mean, tr/float64(d))
}

func spherical(mean []float64, s float64) Normal {
	d := len(mean)
	q := Normal{Mean: append([]float64(nil), mean...), Cov: make([]float64, d*d)}
	for i := range d {
		q.Cov[i*d+i] = s
	}
	return q
}

// MeanField is coordinate-ascent variational inference for a factorised
// q(z) = Π_i N(z_i | m_i, 1/Λ_ii) of a Gaussian p = N(μ, Λ⁻¹) (PRML eqs.
// (10.12)–(10.14)): each update sets m_i = μ_i − Λ_ii⁻¹ Σ_{j≠i} Λ_ij (m_j −
// μ_j). It is a vb.Model: E updates the even coordinates (0, 2, …) and
// returns the bound, M the odd ones (a red–black sweep, which for a
// chain's tridiagonal Λ, Turner & Sahani eq. (1.19), is a full Gauss–Seidel
// sweep). The bound is F = E_q[ln p] + H[q] = −KL(q‖p) (p normalised).
type MeanField struct {
	p     Normal
	lam   []float64
	ldet  float64   // ln|Λ|
	Means []float64 // m_i
	terms [2]vb.Term
}

var _ vb.Model = (*MeanField)(nil)

// NewMeanField returns the mean-field fit of p started from the means init
// (the variances are 1/Λ_ii from the start: they do not depend on the means).
func NewMeanField(p Normal, init []float64) (*MeanField, error) {
	lam, err := precision(p)
	if err != nil {
		return nil, err
	}
	if len(init) != p.Dim() {
		return nil, fmt.Errorf("approx: %d initial means for a %d-dimensional Gaussian", len(init), p.Dim())
	}
	return &MeanField{p: p, lam: lam, ldet: -p.logDetCov(), Means: append([]float64(nil), init...)}, nil
}

// sweep updates the coordinates i ≡ parity (mod 2), eq. (10.13).
func (m *MeanField) sweep(parity int) {
	d := m.p.Dim()
	for i := parity; i < d; i += 2 {
		s := 0.0
		for j := range d {
			if j != i {
				s += m.lam[i*d+j] * (m.Means[j] - m.p.Mean[j])
			}
		}
		m.Means[i] = m.p.Mean[i] - s/m.lam[i*d+i]
	}
}

// Q returns the current q.
func (m *MeanField) Q() Normal {
	d := m.p.Dim()
	q := Normal{Mean: append([]float64(nil), m.Means...), Cov: make([]float64, d*d)}
	for i := range d {
		q.Cov[i*d+i] = 1 / m.lam[i*d+i]
	}
	return q
}

// E updates the even coordinates and returns F with the terms "E[ln p]" and
// "H[q]". E_q[ln p] = ½ ln|Λ| − (d/2) ln 2π − ½[(m−μ)ᵀΛ(m−μ) + Σ_i Λ_ii/Λ_ii].
func (m *MeanField) E() (vb.Bound, error) {
	m.sweep(0)
	d := m.p.Dim()
	var quad, hq float64
	for i := range d {
		for j := range d {
			quad += (m.Means[i] - m.p.Mean[i]) * m.lam[i*d+j] * (m.Means[j] - m.p.Mean[j])
		}
		hq += 0.5 * (1 + math.Log(2*math.Pi/m.lam[i*d+i]))
	}
	elp := 0.5*m.ldet - 0.5*float64(d)*math.Log(2*math.Pi) - 0.5*(quad+float64(d))
	m.terms = [2]vb.Term{{Name: "E[ln p]", Value: elp}, {Name: "H[q]", Value: hq}}
	return vb.Bound{F: elp + hq, Terms: m.terms[:]}, nil
}

// M updates the odd coordinates.
func (m *MeanField) M() { m.sweep(1) }

// logDetCov returns ln|Σ| (NaN if Σ is not positive definite).
func (n Normal) logDetCov() float64 {
	l, ok := n.chol()
	if !ok {
		return math.NaN()
	}
	return numeric.CholLogDet(l, n.Dim())
}
