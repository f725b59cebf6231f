package gmm

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// Collapsed is the Bayesian mixture of PRML (10.37)–(10.40) with π, μ and Λ
// integrated out, as a target for annealed importance sampling over the
// assignments Z alone: the base density is the Dirichlet-multinomial
//
//	p(Z) = Γ(Kα₀)/Γ(N + Kα₀) Π_k Γ(n_k + α₀)/Γ(α₀)
//
// (LogPrior, drawn exactly by SamplePrior as π ~ Dir(α₀), z_n ~ π), and the
// tempered factor is the product of the components' Normal-Wishart
// marginal likelihoods p(X | Z) = Π_k p(X_{z=k}) (LogLik, the terms of
// LogEvidenceExact), so that f_τ(Z) = p(Z) p(X|Z)^τ and Z_1 = p(X | K)
// (Beal (2003) eqs. (6.50)–(6.53) on the collapsed state). Its kernel is
// CollapsedGibbs. Without the parameters the chain need not cross the
// abrupt change of the tempered posterior of (Z, π, μ, Λ) between one broad
// component and one per cluster. A Collapsed is immutable and safe for
// concurrent use.
type Collapsed struct {
	x     []float64
	n, d  int
	k     int
	prior Prior
	c     consts
	// g[n] is the part of ln p(X_k) that depends on n_k = n alone:
	// −(nD/2) ln 2π + (D/2) ln(β₀/β_n) + (ν_nD/2) ln 2 + ln Γ_D(ν_n/2), so that
	// ln p(X_k) = g[n] − (ν_n/2) ln|W_n⁻¹| − ln Z(W₀, ν₀).
	g []float64
	// lga[n] = ln Γ(n + α₀) − ln Γ(α₀); lnC = ln Γ(Kα₀) − ln Γ(N + Kα₀).
	lga []float64
	lnC float64
}

// NewCollapsed returns the collapsed mixture of K components with the
// prior on the data x (N×D row-major, not copied).
func NewCollapsed(x []float64, d, k int, prior Prior) (*Collapsed, error) {
	if err := checkEvidenceArgs(x, d, prior); err != nil {
		return nil, err
	}
	if k < 1 {
		return nil, fmt.Errorf("gmm: K = %d", k)
	}
	n := len(x) / d
	m := &Collapsed{x: x, n: n, d: d, k: k, prior: prior, c: newConsts(prior), g: make([]float64, n+1), lga: make([]float64, n+1)}
	df, a := float64(d), prior.Alpha0
	lgA := numeric.LogGamma(a)
	for i := range m.g {
		nf := float64(i)
		bn, vn := prior.Beta0+nf, prior.Nu0+nf
		m.g[i] = -nf*df/2*ln2Pi + df/2*math.Log(prior.Beta0/bn) + vn*df/2*math.Ln2 + numeric.LogMultiGamma(vn/2, d)
		m.lga[i] = numeric.LogGamma(nf+a) - lgA
	}
	kf := float64(k)
	m.lnC = numeric.LogGamma(kf*a) - numeric.LogGamma(float64(n)+kf*a)
	return m, nil
}

// K returns the number of components.
func (m *Collapsed) K() int { return m.k }

// Assignments is a state of the collapsed chain: Z and the sufficient
// statistics of each component (counts, sums, sums of outer products and
// the Cholesky factor of W_N⁻¹ of (10.62)), which SamplePrior and
// CollapsedGibbs keep consistent with Z; LogLik reads them.
type Assignments struct {
	Z      []int     // N
	count  []int     // K
	sum    []float64 // K×D
	sxx    []float64 // K×D×D
	chol   []float64 // K×D×D, factor of W_N⁻¹
	logDet []float64 // K, ln|W_N⁻¹|
}

func (m *Collapsed) newAssignments() *Assignments {
	k, d := m.k, m.d
	return &Assignments{Z: make([]int, m.n), count: make([]int, k), sum: make([]float64, k*d), sxx: make([]float64, k*d*d),
		chol: make([]float64, k*d*d), logDet: make([]float64, k)}
}

// Counts returns n_k, the number of points of each component.
func (s *Assignments) Counts() []int { return s.count }

// LogPrior returns the Dirichlet-multinomial ln p(Z) of (10.37) and (10.39)
// with π integrated out.
func (m *Collapsed) LogPrior(s *Assignments) float64 {
	lp := m.lnC
	for _, c := range s.count {
		lp += m.lga[c]
	}
	return lp
}

