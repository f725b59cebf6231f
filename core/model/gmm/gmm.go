package gmm

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/mixture"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// The terms of the bound, in the order E reports them: TermLnZ is
// Σ_n ln Σ_k ρ_nk (PRML (10.46)), which is E[ln p(X, Z | θ)] + H[q(Z)] at the
// optimal q(Z), i.e. (10.71) + (10.72) − (10.75); TermKLPi is
// −KL(q(π) ‖ p(π)) = (10.73) − (10.76); TermKLMuLambda is
// −Σ_k KL(q(μ_k, Λ_k) ‖ p(μ_k, Λ_k)) = (10.74) − (10.77).
const (
	TermLnZ, TermKLPi, TermKLMuLambda = "lnZ", "-KL[pi]", "-KL[mu,Lambda]"
)

// ln2Pi is ln 2π.
var ln2Pi = math.Log(2 * math.Pi)

// Prior holds the hyperparameters of PRML (10.39)–(10.40): π ~ Dir(α₀, …, α₀)
// (α₀ per component, PRML's convention, not Beal's α/K), and for every
// component μ_k | Λ_k ~ N(m₀, (β₀Λ_k)⁻¹), Λ_k ~ W(W₀, ν₀) with E[Λ_k] = ν₀W₀.
type Prior struct {
	Alpha0 float64
	Beta0  float64
	Nu0    float64
	// M0 is the prior mean m₀ (length D).
	M0 []float64
	// W0 is the Wishart scale W₀, D×D row-major, symmetric positive definite.
	W0 []float64
}

// DefaultPrior returns the prior documented for the Old Faithful runs
// (targets other-seeds.md §2.3, whose choice PRML leaves open): m₀ = 0,
// β₀ = 1, W₀ = I, ν₀ = D, with the given α₀.
func DefaultPrior(d int, alpha0 float64) Prior {
	w0 := make([]float64, d*d)
	for i := 0; i < d; i++ {
		w0[i*d+i] = 1
	}
	return Prior{Alpha0: alpha0, Beta0: 1, Nu0: float64(d), M0: make([]float64, d), W0: w0}
}

// Dim returns D.
func (p Prior) Dim() int { return len(p.M0) }

// Validate returns an error unless α₀, β₀ > 0, ν₀ > D − 1, m₀ is finite and
// W₀ is a symmetric positive definite D×D matrix.
func (p Prior) Validate() error {
	d := len(p.M0)
	switch {
	case d == 0:
		return errors.New("gmm: prior mean m0 is empty")
	case !(p.Alpha0 > 0) || math.IsInf(p.Alpha0, 1):
		return fmt.Errorf("gmm: alpha0 = %v, must be positive and finite", p.Alpha0)
	case !(p.Beta0 > 0) || math.IsInf(p.Beta0, 1):
		return fmt.Errorf("gmm: beta0 = %v, must be positive and finite", p.Beta0)
	case !(p.Nu0 > float64(d-1)) || math.IsInf(p.Nu0, 1):
		return fmt.Errorf("gmm: nu0 = %v, must exceed D − 1 = %d", p.Nu0, d-1)
	case len(p.W0) != d*d:
		return fmt.Errorf("gmm: W0 has %d entries, want D² = %d", len(p.W0), d*d)
	}
	for _, v := range p.M0 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errors.New("gmm: m0 is not finite")
		}
	}
	for i := 0; i < d; i++ {
		for j := 0; j < i; j++ {
			if p.W0[i*d+j] != p.W0[j*d+i] {
				return errors.New("gmm: W0 is not symmetric")
			}
		}
	}
	l := append([]float64(nil), p.W0...)
	if !numeric.CholFactor(l, d) {
		return errors.New("gmm: W0 is not positive definite")
	}
	return nil
}

// consts holds what the updates need of a prior: W₀⁻¹ and the Wishart log
// normaliser ln B(W₀, ν₀)⁻¹ of PRML (B.79).
type consts struct {
	w0inv  []float64 // W₀⁻¹
	l0     []float64 // Cholesky factor of W₀⁻¹
	lnZ0   float64   // ln Z(W₀, ν₀) = (ν₀D/2) ln 2 + (ν₀/2) ln|W₀| + ln Γ_D(ν₀/2)
	logDW0 float64   // ln|W₀|
}

