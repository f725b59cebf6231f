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
// so the sweep leaves f_τ invariant. A CollapsedGibbs holds scratch space:
// one per chain.
type CollapsedGibbs struct {
	m       *Collapsed
	lp      []float64 // K
	mN, dev []float64 // D
}

// NewGibbs returns a collapsed Gibbs sampler for m.
func (m *Collapsed) NewGibbs() *CollapsedGibbs {
	return &CollapsedGibbs{m: m, lp: make([]float64, m.k), mN: make([]float64, m.d), dev: make([]float64, m.d)}
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
	return s
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
