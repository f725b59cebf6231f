package gmm

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/approx"
)

// EPFamily is the family of expectation propagation over the mixture's
// parameters, the form of VB's q(π, μ, Λ) (PRML (10.55), (10.57), (10.59)):
//
//	q(π, μ, Λ) = Dir(π | α) Π_k NW(μ_k, Λ_k | m_k, β_k, W_k, ν_k),
//
// its natural parameters laid end to end: α − 1 (K entries, the
// approx.Dirichlets layout; absent at K = 1, where π = 1), then each
// component's approx.NormalWishart block (βm, β, W⁻¹ + βmmᵀ, ν − D). Its
// log-partition is the sum of the parts'. It holds scratch (its
// NormalWishart): use one per goroutine.
type EPFamily struct {
	K, D  int
	dir   *approx.Dirichlets // nil at K = 1
	nw    *approx.NormalWishart
	off   int // the offset of the first Normal-Wishart block
	nwDim int
}

var _ approx.Family = (*EPFamily)(nil)

// NewEPFamily returns the family for k ≥ 1 components in d ≥ 1 dimensions.
func NewEPFamily(k, d int) (*EPFamily, error) {
	if k < 1 {
		return nil, fmt.Errorf("gmm: EP with K = %d", k)
	}
	nw, err := approx.NewNormalWishart(d)
	if err != nil {
		return nil, err
	}
	f := &EPFamily{K: k, D: d, nw: nw, nwDim: nw.Dim()}
	if k > 1 {
		if f.dir, err = approx.NewDirichlets([]int{k}); err != nil {
			return nil, err
		}
		f.off = k
	}
	return f, nil
}

// Dim implements approx.Family.
func (f *EPFamily) Dim() int { return f.off + f.K*f.nwDim }

// block returns component k's Normal-Wishart block of eta.
func (f *EPFamily) block(eta []float64, k int) []float64 {
	return eta[f.off+k*f.nwDim : f.off+(k+1)*f.nwDim]
}

// LogPartition implements approx.Family: ln B(α) + Σ_k A_NW(η_k).
func (f *EPFamily) LogPartition(eta []float64) (float64, bool) {
	var a float64
	if f.dir != nil {
		ad, ok := f.dir.LogPartition(eta[:f.K])
		if !ok {
			return math.Inf(1), false
		}
		a = ad
	}
	for k := range f.K {
		ak, ok := f.nw.LogPartition(f.block(eta, k))
		if !ok {
			return math.Inf(1), false
		}
		a += ak
	}
	return a, true
}

