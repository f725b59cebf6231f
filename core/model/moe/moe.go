package moe

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
// Σ_n ω_n ln Σ_k ρ_nk, which is E[ln p(x, y, s | θ)] + H[q(s)] at the
// optimal q(s); the others are minus the KL divergences of q(π), of the
// input densities' q(μ_k, Λ_k) and of the experts' q(w_k, ψ_k) from their
// priors.
const (
	TermLnZ, TermKLPi, TermKLInput, TermKLExpert = "lnZ", "-KL[pi]", "-KL[mu,Lambda]", "-KL[w,psi]"
)

var ln2Pi = math.Log(2 * math.Pi)

// Prior holds the hyperparameters, shared by every component:
//
//	π ~ Dir(Alpha0, …, Alpha0)
//	Λ_k ~ W(W0, Nu0) (E[Λ_k] = Nu0·W0),  μ_k | Λ_k ~ N(M0, (Beta0 Λ_k)⁻¹)
//	ψ_k ~ Ga(A0, B0) (shape, rate),      w_k | ψ_k ~ N(0, (ψ_k Kappa0 I)⁻¹)
//
// the Normal-Wishart prior of D'Souza eqs. (3.2)–(3.3) (with W0 for his R),
// the Dirichlet that generalises his Beta (3.5) to K components, and the
// Gaussian-gamma prior of a linear expert's D+1 weights (the input's D
// coefficients and an intercept) and its noise precision.
type Prior struct {
	Alpha0     float64
	Beta0, Nu0 float64
	M0         []float64 // D
	W0         []float64 // D×D row-major, symmetric positive definite
	Kappa0     float64
	A0, B0     float64
}

// DefaultPrior returns a prior for inputs of dimension d of order one:
// α₀ = 1, β₀ = 10⁻³, ν₀ = d + 1, m₀ = 0, W₀ = I/ν₀ (E[Λ] = I), κ₀ = 10⁻³,
// a₀ = b₀ = 10⁻². An experiment states its own.
func DefaultPrior(d int) Prior {
	p := Prior{Alpha0: 1, Beta0: 1e-3, Nu0: float64(d + 1), M0: make([]float64, d), W0: make([]float64, d*d),
		Kappa0: 1e-3, A0: 1e-2, B0: 1e-2}
	for i := 0; i < d; i++ {
		p.W0[i*d+i] = 1 / p.Nu0
	}
	return p
}

// Dim returns D, the dimension of the inputs.
func (p Prior) Dim() int { return len(p.M0) }

func positive(v float64) bool { return v > 0 && !math.IsInf(v, 1) }

// Validate returns an error unless α₀, β₀, κ₀, a₀, b₀ are positive and
// finite, ν₀ > D − 1, m₀ is finite and W₀ is a symmetric positive definite
// D×D matrix.
func (p Prior) Validate() error {
	d := len(p.M0)
	switch {
	case d == 0:
		return errors.New("moe: prior mean m0 is empty")
	case !positive(p.Alpha0):
		return fmt.Errorf("moe: alpha0 = %v, must be positive and finite", p.Alpha0)
	case !positive(p.Beta0):
		return fmt.Errorf("moe: beta0 = %v, must be positive and finite", p.Beta0)
	case !(p.Nu0 > float64(d-1)) || math.IsInf(p.Nu0, 1):
		return fmt.Errorf("moe: nu0 = %v, must exceed D − 1 = %d", p.Nu0, d-1)
	case !positive(p.Kappa0):
		return fmt.Errorf("moe: kappa0 = %v, must be positive and finite", p.Kappa0)
	case !positive(p.A0) || !positive(p.B0):
		return fmt.Errorf("moe: a0 = %v, b0 = %v, must be positive and finite", p.A0, p.B0)
	case len(p.W0) != d*d:
		return fmt.Errorf("moe: W0 has %d entries, want D² = %d", len(p.W0), d*d)
	}
	for _, v := range p.M0 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errors.New("moe: m0 is not finite")
		}
	}
	for i := 0; i < d; i++ {
		for j := 0; j < i; j++ {
			if p.W0[i*d+j] != p.W0[j*d+i] {
				return errors.New("moe: W0 is not symmetric")
			}
		}
	}
	l := append([]float64(nil), p.W0...)
	if !numeric.CholFactor(l, d) {
		return errors.New("moe: W0 is not positive definite")
	}
	return nil
}