// LogLik returns ln p(X | Z) = Σ_k ln p(X_{z=k}), each the Normal-Wishart
// evidence of its points (0 for an empty component), from the statistics
// held by s. It does not allocate.
func (m *Collapsed) LogLik(s *Assignments) float64 {
	var ll float64
	for k, c := range s.count {
		if c > 0 {
			ll += m.logEvidence(c, s.logDet[k])
		}
	}
	return ll
}

// logEvidence is ln p(X_k) for n points whose W_n⁻¹ has log-determinant ld.
func (m *Collapsed) logEvidence(n int, ld float64) float64 {
	return m.g[n] - (m.prior.Nu0+float64(n))/2*ld - m.c.lnZ0
}

// SamplePrior draws Z from p(Z) exactly (π ~ Dir(α₀), then z_n ~ π),
// writing into dst when it is a state of this model's sizes, and returns
// the state with its statistics.
func (m *Collapsed) SamplePrior(dst *Assignments, rnd *rand.Rand) *Assignments {
	if dst == nil || len(dst.Z) != m.n || len(dst.count) != m.k {
		dst = m.newAssignments()
	}
	logPi := make([]float64, m.k)
	alpha := make([]float64, m.k)
	for k := range alpha {
		alpha[k] = m.prior.Alpha0
	}
	dist.Dirichlet{Alpha: alpha}.RandLog(logPi, rnd)
	for i := range dst.Z {
		dst.Z[i] = drawLog(logPi, rnd)
	}
	m.restat(dst, make([]float64, m.d))
	return dst
}

// drawLog draws k with probability ∝ exp(lp[k]), overwriting lp with the
// unnormalised probabilities.
func drawLog(lp []float64, rnd *rand.Rand) int {
	mx := math.Inf(-1)
	for _, v := range lp {
		mx = max(mx, v)
	}
	var tot float64
	for k, v := range lp {
		e := math.Exp(v - mx)
		lp[k] = e
		tot += e
	}
	u := rnd.Float64() * tot
	for k, e := range lp {
		if u < e {
			return k
		}
		u -= e
	}
	return len(lp) - 1
}

// restat recomputes every component's statistics from s.Z (mN is scratch of
// length D).
func (m *Collapsed) restat(s *Assignments, mN []float64) {
	clear(s.count)
	clear(s.sum)
	clear(s.sxx)
	for i, z := range s.Z {
		m.move(s, i, z, 1)
	}
	for k := range s.count {
		m.refactor(s, k, mN)
	}
}

// move adds (sign = 1) or removes (sign = −1) point i to or from
// component k's count, sum and sum of outer products.
func (m *Collapsed) move(s *Assignments, i, k int, sign float64) {
	d := m.d
	xi := m.x[i*d : (i+1)*d]
	s.count[k] += int(sign)
	sum, sxx := s.sum[k*d:(k+1)*d], s.sxx[k*d*d:(k+1)*d*d]
	for a, va := range xi {
		sum[a] += sign * va
		row := sxx[a*d : (a+1)*d]
		for b, vb := range xi {
			row[b] += sign * va * vb
		}
	}
}

// refactor recomputes the factor of W_N⁻¹ = W₀⁻¹ + Σxxᵀ + β₀m₀m₀ᵀ − β_N m_N m_Nᵀ
// (10.62) of component k and its log-determinant (mN is scratch).
func (m *Collapsed) refactor(s *Assignments, k int, mN []float64) {
	d, p := m.d, m.prior
	bN := p.Beta0 + float64(s.count[k])
	sum, sxx, l := s.sum[k*d:(k+1)*d], s.sxx[k*d*d:(k+1)*d*d], s.chol[k*d*d:(k+1)*d*d]
	for a := range mN {
		mN[a] = (p.Beta0*p.M0[a] + sum[a]) / bN
	}
	for a := 0; a < d; a++ {
		for b := 0; b <= a; b++ {
			l[a*d+b] = m.c.w0inv[a*d+b] + sxx[a*d+b] + p.Beta0*p.M0[a]*p.M0[b] - bN*mN[a]*mN[b]
		}
	}
	if !numeric.CholFactor(l, d) {
		panic("gmm: collapsed Gibbs: W_N⁻¹ not positive definite")
	}
	s.logDet[k] = numeric.CholLogDet(l, d)
}