func newConsts(p Prior) consts {
	d := p.Dim()
	l := append([]float64(nil), p.W0...)
	if !numeric.CholFactor(l, d) {
		panic("gmm: W0 is not positive definite")
	}
	c := consts{w0inv: make([]float64, d*d), logDW0: numeric.CholLogDet(l, d)}
	numeric.CholInverse(c.w0inv, l, d, make([]float64, d*d))
	c.l0 = append([]float64(nil), c.w0inv...)
	if !numeric.CholFactor(c.l0, d) {
		panic("gmm: W0⁻¹ is not positive definite")
	}
	c.lnZ0 = wishartLogZ(p.Nu0, c.logDW0, d)
	return c
}

// wishartLogZ returns ln Z(W, ν) = (νD/2) ln 2 + (ν/2) ln|W| + ln Γ_D(ν/2),
// the log normaliser of W(Λ | W, ν) (PRML (B.79): ln B(W, ν) = −ln Z).
func wishartLogZ(nu, logDetW float64, d int) float64 {
	return nu*float64(d)/2*math.Ln2 + nu/2*logDetW + numeric.LogMultiGamma(nu/2, d)
}

// VB is variational Bayes for the mixture of K full-covariance Gaussians of
// PRML section 10.2 with q(Z, π, μ, Λ) = q(Z) q(π) Π_k q(μ_k, Λ_k) (10.42),
// (10.55): q(π) = Dir(α) (10.57), q(μ_k, Λ_k) = N(μ_k | m_k, (β_kΛ_k)⁻¹)
// W(Λ_k | W_k, ν_k) (10.59). It implements vb.Model and vb.Mover (births and
// deaths of components, moves.go).
//
// E is the VB E step (10.46), (10.49), (10.64)–(10.67) and returns the bound
// F of (10.70)–(10.77) with every constant, in the equivalent form
// Σ_n ln Σ_k ρ_nk − KL(q(π)‖p(π)) − Σ_k KL(q(μ_k, Λ_k)‖p(μ_k, Λ_k)), valid
// right after the E step; M is the VB M step (10.51)–(10.53), (10.58),
// (10.60)–(10.63). Neither allocates.
type VB struct {
	x     []float64 // N×D row-major, not copied
	n, d  int
	k     int
	prior Prior
	c     consts

	alpha, beta, nu []float64 // K
	m               []float64 // K×D
	winv            []float64 // K×D×D: W_k⁻¹
	pchol           []float64 // K×D×D: Cholesky factor P_k of W_k⁻¹
	qinv            []float64 // K×D×D: P_k⁻¹ (lower triangular)
	resp            []float64 // K×N component-major (package mixture's layout)

	// scratch
	lnZ, elnpi []float64
	work, vec  []float64 // D×D + D (dist.NormalWishartKL's scratch), D
	xt         []float64 // D×block: a block of points transposed, a point per column
	kwork      []float64 // the kernels' scratch (numeric.SqNormsLower, numeric.ScatterLower)
	ck, hn     []float64 // K: the constant and the factor ν_k/2 of ln ρ_nk
	scat       []float64 // K×(D+1)×(D+1): W_k⁻¹ and the statistics of M, accumulated by block
	terms      []vb.Term
	bad        error // set by M when a W_k⁻¹ cannot be factored
}

// block is the number of points that E and M take at a time: transposed
// into xt (a point per column) once for all components, they are the
// columns of the kernels' products.
const block = 256

var _ vb.Mover = (*VB)(nil)

// Start is the way NewVBStart draws the first q(Z): a random hard
// partition of the points, from which a VB M step sets q(π, μ, Λ).
type Start int

const (
	// NearestPoints draws k distinct data points as centres and gives each
	// point to its nearest centre (Euclidean distance): every component
	// starts with a compact share of the data.
	NearestPoints Start = iota
	// RandomMixture draws k distinct data points as centres c_j and
	// weights π uniform on the simplex (Dir(1, …, 1)), and gives each point
	// to the j minimising ‖x − c_j‖²/s² − ln π_j, with s² the data's
	// variance (the mean over the D coordinates of their variances, divisor
	// N): its most probable component of the mixture Σ_j π_j N(c_j, s²I/2).
	// The weights make the shares unequal, some components starting small,
	// so that the starts reach optima in which VB empties surplus
	// components (PRML Fig. 10.6) as well as those in which it keeps them.
	RandomMixture
)

// starts are the names of the Starts, as the configs spell them.
var starts = [...]string{NearestPoints: "nearest-points", RandomMixture: "random-mixture"}

// String returns the name of s: "nearest-points" or "random-mixture".
func (s Start) String() string {
	if s < 0 || int(s) >= len(starts) {
		return fmt.Sprintf("Start(%d)", int(s))
	}
	return starts[s]
}