// VB is variational Bayes for the mixture of K linear experts with Gaussian
// input densities, the joint-density mixture
//
//	p(x, y) = Σ_k π_k N(x | μ_k, Λ_k⁻¹) N(y | w_kᵀφ(x), ψ_k⁻¹),  φ(x) = (x, 1),
//
// under the conjugate Prior, with q = q(s) q(π) Π_k q(μ_k, Λ_k) q(w_k, ψ_k):
// q(π) Dirichlet, q(μ_k, Λ_k) Normal-Wishart (D'Souza's updates below
// eq. (3.6), L756), q(w_k, ψ_k) Normal-gamma. Every factor but q(s) is the
// exact conditional posterior given q(s), so E and M are exact coordinate
// steps and F never decreases; with K = 1, F is the exact log evidence
// ln p(x, y) (TestOneComponentExact).
//
// It implements vb.Model and vb.Mover (the split of D'Souza's Algorithm 2,
// moves.go). Neither E nor M allocates.
type VB struct {
	x    []float64 // N×D row-major, not copied
	y    []float64 // N, not copied
	wt   []float64 // N point weights ω_n (nil: all 1), for the local split test
	n, d int
	k    int
	p    Prior
	c    consts

	alpha, beta, nu []float64 // K
	m               []float64 // K×D
	winv            []float64 // K×D×D: W_k⁻¹
	pchol           []float64 // K×D×D: Cholesky factor of W_k⁻¹
	qinv            []float64 // K×D×D: its inverse (lower)
	lam             []float64 // K×P×P: Λ_w,k = κ₀I + Σ_n r_nk φ_nφ_nᵀ (lower triangle its Cholesky factor after M)
	linv            []float64 // K×P×P: the inverse of that factor (lower)
	mw              []float64 // K×P: E[w_k]
	a, b            []float64 // K: q(ψ_k) = Ga(a_k, b_k)
	resp            []float64 // K×N component-major

	// scratch
	lnZ, elnpi     []float64
	xt             []float64 // R×block, R = D+2: rows x, 1, y of a block of points
	kwork          []float64
	ck, hn, hp     []float64 // K
	scat           []float64 // K×(R+1)×(R+1)
	shift, zeroP   []float64 // R, P
	qphi, pred, rw []float64 // block
	work           []float64 // (P+1)²
	terms          []vb.Term
	bad            error

	s        Settings
	epoch    int    // accepted moves when declined was reset (Propose)
	declined []bool // components whose local test said no since then
}

// consts holds what the updates need of a prior.
type consts struct {
	w0inv  []float64 // W₀⁻¹
	l0     []float64 // Cholesky factor of W₀⁻¹
	lk0    []float64 // Cholesky factor of κ₀I (√κ₀ I), P×P
	zeroP  []float64
	logDW0 float64
}

func newConsts(p Prior) consts {
	d := p.Dim()
	pp := d + 1
	c := consts{w0inv: make([]float64, d*d), l0: make([]float64, d*d), lk0: make([]float64, pp*pp), zeroP: make([]float64, pp)}
	l := append([]float64(nil), p.W0...)
	if !numeric.CholFactor(l, d) {
		panic("moe: W0 is not positive definite")
	}
	c.logDW0 = numeric.CholLogDet(l, d)
	numeric.CholInverse(c.w0inv, l, d, make([]float64, d*d))
	copy(c.l0, c.w0inv)
	if !numeric.CholFactor(c.l0, d) {
		panic("moe: W0⁻¹ is not positive definite")
	}
	for i := 0; i < pp; i++ {
		c.lk0[i*pp+i] = math.Sqrt(p.Kappa0)
	}
	return c
}