// CollapsedGibbs is the collapsed Gibbs sampler of f_τ(Z) = p(Z) p(X|Z)^τ:
// one Sweep redraws each z_n in turn from
//
//	p(z_n = k | Z_−n) ∝ (n_k^−n + α₀) · [p(x_n | X_{z=k}^−n)]^τ,
//
// the Dirichlet-multinomial predictive times the tempered Student-t
// predictive of component k's other points (PRML (B.68) with the
// Normal-Wishart posterior (10.60)–(10.63); Murphy 2007, eq. (232)):
//
//	ln p(x | X_k) = g(n+1) − g(n) − ½ ln|W_n⁻¹| − ((ν_n + 1)/2) ln(1 + β_n/(β_n + 1) · q),
//	q = (x − m_n)ᵀ W_n (x − m_n),
//
// which follows from ln p(X_k ∪ {x}) − ln p(X_k) with the rank-one update
// W_{n+1}⁻¹ = W_n⁻¹ + β_n/(β_n + 1) (x − m_n)(x − m_n)ᵀ. Each draw is exact,
// so the pass leaves f_τ invariant.
//
// Single-site moves cannot carry a component across the abrupt change of
// f_τ between one component holding every point and one per cluster (a
// new component must grow from one point against the prior's predictive),
// so after the pass the sweep makes Moves split-merge moves, the
// sequentially-allocated merge-split of Dahl (2003) for K labels: pick two
// points i ≠ j; if they share component k₁ and some component is empty,
// propose to split k₁ by moving j to one of the E empty components k₂
// (chosen uniformly) and allocating k₁'s other points, in a random order,
// between k₁ and k₂ each from the conditional above given the points
// allocated so far (the anchors i and j first), with probability q; if
// they lie in k₁ ≠ k₂, propose to merge k₂ into k₁. The Metropolis–Hastings
// ratio of a split is f_τ(Z′)·E / (f_τ(Z)·q(Z′)), of a merge
// f_τ(Z′)·q(Z) / (f_τ(Z)·E′), with E′ the empty components after the merge
// and q(Z) the probability that the sequential pass produces the current
// allocation; each move is the reverse of the other, so they leave f_τ
// invariant. Each split-merge move is followed by a reallocation move: pick
// two components k₁ ≠ k₂, allocate their points afresh between them by the
// same sequential pass without anchors (in a random order, side k₁ or k₂
// for each), and accept with f_τ(Z′) q(Z) / (f_τ(Z) q(Z′)); it mends two
// non-empty components that split the data along the wrong line, which
// neither a merge (far less probable) nor single-site moves can.
// A CollapsedGibbs holds scratch space: one per
// chain.
type CollapsedGibbs struct {
	m *Collapsed
	// Moves is the number of split-merge and reallocation moves per sweep
	// (NewGibbs: 1 of each).
	Moves   int
	lp      []float64 // K
	mN, dev []float64 // D
	pair    *Assignments
	idx     []int // N
	alloc   []int // N
	// Proposed and Accepted count the split-merge and reallocation moves.
	Proposed, Accepted int
}

// NewGibbs returns a collapsed Gibbs sampler for m with one split-merge
// move per sweep.
func (m *Collapsed) NewGibbs() *CollapsedGibbs {
	pair := &Assignments{count: make([]int, 2), sum: make([]float64, 2*m.d), sxx: make([]float64, 2*m.d*m.d),
		chol: make([]float64, 2*m.d*m.d), logDet: make([]float64, 2)}
	return &CollapsedGibbs{m: m, Moves: 1, lp: make([]float64, m.k), mN: make([]float64, m.d), dev: make([]float64, m.d),
		pair: pair, idx: make([]int, 0, m.n), alloc: make([]int, m.n)}
}

