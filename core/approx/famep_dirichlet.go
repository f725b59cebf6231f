package approx

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// Dirichlets is the family of products of independent Dirichlet rows,
// q(θ) = Π_r Dir(θ_r | α_r), as a Family for FamilyEP: the rows of sizes
// Sizes laid end to end, η = α − 1 (so a site's η_i are counts, and a
// cavity's α = 1 + η), T(θ) = ln θ, and
//
//	A(η) = Σ_r [Σ_k ln Γ(α_rk) − ln Γ(Σ_k α_rk)],
//
// proper iff every α_rk > 0 (Beal 2003 Appendix A; the ExpFam form of
// dist.Dirichlet).
type Dirichlets struct {
	Sizes []int
	off   []int
}

// NewDirichlets returns the family of rows of the given sizes (each ≥ 2).
func NewDirichlets(sizes []int) (*Dirichlets, error) {
	d := &Dirichlets{Sizes: append([]int(nil), sizes...), off: make([]int, len(sizes)+1)}
	for r, k := range sizes {
		if k < 2 {
			return nil, fmt.Errorf("approx: Dirichlet row %d of size %d (want ≥ 2)", r, k)
		}
		d.off[r+1] = d.off[r] + k
	}
	return d, nil
}

// Dim implements Family.
func (d *Dirichlets) Dim() int { return d.off[len(d.Sizes)] }

// Row returns the offset of row r in η.
func (d *Dirichlets) Row(r int) int { return d.off[r] }

// LogPartition implements Family.
func (d *Dirichlets) LogPartition(eta []float64) (float64, bool) {
	var a float64
	for r := range d.Sizes {
		var a0 float64
		for _, e := range eta[d.off[r]:d.off[r+1]] {
			al := 1 + e
			if !(al > 0) || math.IsInf(al, 1) {
				return math.Inf(1), false
			}
			a += numeric.LogGamma(al)
			a0 += al
		}
		a -= numeric.LogGamma(a0)
	}
	return a, true
}

// Monomial is one term w Π_{(r,k)} θ_rk of a MonomialMixture: Rows[j] and
// Index[j] name the entry θ_{Rows[j], Index[j]}, each row at most once.
type Monomial struct {
	W     float64
	Rows  []int
	Index []int
}

// MonomialMixture is the factor f(θ) = Σ_s w_s Π_{(r,k)∈s} θ_rk of a
// discrete model with hidden variables: one data point's likelihood,
// summed over the hidden variables' configurations s, each a product of
// one entry of some of the rows (Minka & Lafferty 2002, the generative
// aspect model; Beal 2003 eq. (6.12) for one point of a DAG). Under a
// cavity Π_r Dir(α_r) its tilted density is a mixture of Dirichlet
// products, term s with weight p_s ∝ w_s Π_{(r,k)∈s} α_rk/α_r0 and the
// counts α + e_s; its normaliser Z = Σ_s w_s Π α_rk/α_r0, and, by
// ψ(x + 1) = ψ(x) + 1/x,
//
//	E_tilted[ln θ_rk] = ψ(α_rk) − ψ(α_r0) + Σ_{s ∋ r} p_s ([k = k_s(r)]/α_rk − 1/α_r0).
//
// Project matches those expected logs row by row
// (dist.DirichletFromMeanLogTo), the KL(tilted‖q) projection. One
// MonomialMixture holds scratch: use one per goroutine.
type MonomialMixture struct {
	Fam   *Dirichlets
	Terms []Monomial
	// scratch: the cavity's α, the expected logs, the terms' weights,
	// which rows a term touches.
	alpha, m, p, a0 []float64
	touched         []bool
}

// Project implements SiteFactor.
func (f *MonomialMixture) Project(dst, cavity []float64) (float64, error) {
	d := f.Fam
	n := d.Dim()
	if f.alpha == nil {
		f.alpha, f.m, f.p = make([]float64, n), make([]float64, n), make([]float64, len(f.Terms))
		f.touched, f.a0 = make([]bool, len(d.Sizes)), make([]float64, len(d.Sizes))
	}
	a, m := f.alpha, f.m
	for i, e := range cavity {
		a[i] = 1 + e
	}
	for r := range d.Sizes {
		f.a0[r] = 0
		for _, v := range a[d.off[r]:d.off[r+1]] {
			f.a0[r] += v
		}
	}
	// ln(w_s Π α_rk/α_r0), then the log normaliser.
	lmax := math.Inf(-1)
	for s, t := range f.Terms {
		l := math.Log(t.W)
		for j, r := range t.Rows {
			l += math.Log(a[d.off[r]+t.Index[j]] / f.a0[r])
		}
		f.p[s] = l
		lmax = math.Max(lmax, l)
	}
	if math.IsInf(lmax, -1) {
		return math.Inf(-1), fmt.Errorf("approx: MonomialMixture: every term has zero mass under the cavity: %w", ErrNoProjection)
	}
	var z float64
	for s := range f.p {
		f.p[s] = math.Exp(f.p[s] - lmax)
		z += f.p[s]
	}
	for s := range f.p {
		f.p[s] /= z
	}
	lnZ := lmax + math.Log(z)
	// Expected logs: the cavity's, then each term's shift on its rows.
	for r := range d.Sizes {
		dist.DirichletMeanLogTo(m[d.off[r]:d.off[r+1]], a[d.off[r]:d.off[r+1]])
		f.touched[r] = false
	}
	for s, t := range f.Terms {
		for j, r := range t.Rows {
			f.touched[r] = true
			off, a0 := d.off[r], f.a0[r]
			for k := range d.Sizes[r] {
				m[off+k] -= f.p[s] / a0
			}
			m[off+t.Index[j]] += f.p[s] / a[off+t.Index[j]]
		}
	}
	// Project each touched row, starting from the mixture's mean counts
	// α + Σ_s p_s e_s; an untouched row is the cavity's.
	for r := range d.Sizes {
		off, end := d.off[r], d.off[r+1]
		row := dst[off:end]
		if !f.touched[r] {
			copy(row, cavity[off:end])
			continue
		}
		copy(row, a[off:end])
		for s, t := range f.Terms {
			for j, rr := range t.Rows {
				if rr == r {
					row[t.Index[j]] += f.p[s]
				}
			}
		}
		if !dist.DirichletFromMeanLogTo(row, m[off:end], row) {
			return lnZ, fmt.Errorf("approx: MonomialMixture: row %d: %w", r, ErrNoProjection)
		}
		for k := range row {
			row[k]--
		}
	}
	return lnZ, nil
}
