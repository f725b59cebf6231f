package mfa

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/vb"
)

// EMMoveSettings control the births that EM proposes to vb.Search, the
// model search of the BIC baseline (Beal (2003) line 2873; targets
// ch4-mfa.md §2 item 1: "the same as VB (responsibility split, α_h = 1,
// agitation epochs, max_tries = 3)"). The zero value of every field means
// its documented default.
type EMMoveSettings struct {
	// Rand is the stream of the birth directions. nil means that no moves
	// are proposed. It is not part of Save's snapshot: a birth tried again
	// after a rejection draws a new direction.
	Rand *rand.Rand
	// MaxTries is the number of rounds over all analysers, in the order of
	// ParentOrder, that may pass without an accepted birth before the
	// search ends (max_tries of targets §1.9; 3 for the digits, line 2873).
	// Default 1.
	MaxTries int
	// MinChildCount is the responsibility mass Σ_i r_is below which a
	// child of a birth is refused (Apply fails, and vb.Search logs the try
	// and goes on). Default k+1: with fewer points than that, the k
	// loadings and the mean of a child are not determined by its data (see
	// Apply). A negative value disables the check.
	MinChildCount float64
}

// Propose returns the next birth to try, given the log of the moves that
// vb.Search has tried so far, with the bookkeeping of VB.Propose
// (targets §1.9 "parent choice"): since the last accepted move the model is
// in the same state (rejections are restored), every analyser is tried as
// a parent in the order of ParentOrder (descending empirical local KL,
// targets §2 item 1), and after MaxTries rounds without an acceptance ok
// is false. ML proposes no deaths (line 2909: "there is no mechanism for
// component death in the ML MFA model"). ok is false without
// EMMoveSettings.Rand.
func (m *EM) Propose(log []vb.MoveRecord) (mv vb.Move, ok bool) {
	if m.Moves.Rand == nil {
		return vb.Move{}, false
	}
	return nextBirth(sinceAccepted(log), len(m.Pi), m.Moves.MaxTries, m.ParentOrder)
}

// ParentOrder returns the analysers in order of descending LocalKL (ties by
// index), the order in which Propose tries them as parents: the analyser
// whose local data its density fits worst first (Ueda et al. 2000; Beal
// (2003) line 2873).
func (m *EM) ParentOrder() []int {
	js := m.LocalKL()
	order := make([]int, len(js))
	for s := range order {
		order[s] = s
	}
	sort.SliceStable(order, func(a, b int) bool { return js[order[a]] > js[order[b]] })
	return order
}

// LocalKL returns the empirical local KL divergence of each analyser (the
// split criterion of Ueda et al. (2000), line 2873, made precise in targets
// ch4-mfa.md §2 item 1),
//
//	J_s = Σ_i w_is [ln w_is − ln N(y_i | μ^s, Λ^sΛ^sᵀ + Ψ)],  w_is = r_is/N_s,
//
// the KL divergence from the analyser's density to its responsibility-
// weighted empirical distribution on the data points (0 ln 0 = 0), at the
// current responsibilities and parameters. An analyser without
// responsibility (N_s = 0) gets −Inf (it comes last), and every J_s is NaN
// if the parameters are not valid. It computes the densities in E's
// workspace (which the next E step sets again).
func (m *EM) LocalKL() []float64 {
	S, n := len(m.Pi), m.n
	js := make([]float64, S)
	if err := m.precompute(); err != nil {
		for s := range js {
			js[s] = math.NaN()
		}
		return js
	}
	comps, ipsi := m.work.comps.comps, m.work.comps.ipsi
	for s := range js {
		var ns float64
		for i := 0; i < n; i++ {
			ns += m.resp.At(i, s)
		}
		if !(ns > 0) {
			js[s] = math.Inf(-1)
			continue
		}
		var j float64
		for i := 0; i < n; i++ {
			r := m.resp.At(i, s)
			if r == 0 {
				continue
			}
			w := r / ns
			j += w * (math.Log(w) - comps[s].logPdf(m.y.RawRowView(i), ipsi, nil))
		}
		js[s] = j
	}
	return js
}