// block is the number of points E and M take at a time.
const block = 256

var _ vb.Mover = (*VB)(nil)

// NewVB returns VB for the inputs x (N×D row-major, N = len(x)/d) and
// targets y (length N), neither copied, with k components and the settings
// s of the split test (moves.go). The first q(s) is
// a hard partition: k distinct points drawn with rnd as centres, each point
// to its nearest centre in input space (Euclidean); a VB M step then sets the
// other factors. With k = 1 rnd is not used (it may be nil). It returns an error if the
// sizes, data or prior are invalid or k > N.
func NewVB(x, y []float64, d, k int, prior Prior, s Settings, rnd *rand.Rand) (*VB, error) {
	m, err := newVB(x, y, nil, d, k, prior)
	if err != nil {
		return nil, err
	}
	m.s = s.withDefaults()
	nearestPartition(m.resp, x, m.n, d, k, rnd)
	m.M()
	return m, nil
}

// newVB checks the arguments and allocates a model (q(s) all zero).
func newVB(x, y, wt []float64, d, k int, prior Prior) (*VB, error) {
	if d < 1 || len(x) == 0 || len(x)%d != 0 {
		return nil, fmt.Errorf("moe: %d input values do not make rows of D = %d", len(x), d)
	}
	n := len(x) / d
	if len(y) != n {
		return nil, fmt.Errorf("moe: %d targets for %d inputs", len(y), n)
	}
	if k < 1 || k > n {
		return nil, fmt.Errorf("moe: K = %d components for N = %d points", k, n)
	}
	if prior.Dim() != d {
		return nil, fmt.Errorf("moe: prior of dimension %d for inputs of dimension %d", prior.Dim(), d)
	}
	if err := prior.Validate(); err != nil {
		return nil, err
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("moe: input value %d (point %d) is not finite", i, i/d)
		}
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("moe: target %d is not finite", i)
		}
	}
	r := d + 2
	m := &VB{x: x, y: y, wt: wt, n: n, d: d, p: prior, c: newConsts(prior),
		lnZ: make([]float64, n), xt: make([]float64, r*block), kwork: make([]float64, max(32*(r+1), 2*(r+1)*block+16)),
		shift: make([]float64, r), zeroP: make([]float64, d+1),
		qphi: make([]float64, block), pred: make([]float64, block), rw: make([]float64, block),
		work: make([]float64, (d+2)*(d+2))}
	m.s = Settings{}.withDefaults()
	m.resize(k)
	m.resp = make([]float64, k*n)
	return m, nil
}

// nearestPartition sets resp (k×N) to a hard partition: k distinct points
// drawn with rnd as centres, each point to its nearest centre (all to
// component 0 when k = 1).
func nearestPartition(resp, x []float64, n, d, k int, rnd *rand.Rand) {
	clear(resp)
	if k == 1 {
		for i := range resp {
			resp[i] = 1
		}
		return
	}
	centres := rnd.Perm(n)[:k]
	for i := 0; i < n; i++ {
		best, bd := 0, math.Inf(1)
		for j, c := range centres {
			var s float64
			for a := 0; a < d; a++ {
				v := x[i*d+a] - x[c*d+a]
				s += v * v
			}
			if s < bd {
				best, bd = j, s
			}
		}
		resp[best*n+i] = 1
	}
}

// resize gives every per-component array the length for k components; the
// centres m_j of the components kept are kept (they are the shifts of the
// next M step's scatter), the other contents are undefined.
func (m *VB) resize(k int) {
	m.k = k
	d, p, r := m.d, m.d+1, m.d+3
	old := m.m
	defer func() { copy(m.m, old) }()
	m.alpha, m.beta, m.nu, m.elnpi = make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k)
	m.m, m.winv, m.pchol, m.qinv = make([]float64, k*d), make([]float64, k*d*d), make([]float64, k*d*d), make([]float64, k*d*d)
	m.lam, m.linv, m.mw = make([]float64, k*p*p), make([]float64, k*p*p), make([]float64, k*p)
	m.a, m.b = make([]float64, k), make([]float64, k)
	m.ck, m.hn, m.hp, m.scat = make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k*r*r)
}