// ParseStart returns the Start named name (as String spells it).
func ParseStart(name string) (Start, error) {
	for i, n := range starts {
		if n == name {
			return Start(i), nil
		}
	}
	return 0, fmt.Errorf("gmm: unknown start %q (want %q or %q)", name, starts[NearestPoints], starts[RandomMixture])
}

// NewVB is NewVBStart with the start NearestPoints.
func NewVB(x []float64, d, k int, prior Prior, rnd *rand.Rand) (*VB, error) {
	return NewVBStart(x, d, k, prior, NearestPoints, rnd)
}

// NewVBStart returns VB for the data x (N×D row-major, N = len(x)/d, not
// copied) with k components and the given prior. The first q(Z) is the
// random hard partition start draws with rnd; a VB M step then sets
// q(π, μ, Λ), so the first E step of vb.Run already sees the data. With
// k = 1 every point belongs to the one component and rnd is not used. It
// returns an error if the sizes, data, prior or start are invalid or k > N.
func NewVBStart(x []float64, d, k int, prior Prior, start Start, rnd *rand.Rand) (*VB, error) {
	if start != NearestPoints && start != RandomMixture {
		return nil, fmt.Errorf("gmm: unknown start %v", start)
	}
	if d < 1 || len(x) == 0 || len(x)%d != 0 {
		return nil, fmt.Errorf("gmm: %d data values do not make rows of D = %d", len(x), d)
	}
	n := len(x) / d
	if k < 1 || k > n {
		return nil, fmt.Errorf("gmm: K = %d components for N = %d points", k, n)
	}
	if prior.Dim() != d {
		return nil, fmt.Errorf("gmm: prior of dimension %d for data of dimension %d", prior.Dim(), d)
	}
	if err := prior.Validate(); err != nil {
		return nil, err
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("gmm: value %d of the data (point %d) is not finite", i, i/d)
		}
	}
	m := &VB{x: x, n: n, d: d, prior: prior, c: newConsts(prior),
		lnZ: make([]float64, n), work: make([]float64, d*d+d), vec: make([]float64, d),
		xt: make([]float64, d*block), kwork: make([]float64, max(32*(d+1), 2*(d+1)*block+16))}
	m.resize(k)
	m.resp = make([]float64, k*n)
	randomPartition(m.resp, x, n, d, k, start, rnd)
	m.M()
	return m, nil
}

// randomPartition sets resp (k×N) to the hard partition of the points
// that start draws with rnd (all to component 0 when k = 1): k distinct
// points as centres c_j, and each point to the j minimising
// ‖x − c_j‖² − s² ln π_j, with ln π_j = 0 (NearestPoints) or π ~
// Dir(1, …, 1) drawn as normalised unit exponentials E_j (RandomMixture:
// ln π_j = ln E_j up to a constant that does not move the minimum) and s²
// the data's mean coordinate variance.
func randomPartition(resp, x []float64, n, d, k int, start Start, rnd *rand.Rand) {
	clear(resp)
	if k == 1 {
		for i := range resp {
			resp[i] = 1
		}
		return
	}
	centres := rnd.Perm(n)[:k]
	// pen_j = −s² ln π_j, in the units of ‖x − c_j‖².
	pen := make([]float64, k)
	if start == RandomMixture {
		s2 := meanVariance(x, n, d)
		for j := range pen {
			pen[j] = -s2 * math.Log(rnd.ExpFloat64())
		}
	}
	for i := 0; i < n; i++ {
		best, bd := 0, math.Inf(1)
		for j, c := range centres {
			var s float64
			for a := 0; a < d; a++ {
				v := x[i*d+a] - x[c*d+a]
				s += v * v
			}
			if s += pen[j]; s < bd {
				best, bd = j, s
			}
		}
		resp[best*n+i] = 1
	}
}

// meanVariance returns the mean over the d coordinates of the points' variances
// (divisor n), the s² of RandomMixture.
func meanVariance(x []float64, n, d int) float64 {
	var v float64
	col := make([]float64, n)
	for a := 0; a < d; a++ {
		for i := range col {
			col[i] = x[i*d+a]
		}
		_, sd := numeric.MeanSD(col)
		v += sd * sd
	}
	return v / float64(d)
}

