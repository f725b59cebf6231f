package gmm

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// LogPredictive returns ln p(x̂ | X) of the variational predictive density,
// the mixture of Student-t distributions of PRML (10.81)–(10.82):
//
//	p(x̂|X) ≈ (1/α̂) Σ_k α_k St(x̂ | m_k, L_k, ν_k + 1 − D),
//	L_k = (ν_k + 1 − D)β_k/(1 + β_k) · W_k,
//
// with α̂ = Σ_k α_k and St the multivariate t (PRML (B.68)). It panics if
// len(xhat) != D. It allocates only the per-call term slice.
func (m *VB) LogPredictive(xhat []float64) float64 {
	d := m.d
	if len(xhat) != d {
		panic("gmm: LogPredictive: point of the wrong dimension")
	}
	df := float64(d)
	var a0 float64
	for _, a := range m.alpha {
		a0 += a
	}
	terms := make([]float64, m.k)
	dev := make([]float64, d)
	for k := 0; k < m.k; k++ {
		nu := m.nu[k] + 1 - df
		s := nu * m.beta[k] / (1 + m.beta[k])
		for a := range dev {
			dev[a] = xhat[a] - m.m[k*d+a]
		}
		delta := s * m.mahalanobisW(k, dev)
		logDetL := df*math.Log(s) + m.logDetW(k)
		terms[k] = math.Log(m.alpha[k]/a0) + numeric.LogGamma((nu+df)/2) - numeric.LogGamma(nu/2) +
			0.5*logDetL - df/2*math.Log(math.Pi*nu) - (nu+df)/2*math.Log1p(delta/nu)
	}
	return numeric.LogSumExp(terms)
}

// nwStats accumulates the count, sum and sum of outer products of a subset
// of points, from which NW evidence and posterior follow.
type nwStats struct {
	n   float64
	sum []float64 // D
	sxx []float64 // D×D, Σ x xᵀ
}

func newNWStats(d int) nwStats { return nwStats{sum: make([]float64, d), sxx: make([]float64, d*d)} }

func (s *nwStats) reset() {
	s.n = 0
	clear(s.sum)
	clear(s.sxx)
}

// add adds the point x with weight w.
func (s *nwStats) add(x []float64, w float64) {
	d := len(x)
	s.n += w
	for a, va := range x {
		s.sum[a] += w * va
		row := s.sxx[a*d : (a+1)*d]
		for b, vb := range x {
			row[b] += w * va * vb
		}
	}
}

// posterior writes the Normal-Wishart posterior of the prior p given the
// statistics into (βN, νN, mN, WN⁻¹) (10.60)–(10.63) with r_nk the weights:
// W_N⁻¹ = W₀⁻¹ + Σxxᵀ + β₀m₀m₀ᵀ − β_N m_N m_Nᵀ (the same matrix as (10.62)).
func (s *nwStats) posterior(p Prior, w0inv []float64, mN, wNinv []float64) (betaN, nuN float64) {
	d := len(s.sum)
	betaN, nuN = p.Beta0+s.n, p.Nu0+s.n
	for a := 0; a < d; a++ {
		mN[a] = (p.Beta0*p.M0[a] + s.sum[a]) / betaN
	}
	for a := 0; a < d; a++ {
		for b := 0; b < d; b++ {
			wNinv[a*d+b] = w0inv[a*d+b] + s.sxx[a*d+b] + p.Beta0*p.M0[a]*p.M0[b] - betaN*mN[a]*mN[b]
		}
	}
	return betaN, nuN
}

