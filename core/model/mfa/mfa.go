package mfa

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/mixture"
	"github.com/vbworkbench/vbw/core/vb"
)

// Hyper holds the hyperparameters Θ = (α*, a*, b*, μ*, ν*, Ψ) of Beal (2003)
// eq. (4.20) (../shared/seeds/000_055f6e591db3cc60.txt line 2333). In
// Settings.Hyper a zero field means its default, chosen for z-scored data
// (targets ch4-mfa.md §1.7, §1.14).
type Hyper struct {
	// Alpha is α*, the strength of the symmetric Dirichlet prior on π: each
	// of the S entries is α*/S (eq. (4.15), line 2298). Default 1.
	Alpha float64
	// A and B are a* and b*, the shape and rate (not scale) of the gamma
	// hyperprior Ga(a*, b*) of every ARD precision ν^s_l (eq. (4.18), line
	// 2316). Defaults 1 and 0.01: with the reference code's b* = 1, ARD does
	// not prune on z-scored data (targets §1.14, rows A–C).
	A, B float64
	// Mu and Nu are μ* and ν*, the mean and precision of the prior on every
	// analyser mean, per output dimension (eq. (4.19), line 2325). Defaults:
	// the data mean and 1/(sample variance) of each coordinate (1 where the
	// variance is 0, as it is exactly for a constant coordinate).
	Mu, Nu []float64
	// Psi is the diagonal of Ψ, the sensor-noise covariance shared by all
	// analysers; it has no prior and is optimised (line 2291). Default: from
	// the PCA initialisation (see NewVB).
	Psi []float64
}

func (h Hyper) clone() Hyper {
	h.Mu, h.Nu, h.Psi = slices.Clone(h.Mu), slices.Clone(h.Nu), slices.Clone(h.Psi)
	return h
}

// Settings configure NewVB and NewVBRandom. The zero value of every field means
// its documented default.
type Settings struct {
	// K is k_max, the number of factor columns of every analyser (0 ≤ K ≤ p).
	// ARD switches the unneeded ones off; they are kept (line 2865). K = 0
	// gives a mixture of Gaussians with the shared diagonal covariance Ψ.
	K int
	// Ks, if not nil, gives analyser s its own number of columns Ks[s]
	// (overriding K); len(Ks) must be S.
	Ks []int
	// Hyper holds the hyperparameters; zero fields take their defaults.
	Hyper Hyper
	// PsiMin is the floor of every ψ_q in the Ψ update. Default 1e-5, the
	// reference code's psimin (targets §1.7); a negative value means 0.
	PsiMin float64
	// ABMax freezes the a*, b* update while a* exceeds it (targets §1.14:
	// from a* = b* = 1 the update runs away to a point-mass hyperprior that
	// disables ARD for good). Default 1e3.
	ABMax float64
	// InnerRepeats is the number of times E repeats the coupled q(x), q(Λ̃),
	// q(s) updates before computing F (line 2551, targets §1.6). Default 1.
	InnerRepeats int
	// ReferencePenalty subtracts p(k_s+1) nats per analyser from F, as the
	// reference code's bound does: its −KL[q(Λ̃^s)] has ½(ln|Γ^s_q| − (k_s+1))
	// per row where eq. (4.29) has ½(ln|Γ^s_q| + (k_s+1)) (targets §1.4
	// item 3; issue 20). The penalty does not depend on any q, so no update
	// changes; it makes every birth cost p(k+1) nats more and every death
	// gain as much, and it is reported as the term TermRefPenalty. Default
	// false: F is eq. (4.29). An ablation.
	ReferencePenalty bool
}

// Defaults of Settings.
const (
	DefaultAlpha  = 1.0
	DefaultA      = 1.0
	DefaultB      = 0.01
	DefaultPsiMin = 1e-5
	DefaultABMax  = 1e3
)