// resize gives every per-component array the length for k components
// (contents undefined; resp is handled by the caller).
func (m *VB) resize(k int) {
	m.k = k
	d := m.d
	m.alpha, m.beta, m.nu, m.elnpi = make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k)
	m.m, m.winv, m.pchol, m.qinv = make([]float64, k*d), make([]float64, k*d*d), make([]float64, k*d*d), make([]float64, k*d*d)
	m.ck, m.hn, m.scat = make([]float64, k), make([]float64, k), make([]float64, k*(d+1)*(d+1))
}

// transpose sets m.xt to the points i0 ≤ i < i1 as columns (D×(i1−i0)) and
// returns it.
func (m *VB) transpose(i0, i1 int) []float64 {
	d, w := m.d, i1-i0
	xt := m.xt[:d*w]
	for i := 0; i < w; i++ {
		for a, v := range m.x[(i0+i)*d : (i0+i+1)*d] {
			xt[a*w+i] = v
		}
	}
	return xt
}

// SetResponsibilities sets q(Z) to r (K×N component-major: r[k*N+n] =
// q(z_n = k); each point's column must sum to 1) and runs M, for a
// hand-built start. It returns an error if r has the wrong length or a
// point's column does not sum to 1 within 1e-9.
func (m *VB) SetResponsibilities(r []float64) error {
	if err := mixture.CheckResponsibilities(r, m.k, m.n); err != nil {
		return fmt.Errorf("gmm: %w", err)
	}
	copy(m.resp, r)
	m.M()
	return nil
}

// M is the VB M step: with N_k, x̄_k and N_kS_k of (10.51)–(10.53) from the
// responsibilities,
//
//	α_k = α₀ + N_k                                           (10.58)
//	β_k = β₀ + N_k,  m_k = (β₀m₀ + N_k x̄_k)/β_k                (10.60), (10.61)
//	W_k⁻¹ = W₀⁻¹ + N_kS_k + β₀N_k/(β₀+N_k) (x̄_k − m₀)(x̄_k − m₀)ᵀ   (10.62)
//	ν_k = ν₀ + N_k                                           (10.63)
//
// The statistics are accumulated in one pass about the component's current
// mean m_k (a shift c close to x̄_k, so that the correction
// N_kS_k = Σ_n r_nk (x_n − c)(x_n − c)ᵀ − N_k(x̄_k − c)(x̄_k − c)ᵀ does not
// cancel), with numeric.ScatterLower over blocks of points; a block whose
// r_nk are all 0 is skipped. M also factors W_k⁻¹ = P_kP_kᵀ
// and inverts the factor, Q_k = P_k⁻¹, so that the E step's
// (x − m_k)ᵀW_k(x − m_k) = ‖Q_k(x − m_k)‖² needs no division. It does not
// allocate.
func (m *VB) M() {
	d, n, p := m.d, m.n, m.prior
	mixture.UpdateWeights(m.alpha, m.resp, n, float64(m.k)*p.Alpha0)
	d1 := d + 1
	// scat_k = [[W₀⁻¹ + Σ_n r_nk (x_n − c)(x_n − c)ᵀ, ·], [Σ_n r_nk (x_n − c)ᵀ, N_k]]
	// (lower triangles), over blocks of points; a block in which every
	// r_nk is 0 adds exactly nothing and is skipped.
	clear(m.scat)
	for k := 0; k < m.k; k++ {
		sk := m.scat[k*d1*d1 : (k+1)*d1*d1]
		for a := 0; a < d; a++ {
			copy(sk[a*d1:a*d1+a+1], m.c.w0inv[a*d:a*d+a+1])
		}
	}
	for i0 := 0; i0 < n; i0 += block {
		i1 := min(i0+block, n)
		xt := m.transpose(i0, i1)
		for k := 0; k < m.k; k++ {
			r := m.resp[k*n+i0 : k*n+i1]
			if allZero(r) {
				continue
			}
			numeric.ScatterLower(m.scat[k*d1*d1:(k+1)*d1*d1], d, xt, i1-i0, m.m[k*d:(k+1)*d], r, m.kwork)
		}
	}
	s1, dx := m.vec, m.work[:d]
	pr := dist.NormalWishartChol{Beta: p.Beta0, Nu: p.Nu0, Mean: p.M0}
	m.bad = nil
	for k := 0; k < m.k; k++ {
		mk := m.m[k*d : (k+1)*d] // the shift c: the mean of the last M step
		winv := m.winv[k*d*d : (k+1)*d*d]
		sk := m.scat[k*d1*d1 : (k+1)*d1*d1]
		for a := 0; a < d; a++ {
			copy(winv[a*d:a*d+a+1], sk[a*d1:a*d1+a+1])
		}
		nk := sk[d*d1+d]
		copy(s1, sk[d*d1:d*d1+d])
		var ok bool
		m.beta[k], m.nu[k], ok = dist.NormalWishartUpdate(d, pr, nk, s1, mk, winv,
			m.pchol[k*d*d:(k+1)*d*d], m.qinv[k*d*d:(k+1)*d*d], dx)
		if !ok && m.bad == nil {
			m.bad = fmt.Errorf("gmm: W⁻¹ of component %d is not positive definite", k)
		}
	}
}

