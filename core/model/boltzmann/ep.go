package boltzmann

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/approx"
)

// Fully factorised expectation propagation over the units of the joint
// (nil Clamp) (Minka 2001, §3.3, in the exponential family of
// approx.Bernoullis; with a fully factorised q and pairwise sites it is
// loopy belief propagation, Minka 2001 §4.4, and ln Z_EP is the Bethe
// approximation at a fixed point). Each ±1 unit is the Bernoulli variable
// b_i = (s_i + 1)/2 ∈ {0, 1}, so that q(s) = Π_i σ(η_i)^{b_i} σ(−η_i)^{1−b_i}
// with η_i the log-odds of s_i = +1 (η_i = 2a_i for q(s_i) ∝ exp(a_i s_i);
// ⟨s_i⟩ = tanh(η_i/2)). The sum of eq. 4.3 splits as
//
//	Z = Σ_s exp(Σ_i b_i s_i/T) Π_{i<j} f_ij(s_i, s_j),   f_ij = exp(w_ij s_i s_j/T),
//	  = Π_i 2cosh(b_i/T) · Σ_s p₀(s) Π_{i<j} f_ij,
//
// with the biases in the prior p₀(s) = Π_i exp(b_i s_i/T)/(2cosh(b_i/T)), a
// member of the family with η₀_i = 2b_i/T, whose normaliser Π_i 2cosh(b_i/T)
// is exact (the uniform base measure on {±1}^n is the counting measure of
// approx.Bernoullis on {0, 1}^n). FamilyEP approximates ln Σ_s p₀ Π f_ij by
// ln Z_EP (Minka 2001, eq. (3.32)), so
//
//	ln Z ≈ ln Z_EP + Σ_i ln 2cosh(b_i/T).
//
// One site per pair with w_ij ≠ 0; its projection (pairSite.Project) sums
// the four states of (s_i, s_j) under the cavity's Bernoullis.

// EP is fully factorised EP for ln Z of a machine's joint.
type EP struct {
	m     *Machine
	fep   *approx.FamilyEP
	sites []*pairSite
	logC  float64 // Σ_i ln 2cosh(b_i/T)
}

// NewEP starts EP for the joint of m (no clamp) with every site at 1 (q =
// p₀, the biases alone). Settings are FamilyEP's (damping, sweep cap,
// tolerance on the sites' log-odds).
func NewEP(m *Machine, s approx.EPSettings) (*EP, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	n := m.N
	e := &EP{m: m}
	prior := make([]float64, n)
	for i, b := range m.B {
		a := b / m.T
		prior[i] = 2 * a
		e.logC += logTwoCosh(a)
	}
	var fs []approx.SiteFactor
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if w := m.W[i*n+j]; w != 0 {
				p := &pairSite{i: i, j: j, k: w / m.T}
				e.sites = append(e.sites, p)
				fs = append(fs, p)
			}
		}
	}
	fep, err := approx.NewFamilyEP(approx.Bernoullis(n), prior, fs, s)
	if err != nil {
		return nil, err
	}
	e.fep = fep
	return e, nil
}

// logTwoCosh returns ln(2 cosh a) = |a| + ln(1 + e^{−2|a|}) without
// overflow.
func logTwoCosh(a float64) float64 {
	a = math.Abs(a)
	return a + math.Log1p(math.Exp(-2*a))
}

// Sweep updates every pair's site once (FamilyEP.Sweep) and returns the
// largest change of a site's log-odds.
func (e *EP) Sweep() (float64, error) { return e.fep.Sweep() }

// Run sweeps until no site's log-odds move by more than the tolerance or
// the cap, and reports whether it converged (FamilyEP.Run).
func (e *EP) Run() (bool, error) { return e.fep.Run() }

// Iterations is the number of sweeps made; Skipped the site updates left
// out (a tilted marginal of exactly 0 or 1, approx.ErrNoProjection).
func (e *EP) Iterations() int { return e.fep.Iterations }
func (e *EP) Skipped() int    { return e.fep.Skipped }

