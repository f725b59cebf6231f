package ica

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/mixture"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Term names of the bound, in the order VB.E reports them.
const (
	// TermData is E[ln p(t | x, W, β, μ)] under the whole q (eqs. 6.2,
	// 6.28-6.29 with the printed slips mended; see the package doc).
	TermData = "E[ln p(t|x,W,beta,mu)]"
	// TermSources is E[ln p(x)] + H[q(x)], the term the text says cannot be
	// evaluated (L2532): with q(x_n) ∝ exp(A_n(x)) p(x) (eq. D.5) the
	// expectation of the log mixture density cancels and it is
	// Σ_n (ln Z_n − E[A_n(x_n)]), A_n and Z_n those of the last update of
	// q(x) (eqs. D.4, D.13-D.14), evaluated in a form without cancellation
	// (see updateX).
	TermSources = "E[ln p(x)]+H[q(x)]"
	// TermW is −E_q(α)[KL(q(W) ‖ p(W | α))] (eqs. 6.9, 6.18).
	TermW = "-KL[W]"
	// TermAlpha is −Σ_i KL(q(α_i) ‖ p(α_i)) (eqs. 6.10, 6.19).
	TermAlpha = "-KL[alpha]"
	// TermBeta is −KL(q(β) ‖ p(β)) (eqs. 6.6, 6.20).
	TermBeta = "-KL[beta]"
	// TermMu is −KL(q(μ) ‖ p(μ)) (eqs. 6.11, 6.17).
	TermMu = "-KL[mu]"
)

// Hyperparameter groups of VB (vb.HyperUpdater): the text updates q(α) and
// q(β) once after every inner loop of updates of q(μ), q(x) and q(W)
// (L2497).
const (
	GroupAlpha = "alpha"
	GroupBeta  = "beta"
)

// Sources is the source density shared by every source, the M-component
// mixture of Gaussians p(x) = Σ_m π_m N(x | m_m, σ²_m) of eq. 6.4. Its
// parameters are fixed, not learned (L2495, L2506).
type Sources struct {
	Weights   []float64 // π_m, positive, summing to 1
	Means     []float64 // m_m
	Variances []float64 // σ²_m, positive
}

// Check refuses a mixture whose lengths differ or whose weights and
// variances are not positive and finite, or whose weights do not sum to 1.
func (s Sources) Check() error {
	m := len(s.Weights)
	if m == 0 || len(s.Means) != m || len(s.Variances) != m {
		return fmt.Errorf("ica: source mixture: %d weights, %d means, %d variances: want the same positive number", m, len(s.Means), len(s.Variances))
	}
	var sum float64
	for k := 0; k < m; k++ {
		if !(s.Weights[k] > 0) || math.IsInf(s.Weights[k], 0) {
			return fmt.Errorf("ica: source mixture weight %d = %v, want positive and finite", k, s.Weights[k])
		}
		if !(s.Variances[k] > 0) || s.Variances[k] > 1e300 {
			return fmt.Errorf("ica: source mixture variance %d = %v, want positive and finite", k, s.Variances[k])
		}
		if math.IsNaN(s.Means[k]) || math.Abs(s.Means[k]) > 1e150 {
			return fmt.Errorf("ica: source mixture mean %d = %v, want finite", k, s.Means[k])
		}
		sum += s.Weights[k]
	}
	if math.Abs(sum-1) > 1e-9 {
		return fmt.Errorf("ica: source mixture weights sum to %v, want 1", sum)
	}
	return nil
}

// Moments returns the mean and variance of the source density.
func (s Sources) Moments() (mean, variance float64) {
	var m2 float64
	for k, w := range s.Weights {
		mean += w * s.Means[k]
		m2 += w * (s.Variances[k] + s.Means[k]*s.Means[k])
	}
	return mean, m2 - mean*mean
}

// Prior holds the hyperpriors: p(α_i) = gam(a_α, b_α) (eq. 6.10), p(β) =
// gam(a_β, b_β) (eq. 6.6), shape and rate as eq. 6.7, and the precision τ
// of p(μ_p) = N(0, τ⁻¹) (eq. 6.11). The text gives none of them for
// chapter 6; DefaultPrior documents the values used.
type Prior struct {
	AAlpha, BAlpha float64
	ABeta, BBeta   float64
	Tau            float64
}

// DefaultPrior is chapter 5's hyperprior of Table 5.1 (L2181: a_α = 3×10⁻⁴,
// b_α = 10⁻³, a_β = 0.02, b_β = 10⁻⁴; eq. 6.7 defines the gamma density
// "as in Chapter 5") and τ = 10⁻³, a vague prior on the means (ours: the
// text gives no τ).
func DefaultPrior() Prior {
	return Prior{AAlpha: 3e-4, BAlpha: 1e-3, ABeta: 0.02, BBeta: 1e-4, Tau: 1e-3}
}

