package hmm

import (
	"fmt"

	"github.com/vbworkbench/vbw/core/approx"
)

// MaxEPTerms caps the hidden paths Σ_i K^{T_i} that NewEP enumerates over
// the sequences (each path one term of its sequence's site).
const MaxEPTerms = 1 << 20

// EP is expectation propagation over the parameters θ = (π, A, C) of a
// K-state discrete HMM with the Dirichlet priors u, one site per sequence
// (Minka 2001 §3.3; Minka & Lafferty 2002 for Dirichlet sites): q(θ) =
// q(π) Π_j q(a_j) Π_j q(c_j), the family of the VB posterior (Beal 2003
// eqs. 3.53-3.59), and sequence i's likelihood
//
//	p(y_i | θ) = Σ_s π_{s_1} Π_{t>1} a_{s_{t−1} s_t} Π_t c_{s_t y_t}
//
// (eq. 3.44 for one sequence) an approx.MonomialMixture with one term per
// hidden path s, K^{T_i} in all. Its tilted moments are exact (rising
// factorials and digamma shifts); EP approximates only the product over
// sequences. One sequence is a single site, so EP's evidence is then
// exact. Rows of length 1 (π and A at K = 1, C at P = 1) are the point 1
// and left out of the family.
//
// From the symmetric prior every site is invariant under relabelling the
// states, and so EP's q stays symmetric; StartAt(VB's q) breaks that.
type EP struct {
	k, p int
	fam  *approx.Dirichlets
	rows []int // the family row of each of the 1 + 2K rows of Posterior.Rows (−1: left out)
	ep   *approx.FamilyEP
	// Terms is the number of hidden paths summed over all the sites.
	Terms int
}

// NewEP returns EP for data d with k states under the prior u, every site
// at 1 (q = the prior). It returns an error if d or u is invalid or the
// paths exceed MaxEPTerms.
func NewEP(d Data, k int, u Prior, s approx.EPSettings) (*EP, error) {
	if k < 1 {
		return nil, fmt.Errorf("hmm: EP needs k ≥ 1, got %d", k)
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if err := u.Validate(k, d.P); err != nil {
		return nil, err
	}
	terms := 0
	for i, y := range d.Seqs {
		n, ok := EvidencePaths(k, len(y))
		if !ok || terms+n > MaxEPTerms {
			return nil, fmt.Errorf("hmm: EP: sequence %d of length %d needs %d^%d paths; with the others more than MaxEPTerms = %d", i, len(y), k, len(y), MaxEPTerms)
		}
		terms += n
	}
	e := &EP{k: k, p: d.P, Terms: terms}
	var sizes []int
	for _, r := range u.Rows(k) {
		if len(r) < 2 {
			e.rows = append(e.rows, -1)
			continue
		}
		e.rows = append(e.rows, len(sizes))
		sizes = append(sizes, len(r))
	}
	fam, err := approx.NewDirichlets(sizes)
	if err != nil {
		return nil, err
	}
	e.fam = fam
	prior := e.natural(u.Rows(k))
	factors := make([]approx.SiteFactor, len(d.Seqs))
	for i, y := range d.Seqs {
		factors[i] = e.site(y)
	}
	if e.ep, err = approx.NewFamilyEP(fam, prior, factors, s); err != nil {
		return nil, err
	}
	return e, nil
}

// natural returns the family's η = α − 1 of Dirichlet rows in the layout of
// Posterior.Rows.
func (e *EP) natural(rows [][]float64) []float64 {
	eta := make([]float64, e.fam.Dim())
	for r, row := range rows {
		if fr := e.rows[r]; fr >= 0 {
			off := e.fam.Row(fr)
			for j, a := range row {
				eta[off+j] = a - 1
			}
		}
	}
	return eta
}

// site enumerates the K^T paths of sequence y as the terms of its site.
// The rows of Posterior.Rows are π (0), a_j (1 + j) and c_j (1 + K + j).
func (e *EP) site(y []int) *approx.MonomialMixture {
	k, n := e.k, len(y)
	f := &approx.MonomialMixture{Fam: e.fam}
	s := make([]int, n)
	for {
		rows := make([]int, 0, 2*n)
		idx := make([]int, 0, 2*n)
		add := func(r, j int) {
			if fr := e.rows[r]; fr >= 0 {
				rows, idx = append(rows, fr), append(idx, j)
			}
		}
		for t := range n {
			if t == 0 {
				add(0, s[0])
			} else {
				add(1+s[t-1], s[t])
			}
			add(1+k+s[t], y[t])
		}
		f.Terms = append(f.Terms, approx.Monomial{W: 1, Rows: rows, Index: idx})
		t := n - 1
		for ; t >= 0; t-- {
			s[t]++
			if s[t] < k {
				break
			}
			s[t] = 0
		}
		if t < 0 {
			return f
		}
	}
}

// StartAt sets q to the product of Dirichlets w (VB's posterior, say) and
// every site to an equal share of its difference from the prior
// (approx.FamilyEP.StartAt).
func (e *EP) StartAt(w Posterior) error {
	if w.K != e.k || w.P != e.p {
		return fmt.Errorf("hmm: EP start of K = %d, P = %d; EP has K = %d, P = %d", w.K, w.P, e.k, e.p)
	}
	return e.ep.StartAt(e.natural(w.Rows()))
}

// Sweep updates every site once and returns the largest change of a site's
// natural parameters.
func (e *EP) Sweep() (float64, error) { return e.ep.Sweep() }

// Run sweeps until the sites stop moving or the settings' cap.
func (e *EP) Run() (bool, error) { return e.ep.Run() }

// LogEvidence returns EP's ln p(y | K) (approx.FamilyEP.LogEvidence).
func (e *EP) LogEvidence() (float64, error) { return e.ep.LogEvidence() }

// Iterations and Skipped are the sweeps run and the site updates skipped.
func (e *EP) Iterations() int { return e.ep.Iterations }

// Skipped is the number of site updates left out (approx.FamilyEP).
func (e *EP) Skipped() int { return e.ep.Skipped }

// Q returns q as Dirichlet parameters (rows of length 1 are 1).
func (e *EP) Q() Posterior {
	w := Posterior{K: e.k, P: e.p, Pi: make([]float64, e.k), A: make([]float64, e.k*e.k), C: make([]float64, e.k*e.p)}
	eta := e.ep.Q()
	for r, row := range w.Rows() {
		fr := e.rows[r]
		for j := range row {
			if fr < 0 {
				row[j] = 1
			} else {
				row[j] = 1 + eta[e.fam.Row(fr)+j]
			}
		}
	}
	return w
}