// logDetW returns ln|W_k| = −ln|W_k⁻¹|.
func (m *VB) logDetW(k int) float64 {
	return -numeric.CholLogDet(m.pchol[k*m.d*m.d:(k+1)*m.d*m.d], m.d)
}

// ElnLambda returns ln Λ̃_k = E[ln|Λ_k|] = Σ_{i=1..D} ψ((ν_k+1−i)/2) + D ln 2
// + ln|W_k| (PRML (10.65)).
func (m *VB) ElnLambda(k int) float64 {
	return dist.WishartMeanLogDetChol(m.nu[k], m.pchol[k*m.d*m.d:(k+1)*m.d*m.d], m.d)
}

// mahalanobisW returns (v)ᵀW_k v = ‖P_k⁻¹v‖² (W_k⁻¹ = P_kP_kᵀ), using the
// scratch vector m.vec; v is not modified.
func (m *VB) mahalanobisW(k int, v []float64) float64 {
	y := m.vec
	copy(y, v)
	numeric.CholSolveVec(m.pchol[k*m.d*m.d:(k+1)*m.d*m.d], m.d, y)
	var s float64
	for _, u := range y {
		s += u * u
	}
	return s
}

// E is the VB E step: the log-terms
//
//	ln ρ_nk = E[ln π_k] + ½ ln Λ̃_k − (D/2) ln 2π − D/(2β_k) − (ν_k/2)(x_n − m_k)ᵀW_k(x_n − m_k)
//
// (PRML (10.46) with (10.64)–(10.66)), the quadratic forms by
// numeric.SqNormsLower over blocks of points, are normalised into r_nk (10.49),
// (10.67) by mixture.NormalizeLog, and the bound is returned as
//
//	F = Σ_n ln Σ_k ρ_nk − KL(q(π)‖p(π)) − Σ_k KL(q(μ_k,Λ_k)‖p(μ_k,Λ_k)),
//
// which equals PRML (10.70)–(10.77) summed (TestBoundMatchesPRMLTerms). The
// returned Terms slice is the model's own, valid until the next E. E does
// not allocate.
func (m *VB) E() (vb.Bound, error) {
	if m.bad != nil {
		return vb.Bound{F: math.NaN()}, m.bad
	}
	d, n := m.d, m.n
	dist.DirichletMeanLogTo(m.elnpi, m.alpha)
	for k := 0; k < m.k; k++ {
		m.ck[k] = m.elnpi[k] + 0.5*m.ElnLambda(k) - float64(d)/2*ln2Pi - float64(d)/(2*m.beta[k])
		m.hn[k] = m.nu[k] / 2
	}
	// (x_n − m_k)ᵀW_k(x_n − m_k) = ‖Q_k(x_n − m_k)‖² for a block of points
	// at a time, all components.
	for i0 := 0; i0 < n; i0 += block {
		i1 := min(i0+block, n)
		xt := m.transpose(i0, i1)
		for k := 0; k < m.k; k++ {
			row := m.resp[k*n+i0 : k*n+i1]
			numeric.SqNormsLower(row, m.qinv[k*d*d:(k+1)*d*d], d, xt, i1-i0, m.m[k*d:(k+1)*d], m.kwork)
			ck, hn := m.ck[k], m.hn[k]
			for i, q := range row {
				row[i] = ck - hn*q
			}
		}
	}
	if err := mixture.NormalizeLog(m.resp, n, m.lnZ); err != nil {
		return vb.Bound{F: math.NaN()}, fmt.Errorf("gmm: %w", err)
	}
	lnZ := numeric.Sum(m.lnZ)
	klPi := mixture.KLWeights(m.alpha, float64(m.k)*m.prior.Alpha0)
	var klT float64
	for k := 0; k < m.k; k++ {
		klT += m.KLComponent(k)
	}
	m.terms = append(m.terms[:0], vb.Term{Name: TermLnZ, Value: lnZ}, vb.Term{Name: TermKLPi, Value: -klPi},
		vb.Term{Name: TermKLMuLambda, Value: -klT})
	return vb.Bound{F: lnZ - klPi - klT, Terms: m.terms}, nil
}