// Check refuses a value that is not positive and finite.
func (p Prior) Check() error {
	for _, c := range []struct {
		name string
		v    float64
	}{{"a_alpha", p.AAlpha}, {"b_alpha", p.BAlpha}, {"a_beta", p.ABeta}, {"b_beta", p.BBeta}, {"tau", p.Tau}} {
		if !(c.v > 0) || c.v > 1e300 {
			return fmt.Errorf("ica: prior %s = %v, want positive and finite", c.name, c.v)
		}
	}
	return nil
}

// Settings control NewVB. The zero value of every field means its
// documented default.
type Settings struct {
	// Sources is the number I of sources of the model. Default P, the
	// number of observed dimensions (the toy's three-source model, L2495).
	Sources int
	// InitW is the starting mean of q(W), P×I row-major. nil means the
	// PCA start of L2497 (see NewVB).
	InitW []float64
	// InitNoiseVariance is 1/E[β] of the starting q(β). Default the
	// probabilistic-PCA estimate: the mean of the sample covariance's
	// eigenvalues beyond the I-th, or its smallest one when I ≥ P.
	InitNoiseVariance float64
}

// maxComponents caps M^I, the number of Gaussians of each q(x_n) (eq.
// 6.16): the cost of an E step is N·M^I·I² (L2540).
const maxComponents = 1 << 12

// VB is the variational Bayesian ICA of section 6.5.4: the factorised
// q(x) q(W) q(α) q(β) q(μ) of eq. 6.13, each factor the optimum of eq. 6.15
// given the others (eqs. 6.16-6.29, Appendix D).
//
// E updates q(μ) (eqs. 6.23-6.24) and then q(x) (eq. 6.16, Appendix D), the
// text's order (L2497), and returns the bound (eq. 6.14) with every
// constant; M updates q(W) (eqs. 6.21-6.22); UpdateHyper updates q(α)
// (eqs. 6.25-6.26) or q(β) (eqs. 6.27-6.29). Each is an exact coordinate
// ascent step on the one bound, so no step lowers it.
type VB struct {
	n, p, k int       // N, P, I
	t       []float64 // N×P
	tt      float64   // Σ_n t_nᵀt_n
	tsum    []float64 // Σ_n t_n (P)
	prior   Prior
	src     Sources

	// The M^I components of the joint source prior (eq. D.6): multi-index
	// m = (m_1, …, m_I), mean m_m, diagonal precision B_m⁻¹, and
	// ln π_m − ½ ln|B_m| − ½ m_mᵀB_m⁻¹m_m.
	comps    int
	compMean []float64 // comps×I
	compPrec []float64 // comps×I
	compLog  []float64 // comps

	// q(x): its moments and the coefficients of its last update,
	// q(x_n) = exp(A_n(x)) p(x) / Z_n with A_n(x) = −½xᵀΛx + b_nᵀx.
	ex  []float64 // N×I, E[x_n]
	sx  []float64 // Σ_n E[x_n] (I)
	sxx []float64 // Σ_n E[x_n x_nᵀ] (I×I)
	txp []float64 // Σ_n t_n E[x_n]ᵀ (P×I)
	lam []float64 // Λ of the last update (I×I)
	// scov = Σ_n Cov_q(x_n) and xxT = Σ_n E[x_n]E[x_n]ᵀ (sxx = scov + xxT),
	// kept apart for the residual without cancellation (sqResid).
	scov, xxT []float64
	// srcTerm is E[ln p(x)] + H[q(x)] (TermSources), a function of q(x)
	// alone, computed at its update.
	srcTerm float64

	// q(W) = Π_p N(w_p | ·, Σ_w): rows w_p of W (eq. 6.18).
	qw     *dist.GaussianRows
	wPrec  *mat.SymDense
	wPrecs []mat.Symmetric
	wB     *mat.Dense
	ew     *mat.Dense    // E[W], P×I
	ewtw   *mat.SymDense // E[WᵀW]
	wCov   *mat.SymDense // Cov(w_p), the same for every row
	ewtwR  []float64     // its I×I row-major copy
	sigw   []float64     // Σ_w, I×I (E[WᵀW] = E[W]ᵀE[W] + PΣ_w)

	// q(μ) = N(m_μ, s_μ I) (eq. 6.17), as one row of dimension P.
	qmu    *dist.GaussianRows
	muPrec *mat.SymDense
	muPrcs []mat.Symmetric
	muB    *mat.Dense
	mmu    []float64 // m_μ
	smu    float64   // s_μ

	qa []dist.Gamma // q(α_i) (eq. 6.19)
	qb dist.Gamma   // q(β) (eq. 6.20)

	// E-step work: blocks with a point per column.
	tT    []float64 // P×N, the data transposed
	tc    []float64 // P×N, T − E[μ]1ᵀ
	hb    []float64 // I×N, h_n = E[β]E[W]ᵀ(t_n − E[μ])
	fb    []float64 // comps×I×N, f_m^(n) (eq. D.11)
	rb    []float64 // comps×N, ln π̃ and then the responsibilities
	xb    []float64 // I×N, E[x_n]
	fr    []float64 // I×N, r_m ∘ (f_m − E[x])
	fd    []float64 // I×N, f_m − E[x]
	res   []float64 // N, a residual row
	lnZn  []float64 // N, ln Z_n
	gm    []float64 // comps×I, D_m B_m⁻¹ m_m
	dm    []float64 // comps×I×I, D_m (eq. D.10)
	ldD   []float64 // ln|D_m|
	work  []float64 // I×I
	chol  []float64 // I×I
	resid []float64 // P
	terms []vb.Term
}