// Sweep makes one sweep at inverse temperature tau and returns s (modified
// in place, statistics included). It first recomputes the statistics from
// Z, so that rounding does not accumulate over a run. It does not allocate.
func (g *CollapsedGibbs) Sweep(s *Assignments, tau float64, rnd *rand.Rand) *Assignments {
	m, d, p := g.m, g.m.d, g.m.prior
	m.restat(s, g.mN)
	for i, k0 := range s.Z {
		m.move(s, i, k0, -1)
		m.refactor(s, k0, g.mN)
		xi := m.x[i*d : (i+1)*d]
		for k := range g.lp {
			c := s.count[k]
			v := math.Log(float64(c) + p.Alpha0)
			if tau != 0 {
				v += tau * g.logPredictive(s, k, xi)
			}
			g.lp[k] = v
		}
		k := drawLog(g.lp, rnd)
		s.Z[i] = k
		m.move(s, i, k, 1)
		m.refactor(s, k, g.mN)
	}
	if m.k >= 2 {
		for range g.Moves {
			g.splitMerge(s, tau, rnd)
			g.reallocate(s, tau, rnd)
		}
	}
	return s
}

// reallocate makes one reallocation move (see CollapsedGibbs).
func (g *CollapsedGibbs) reallocate(s *Assignments, tau float64, rnd *rand.Rand) {
	m := g.m
	k1 := rnd.IntN(m.k)
	k2 := rnd.IntN(m.k - 1)
	if k2 >= k1 {
		k2++
	}
	if s.count[k1]+s.count[k2] < 2 {
		return
	}
	g.gather(s, k1, k2, -1, -1, rnd)
	g.Proposed++
	qCur := g.allocate(s, -1, -1, k1, tau, nil)
	qNew := g.allocate(s, -1, -1, k1, tau, rnd)
	if g.accept(g.pairTarget(tau)-g.current(s, k1, k2, tau)+qCur-qNew, rnd) {
		g.apply(s, k1, k2, -1, -1, true)
	}
}

// gather lists in g.idx, in a random order, the points of components k1
// and k2 other than i and j.
func (g *CollapsedGibbs) gather(s *Assignments, k1, k2, i, j int, rnd *rand.Rand) {
	g.idx = g.idx[:0]
	for n, z := range s.Z {
		if (z == k1 || z == k2) && n != i && n != j {
			g.idx = append(g.idx, n)
		}
	}
	for a := len(g.idx) - 1; a > 0; a-- {
		b := rnd.IntN(a + 1)
		g.idx[a], g.idx[b] = g.idx[b], g.idx[a]
	}
}

// current is the part of ln f_τ(Z) of components k1 and k2 of s.
func (g *CollapsedGibbs) current(s *Assignments, k1, k2 int, tau float64) float64 {
	m := g.m
	f := m.lga[s.count[k1]] + m.lga[s.count[k2]]
	if tau != 0 {
		f += tau * (m.pairEvidence(s, k1) + m.pairEvidence(s, k2))
	}
	return f
}

// accept makes the Metropolis–Hastings decision for the log ratio a.
func (g *CollapsedGibbs) accept(a float64, rnd *rand.Rand) bool {
	if a >= 0 || rnd.Float64() < math.Exp(a) {
		g.Accepted++
		return true
	}
	return false
}

// apply writes an accepted move into s: the anchors i (to k1) and j (to
// k2 when split, else k1; each when ≥ 0) and the points g.idx to k1, or to
// their sides of g.alloc when split; then it recomputes the statistics.
func (g *CollapsedGibbs) apply(s *Assignments, k1, k2, i, j int, split bool) {
	side := [2]int{k1, k2}
	if i >= 0 {
		s.Z[i] = k1
	}
	if j >= 0 {
		s.Z[j] = k1
		if split {
			s.Z[j] = k2
		}
	}
	for _, n := range g.idx {
		s.Z[n] = k1
		if split {
			s.Z[n] = side[g.alloc[n]]
		}
	}
	g.m.restat(s, g.mN)
}

// splitMerge makes one split-merge move (see CollapsedGibbs).
func (g *CollapsedGibbs) splitMerge(s *Assignments, tau float64, rnd *rand.Rand) {
	m := g.m
	if m.n < 2 {
		return
	}
	i := rnd.IntN(m.n)
	j := rnd.IntN(m.n - 1)
	if j >= i {
		j++
	}
	k1, k2 := s.Z[i], s.Z[j]
	empty := 0
	for _, c := range s.count {
		if c == 0 {
			empty++
		}
	}
	split := k1 == k2
	if split {
		if empty == 0 {
			return
		}
		e := rnd.IntN(empty)
		for k, c := range s.count {
			if c == 0 {
				if e == 0 {
					k2 = k
					break
				}
				e--
			}
		}
	}
	g.gather(s, k1, k2, i, j, rnd)
	g.Proposed++
	fCur := g.current(s, k1, k2, tau)
	var a float64
	if split {
		q := g.allocate(s, i, j, k1, tau, rnd)
		a = g.pairTarget(tau) - fCur + math.Log(float64(empty)) - q
	} else {
		q := g.allocate(s, i, j, k1, tau, nil)
		g.merged(i, j)
		a = g.pairTarget(tau) - fCur + q - math.Log(float64(empty+1))
	}
	if g.accept(a, rnd) {
		g.apply(s, k1, k2, i, j, split)
	}
}