// logEvidence returns the Normal-Wishart marginal likelihood of the points
// summarised by s,
//
//	ln p(X) = −(ND/2) ln 2π + (D/2) ln(β₀/β_N) + ln Z(W_N, ν_N) − ln Z(W₀, ν₀),
//
// the ratio of the posterior and prior normalisers (equivalently
// π^(−ND/2) Γ_D(ν_N/2)/Γ_D(ν₀/2) |W₀⁻¹|^(ν₀/2)/|W_N⁻¹|^(ν_N/2) (β₀/β_N)^(D/2)).
// It is 0 for no points. scratch holds D + D² values.
func (s *nwStats) logEvidence(p Prior, c consts, scratch []float64) float64 {
	if s.n == 0 {
		return 0
	}
	d := len(s.sum)
	mN, wNinv := scratch[:d], scratch[d:d+d*d]
	bN, nN := s.posterior(p, c.w0inv, mN, wNinv)
	if !numeric.CholFactor(wNinv, d) {
		return math.NaN()
	}
	logDetWN := -numeric.CholLogDet(wNinv, d)
	df := float64(d)
	return -s.n*df/2*ln2Pi + df/2*math.Log(p.Beta0/bN) + wishartLogZ(nN, logDetWN, d) - c.lnZ0
}

// LogEvidenceOne returns the exact log marginal likelihood ln p(X) of the
// data x (N×D row-major) under one Gaussian with the Normal-Wishart prior
// of p (α₀ is not used): the K = 1 case, at which the VB bound is exact.
// It returns an error for invalid sizes or prior.
func LogEvidenceOne(x []float64, d int, p Prior) (float64, error) {
	if err := checkEvidenceArgs(x, d, p); err != nil {
		return 0, err
	}
	c := newConsts(p)
	s := newNWStats(d)
	for i := 0; i+d <= len(x); i += d {
		s.add(x[i:i+d], 1)
	}
	return s.logEvidence(p, c, make([]float64, d+d*d)), nil
}

func checkEvidenceArgs(x []float64, d int, p Prior) error {
	if d < 1 || len(x) == 0 || len(x)%d != 0 {
		return fmt.Errorf("gmm: %d data values do not make rows of D = %d", len(x), d)
	}
	if p.Dim() != d {
		return fmt.Errorf("gmm: prior of dimension %d for data of dimension %d", p.Dim(), d)
	}
	return p.Validate()
}

// MaxAssignments bounds the enumeration of LogEvidenceExact.
const MaxAssignments = 1 << 22

// LogEvidenceExact returns the exact log marginal likelihood ln p(X | K) of
// the Bayesian mixture of PRML (10.37)–(10.40) by enumerating the K^N
// assignments Z and adding, for each, the Dirichlet-multinomial probability
// p(Z) = ∫ p(Z|π) Dir(π|α₀) dπ (dist.DirichletLogMarginalCounts) and the
// Normal-Wishart evidence of each component's points:
//
//	ln p(X) = ln Σ_Z exp{ ln p(Z) + Σ_k ln p(X_{z=k}) }.
//
// It is the reference for the bound and the samplers on tiny data sets.
// It returns an error if K^N exceeds MaxAssignments or the arguments are
// invalid.
func LogEvidenceExact(x []float64, d, k int, p Prior) (float64, error) {
	if err := checkEvidenceArgs(x, d, p); err != nil {
		return 0, err
	}
	n := len(x) / d
	if k < 1 {
		return 0, fmt.Errorf("gmm: K = %d", k)
	}
	total := 1
	for range n {
		total *= k
		if total > MaxAssignments {
			return 0, fmt.Errorf("gmm: K^N = %d^%d assignments are too many to enumerate", k, n)
		}
	}
	c := newConsts(p)
	u := make([]float64, k)
	for j := range u {
		u[j] = p.Alpha0
	}
	stats := make([]nwStats, k)
	for j := range stats {
		stats[j] = newNWStats(d)
	}
	counts := make([]float64, k)
	scratch := make([]float64, d+d*d)
	z := make([]int, n)
	lnp := math.Inf(-1)
	for {
		for j := range stats {
			stats[j].reset()
		}
		for i, zi := range z {
			stats[zi].add(x[i*d:(i+1)*d], 1)
		}
		for j := range counts {
			counts[j] = stats[j].n
		}
		lp := dist.DirichletLogMarginalCounts(u, counts)
		for j := range stats {
			lp += stats[j].logEvidence(p, c, scratch)
		}
		lnp = numeric.LogAddExp(lnp, lp)
		i := 0
		for ; i < n; i++ {
			z[i]++
			if z[i] < k {
				break
			}
			z[i] = 0
		}
		if i == n {
			return lnp, nil
		}
	}
}