// Apply performs a birth from analyser s′ = mv.Component by a
// responsibility split (eqs. (4.73)–(4.76), lines 2654–2672, with α_h = 1;
// targets §1.9 and §2 item 1): a direction d ~ N(0, Λ^{s′}Λ^{s′}ᵀ + Ψ)
// (d = Λ^{s′}u + Ψ^{1/2}v, u and v standard normal; mean 0, since only its
// direction matters) splits the points by the sign of (y_i − μ^{s′})ᵀd:
// s′ keeps r_is′ of the points on the non-negative side and a new analyser
// S takes it on the other. The new analyser starts as a copy of the parent
// (μ, Λ, and the posterior factor moments of the last E step, which belong
// to those parameters), the parent's π is halved between the two, and an M
// step from the split responsibilities follows (setting π_s = N_s/n), so
// that the next E step starts from the split.
//
// Apply needs the state that an E step leaves (as vb.Search's runs end).
// It fails, leaving the model as it was, for another kind of move, an
// analyser out of range, a missing EMMoveSettings.Rand, a child with less
// than MinChildCount of responsibility, or parameters that are not finite
// after the M step. The children's check is the handling of ML's
// singularities (line 2909: "the ML model may be concentrating analysers on
// single data points"): a child with fewer than k+1 points could place its
// k-dimensional affine subspace through all of them. Ψ ≥ PsiMin keeps the
// likelihood finite whatever happens in the epoch that follows; an E step
// that nevertheless meets non-finite parameters fails, which ends
// vb.Search with the error (the state before the birth restored), never
// with a NaN or −Inf F.
func (m *EM) Apply(mv vb.Move) error {
	if mv.Kind != MoveBirth {
		return fmt.Errorf("mfa: ML has no move %q", mv.Kind)
	}
	sp, S, n, k := mv.Component, len(m.Pi), m.n, m.k
	if sp < 0 || sp >= S {
		return fmt.Errorf("mfa: move %v: analyser %d of %d", mv, sp, S)
	}
	if m.Moves.Rand == nil {
		return errors.New("mfa: ML birth without EMMoveSettings.Rand")
	}
	if !m.eFresh {
		return errors.New("mfa: ML birth needs the state of an E step (run E after M)")
	}
	rnd := m.Moves.Rand
	u := make([]float64, k)
	for l := range u {
		u[l] = rnd.NormFloat64()
	}
	dir := make([]float64, m.p)
	for q := range dir {
		var v float64
		for l := 0; l < k; l++ {
			v += m.Lambda[sp].At(q, l) * u[l]
		}
		dir[q] = v + math.Sqrt(m.Psi[q])*rnd.NormFloat64()
	}
	resp := mat.NewDense(n, S+1, nil)
	var na, nb float64
	for i := 0; i < n; i++ {
		dst := resp.RawRowView(i)
		copy(dst, m.resp.RawRowView(i))
		var proj float64
		for q, yq := range m.y.RawRowView(i) {
			proj += (yq - m.Mu[sp][q]) * dir[q]
		}
		if proj < 0 {
			dst[S], dst[sp] = dst[sp], 0
		}
		na += dst[sp]
		nb += dst[S]
	}
	minCount := m.Moves.MinChildCount
	if minCount == 0 {
		minCount = float64(k + 1)
	}
	if minCount > 0 && (na < minCount || nb < minCount) {
		return fmt.Errorf("mfa: ML birth from %d: children of %.3g and %.3g points' responsibility (minimum %.3g)", sp, na, nb, minCount)
	}
	snap := m.Save()
	half := m.Pi[sp] / 2
	m.Pi[sp] = half
	m.Pi = append(m.Pi, half)
	m.Mu = append(m.Mu, slices.Clone(m.Mu[sp]))
	var lam, g *mat.Dense
	if k > 0 {
		lam, g = mat.DenseCopyOf(m.Lambda[sp]), mat.DenseCopyOf(m.g[sp])
	}
	m.Lambda = append(m.Lambda, lam)
	m.g = append(m.g, g)
	m.ex = append(m.ex, slices.Clone(m.ex[sp]))
	m.resp = resp
	m.M()
	if err := m.checkFinite(); err != nil {
		m.Restore(snap)
		return fmt.Errorf("mfa: ML birth from %d: %w", sp, err)
	}
	m.moved, m.agValid = true, false
	return nil
}