// VB is the VBMFA of Beal (2003) section 4.2 on a fixed data set. It
// implements vb.Model, vb.HyperUpdater and vb.Mover. Build it with NewVB or
// NewVBRandom; the fields below may be changed between steps. A VB is not
// safe for concurrent use.
type VB struct {
	// Hyper holds the current hyperparameters Θ. UpdateHyper changes them;
	// a caller may set them between steps (the slices have length p).
	Hyper Hyper
	// PsiMin, ABMax, InnerRepeats and ReferencePenalty are as in Settings
	// (defaults applied).
	PsiMin           float64
	ABMax            float64
	InnerRepeats     int
	ReferencePenalty bool
	// ABFrozen counts the calls of UpdateHyper(HyperAB) that were skipped
	// because a* exceeded ABMax (targets §1.14: report when this happens).
	ABFrozen int
	// Moves controls the births and deaths proposed to vb.Search.
	Moves MoveSettings

	y    *mat.Dense // n×p, contiguous rows
	yT   []float64  // the data transposed, p×n: yT[q*n+i] = y_iq
	yT2  []float64  // their squares, p×n: yT2[q*n+i] = y_iq²
	n, p int
	yy   []float64 // Σ_i y_iq², p

	comps []*component
	omega []float64 // q(π) = Dir(ω), S
	resp  []float64 // q(s_i = s), S×n: resp[s*n+i]

	// For Agitation: q(s) before the last E step, whether it is comparable
	// with q(s) after it (no move or Restore came between), and whether a
	// move or Restore came since the last E step.
	prevResp []float64
	agValid  bool
	moved    bool

	// eSteps counts the calls of E; deaths logs the removals made in them
	// (Deaths).
	eSteps int
	deaths []Death

	// Workspace of E, refreshed from the state above.
	ipsi     []float64 // 1/ψ_q
	lnPsiSum float64   // Σ_q ln ψ_q
	yPy      []float64 // y_iᵀΨ⁻¹y_i, n
	lnZ      []float64 // the normalisers of the last updateS, n
	elnpi    []float64 // ψ(ω_s) − ψ(ω_0), S
	tx, ty   []float64 // T_x(i,s), T_y(i,s) of targets §1.4, S×n
	ell      []float64 // S
	terms    []vb.Term // the Terms of the last bound
	kvec     []float64 // dmax, for the prior of a loading row
	kprec    []float64
	klprec   []float64

	// Chunk buffers of the loops of E: the gathered or centred data gy
	// (p×chunk), gathered means gx, weighted means gz and the h_a of
	// computeT hk (dmax×chunk); weights gr and point indices idx (chunk);
	// um holds −2Ψ⁻¹E[Λ̃] by column (dmax×p), ga the coefficients of
	// computeT's products with the means (dmax×dmax+dmax); sc and scWork
	// are scatter's sum ((p+1)×(p+1)) and its kernel's scratch.
	gy, gx, gz, hk, um, ga []float64
	gr                     []float64
	idx                    []int
	sc, scWork             []float64
}

// component holds q(Λ̃^s), q(ν^s) and q(x|s) of one analyser with its
// workspace.
type component struct {
	k, d int // factor columns, d = k+1

	// rows is q(Λ̃^s): p rows of dimension d. A GaussianRows is immutable
	// for everyone else; E overwrites it in place (SetDistinctPrecision)
	// only while ownRows says that nothing else holds it: a snapshot, a
	// clone or a caller of Loadings clears ownRows, and the next E then
	// builds a new one.
	rows    *dist.GaussianRows
	ownRows bool
	nu      []dist.Gamma // q(ν^s_l), l < k

	// q(x_i | s) = N(x̄_i, Σ): Σ (k×k), its log-determinant and trace, and
	// the means x̃_i = [x̄_i; 1] by coordinate, d×n: xT[j*n+i] = x̃_ij.
	sigma       []float64
	logDetSigma float64
	traceSigma  float64
	xT          []float64
	klNu, klLam float64 // KL terms of the last bound (for F_s)
	a           *mat.SymDense
	afull       []float64 // ⟨Λ̃ᵀΨ⁻¹Λ̃⟩ (d×d, full)
	mean        *mat.Dense
	wt          []float64 // Σ E[Λ]ᵀΨ⁻¹ (k×p)
	cv          []float64 // Σ ⟨Λᵀ Ψ⁻¹ μ⟩ (k)
	// xFresh says that xT holds wt y_i − cv for the current wt and cv (set
	// by updateX; a fresh, cloned or restored component has it false), so
	// that statsScatter may compute the statistics.
	xFresh bool

	// The data scatter (see scatter) for the responsibilities scR: mass
	// scN, weighted mean scMean (p) and centred scatter scD (p×p); wd
	// (k×p) is workspace. Allocated at first use.
	scValid     bool
	scR         []float64
	scN         float64
	scMean, scD []float64
	wd          []float64

	chol, scratch []float64 // k×k
	g             []float64 // Σ_i q_is ⟨x̃x̃ᵀ⟩ (d×d)
	syx           []float64 // Σ_i q_is y_i x̃_iᵀ (p×d)
	nsum          float64   // Σ_i q_is at the last statistics
	precBuf       []*mat.SymDense
	precs         []mat.Symmetric
	b             *mat.Dense // linear terms of the loading rows (p×d)
	colm          []float64  // column second moments (d)
	ss            *mat.SymDense
	mrow          []float64 // d
}