// ErrNotPositiveDefinite is returned (wrapped) when a precision matrix of
// an update is not positive definite to working precision.
var ErrNotPositiveDefinite = errors.New("ica: precision not positive definite")

// NewVB returns the variational Bayesian ICA of the N×P data t (row-major,
// a point per row) with I = s.Sources sources of density src and the
// hyperpriors prior, started as the text starts it (L2497): q(x) is the
// prior p(x) (so the first q(μ) is the shrunk sample mean), q(α) the prior,
// q(β) has mean 1/s.InitNoiseVariance and the shape of eq. 6.27, q(μ) the
// sample mean, and q(W) has mean s.InitW or, by default, the PCA solution
// whose columns are the principal axes of the sample covariance scaled by
// √(λ_i/v), λ_i the eigenvalues and v the source variance (so that the
// model's covariance matches the data along each axis), with the
// covariance that eq. 6.22 gives under the starting q(x), q(α), q(β).
func NewVB(t []float64, p int, src Sources, prior Prior, s Settings) (*VB, error) {
	if p <= 0 || len(t) == 0 || len(t)%p != 0 {
		return nil, fmt.Errorf("ica: data of %d values is not N×P with P = %d", len(t), p)
	}
	for i, v := range t {
		if math.IsNaN(v) || math.Abs(v) > 1e150 {
			return nil, fmt.Errorf("ica: data value %d (point %d, dimension %d) = %v, want finite", i, i/p, i%p, v)
		}
	}
	if err := src.Check(); err != nil {
		return nil, err
	}
	if err := prior.Check(); err != nil {
		return nil, err
	}
	n := len(t) / p
	k := s.Sources
	if k == 0 {
		k = p
	}
	if k < 0 {
		return nil, fmt.Errorf("ica: %d sources, want at least 1", k)
	}
	comps := 1
	for range k {
		comps *= len(src.Weights)
		if comps > maxComponents {
			return nil, fmt.Errorf("ica: M^I = %d^%d Gaussians per point exceed %d", len(src.Weights), k, maxComponents)
		}
	}
	if s.InitW != nil && len(s.InitW) != p*k {
		return nil, fmt.Errorf("ica: InitW has %d values, want P×I = %d", len(s.InitW), p*k)
	}
	if v := s.InitNoiseVariance; v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("ica: InitNoiseVariance = %v, want positive and finite (0: the default)", v)
	}
	m := &VB{n: n, p: p, k: k, t: t, prior: prior, src: src, comps: comps}
	m.alloc()
	m.setComponents()
	for i := 0; i < n; i++ {
		row := t[i*p : (i+1)*p]
		m.tt += numeric.Dot(row, row)
		numeric.Axpy(1, row, m.tsum)
		for q, v := range row {
			m.tT[q*n+i] = v
		}
	}
	w0, v0, err := m.pcaStart(s)
	if err != nil {
		return nil, err
	}
	// q(x) = p(x): A = 0, Z = 1.
	mean, variance := src.Moments()
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			m.ex[i*k+j] = mean
			m.xb[j*n+i] = mean
		}
	}
	for a := 0; a < k; a++ {
		m.sx[a] = float64(n) * mean
		for b := 0; b < k; b++ {
			m.xxT[a*k+b] = float64(n) * mean * mean
			if a == b {
				m.scov[a*k+b] = float64(n) * variance
			}
			m.sxx[a*k+b] = m.scov[a*k+b] + m.xxT[a*k+b]
		}
		for q := 0; q < p; q++ {
			m.txp[q*k+a] = m.tsum[q] * mean
		}
	}
	pa := dist.NewGammaShapeRate(prior.AAlpha, prior.BAlpha)
	for i := range m.qa {
		m.qa[i] = pa
	}
	shape := prior.ABeta + 0.5*float64(n*p)
	m.qb = dist.NewGammaShapeRate(shape, shape*v0)
	// q(μ): the sample mean with the precision of eq. 6.24.
	prec := prior.Tau + float64(n)*m.qb.Mean()
	for q := 0; q < p; q++ {
		m.muPrec.SetSym(q, q, prec)
		m.muB.Set(0, q, prec*m.tsum[q]/float64(n))
	}
	if m.qmu, err = dist.NewGaussianRowsDistinctPrecision(m.muPrcs, m.muB); err != nil {
		return nil, fmt.Errorf("ica: q(mu): %w", err)
	}
	m.cacheMu()
	// q(W): mean w0, precision of eq. 6.22 under the starting q.
	m.wPrecFill()
	wp := mat.NewDense(p, k, w0)
	m.wB.Mul(wp, m.wPrec)
	if m.qw, err = dist.NewGaussianRowsDistinctPrecision(m.wPrecs, m.wB); err != nil {
		return nil, fmt.Errorf("ica: q(W): %w", err)
	}
	m.cacheW()
	return m, nil
}