// PriorNatural returns the natural parameters of the prior (10.39)–(10.40):
// α₀ − 1 for every weight and NW(m₀, β₀, W₀, ν₀) for every component.
func (f *EPFamily) PriorNatural(p Prior) ([]float64, error) {
	if p.Dim() != f.D {
		return nil, fmt.Errorf("gmm: prior of dimension %d for the EP family's %d", p.Dim(), f.D)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	c := newConsts(p)
	eta := make([]float64, f.Dim())
	for k := range f.off {
		eta[k] = p.Alpha0 - 1
	}
	for k := range f.K {
		f.nw.Natural(f.block(eta, k), p.M0, p.Beta0, c.w0inv, p.Nu0)
	}
	return eta, nil
}

// FromVB returns the natural parameters of VB's q(π, μ, Λ): α_k − 1 and
// NW(m_k, β_k, W_k, ν_k) (10.57), (10.59), a start for FamilyEP.StartAt
// that sits in one of the posterior's K! relabelled modes.
func (f *EPFamily) FromVB(m *VB) ([]float64, error) {
	if m.K() != f.K || m.D() != f.D {
		return nil, fmt.Errorf("gmm: VB of K = %d, D = %d for the EP family's K = %d, D = %d", m.K(), m.D(), f.K, f.D)
	}
	eta := make([]float64, f.Dim())
	for k, a := range m.Alpha()[:f.off] {
		eta[k] = a - 1
	}
	for k := range f.K {
		beta, nu, mean, winv := m.Component(k)
		f.nw.Natural(f.block(eta, k), mean, beta, winv, nu)
	}
	return eta, nil
}

// EPSite is the factor of one data point, f_i(θ) = Σ_k π_k N(x_i | μ_k,
// Λ_k⁻¹) (PRML (10.37)–(10.38) with z_i summed out), a SiteFactor of
// FamilyEP over EPFamily (Minka 2001 §3.3; PRML §10.7, whose clutter
// problem has the same mixture-of-terms site). Under a cavity Dir(α)
// Π_k NW_k the tilted density is the mixture
//
//	Σ_k r_k Dir(π | α + e_k) NW_k⁺(μ_k, Λ_k) Π_{j≠k} NW_j(μ_j, Λ_j),
//
// NW_k⁺ the one-point update of NW_k by x_i ((10.60)–(10.63); AddPoint),
// with
//
//	Z = Σ_k (α_k/α₀) St_k(x_i),  r_k = (α_k/α₀) St_k(x_i)/Z,
//
// St_k the cavity's Student-t predictive of component k, (2π)^(−D/2)
// exp(A(η_k⁺) − A(η_k)) ((10.81)–(10.82)). The projection matches the
// expected sufficient statistics: the weights' expected logs (by
// approx.MonomialMixture, one monomial π_k of weight St_k(x_i) per
// component; dist.DirichletFromMeanLogTo), and for each component the four
// moments E[Λ], E[Λμ], E[μᵀΛμ], E[ln|Λ|] of its marginal, the two-part
// mixture r_k NW_k⁺ + (1 − r_k) NW_k (approx.NormalWishart.FromMoments).
// One EPSite holds scratch: use one per goroutine.
type EPSite struct {
	fam *EPFamily
	x   []float64
	mm  *approx.MonomialMixture // nil at K = 1

	lw, r      []float64 // K: ln St_k(x), the responsibilities
	upd        []float64 // one updated block
	mc, mu, mx approx.NWMoments
}

// NewEPSite returns the site of the point x (length D, not copied).
func NewEPSite(f *EPFamily, x []float64) *EPSite {
	s := &EPSite{fam: f, x: x, lw: make([]float64, f.K), r: make([]float64, f.K), upd: make([]float64, f.nwDim),
		mc: approx.NewNWMoments(f.D), mu: approx.NewNWMoments(f.D), mx: approx.NewNWMoments(f.D)}
	if f.dir != nil {
		s.mm = &approx.MonomialMixture{Fam: f.dir}
		for k := range f.K {
			s.mm.Terms = append(s.mm.Terms, approx.Monomial{W: 1, Rows: []int{0}, Index: []int{k}})
		}
	}
	return s
}

// Project implements approx.SiteFactor.
func (s *EPSite) Project(dst, cavity []float64) (float64, error) {
	f := s.fam
	nw := f.nw
	half2pi := float64(f.D) / 2 * math.Log(2*math.Pi)
	lmax := math.Inf(-1)
	for k := range f.K {
		c := f.block(cavity, k)
		a0, ok := nw.LogPartition(c)
		if !ok {
			return math.NaN(), fmt.Errorf("gmm: EP site: component %d of the cavity is improper: %w", k, approx.ErrNoProjection)
		}
		nw.AddPoint(s.upd, c, s.x, 1)
		a1, _ := nw.LogPartition(s.upd) // proper: W⁺⁻¹ = W⁻¹ + β/(β+1)(x − m)(x − m)ᵀ
		s.lw[k] = a1 - a0 - half2pi
		lmax = math.Max(lmax, s.lw[k])
	}
	if f.K == 1 {
		nw.AddPoint(dst, cavity, s.x, 1)
		return s.lw[0], nil
	}
	for k := range f.K {
		s.mm.Terms[k].W = math.Exp(s.lw[k] - lmax)
	}
	lnZ, err := s.mm.Project(dst[:f.K], cavity[:f.K])
	if err != nil {
		return math.NaN(), err
	}
	lnZ += lmax
	var z float64
	for k := range f.K {
		s.r[k] = (1 + cavity[k]) * s.mm.Terms[k].W
		z += s.r[k]
	}
	for k := range f.K {
		s.r[k] /= z
		c, out := f.block(cavity, k), f.block(dst, k)
		switch r := s.r[k]; r {
		case 0:
			copy(out, c)
		case 1:
			nw.AddPoint(out, c, s.x, 1)
		default:
			nw.AddPoint(s.upd, c, s.x, 1)
			nw.Moments(&s.mu, s.upd)
			nw.Moments(&s.mc, c)
			s.mx.Reset()
			s.mx.AddScaled(r, s.mu)
			s.mx.AddScaled(1-r, s.mc)
			if err := nw.FromMoments(out, s.mx); err != nil {
				return lnZ, fmt.Errorf("gmm: EP site, component %d: %w", k, err)
			}
		}
	}
	return lnZ, nil
}

// NewEP returns expectation propagation for ln p(X | K) of the mixture of
// PRML (10.37)–(10.40): the family EPFamily, the prior p₀ = p(π)p(μ, Λ)
// and one EPSite per point of x (N×D row-major, not copied), every site at
// 1 (q = p₀, the symmetric start: every component then gets the same
// updates; FamilyEP.StartAt with EPFamily.FromVB breaks the symmetry).
func NewEP(x []float64, d, k int, p Prior, s approx.EPSettings) (*approx.FamilyEP, *EPFamily, error) {
	if err := checkEvidenceArgs(x, d, p); err != nil {
		return nil, nil, err
	}
	f, err := NewEPFamily(k, d)
	if err != nil {
		return nil, nil, err
	}
	eta0, err := f.PriorNatural(p)
	if err != nil {
		return nil, nil, err
	}
	var fs []approx.SiteFactor
	for i := 0; i+d <= len(x); i += d {
		fs = append(fs, NewEPSite(f, x[i:i+d]))
	}
	ep, err := approx.NewFamilyEP(f, eta0, fs, s)
	if err != nil {
		return nil, nil, err
	}
	return ep, f, nil
}

// LogRelabellings returns ln R(η), the log of the number of distinct
// relabellings of q(η) counted smoothly by their Bhattacharyya overlaps
// (approx.LogDistinctRelabellings, σ over the K! permutations of the
// components, each permuting the weights' entries and the Normal-Wishart
// blocks): ln K! for a q in one of the K! relabelled modes (the ln K! of
// PRML §10.2.4 that the row's Laplace and CS add), 0 for a q symmetric
// under every relabelling (EP's symmetric fixed point), K!/|stabiliser| in
// between. This interpolation is ours, not from a text. It returns an
// error if K > MaxProposalK.
func (f *EPFamily) LogRelabellings(eta []float64) (float64, error) {
	if f.K > MaxProposalK {
		return 0, fmt.Errorf("gmm: K = %d > %d relabellings", f.K, MaxProposalK)
	}
	if f.K == 1 {
		return 0, nil
	}
	var perms [][]int
	for _, s := range permutations(f.K) {
		p := make([]int, len(eta))
		for k, j := range s {
			if f.dir != nil {
				p[k] = j
			}
			for c := range f.nwDim {
				p[f.off+k*f.nwDim+c] = f.off + j*f.nwDim + c
			}
		}
		perms = append(perms, p)
	}
	lr, err := approx.LogDistinctRelabellings(f, eta, perms)
	if err != nil {
		return 0, fmt.Errorf("gmm: %w", err)
	}
	return lr, nil
}