func newComponent(n, p, k int) *component {
	d := k + 1
	c := &component{
		k: k, d: d,
		nu:      make([]dist.Gamma, k),
		sigma:   make([]float64, k*k),
		xT:      make([]float64, d*n),
		a:       mat.NewSymDense(d, nil),
		afull:   make([]float64, d*d),
		mean:    mat.NewDense(p, d, nil),
		wt:      make([]float64, k*p),
		cv:      make([]float64, k),
		chol:    make([]float64, k*k),
		scratch: make([]float64, k*k),
		g:       make([]float64, d*d),
		syx:     make([]float64, p*d),
		precBuf: make([]*mat.SymDense, p),
		precs:   make([]mat.Symmetric, p),
		b:       mat.NewDense(p, d, nil),
		colm:    make([]float64, d),
		ss:      mat.NewSymDense(d, nil),
		mrow:    make([]float64, d),
	}
	for q := range c.precBuf {
		c.precBuf[q] = mat.NewSymDense(d, nil)
		c.precs[q] = c.precBuf[q]
	}
	for i := k * n; i < d*n; i++ {
		c.xT[i] = 1
	}
	for l := 0; l < k; l++ {
		c.sigma[l*k+l] = 1
	}
	return c
}

// clone returns a deep copy of the state of c (q(Λ̃) is immutable and
// shared) with fresh workspace.
func (c *component) clone(n, p int) *component {
	t := newComponent(n, p, c.k)
	t.rows = c.rows
	c.ownRows = false
	copy(t.nu, c.nu)
	copy(t.sigma, c.sigma)
	t.logDetSigma, t.traceSigma = c.logDetSigma, c.traceSigma
	copy(t.xT, c.xT)
	t.klNu, t.klLam = c.klNu, c.klLam
	return t
}

// ErrNotPositiveDefinite wraps a failure to factorise a posterior
// precision (a numerical breakdown, e.g. a NaN from the data).
var ErrNotPositiveDefinite = errors.New("mfa: posterior precision not positive definite")

// NewVB returns the VBMFA for the data y (n×p, one observation per row) with
// S analysers, started from the responsibilities resp (n×S, q(s_i = s);
// each row is normalised to sum to 1). S is the number of columns of resp.
//
// Every analyser is initialised from a PCA of its responsibility-weighted
// data (targets §1.14; random loadings can collapse to the all-noise
// optimum): with the weighted mean m and covariance C of eigenvalues
// e_1 ≥ … ≥ e_p and eigenvectors u_l,
//
//	E[μ^s] = m,  E[Λ^s_{·l}] = u_l √max(e_l − σ², 10⁻³),  Cov(Λ̃^s_q) = σ²/max(N_s, 1) I,
//
// σ² the mean of the trailing p−k eigenvalues (0.01 if k ≥ p−1; at least
// 10⁻³) and N_s = Σ_i q_is. (targets §1.14 sets Cov(Λ̃^s_q) = I; with noise
// σ² ≪ 1 that makes the first q(x) shrink every x̄ towards 0 and costs
// hundreds of iterations: on the embedded clusters of section 4.5.2 from
// the true labels, F reaches within 1 nat of its limit after 50 iterations
// with σ²/N_s, after about 500 with I, to the same optimum.) Unless
// Settings.Hyper.Psi is given, Ψ = σ̄²I with σ̄² the responsibility-weighted
// mean of the analysers' σ² (at least 10⁻³). q(ν) and q(π) are then their
// optimal updates given q(Λ̃) and q(s) (eqs. (4.37), (4.40)); q(x) is set by
// the first E step.
//
// NewVB returns an error if the data or the responsibilities are not finite,
// a responsibility is negative or a row sums to 0, a hyperparameter is out
// of range, or a dimension is inconsistent.
func NewVB(y mat.Matrix, resp mat.Matrix, set Settings) (*VB, error) {
	n, p := y.Dims()
	if n < 1 || p < 1 {
		return nil, fmt.Errorf("mfa: empty data (%d×%d)", n, p)
	}
	rn, S := resp.Dims()
	if rn != n || S < 1 {
		return nil, fmt.Errorf("mfa: responsibilities are %d×%d, want %d×S with S ≥ 1", rn, S, n)
	}
	ks, err := componentDims(set, S, p)
	if err != nil {
		return nil, err
	}
	m := &VB{y: mat.DenseCopyOf(y), n: n, p: p}
	for _, v := range m.y.RawMatrix().Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("mfa: data not finite")
		}
	}
	r := make([]float64, S*n)
	for i := 0; i < n; i++ {
		var sum float64
		for s := 0; s < S; s++ {
			v := resp.At(i, s)
			if !(v >= 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("mfa: responsibility (%d,%d) = %v", i, s, v)
			}
			r[s*n+i] = v
			sum += v
		}
		if !(sum > 0) {
			return nil, fmt.Errorf("mfa: responsibilities of point %d sum to 0", i)
		}
		for s := 0; s < S; s++ {
			r[s*n+i] /= sum
		}
	}
	if err := m.setSettings(set); err != nil {
		return nil, err
	}
	m.yy = make([]float64, p)
	m.yT = make([]float64, p*n)
	m.yT2 = make([]float64, p*n)
	for i := 0; i < n; i++ {
		for q, v := range m.y.RawRowView(i) {
			m.yy[q] += v * v
			m.yT[q*n+i] = v
			m.yT2[q*n+i] = v * v
		}
	}
	m.resp = r
	if err := m.initPCA(ks, set.Hyper.Psi == nil); err != nil {
		return nil, err
	}
	return m, nil
}