// KLComponent returns KL(q(μ_k, Λ_k) ‖ p(μ_k, Λ_k)) of the Normal-Wishart
// posterior of component k against the prior, by the chain rule
// KL(q(Λ)‖p(Λ)) + E_q(Λ)[KL(q(μ|Λ)‖p(μ|Λ))] (Beal (2003) Appendix C.3):
//
//	KL_W = ln Z(W₀,ν₀) − ln Z(W_k,ν_k) + (ν_k−ν₀)/2 · ln Λ̃_k + (ν_k/2)(Tr(W₀⁻¹W_k) − D)
//	E KL_N = ½[Dβ₀/β_k − D + D ln(β_k/β₀) + β₀ν_k (m_k−m₀)ᵀW_k(m_k−m₀)],
//
// which is (10.77) − (10.74) per component, computed by
// dist.NormalWishartKL on the Cholesky factors of W_k⁻¹ and W₀⁻¹. It does
// not allocate.
func (m *VB) KLComponent(k int) float64 {
	d, p := m.d, m.prior
	return dist.NormalWishartKL(d,
		dist.NormalWishartChol{Beta: m.beta[k], Nu: m.nu[k], Mean: m.m[k*d : (k+1)*d], L: m.pchol[k*d*d : (k+1)*d*d]},
		dist.NormalWishartChol{Beta: p.Beta0, Nu: p.Nu0, Mean: p.M0, L: m.c.l0}, m.work)
}

// K returns the number of components.
func (m *VB) K() int { return m.k }

// N returns the number of points and D their dimension.
func (m *VB) N() int { return m.n }

// D returns the dimension of the data.
func (m *VB) D() int { return m.d }

// Prior returns the prior (its slices are shared, not copied).
func (m *VB) Prior() Prior { return m.prior }

// Responsibilities returns q(Z) (K×N component-major), the model's own slice.
func (m *VB) Responsibilities() []float64 { return m.resp }

// Alpha returns the parameters α of q(π) = Dir(α), the model's own slice.
func (m *VB) Alpha() []float64 { return m.alpha }

// Component returns the parameters of q(μ_k, Λ_k) (10.59): β_k, ν_k, the
// mean m_k and W_k⁻¹ (D×D), the last two the model's own slices.
func (m *VB) Component(k int) (beta, nu float64, mean, winv []float64) {
	d := m.d
	return m.beta[k], m.nu[k], m.m[k*d : (k+1)*d], m.winv[k*d*d : (k+1)*d*d]
}

// Counts returns N_k = α_k − α₀ (10.58).
func (m *VB) Counts(dst []float64) []float64 {
	if dst == nil {
		dst = make([]float64, m.k)
	}
	for k, a := range m.alpha {
		dst[k] = a - m.prior.Alpha0
	}
	return dst
}

// MeanWeights returns E[π_k] = (α₀ + N_k)/(Kα₀ + N) = α_k/Σ_j α_j, PRML
// (10.69) as corrected by the targets (other-seeds.md §2.3: the printed
// numerator α_k + N_k counts N_k twice).
func (m *VB) MeanWeights(dst []float64) []float64 {
	if dst == nil {
		dst = make([]float64, m.k)
	}
	var a0 float64
	for _, a := range m.alpha {
		a0 += a
	}
	for k, a := range m.alpha {
		dst[k] = a / a0
	}
	return dst
}

// Covariance writes E[Λ_k]⁻¹ = W_k⁻¹/ν_k into dst (D×D), the covariance
// whose one-standard-deviation contour PRML Fig. 10.6 draws.
func (m *VB) Covariance(k int, dst []float64) []float64 {
	d := m.d
	if dst == nil {
		dst = make([]float64, d*d)
	}
	for i, v := range m.winv[k*d*d : (k+1)*d*d] {
		dst[i] = v / m.nu[k]
	}
	return dst
}

// allZero reports whether every element of r is 0.
func allZero(r []float64) bool {
	for _, v := range r {
		if v != 0 {
			return false
		}
	}
	return true
}

// LogFactorial returns ln K!, the correction PRML section 10.2.4 (L548,
// Exercise 10.22) adds to the bound before comparing models with different
// K: each mode of the posterior has K! equivalent relabellings, of which
// q covers one.
func LogFactorial(k int) float64 { return numeric.LogGamma(float64(k) + 1) }