func (m *VB) alloc() {
	n, p, k, c := m.n, m.p, m.k, m.comps
	m.tsum = make([]float64, p)
	m.compMean = make([]float64, c*k)
	m.compPrec = make([]float64, c*k)
	m.compLog = make([]float64, c)
	m.ex = make([]float64, n*k)
	m.sx = make([]float64, k)
	m.sxx = make([]float64, k*k)
	m.txp = make([]float64, p*k)
	m.lam = make([]float64, k*k)
	m.wPrec = mat.NewSymDense(k, nil)
	m.wPrecs = make([]mat.Symmetric, p)
	for q := range m.wPrecs {
		m.wPrecs[q] = m.wPrec
	}
	m.wB = mat.NewDense(p, k, nil)
	m.ew = mat.NewDense(p, k, nil)
	m.ewtw = mat.NewSymDense(k, nil)
	m.wCov = mat.NewSymDense(k, nil)
	m.ewtwR = make([]float64, k*k)
	m.muPrec = mat.NewSymDense(p, nil)
	m.muPrcs = []mat.Symmetric{m.muPrec}
	m.muB = mat.NewDense(1, p, nil)
	m.mmu = make([]float64, p)
	m.qa = make([]dist.Gamma, k)
	m.tT = make([]float64, p*n)
	m.tc = make([]float64, p*n)
	m.hb = make([]float64, k*n)
	m.fb = make([]float64, c*k*n)
	m.rb = make([]float64, c*n)
	m.xb = make([]float64, k*n)
	m.fr = make([]float64, k*n)
	m.fd = make([]float64, k*n)
	m.res = make([]float64, n)
	m.scov = make([]float64, k*k)
	m.xxT = make([]float64, k*k)
	m.sigw = make([]float64, k*k)
	m.lnZn = make([]float64, n)
	m.gm = make([]float64, c*k)
	m.dm = make([]float64, c*k*k)
	m.ldD = make([]float64, c)
	m.work = make([]float64, k*k)
	m.chol = make([]float64, k*k)
	m.resid = make([]float64, p)
	m.terms = make([]vb.Term, 6)
}

// setComponents enumerates the M^I components of eq. D.6, the first
// source's index varying fastest.
func (m *VB) setComponents() {
	M := len(m.src.Weights)
	for c := 0; c < m.comps; c++ {
		idx := c
		lw := 0.0
		for i := 0; i < m.k; i++ {
			j := idx % M
			idx /= M
			mu, v := m.src.Means[j], m.src.Variances[j]
			m.compMean[c*m.k+i] = mu
			m.compPrec[c*m.k+i] = 1 / v
			lw += math.Log(m.src.Weights[j]) - 0.5*math.Log(v) - 0.5*mu*mu/v
		}
		m.compLog[c] = lw
	}
}

// cacheW refreshes E[W] and E[WᵀW] = E[W]ᵀE[W] + PΣ_w from q(W).
func (m *VB) cacheW() {
	m.qw.MeanTo(m.ew)
	m.qw.CovarianceTo(m.wCov, 0) // every row has the same precision
	m.qw.SecondMomentTo(m.ewtw, nil)
	for a := 0; a < m.k; a++ {
		for b := 0; b < m.k; b++ {
			m.ewtwR[a*m.k+b] = m.ewtw.At(a, b)
		}
	}
	for a := 0; a < m.k; a++ {
		for b := 0; b < m.k; b++ {
			m.sigw[a*m.k+b] = m.wCov.At(a, b)
		}
	}
}