// NewVBRandom returns NewVB(y, resp, set) with random responsibilities: each row
// of resp drawn from the flat Dirichlet Dir(1, …, 1) with rnd (the "soft
// random q(s)" start of targets §3.9).
func NewVBRandom(y mat.Matrix, S int, set Settings, rnd *rand.Rand) (*VB, error) {
	n, _ := y.Dims()
	if S < 1 || n < 1 {
		return nil, fmt.Errorf("mfa: S = %d, n = %d", S, n)
	}
	ones := make([]float64, S)
	for i := range ones {
		ones[i] = 1
	}
	d := dist.Dirichlet{Alpha: ones}
	resp := mat.NewDense(n, S, nil)
	for i := 0; i < n; i++ {
		d.Rand(resp.RawRowView(i), rnd)
	}
	return NewVB(y, resp, set)
}

// componentDims returns k_s for every analyser.
func componentDims(set Settings, S, p int) ([]int, error) {
	ks := make([]int, S)
	if set.Ks != nil {
		if len(set.Ks) != S {
			return nil, fmt.Errorf("mfa: %d factor dimensionalities for %d analysers", len(set.Ks), S)
		}
		copy(ks, set.Ks)
	} else {
		for s := range ks {
			ks[s] = set.K
		}
	}
	for _, k := range ks {
		if k < 0 || k > p {
			return nil, fmt.Errorf("mfa: k = %d factors, want 0 ≤ k ≤ p = %d", k, p)
		}
	}
	return ks, nil
}

// setSettings fills the hyperparameters (defaults from the data) and the
// scalar settings, and checks them.
func (m *VB) setSettings(set Settings) error {
	h := set.Hyper.clone()
	p := m.p
	if h.Alpha == 0 {
		h.Alpha = DefaultAlpha
	}
	if h.A == 0 {
		h.A = DefaultA
	}
	if h.B == 0 {
		h.B = DefaultB
	}
	mean, vr := columnMoments(m.y)
	if h.Mu == nil {
		h.Mu = mean
	}
	if h.Nu == nil {
		h.Nu = make([]float64, p)
		for q, v := range vr {
			h.Nu[q] = 1
			if v > 0 {
				h.Nu[q] = 1 / v
			}
		}
	}
	positive := func(name string, v float64) error {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("mfa: %s = %v, want positive and finite", name, v)
		}
		return nil
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"α*", h.Alpha}, {"a*", h.A}, {"b*", h.B}} {
		if err := positive(c.name, c.v); err != nil {
			return err
		}
	}
	if len(h.Mu) != p || len(h.Nu) != p || (h.Psi != nil && len(h.Psi) != p) {
		return fmt.Errorf("mfa: μ*, ν*, Ψ have lengths %d, %d, %d; want p = %d", len(h.Mu), len(h.Nu), len(h.Psi), p)
	}
	for q := 0; q < p; q++ {
		if math.IsNaN(h.Mu[q]) || math.IsInf(h.Mu[q], 0) {
			return fmt.Errorf("mfa: μ*[%d] = %v", q, h.Mu[q])
		}
		if err := positive(fmt.Sprintf("ν*[%d]", q), h.Nu[q]); err != nil {
			return err
		}
		if h.Psi != nil {
			if err := positive(fmt.Sprintf("ψ[%d]", q), h.Psi[q]); err != nil {
				return err
			}
		}
	}
	m.Hyper = h
	m.PsiMin = set.PsiMin
	switch {
	case m.PsiMin == 0:
		m.PsiMin = DefaultPsiMin
	case m.PsiMin < 0:
		m.PsiMin = 0
	}
	m.ABMax = set.ABMax
	if m.ABMax <= 0 {
		m.ABMax = DefaultABMax
	}
	m.InnerRepeats = max(set.InnerRepeats, 1)
	m.ReferencePenalty = set.ReferencePenalty
	return nil
}