// checkFinite reports the first parameter that is not finite.
func (m *EM) checkFinite() error {
	for s := range m.Pi {
		if math.IsNaN(m.Pi[s]) {
			return fmt.Errorf("π_%d = %v", s, m.Pi[s])
		}
		for q, v := range m.Mu[s] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("μ^%d_%d = %v", s, q, v)
			}
		}
		if m.k > 0 {
			for _, v := range m.Lambda[s].RawMatrix().Data {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("a loading of analyser %d is %v", s, v)
				}
			}
		}
	}
	for q, v := range m.Psi {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("ψ_%d = %v", q, v)
		}
	}
	return nil
}

// mlSnapshot is the state saved by EM.Save.
type mlSnapshot struct {
	pi, psi []float64
	mu, ex  [][]float64
	lambda  []*mat.Dense
	g       []*mat.Dense
	resp    *mat.Dense
	lnp     float64
	eFresh  bool
}

// Save returns a deep copy of the state that E, M and Apply change: π, μ,
// Λ, Ψ, the responsibilities, the factor moments and the log-likelihood of
// the last E step. The settings (PsiMin, Objective, Moves) and the birth
// stream are not part of it.
func (m *EM) Save() any {
	sn := &mlSnapshot{pi: slices.Clone(m.Pi), psi: slices.Clone(m.Psi), resp: mat.DenseCopyOf(m.resp),
		lnp: m.lnp, eFresh: m.eFresh}
	for s := range m.Pi {
		sn.mu = append(sn.mu, slices.Clone(m.Mu[s]))
		sn.ex = append(sn.ex, slices.Clone(m.ex[s]))
		sn.lambda = append(sn.lambda, copyDense(m.Lambda[s]))
		sn.g = append(sn.g, copyDense(m.g[s]))
	}
	return sn
}

// Restore puts back a snapshot made by Save (it may be restored more than
// once). The agitation is 1 until the second E step that follows, as after
// a birth.
func (m *EM) Restore(x any) {
	sn := x.(*mlSnapshot)
	m.Pi, m.Psi, m.resp = slices.Clone(sn.pi), slices.Clone(sn.psi), mat.DenseCopyOf(sn.resp)
	m.lnp, m.eFresh = sn.lnp, sn.eFresh
	S := len(sn.pi)
	m.Mu, m.ex = make([][]float64, S), make([][]float64, S)
	m.Lambda, m.g = make([]*mat.Dense, S), make([]*mat.Dense, S)
	for s := 0; s < S; s++ {
		m.Mu[s], m.ex[s] = slices.Clone(sn.mu[s]), slices.Clone(sn.ex[s])
		m.Lambda[s], m.g[s] = copyDense(sn.lambda[s]), copyDense(sn.g[s])
	}
	m.moved, m.agValid = true, false
}

// copyDense returns a copy of a, or nil for nil.
func copyDense(a *mat.Dense) *mat.Dense {
	if a == nil {
		return nil
	}
	return mat.DenseCopyOf(a)
}

// Agitation sets dst[s] to the agitation (eq. (4.72), line 2645) of
// analyser s over the last E step, on ML's responsibilities r_is, with the
// conventions of VB.Agitation (1 before the first E step and after a
// birth or a Restore until the second E step that follows it).
func (m *EM) Agitation(dst []float64) []float64 {
	S := len(m.Pi)
	return agitationTo(dst, m.resp.RawMatrix().Data, m.prevResp, m.n, S, m.resp.RawMatrix().Stride, 1, m.agValid)
}

// EpochConverger returns the rule that ends an epoch of ML's search
// (vb.SearchSettings.Run.Converger), the same as VB.EpochConverger's
// (targets ch4-mfa.md §1.9 and §3.7, "both sides use the same agitation
// tolerance"): the run has converged when at least max(minIterations, 2) E
// steps have run, every analyser's Agitation is below tol (≤ 0 means
// DefaultAgitationTol, e⁻⁶) and, if dFPerDatum > 0, |ΔF|/n < dFPerDatum.
// The rule reads the model's responsibilities, so it must drive runs of m
// only, one at a time.
func (m *EM) EpochConverger(tol, dFPerDatum float64, minIterations int) vb.Converger {
	return newAgitationRule(m, m.n, tol, dFPerDatum, minIterations)
}

var _ vb.Mover = (*EM)(nil)