// cacheMu refreshes m_μ and s_μ from q(μ).
func (m *VB) cacheMu() {
	m.qmu.RowMeanTo(m.mmu, 0)
	m.smu = 1 / m.muPrec.At(0, 0)
}

// wPrecFill sets the precision of eq. 6.22, diag E[α] + E[β] Σ_n E[x_n x_nᵀ].
func (m *VB) wPrecFill() {
	beta := m.qb.Mean()
	for a := 0; a < m.k; a++ {
		for b := a; b < m.k; b++ {
			v := beta * m.sxx[a*m.k+b]
			if a == b {
				v += m.qa[a].Mean()
			}
			m.wPrec.SetSym(a, b, v)
		}
	}
}

// updateMu is eqs. 6.23-6.24: q(μ) = N((τ + N E[β])⁻¹ E[β] Σ_n (t_n −
// E[W]E[x_n]), (τ + N E[β])⁻¹ I).
func (m *VB) updateMu() error {
	beta := m.qb.Mean()
	prec := m.prior.Tau + float64(m.n)*beta
	ew := m.ew.RawMatrix()
	for q := 0; q < m.p; q++ {
		m.muPrec.SetSym(q, q, prec)
		wx := numeric.Dot(ew.Data[q*ew.Stride:q*ew.Stride+m.k], m.sx)
		m.muB.Set(0, q, beta*(m.tsum[q]-wx))
	}
	if err := m.qmu.SetDistinctPrecision(m.muPrcs, m.muB); err != nil {
		return fmt.Errorf("ica: q(mu): %w", err)
	}
	m.cacheMu()
	return nil
}