// columnMoments returns the mean and the sample variance (divisor n−1; 0
// when n = 1) of every column of y. A column whose values are all equal
// has that value as its mean and variance 0 exactly. Computed, its mean
// Σ_i y_iq/n is in general not the value (three times 0.1 sums to
// 0.30000000000000004), and the deviations from it, of one or a few ulps,
// give a variance of order (n·ulp)² instead of 0: about 1e-34 to 1e-31 on
// the pixels that are constant within one digit class of optdigits. The
// default ν*_q = 1/variance would then be 1e31 to 1e34, and the term
// ½ν*_q(E[μ^s_q] − μ*_q)² of −KL[q(Λ̃)] would turn the one-ulp rounding of
// E[μ^s_q] − μ*_q into changes of F of tenths of a nat at every update.
func columnMoments(y *mat.Dense) (mean, vr []float64) {
	n, p := y.Dims()
	mean, vr = make([]float64, p), make([]float64, p)
	constant := make([]bool, p)
	for q := range constant {
		constant[q] = true
	}
	first := y.RawRowView(0)
	for i := 0; i < n; i++ {
		for q, v := range y.RawRowView(i) {
			mean[q] += v
			constant[q] = constant[q] && v == first[q]
		}
	}
	for q := range mean {
		mean[q] /= float64(n)
		if constant[q] {
			mean[q] = first[q]
		}
	}
	if n < 2 {
		return mean, vr
	}
	for i := 0; i < n; i++ {
		for q, v := range y.RawRowView(i) {
			d := v - mean[q]
			vr[q] += d * d
		}
	}
	for q := range vr {
		vr[q] /= float64(n - 1)
	}
	return mean, vr
}

// resize gives the per-analyser workspace of the model the size for S
// analysers.
func (m *VB) resize() {
	S := len(m.comps)
	dmax := 1
	for _, c := range m.comps {
		dmax = max(dmax, c.d)
	}
	m.elnpi = make([]float64, S)
	m.tx = make([]float64, S*m.n)
	m.ty = make([]float64, S*m.n)
	m.gy = make([]float64, m.p*chunk)
	m.gx = make([]float64, dmax*chunk)
	m.gz = make([]float64, dmax*chunk)
	m.hk = make([]float64, dmax*chunk)
	m.um = make([]float64, dmax*m.p)
	m.ga = make([]float64, dmax*dmax+dmax)
	m.gr = make([]float64, chunk)
	m.idx = make([]int, chunk)
	m.ell = make([]float64, S)
	m.kvec = make([]float64, dmax)
	m.kprec = make([]float64, dmax)
	m.klprec = make([]float64, dmax)
	if m.ipsi == nil {
		m.ipsi = make([]float64, m.p)
		m.yPy = make([]float64, m.n)
		m.lnZ = make([]float64, m.n)
		m.sc = make([]float64, (m.p+1)*(m.p+1))
		m.scWork = make([]float64, 2*(m.p+1)*scatterBlock+16)
	}
}

// N returns the number of observations n.
func (m *VB) N() int { return m.n }

// P returns the data dimension p.
func (m *VB) P() int { return m.p }

// Size returns the number of analysers S.
func (m *VB) Size() int { return len(m.comps) }

// Data returns the data (n×p). It must not be modified.
func (m *VB) Data() mat.Matrix { return m.y }

// Dim returns k_s, the number of factor columns of analyser s (active or
// not; see ColumnEnergies).
func (m *VB) Dim(s int) int { return m.comps[s].k }