// Sites is the number of sites (pairs with w_ij ≠ 0).
func (e *EP) Sites() int { return len(e.sites) }

// LogZ is EP's approximation of ln Z (eq. 4.3): FamilyEP's ln Z_EP
// (Minka 2001, eq. (3.32)) of Σ_s p₀(s) Π f_ij plus Σ_i ln 2cosh(b_i/T),
// the biases' normaliser. Exact at the fixed point when the graph of the
// nonzero weights is a forest (EP is then belief propagation).
func (e *EP) LogZ() (float64, error) {
	lz, err := e.fep.LogEvidence()
	if err != nil {
		return math.NaN(), err
	}
	return lz + e.logC, nil
}

// Means returns q's means ⟨s_i⟩ = tanh(η_i/2) (EP's approximation of the
// exact ⟨s_i⟩).
func (e *EP) Means() []float64 {
	q := e.fep.Q()
	for i, x := range q {
		q[i] = math.Tanh(x / 2)
	}
	return q
}

// EPSweepOps is the weight terms of one EP sweep: 4 per site (the four
// states of its pair, each one weight term w_ij s_i s_j/T with its
// exponential); LogZ costs one more such pass.
func (e *EP) EPSweepOps() int { return 4 * len(e.sites) }

// pairSite is f_ij = exp(k s_i s_j), k = w_ij/T, as an approx.SiteFactor
// over the units' log-odds.
type pairSite struct {
	i, j int
	k    float64
}

// Project implements approx.SiteFactor by the four states of (s_i, s_j):
// ln w(s_i, s_j) = ln q\(s_i) + ln q\(s_j) + k s_i s_j, ln Z = ln Σ w, and
// the tilted log-odds of unit i, ln Σ_{s_j} w(+1, s_j) − ln Σ_{s_j} w(−1,
// s_j) (and of j alike), in log space; every other unit keeps the
// cavity's η. A tilted marginal of exactly 0 or 1 has no Bernoulli with
// finite η: approx.ErrNoProjection, and FamilyEP skips the update.
func (p *pairSite) Project(dst, cavity []float64) (float64, error) {
	copy(dst, cavity)
	// ln q\(s = +1) = ln σ(η), ln q\(s = −1) = ln σ(−η).
	li := [2]float64{approx.LogSigmoid(-cavity[p.i]), approx.LogSigmoid(cavity[p.i])} // index (s+1)/2
	lj := [2]float64{approx.LogSigmoid(-cavity[p.j]), approx.LogSigmoid(cavity[p.j])}
	var lw [2][2]float64
	top := math.Inf(-1)
	for a := range 2 {
		for b := range 2 {
			ss := float64((2*a - 1) * (2*b - 1))
			lw[a][b] = li[a] + lj[b] + p.k*ss
			top = math.Max(top, lw[a][b])
		}
	}
	if math.IsInf(top, 0) || math.IsNaN(top) {
		return math.NaN(), fmt.Errorf("boltzmann: EP site (%d, %d): %w", p.i, p.j, approx.ErrNoProjection)
	}
	var x [2][2]float64
	for a := range 2 {
		for b := range 2 {
			x[a][b] = math.Exp(lw[a][b] - top)
		}
	}
	ei := math.Log(x[1][0]+x[1][1]) - math.Log(x[0][0]+x[0][1])
	ej := math.Log(x[0][1]+x[1][1]) - math.Log(x[0][0]+x[1][0])
	if math.IsInf(ei, 0) || math.IsNaN(ei) || math.IsInf(ej, 0) || math.IsNaN(ej) {
		return math.NaN(), fmt.Errorf("boltzmann: EP site (%d, %d): a tilted marginal is 0 or 1: %w", p.i, p.j, approx.ErrNoProjection)
	}
	dst[p.i], dst[p.j] = ei, ej
	return top + math.Log(x[0][0]+x[0][1]+x[1][0]+x[1][1]), nil
}