// updateX is Appendix D: for each point, q(x_n) = Σ_m π̃_m N(f_m, D_m)/Z_n
// with D_m = (E[β]E[WᵀW] + B_m⁻¹)⁻¹ (D.10), f_m = D_m(h_n + B_m⁻¹m_m) (D.11),
// h_n = E[β]E[W]ᵀ(t_n − E[μ]), ln π̃_m = ln π_m + ½ ln|D_m| − ½ ln|B_m| −
// ½ m_mᵀB_m⁻¹m_m + ½ f_mᵀD_m⁻¹f_m (D.13), Z_n = Σ_m π̃_m (D.14), and the
// moments D.15-D.16. The points are the columns of I×N blocks, so that
// every step is a product or a vector operation over the N points
// (numeric.MulAdd, MulAddT, AddMul), and the responsibilities are
// normalised by mixture.NormalizeLog.
func (m *VB) updateX() error {
	k, kk, n := m.k, m.k*m.k, m.n
	beta := m.qb.Mean()
	for a := 0; a < kk; a++ {
		m.lam[a] = beta * m.ewtwR[a]
	}
	for c := 0; c < m.comps; c++ {
		copy(m.chol, m.lam)
		for i := 0; i < k; i++ {
			m.chol[i*k+i] += m.compPrec[c*k+i]
		}
		if !numeric.CholFactor(m.chol, k) {
			return fmt.Errorf("ica: q(x): D_m⁻¹ of component %d: %w", c, ErrNotPositiveDefinite)
		}
		m.ldD[c] = -numeric.CholLogDet(m.chol, k)
		d := m.dm[c*kk : (c+1)*kk]
		numeric.CholInverse(d, m.chol, k, m.work)
		// g_m = D_m B_m⁻¹ m_m, the constant part of f_m.
		for a := 0; a < k; a++ {
			var v float64
			for b := 0; b < k; b++ {
				v += d[a*k+b] * m.compPrec[c*k+b] * m.compMean[c*k+b]
			}
			m.gm[c*k+a] = v
		}
	}
	// H = E[β] E[W]ᵀ (T − E[μ]1ᵀ), I×N.
	for q := 0; q < m.p; q++ {
		row := m.tc[q*n : (q+1)*n]
		copy(row, m.tT[q*n:(q+1)*n])
		for i := range row {
			row[i] -= m.mmu[q]
		}
	}
	clear(m.hb)
	ew := m.ew.RawMatrix()
	numeric.MulAdd(k, n, m.p, ew.Data, 1, ew.Stride, m.tc, n, m.hb, n)
	numeric.Scale(beta, m.hb)
	// F_m = D_m H + g_m 1ᵀ and ln π̃_m = const_m + ½ Σ_a F_m,a (H_a + B⁻¹m_m,a).
	for c := 0; c < m.comps; c++ {
		f := m.fb[c*k*n : (c+1)*k*n]
		for a := 0; a < k; a++ {
			row := f[a*n : (a+1)*n]
			for i := range row {
				row[i] = m.gm[c*k+a]
			}
		}
		numeric.MulAdd(k, n, k, m.dm[c*kk:(c+1)*kk], k, 1, m.hb, n, f, n)
		lw := m.rb[c*n : (c+1)*n]
		base := m.compLog[c] + 0.5*m.ldD[c]
		for i := range lw {
			lw[i] = 0
		}
		for a := 0; a < k; a++ {
			fa, ha := f[a*n:(a+1)*n], m.hb[a*n:(a+1)*n]
			numeric.AddMul(lw, fa, ha)
			numeric.Axpy(m.compPrec[c*k+a]*m.compMean[c*k+a], fa, lw)
		}
		for i := range lw {
			lw[i] = base + 0.5*lw[i]
		}
	}
	if err := mixture.NormalizeLog(m.rb, n, m.lnZn); err != nil {
		return fmt.Errorf("ica: q(x): %w", err)
	}
	// E[ln p(x_n)] + H[q(x_n)] = ln Z_n − E[A_n(x_n)] (see TermSources),
	// in the form without cancellation: with ln π̃_m of D.13 and
	// f_mᵀD_m⁻¹f_m = f_mᵀ(h_n + B_m⁻¹m_m), the terms of ln Z_n, b_nᵀE[x_n]
	// and ½tr(ΛE[x_n x_nᵀ]) that grow with E[β] cancel exactly, leaving
	//
	//	Σ_m r_m [ln π_m − ½ln|B_m| + ½ln|D_m| + ½tr(ΛD_m) − ½(f_m − m_m)ᵀB_m⁻¹(f_m − m_m)] + H[r],
	//
	// r_m = π̃_m/Z_n. (Summed as printed, ln Z_n, b_nᵀE[x_n] and
	// ½tr(ΛE[xxᵀ]) each grow like E[β]‖h_n‖²; at E[β] = 10⁴ their rounding,
	// through an ill-conditioned D_m, reached 10⁻³ nats.)
	m.srcTerm = numeric.Entropy(m.rb)
	for c := 0; c < m.comps; c++ {
		d := m.dm[c*kk : (c+1)*kk]
		base := m.compLog[c] + 0.5*m.ldD[c] + 0.5*numeric.Dot(m.lam, d)
		for a := 0; a < k; a++ {
			base += 0.5 * m.compPrec[c*k+a] * m.compMean[c*k+a] * m.compMean[c*k+a]
		}
		acc := m.lnZn // ln Z_n is not needed again: reuse it
		for i := range acc {
			acc[i] = base
		}
		f := m.fb[c*k*n : (c+1)*k*n]
		for a := 0; a < k; a++ {
			fr := m.fr[a*n : (a+1)*n]
			mu := m.compMean[c*k+a]
			for i, v := range f[a*n : (a+1)*n] {
				fr[i] = v - mu
			}
			numeric.Scale(-0.5*m.compPrec[c*k+a], fr)
			for i, v := range f[a*n : (a+1)*n] {
				acc[i] += fr[i] * (v - mu)
			}
		}
		m.srcTerm += numeric.Dot(m.rb[c*n:(c+1)*n], acc)
	}
	// E[x_n] (the columns of X, I×N), then Σ_n Cov(x_n) = Σ_m Σ_n r_m
	// [D_m + (f_m − E[x_n])(f_m − E[x_n])ᵀ] and Σ_n E[x_n]E[x_n]ᵀ.
	clear(m.xb)
	for c := 0; c < m.comps; c++ {
		r := m.rb[c*n : (c+1)*n]
		f := m.fb[c*k*n : (c+1)*k*n]
		for a := 0; a < k; a++ {
			numeric.AddMul(m.xb[a*n:(a+1)*n], r, f[a*n:(a+1)*n])
		}
	}
	clear(m.scov)
	for c := 0; c < m.comps; c++ {
		r := m.rb[c*n : (c+1)*n]
		f := m.fb[c*k*n : (c+1)*k*n]
		var rs float64
		for _, v := range r {
			rs += v
		}
		d := m.dm[c*kk : (c+1)*kk]
		for a := 0; a < kk; a++ {
			m.scov[a] += rs * d[a]
		}
		for a := 0; a < k; a++ {
			fd, fa, xa := m.fd[a*n:(a+1)*n], f[a*n:(a+1)*n], m.xb[a*n:(a+1)*n]
			for i := range fd {
				fd[i] = fa[i] - xa[i]
			}
			numeric.MulTo(m.fr[a*n:(a+1)*n], r, fd)
		}
		numeric.MulAddT(k, k, n, m.fr, n, m.fd, n, m.scov, k)
	}
	clear(m.xxT)
	numeric.MulAddT(k, k, n, m.xb, n, m.xb, n, m.xxT, k)
	for a := 0; a < kk; a++ {
		m.sxx[a] = m.scov[a] + m.xxT[a]
	}
	for a := 0; a < k; a++ {
		xa := m.xb[a*n : (a+1)*n]
		var s float64
		for i, v := range xa {
			s += v
			m.ex[i*k+a] = v
		}
		m.sx[a] = s
	}
	clear(m.txp)
	numeric.MulAddT(m.p, k, n, m.tT, n, m.xb, n, m.txp, k)
	return nil
}