// pairTarget is the part of ln f_τ of the two components of g.pair.
func (g *CollapsedGibbs) pairTarget(tau float64) float64 {
	m, pr := g.m, g.pair
	f := m.lga[pr.count[0]] + m.lga[pr.count[1]]
	if tau != 0 {
		f += tau * (m.pairEvidence(pr, 0) + m.pairEvidence(pr, 1))
	}
	return f
}

// pairEvidence is ln p(X_k) of component k of s (0 when empty).
func (m *Collapsed) pairEvidence(s *Assignments, k int) float64 {
	if s.count[k] == 0 {
		return 0
	}
	return m.logEvidence(s.count[k], s.logDet[k])
}

// resetPair empties g.pair and then puts point i in side 0 and point j in
// side 1 (each when ≥ 0).
func (g *CollapsedGibbs) resetPair(i, j int) {
	m, pr := g.m, g.pair
	clear(pr.count)
	clear(pr.sum)
	clear(pr.sxx)
	if i >= 0 {
		m.move(pr, i, 0, 1)
	}
	if j >= 0 {
		m.move(pr, j, 1, 1)
	}
	m.refactor(pr, 0, g.mN)
	m.refactor(pr, 1, g.mN)
}

// merged puts the anchors i, j and the points g.idx into side 0 of g.pair.
func (g *CollapsedGibbs) merged(i, j int) {
	m, pr := g.m, g.pair
	g.resetPair(i, -1)
	m.move(pr, j, 0, 1)
	for _, n := range g.idx {
		m.move(pr, n, 0, 1)
	}
	m.refactor(pr, 0, g.mN)
}

// allocate makes the sequential allocation of the points g.idx between the
// two sides of g.pair, starting from the anchors i (side 0) and j (side
// 1; −1 for none), and returns its ln q: with rnd nil it follows the allocation of s
// (side 0 for component k1), else it draws each side and stores it in
// g.alloc.
func (g *CollapsedGibbs) allocate(s *Assignments, i, j, k1 int, tau float64, rnd *rand.Rand) float64 {
	m, d, pr := g.m, g.m.d, g.pair
	g.resetPair(i, j)
	var lq float64
	var lp [2]float64
	for _, n := range g.idx {
		xn := m.x[n*d : (n+1)*d]
		for c := range lp {
			lp[c] = math.Log(float64(pr.count[c]) + m.prior.Alpha0)
			if tau != 0 {
				lp[c] += tau * g.logPredictive(pr, c, xn)
			}
		}
		norm := numeric.LogAddExp(lp[0], lp[1])
		var c int
		if rnd == nil {
			if s.Z[n] != k1 {
				c = 1
			}
		} else {
			if rnd.Float64() >= math.Exp(lp[0]-norm) {
				c = 1
			}
			g.alloc[n] = c
		}
		lq += lp[c] - norm
		m.move(pr, n, c, 1)
		m.refactor(pr, c, g.mN)
	}
	return lq
}

// logPredictive returns ln p(x | X_k), the Student-t predictive of
// component k's points under the Normal-Wishart posterior.
func (g *CollapsedGibbs) logPredictive(s *Assignments, k int, x []float64) float64 {
	m, d, p := g.m, g.m.d, g.m.prior
	n := s.count[k]
	nf := float64(n)
	bN, vN := p.Beta0+nf, p.Nu0+nf
	sum := s.sum[k*d : (k+1)*d]
	for a := range g.dev {
		g.dev[a] = x[a] - (p.Beta0*p.M0[a]+sum[a])/bN
	}
	numeric.CholSolveVec(s.chol[k*d*d:(k+1)*d*d], d, g.dev)
	var q float64
	for _, v := range g.dev {
		q += v * v
	}
	return m.g[n+1] - m.g[n] - s.logDet[k]/2 - (vN+1)/2*math.Log1p(bN/(bN+1)*q)
}