// Loadings returns q(Λ̃^s), the Gaussian rows Λ̃^s_q = [Λ^s_q·, μ^s_q] of the
// augmented factor loadings of analyser s (p rows of dimension k_s+1, the
// mean last; eqs. (4.43)–(4.50), lines 2486–2511). It is immutable; the next
// E step replaces it.
func (m *VB) Loadings(s int) *dist.GaussianRows {
	c := m.comps[s]
	c.ownRows = false
	return c.rows
}

// ARD returns q(ν^s_l) = Ga(a*+p/2, b^s_l), l < k_s, the posteriors of the ARD
// precisions of the columns of Λ^s (eq. (4.40), line 2468), as a new slice.
func (m *VB) ARD(s int) []dist.Gamma { return slices.Clone(m.comps[s].nu) }

// Pi returns q(π) = Dir(ω) (eq. (4.37), line 2456).
func (m *VB) Pi() dist.Dirichlet { return dist.Dirichlet{Alpha: slices.Clone(m.omega)} }

// Resp returns the responsibilities q(s_i = s) as a new n×S matrix.
func (m *VB) Resp() *mat.Dense {
	S := len(m.comps)
	r := mat.NewDense(m.n, S, nil)
	for s := 0; s < S; s++ {
		for i, v := range m.resp[s*m.n : (s+1)*m.n] {
			r.Set(i, s, v)
		}
	}
	return r
}

// Counts returns N_s = Σ_i q(s_i = s) for every analyser, as a new slice.
func (m *VB) Counts() []float64 {
	return mixture.Counts(nil, m.resp, m.n)
}

// Factors returns q(x_i | s) = N(x̄^s_i, Σ^s) of analyser s (eqs.
// (4.53)–(4.55), lines 2527–2534): the means x̄^s_i as the rows of an n×k_s
// matrix and the shared covariance Σ^s. Both are nil when k_s = 0.
func (m *VB) Factors(s int) (mean *mat.Dense, cov *mat.SymDense) {
	c := m.comps[s]
	if c.k == 0 {
		return nil, nil
	}
	mean = mat.NewDense(m.n, c.k, nil)
	for l := 0; l < c.k; l++ {
		for i, v := range c.xT[l*m.n : (l+1)*m.n] {
			mean.Set(i, l, v)
		}
	}
	return mean, mat.NewSymDense(c.k, slices.Clone(c.sigma))
}

// ColumnEnergies returns E‖Λ^s_{·l}‖² = Σ_q (E[Λ_ql]² + Var Λ_ql) for every
// column l < k_s of analyser s, the readout statistic of targets §1.8: a
// column is active when its energy is at least a threshold τ (0.1 in
// z-scored units by default there). ActiveDims counts them.
func (m *VB) ColumnEnergies(s int) []float64 {
	c := m.comps[s]
	e := c.rows.ColumnSecondMomentsTo(nil)
	return e[:c.k]
}

// ActiveDims returns the number of columns of analyser s whose energy
// (ColumnEnergies) is at least tau.
func (m *VB) ActiveDims(s int, tau float64) int {
	var a int
	for _, e := range m.ColumnEnergies(s) {
		if e >= tau {
			a++
		}
	}
	return a
}

// Term names of the bound F (eq. (4.29), the block of lines 2405–2419;
// targets §1.4), in the order E reports them. Summed over i and s with
// weights q_is where they are per datum.
const (
	TermKLPi     = "-KL[pi]"        // −KL(q(π) ‖ p(π))
	TermKLNu     = "-KL[nu]"        // −Σ_s Σ_l KL(q(ν^s_l) ‖ Ga(a*, b*))
	TermKLLambda = "-KL[Lambda]"    // −Σ_s Σ_q ⟨KL(q(Λ̃^s_q) ‖ p(Λ̃^s_q | ν^s))⟩_q(ν)
	TermLnPiS    = "E[ln p(s|pi)]"  // Σ_i Σ_s q_is (ψ(ω_s) − ψ(ω_0))
	TermHS       = "H[q(s)]"        // −Σ_i Σ_s q_is ln q_is
	TermKLX      = "-KL[x]"         // −Σ_i Σ_s q_is KL(q(x_i|s) ‖ N(0, I))
	TermLik      = "E[ln p(y|s,x)]" // Σ_i Σ_s q_is ⟨ln N(y_i | Λ̃^s x̃_i, Ψ)⟩
	// TermRefPenalty is −Σ_s p(k_s+1), present only under
	// Settings.ReferencePenalty (not part of eq. (4.29)).
	TermRefPenalty = "-p(k+1)[ref]"
)

var _ interface {
	vb.Model
	vb.HyperUpdater
	vb.Mover
} = (*VB)(nil)