// secondMoment returns E[x_n x_nᵀ] (I×I) of the last update of q(x) (eq.
// D.16), for the tests.
func (m *VB) secondMoment(i int) []float64 {
	k, n := m.k, m.n
	out := make([]float64, k*k)
	for c := 0; c < m.comps; c++ {
		r := m.rb[c*n+i]
		f := m.fb[c*k*n : (c+1)*k*n]
		d := m.dm[c*k*k : (c+1)*k*k]
		for a := 0; a < k; a++ {
			for b := 0; b < k; b++ {
				out[a*k+b] += r * (d[a*k+b] + f[a*n+i]*f[b*n+i])
			}
		}
	}
	return out
}

// updateW is eqs. 6.21-6.22 (with the E[β] that eq. 6.21 drops before the
// sum): Σ_w = (diag E[α] + E[β] Σ_n E[x_n x_nᵀ])⁻¹ and the mean of row p
// Σ_w E[β] Σ_n E[x_n](t_np − E[μ_p]).
func (m *VB) updateW() error {
	m.wPrecFill()
	beta := m.qb.Mean()
	for q := 0; q < m.p; q++ {
		for a := 0; a < m.k; a++ {
			m.wB.Set(q, a, beta*(m.txp[q*m.k+a]-m.mmu[q]*m.sx[a]))
		}
	}
	if err := m.qw.SetDistinctPrecision(m.wPrecs, m.wB); err != nil {
		return fmt.Errorf("ica: q(W): %w", err)
	}
	m.cacheW()
	return nil
}

// updateAlpha is eqs. 6.25-6.26: q(α_i) = gam(a_α + P/2, b_α + E[w_iᵀw_i]/2)
// with w_i the i-th column of W (dist.GaussianRows.ARDGammaTo).
func (m *VB) updateAlpha() {
	m.qw.ARDGammaTo(m.qa, dist.Gamma{Alpha: m.prior.AAlpha, Beta: m.prior.BAlpha})
}

// updateBeta is eqs. 6.27-6.29: q(β) = gam(a_β + NP/2, b_β + ½ Σ_n
// E‖t_n − Wx_n − μ‖²).
func (m *VB) updateBeta() {
	m.qb = dist.Gamma{Alpha: m.prior.ABeta + 0.5*float64(m.n*m.p), Beta: m.prior.BBeta + 0.5*m.sqResid()}
}

// sqResid is Σ_n E‖t_n − Wx_n − μ‖² under q (eqs. 6.28-6.29, with the
// "+" the print lost before the trace), summed as
//
//	Σ_n ‖t_n − E[W]E[x_n] − E[μ]‖² + tr(E[WᵀW] Σ_n Cov(x_n))
//	  + P tr(Σ_w Σ_n E[x_n]E[x_n]ᵀ) + NP s_μ,
//
// which is eq. 6.28's sum rearranged so that nothing cancels: when W is
// large the printed form subtracts terms of order ‖W‖²‖x‖² to leave a
// residual of order the noise variance (at E[β] = 10⁴ its rounding moved
// the bound by 10⁻⁴ nats).
func (m *VB) sqResid() float64 {
	k, n := m.k, m.n
	ew := m.ew.RawMatrix()
	var s float64
	for q := 0; q < m.p; q++ {
		r := m.res
		copy(r, m.tT[q*n:(q+1)*n])
		for i := range r {
			r[i] -= m.mmu[q]
		}
		for a := 0; a < k; a++ {
			numeric.Axpy(-ew.Data[q*ew.Stride+a], m.xb[a*n:(a+1)*n], r)
		}
		s += numeric.Dot(r, r)
	}
	s += numeric.Dot(m.ewtwR, m.scov)
	s += float64(m.p) * numeric.Dot(m.sigw, m.xxT)
	return s + float64(n*m.p)*m.smu
}

