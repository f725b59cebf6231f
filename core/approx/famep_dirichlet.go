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

// Monomial is one term w Π_j θ_{Rows[j], Index[j]} of a MonomialMixture:
// Rows[j] and Index[j] name an entry of a row; an entry or a row may
// appear more than once (a power: a path of an HMM uses a transition row
// at every step).
type Monomial struct {
	W     float64
	Rows  []int
	Index []int
}

// MonomialMixture is the factor f(θ) = Σ_s w_s Π_{(r,k)} θ_rk^{c_s,rk} of
// a discrete model with hidden variables: one data point's (or one
// sequence's) likelihood summed over the hidden variables'
// configurations s, each a product of entries of the rows, c_s,rk the
// times term s uses entry (r, k) and c_s,r = Σ_k c_s,rk (Minka & Lafferty
// 2002, the generative aspect model; Beal 2003 eq. (6.12) for one point
// of a DAG, eq. (3.44) for one sequence of an HMM). Under a cavity
// Π_r Dir(α_r) its tilted density is a mixture of Dirichlet products, term
// s with the counts α + c_s and the weight p_s ∝ w_s Z_s, where
//
//	Z_s = E_cavity[Π θ_rk^{c_s,rk}] = Π_r [Π_k (α_rk)^{(c_s,rk)} / (α_r0)^{(c_s,r)}],
//
// x^{(c)} = x(x + 1)…(x + c − 1) the rising factorial; Z = Σ_s w_s Z_s, and,
// by ψ(x + c) = ψ(x) + Σ_{j<c} 1/(x + j),
//
//	E_tilted[ln θ_rk] = ψ(α_rk) − ψ(α_r0) + Σ_s p_s [Σ_{j<c_s,rk} 1/(α_rk + j) − Σ_{j<c_s,r} 1/(α_r0 + j)].
//
// Project matches those expected logs row by row
// (dist.DirichletFromMeanLogTo, started at the mixture's mean counts
// α + Σ_s p_s c_s), the KL(tilted‖q) projection; a row no term uses is
// the cavity's. One MonomialMixture holds scratch: use one per goroutine.
type MonomialMixture struct {
	Fam   *Dirichlets
	Terms []Monomial
	// scratch: the cavity's α, the expected logs, the mean counts, a
	// term's running counts per entry and per row, the row totals α_r0,
	// the row shifts, the terms' weights, which rows a term uses.
	alpha, m, mc, cnt    []float64
	cntRow, a0, shift, p []float64
	touched              []bool
}

// Project implements SiteFactor.
func (f *MonomialMixture) Project(dst, cavity []float64) (float64, error) {
	d := f.Fam
	n, nr := d.Dim(), len(d.Sizes)
	if f.alpha == nil {
		f.alpha, f.m, f.mc, f.cnt = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		f.cntRow, f.a0, f.shift, f.p = make([]float64, nr), make([]float64, nr), make([]float64, nr), make([]float64, len(f.Terms))
		f.touched = make([]bool, nr)
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
	// ln(w_s Z_s), the entries taken in order with running counts; then
	// the log normaliser.
	lmax := math.Inf(-1)
	for s, t := range f.Terms {
		l := math.Log(t.W)
		for j, r := range t.Rows {
			e := d.off[r] + t.Index[j]
			l += math.Log((a[e] + f.cnt[e]) / (f.a0[r] + f.cntRow[r]))
			f.cnt[e]++
			f.cntRow[r]++
		}
		f.resetCounts(t)
		f.p[s] = l
		lmax = math.Max(lmax, l)
	}
	if math.IsInf(lmax, -1) || math.IsNaN(lmax) {
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
	// The expected logs: the cavity's, then each term's shifts; the mean
	// counts for the projection's start.
	for r := range d.Sizes {
		dist.DirichletMeanLogTo(m[d.off[r]:d.off[r+1]], a[d.off[r]:d.off[r+1]])
		f.touched[r], f.shift[r] = false, 0
	}
	copy(f.mc, a)
	for s, t := range f.Terms {
		ps := f.p[s]
		for j, r := range t.Rows {
			e := d.off[r] + t.Index[j]
			m[e] += ps / (a[e] + f.cnt[e])
			f.shift[r] += ps / (f.a0[r] + f.cntRow[r])
			f.mc[e] += ps
			f.cnt[e]++
			f.cntRow[r]++
			f.touched[r] = true
		}
		f.resetCounts(t)
	}
	for r := range d.Sizes {
		off, end := d.off[r], d.off[r+1]
		row := dst[off:end]
		if !f.touched[r] {
			copy(row, cavity[off:end])
			continue
		}
		for k := off; k < end; k++ {
			m[k] -= f.shift[r]
		}
		copy(row, f.mc[off:end])
		if !dist.DirichletFromMeanLogTo(row, m[off:end], row) {
			return lnZ, fmt.Errorf("approx: MonomialMixture: row %d: %w", r, ErrNoProjection)
		}
		for k := range row {
			row[k]--
		}
	}
	return lnZ, nil
}

// resetCounts zeroes the running counts term t set.
func (f *MonomialMixture) resetCounts(t Monomial) {
	for j, r := range t.Rows {
		f.cnt[f.Fam.off[r]+t.Index[j]] = 0
		f.cntRow[r] = 0
	}
}