// transpose sets m.xt to the points i0 ≤ i < i1 as columns: rows 0…D−1 the
// inputs, row D ones, row D+1 the targets, so that rows 0…D are φ(x).
func (m *VB) transpose(i0, i1 int) []float64 {
	d, w := m.d, i1-i0
	xt := m.xt[:(d+2)*w]
	for i := 0; i < w; i++ {
		for a, v := range m.x[(i0+i)*d : (i0+i+1)*d] {
			xt[a*w+i] = v
		}
		xt[d*w+i] = 1
		xt[(d+1)*w+i] = m.y[i0+i]
	}
	return xt
}

// SetResponsibilities sets q(s) to r (K×N component-major; each point's
// column must sum to 1) and runs M. It returns an error if r has the wrong
// length or a column is not a distribution within 1e-9.
func (m *VB) SetResponsibilities(r []float64) error {
	if err := mixture.CheckResponsibilities(r, m.k, m.n); err != nil {
		return fmt.Errorf("moe: %w", err)
	}
	copy(m.resp, r)
	m.M()
	return nil
}

// M is the VB M step. With the weighted counts r̃_nk = ω_n r_nk, N_k =
// Σ_n r̃_nk, x̄_k and the scatter N_kS_k about x̄_k:
//
//	α_k = α₀ + N_k                                            (Dirichlet; D'Souza's ũ, L756)
//	β_k = β₀ + N_k,  m_k = (β₀m₀ + N_k x̄_k)/β_k                 (Σ_μ, m_μ, L756)
//	W_k⁻¹ = W₀⁻¹ + N_kS_k + β₀N_k/β_k (x̄_k − m₀)(x̄_k − m₀)ᵀ    (R̃⁻¹, L756)
//	ν_k = ν₀ + N_k                                            (ν̃, L756)
//	Λ_w,k = κ₀I + Σ_n r̃_nk φ_nφ_nᵀ,  E[w_k] = Λ_w,k⁻¹ Σ_n r̃_nk φ_n y_n
//	a_k = a₀ + N_k/2,  b_k = b₀ + ½(Σ_n r̃_nk y_n² − E[w_k]ᵀΛ_w,k E[w_k])
//
// the last two lines the conjugate Normal-gamma posterior of a linear
// regression with weights r̃_nk. All statistics come from one scatter
// (numeric.ScatterLower) of (x − c, 1, y) per component about c, the
// component's mean of the last M step. M does not allocate.
func (m *VB) M() {
	d, n, p := m.d, m.n, m.p
	pp, r, r1 := d+1, d+2, d+3
	// q(π): α_k = α₀ + N_k (mixture.UpdateWeights with the weighted counts,
	// which the scatter holds), set in the loop below.
	clear(m.scat)
	for i0 := 0; i0 < n; i0 += block {
		i1 := min(i0+block, n)
		xt := m.transpose(i0, i1)
		for k := 0; k < m.k; k++ {
			rk := m.resp[k*n+i0 : k*n+i1]
			if m.wt != nil {
				rw := m.rw[:i1-i0]
				numeric.MulTo(rw, rk, m.wt[i0:i1])
				rk = rw
			}
			if allZero(rk) {
				continue
			}
			copy(m.shift[:d], m.m[k*d:(k+1)*d])
			m.shift[d], m.shift[d+1] = 0, 0
			numeric.ScatterLower(m.scat[k*r1*r1:(k+1)*r1*r1], r, xt, i1-i0, m.shift, rk, m.kwork)
		}
	}
	m.bad = nil
	s1, dx := m.work[:d], m.work[d:2*d]
	pr := dist.NormalWishartChol{Beta: p.Beta0, Nu: p.Nu0, Mean: p.M0}
	for k := 0; k < m.k; k++ {
		sk := m.scat[k*r1*r1 : (k+1)*r1*r1]
		at := func(i, j int) float64 { // the lower triangle of the scatter
			if j > i {
				i, j = j, i
			}
			return sk[i*r1+j]
		}
		nk := at(r, r)
		c := m.m[k*d : (k+1)*d] // the shift of the scatter
		m.alpha[k] = p.Alpha0 + nk
		// The expert, in absolute coordinates x = (x − c) + c.
		lam := m.lam[k*pp*pp : (k+1)*pp*pp]
		mw := m.mw[k*pp : (k+1)*pp]
		sy, syy := at(r, d+1), at(d+1, d+1)
		for a := 0; a < d; a++ {
			sa := at(r, a)
			for bb := 0; bb <= a; bb++ {
				lam[a*pp+bb] = at(a, bb) + c[a]*at(r, bb) + sa*c[bb] + nk*c[a]*c[bb]
			}
			lam[d*pp+a] = sa + nk*c[a]
			mw[a] = at(d+1, a) + c[a]*sy
		}
		lam[d*pp+d] = nk
		mw[d] = sy
		for a := 0; a < pp; a++ {
			lam[a*pp+a] += p.Kappa0
			for bb := a + 1; bb < pp; bb++ {
				lam[a*pp+bb] = 0
			}
		}
		// g = Σ r̃ φ y is in mw; save gᵀ(E w) after the solve.
		g := m.rw[:pp] // free here: rw is block scratch
		copy(g, mw)
		if !numeric.CholFactor(lam, pp) {
			if m.bad == nil {
				m.bad = fmt.Errorf("moe: weight precision of expert %d is not positive definite", k)
			}
			continue
		}
		numeric.CholSolveVec(lam, pp, mw)
		numeric.CholSolveVecT(lam, pp, mw)
		m.a[k] = p.A0 + nk/2
		m.b[k] = p.B0 + 0.5*(syy-numeric.Dot(g, mw))
		li := m.linv[k*pp*pp : (k+1)*pp*pp]
		clear(li)
		v := m.work[:pp]
		for j := 0; j < pp; j++ {
			clear(v)
			v[j] = 1
			numeric.CholSolveVec(lam, pp, v)
			for a := j; a < pp; a++ {
				li[a*pp+j] = v[a]
			}
		}
		// The input density, as gmm's M step (PRML (10.60)–(10.63)).
		winv := m.winv[k*d*d : (k+1)*d*d]
		for a := 0; a < d; a++ {
			for bb := 0; bb <= a; bb++ {
				winv[a*d+bb] = m.c.w0inv[a*d+bb] + at(a, bb)
			}
		}
		for a := 0; a < d; a++ {
			s1[a] = at(r, a)
		}
		var ok bool
		m.beta[k], m.nu[k], ok = dist.NormalWishartUpdate(d, pr, nk, s1, c, winv,
			m.pchol[k*d*d:(k+1)*d*d], m.qinv[k*d*d:(k+1)*d*d], dx)
		if !ok && m.bad == nil {
			m.bad = fmt.Errorf("moe: W⁻¹ of component %d is not positive definite", k)
		}
	}
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

// ElnLambda returns E[ln|Λ_k|] = Σ_{i=1..D} ψ((ν_k+1−i)/2) + D ln 2 + ln|W_k|.
func (m *VB) ElnLambda(k int) float64 {
	d := m.d
	return dist.WishartMeanLogDetChol(m.nu[k], m.pchol[k*d*d:(k+1)*d*d], d)
}

// E is the VB E step: the log-terms
//
//	ln ρ_nk = E[ln π_k] + ½E[ln|Λ_k|] − (D/2) ln 2π − D/(2β_k) − (ν_k/2)(x_n − m_k)ᵀW_k(x_n − m_k)
//	          + ½E[ln ψ_k] − ½ ln 2π − ½[(a_k/b_k)(y_n − E[w_k]ᵀφ_n)² + φ_nᵀΛ_w,k⁻¹φ_n]
//
// (D'Souza's ln Q(s_im = 1) below eq. (3.6), L756, with the expert's
// E[ln N(y | wᵀφ, ψ⁻¹)] added), normalised into q(s) by mixture.NormalizeLog;
// then
//
//	F = Σ_n ω_n ln Σ_k ρ_nk − KL(q(π)‖p(π)) − Σ_k KL(q(μ_k,Λ_k)‖p) − Σ_k KL(q(w_k,ψ_k)‖p),
//
// the KLs by mixture.KLWeights, dist.NormalWishartKL and dist.NormalGammaKL.
// The Terms slice is the model's own, valid until the next E. E does not
// allocate.
func (m *VB) E() (vb.Bound, error) {
	if m.bad != nil {
		return vb.Bound{F: math.NaN()}, m.bad
	}
	d, n, pp := m.d, m.n, m.d+1
	dist.DirichletMeanLogTo(m.elnpi, m.alpha)
	for k := 0; k < m.k; k++ {
		elnpsi := numeric.Digamma(m.a[k]) - math.Log(m.b[k])
		m.ck[k] = m.elnpi[k] + 0.5*m.ElnLambda(k) - float64(d)/2*ln2Pi - float64(d)/(2*m.beta[k]) + 0.5*elnpsi - 0.5*ln2Pi
		m.hn[k] = m.nu[k] / 2
		m.hp[k] = m.a[k] / m.b[k]
	}
	for i0 := 0; i0 < n; i0 += block {
		i1 := min(i0+block, n)
		w := i1 - i0
		xt := m.transpose(i0, i1)
		yb := xt[(d+1)*w : (d+2)*w]
		qphi, pred := m.qphi[:w], m.pred[:w]
		for k := 0; k < m.k; k++ {
			row := m.resp[k*n+i0 : k*n+i1]
			numeric.SqNormsLower(row, m.qinv[k*d*d:(k+1)*d*d], d, xt, w, m.m[k*d:(k+1)*d], m.kwork)
			numeric.SqNormsLower(qphi, m.linv[k*pp*pp:(k+1)*pp*pp], pp, xt, w, m.zeroP, m.kwork)
			mw := m.mw[k*pp : (k+1)*pp]
			for i := range pred {
				pred[i] = mw[d]
			}
			for a := 0; a < d; a++ {
				numeric.Axpy(mw[a], xt[a*w:(a+1)*w], pred)
			}
			ck, hn, hp := m.ck[k], m.hn[k], m.hp[k]
			for i, q := range row {
				e := yb[i] - pred[i]
				row[i] = ck - hn*q - 0.5*(hp*e*e+qphi[i])
			}
		}
	}
	if err := mixture.NormalizeLog(m.resp, n, m.lnZ); err != nil {
		return vb.Bound{F: math.NaN()}, fmt.Errorf("moe: %w", err)
	}
	var lnZ float64
	if m.wt == nil {
		lnZ = numeric.Sum(m.lnZ)
	} else {
		lnZ = numeric.Dot(m.lnZ, m.wt)
	}
	klPi := mixture.KLWeights(m.alpha, float64(m.k)*m.p.Alpha0)
	var klIn, klEx float64
	for k := 0; k < m.k; k++ {
		klIn += m.KLInput(k)
		klEx += m.KLExpert(k)
	}
	m.terms = append(m.terms[:0], vb.Term{Name: TermLnZ, Value: lnZ}, vb.Term{Name: TermKLPi, Value: -klPi},
		vb.Term{Name: TermKLInput, Value: -klIn}, vb.Term{Name: TermKLExpert, Value: -klEx})
	return vb.Bound{F: lnZ - klPi - klIn - klEx, Terms: m.terms}, nil
}

// KLInput returns KL(q(μ_k, Λ_k) ‖ p(μ_k, Λ_k)) (dist.NormalWishartKL).
func (m *VB) KLInput(k int) float64 {
	d := m.d
	return dist.NormalWishartKL(d,
		dist.NormalWishartChol{Beta: m.beta[k], Nu: m.nu[k], Mean: m.m[k*d : (k+1)*d], L: m.pchol[k*d*d : (k+1)*d*d]},
		dist.NormalWishartChol{Beta: m.p.Beta0, Nu: m.p.Nu0, Mean: m.p.M0, L: m.c.l0}, m.work)
}

// KLExpert returns KL(q(w_k, ψ_k) ‖ p(w_k, ψ_k)) (dist.NormalGammaKL).
func (m *VB) KLExpert(k int) float64 {
	pp := m.d + 1
	return dist.NormalGammaKL(pp,
		dist.NormalGammaChol{A: m.a[k], B: m.b[k], Mean: m.mw[k*pp : (k+1)*pp], L: m.lam[k*pp*pp : (k+1)*pp*pp]},
		dist.NormalGammaChol{A: m.p.A0, B: m.p.B0, Mean: m.c.zeroP, L: m.c.lk0}, m.work)
}

// K returns the number of components.
func (m *VB) K() int { return m.k }

// N returns the number of points.
func (m *VB) N() int { return m.n }

// D returns the dimension of the inputs.
func (m *VB) D() int { return m.d }

// Responsibilities returns q(s) (K×N component-major), the model's own slice.
func (m *VB) Responsibilities() []float64 { return m.resp }

// Counts returns N_k = α_k − α₀.
func (m *VB) Counts(dst []float64) []float64 {
	if dst == nil {
		dst = make([]float64, m.k)
	}
	for k, a := range m.alpha {
		dst[k] = a - m.p.Alpha0
	}
	return dst
}

// Centre returns E[μ_k] = m_k, the model's own slice.
func (m *VB) Centre(k int) []float64 { return m.m[k*m.d : (k+1)*m.d] }

// Weights returns E[w_k] (D coefficients, then the intercept), the model's
// own slice.
func (m *VB) Weights(k int) []float64 { pp := m.d + 1; return m.mw[k*pp : (k+1)*pp] }

// NoisePrecision returns q(ψ_k).
func (m *VB) NoisePrecision(k int) dist.Gamma { return dist.Gamma{Alpha: m.a[k], Beta: m.b[k]} }

// Predict returns the predictive mean of y at the input x (length D),
//
//	E[y | x] = Σ_k g_k(x) E[w_k]ᵀφ(x),  g_k(x) ∝ exp(E[ln π_k] + E[ln N(x | μ_k, Λ_k⁻¹)]),
//
// the gate g being q(s) of a point whose y is not seen (the input terms of
// E's ln ρ). scratch must hold K values. It does not allocate; it uses the
// model's own scratch, so it must not run concurrently with another method.
func (m *VB) Predict(x, scratch []float64) float64 {
	d, pp := m.d, m.d+1
	g := scratch[:m.k]
	v := m.work[:d]
	dist.DirichletMeanLogTo(m.elnpi, m.alpha)
	for k := 0; k < m.k; k++ {
		for a := range v {
			v[a] = x[a] - m.m[k*d+a]
		}
		// ‖Q_k v‖², Q_k the lower inverse factor.
		q := m.qinv[k*d*d : (k+1)*d*d]
		var s float64
		for a := 0; a < d; a++ {
			var t float64
			for bb := 0; bb <= a; bb++ {
				t += q[a*d+bb] * v[bb]
			}
			s += t * t
		}
		g[k] = m.elnpi[k] + 0.5*m.ElnLambda(k) - float64(d)/(2*m.beta[k]) - m.nu[k]/2*s
	}
	numeric.NormalizeLogTo(g, g)
	var y float64
	for k := 0; k < m.k; k++ {
		mw := m.mw[k*pp : (k+1)*pp]
		y += g[k] * (numeric.Dot(mw[:d], x) + mw[d])
	}
	return y
}