// Objective returns the bound of eq. 6.14 at the current q, with its named
// terms (the Term* constants) and every constant: it holds whatever
// factor was updated last, q(x) included (see TermSources). It does not
// allocate; the returned Terms slice is reused by the next call.
func (m *VB) Objective() vb.Bound {
	np := float64(m.n * m.p)
	data := 0.5*np*(m.qb.MeanLog()-math.Log(2*math.Pi)) - 0.5*m.qb.Mean()*m.sqResid()
	sources := m.srcTerm
	klW := dist.ExpectedKLARD(m.qw, m.qa)
	pa := dist.Gamma{Alpha: m.prior.AAlpha, Beta: m.prior.BAlpha}
	var klA float64
	for _, q := range m.qa {
		klA += dist.KLGamma(q, pa)
	}
	klB := dist.KLGamma(m.qb, dist.Gamma{Alpha: m.prior.ABeta, Beta: m.prior.BBeta})
	klMu := m.klMu()
	m.terms[0] = vb.Term{Name: TermData, Value: data}
	m.terms[1] = vb.Term{Name: TermSources, Value: sources}
	m.terms[2] = vb.Term{Name: TermW, Value: -klW}
	m.terms[3] = vb.Term{Name: TermAlpha, Value: -klA}
	m.terms[4] = vb.Term{Name: TermBeta, Value: -klB}
	m.terms[5] = vb.Term{Name: TermMu, Value: -klMu}
	return vb.Bound{F: data + sources - klW - klA - klB - klMu, Terms: m.terms}
}

// klMu is KL(q(μ) ‖ N(0, τ⁻¹I)) by dist.KLRowDiag, with τ held in the
// scratch vector resid.
func (m *VB) klMu() float64 {
	for q := range m.resid {
		m.resid[q] = m.prior.Tau
	}
	return dist.KLRowDiag(m.qmu, 0, nil, m.resid, nil)
}

// E updates q(μ) and then q(x), the text's order (L2497), and returns the
// bound.
func (m *VB) E() (vb.Bound, error) {
	if err := m.updateMu(); err != nil {
		return vb.Bound{}, err
	}
	if err := m.updateX(); err != nil {
		return vb.Bound{}, err
	}
	return m.Objective(), nil
}

// M updates q(W). A precision that is not positive definite (only possible
// for non-finite moments) leaves q(W) to be set again; the next E step
// reports the failure through a non-finite bound.
func (m *VB) M() {
	if err := m.updateW(); err != nil {
		m.ew.Set(0, 0, math.NaN())
		m.ewtwR[0] = math.NaN()
	}
}

// HyperGroups returns GroupAlpha and GroupBeta.
func (m *VB) HyperGroups() []string { return []string{GroupAlpha, GroupBeta} }

// UpdateHyper updates q(α) (GroupAlpha) or q(β) (GroupBeta); these are
// factors of q, not point hyperparameters, updated on the schedule of
// vb.Settings.Hyper: Schedule gives the text's.
func (m *VB) UpdateHyper(group string) {
	switch group {
	case GroupAlpha:
		m.updateAlpha()
	case GroupBeta:
		m.updateBeta()
	default:
		panic("ica: unknown hyperparameter group " + group)
	}
}

// Schedule returns the text's schedule (L2497): q(α) and q(β) after every
// inner-th M step, so that vb.Run with MaxIterations = inner·outer and
// vb.FixedIterations runs outer loops of inner updates of q(μ), q(x) and
// q(W), each followed by q(α), q(β).
func Schedule(inner int) []vb.Stage {
	inner = max(inner, 1)
	return []vb.Stage{{Group: GroupAlpha, From: inner, Every: inner}, {Group: GroupBeta, From: inner, Every: inner}}
}

// Dims returns N, P and I.
func (m *VB) Dims() (n, p, i int) { return m.n, m.p, m.k }

// Components returns M^I, the number of Gaussians of each q(x_n).
func (m *VB) Components() int { return m.comps }

// MeanW returns E[W] (P×I), a copy.
func (m *VB) MeanW() *mat.Dense { return mat.DenseCopyOf(m.ew) }

// MeanX returns E[x_n] for every point (N×I row-major), a copy.
func (m *VB) MeanX() []float64 { return append([]float64(nil), m.ex...) }

// MeanMu returns E[μ], a copy.
func (m *VB) MeanMu() []float64 { return append([]float64(nil), m.mmu...) }

// Alpha returns E[α_i] under q(α_i).
func (m *VB) Alpha(i int) float64 { return m.qa[i].Mean() }

// Beta returns E[β] under q(β).
func (m *VB) Beta() float64 { return m.qb.Mean() }
