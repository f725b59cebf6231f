package backfit

import (
	"errors"
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// The direct relevance vector machine (Tipping 2001), the baseline that
// D'Souza's backfitting RVM replaces (eqs. 4.33-4.34, L1757-1795): the
// linear model
//
//	y = Φw + ε,  ε ~ N(0, β⁻¹I),  w_j ~ N(0, α_j⁻¹)
//
// on M basis functions (the columns of Φ; for the RVM a kernel on every
// training point and a bias, KernelBasis), with the precisions α and the
// noise precision β fitted by type-II maximum likelihood, that is by
// maximising the log evidence
//
//	ln p(y|α, β) = ln N(y | 0, β⁻¹I + ΦA⁻¹Φᵀ)
//	             = ln N(y | Φμ, β⁻¹I) + ln N(μ | 0, A⁻¹) + ½ ln|2πΣ|,
//
// where Σ = (A + βΦᵀΦ)⁻¹ and μ = βΣΦᵀy are the posterior covariance and
// mean of w (the second form is the Gaussian integral over w written at
// its mode, exact for this linear-Gaussian model). Every iteration factors
// the posterior precision Σ⁻¹ of the basis functions still in the model by
// Cholesky, O(M³): the cost the backfitting RVM avoids (L1776).

// Term names of the log evidence RVM.E reports; they sum to ln p(y|α, β).
const (
	// TermRVMLik is ln N(y | Φμ, β⁻¹I) = −(N/2) ln 2π + (N/2) ln β − (β/2)‖y − Φμ‖².
	TermRVMLik = "ln N(y|Phi mu, 1/beta)"
	// TermRVMPrior is ln N(μ | 0, A⁻¹) = −(M/2) ln 2π + ½ Σ ln α_j − ½ Σ α_j μ_j².
	TermRVMPrior = "ln N(mu|0, 1/alpha)"
	// TermRVMVolume is ½ ln|2πΣ| = (M/2) ln 2π − ½ ln|Σ⁻¹|.
	TermRVMVolume = "ln|2 pi Sigma|/2"
)

// RVMUpdate chooses the re-estimation of α and β in RVM.M.
type RVMUpdate int

const (
	// MacKay is Tipping's (2001) re-estimation, MacKay's fixed point of the
	// evidence: γ_j = 1 − α_j Σ_jj, α_j ← γ_j/μ_j², β ← (N − Σ_j γ_j)/‖y − Φμ‖².
	// It is fast, but it is not coordinate ascent: nothing guarantees that
	// the evidence never decreases under it (TestRVMMacKayEvidence measures
	// it). The default.
	MacKay RVMUpdate = iota
	// EMUpdate is the EM algorithm for the evidence with w hidden:
	// α_j ← 1/(μ_j² + Σ_jj), β ← N/(‖y − Φμ‖² + tr(ΦΣΦᵀ)). Each M step
	// maximises the expected complete log likelihood, so the evidence never
	// decreases (vbtest.CheckModel holds it to that); it converges more
	// slowly than MacKay's.
	EMUpdate
)

// RVMSettings control NewRVM. The zero value of every field means its
// documented default.
type RVMSettings struct {
	// Update is the re-estimation rule of M. Default MacKay.
	Update RVMUpdate
	// PruneAlpha is the cap on the precisions: at the start of each E step
	// a basis function whose α_j exceeds it leaves the model for good (α_j =
	// ∞, w_j = 0), as in Tipping (2001). It is also the rule that says
	// which basis vectors a fit keeps (Kept). Default 1e6; it is in units
	// of 1/w², so state it for targets of unit variance.
	PruneAlpha float64
	// InitAlpha is the starting α_j of every basis function. Default
	// 1/var(y) (a prior standard deviation of each weight equal to that of
	// the targets).
	InitAlpha float64
	// InitBeta is the starting β. Default 100/var(y) (a noise standard
	// deviation of a tenth of the targets').
	InitBeta float64
	// FixBeta keeps β at InitBeta instead of re-estimating it.
	FixBeta bool
}

// DefaultPruneAlpha is the default RVMSettings.PruneAlpha.
const DefaultPruneAlpha = 1e6

// RVM is Tipping's (2001) relevance vector machine on a fixed design Φ
// (column-major N×M: column j holds φ_j(x_1), …, φ_j(x_N)). E prunes the
// basis functions whose α exceeds the cap (Bound.Jump is the change of the
// evidence that this makes) and computes the posterior of w over the rest
// and the log evidence; M re-estimates α and β. With EMUpdate it is a
// coordinate-ascent algorithm for vb.Run; with MacKay, the default, a run
// must tolerate decreases (see MacKay and FitRVM).
type RVM struct {
	n, m0 int
	phi   []float64 // column-major n×m0, not owned
	y     []float64 // not owned
	s     RVMSettings

	g, h []float64 // ΦᵀΦ (m0×m0) and Φᵀy: once, O(N M²)

	alpha []float64 // m0; +Inf for a pruned basis function
	beta  float64

	active []int // the basis functions in the model, in increasing order
	order  []int // scratch: the kept then the dropped, for E

	l     []float64 // the Cholesky factor of Σ⁻¹ (stride: the active count)
	sigma []float64 // Σ of the active basis functions
	mu    []float64 // μ over active (len(active))
	resid []float64 // y − Φμ
	work  []float64

	rss   float64 // ‖y − Φμ‖²
	terms [3]vb.Term
	bound vb.Bound
	ready bool // E has run since the last M
}

// NewRVM builds the RVM of the targets y (length N) on the column-major
// N×M design phi. Neither slice is copied: they must not change while the
// RVM is used. It computes ΦᵀΦ and Φᵀy, O(N M²).
func NewRVM(phi []float64, n int, y []float64, s RVMSettings) (*RVM, error) {
	if n < 2 || len(y) != n {
		return nil, fmt.Errorf("backfit: NewRVM: %d targets for %d rows (want N ≥ 2 and one target a row)", len(y), n)
	}
	if len(phi) == 0 || len(phi)%n != 0 {
		return nil, fmt.Errorf("backfit: NewRVM: design of %d values is not N×M with N = %d", len(phi), n)
	}
	m0 := len(phi) / n
	for _, v := range phi {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("backfit: NewRVM: design has a value that is not finite")
		}
	}
	var mean, vy float64
	for _, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("backfit: NewRVM: a target is not finite")
		}
		mean += v
	}
	mean /= float64(n)
	for _, v := range y {
		vy += (v - mean) * (v - mean)
	}
	vy /= float64(n)
	if !(vy > 0) {
		return nil, errors.New("backfit: NewRVM: the targets have no variance")
	}
	if s.PruneAlpha == 0 {
		s.PruneAlpha = DefaultPruneAlpha
	}
	if s.InitAlpha == 0 {
		s.InitAlpha = 1 / vy
	}
	if s.InitBeta == 0 {
		s.InitBeta = 100 / vy
	}
	if !(s.PruneAlpha > 0) || !(s.InitAlpha > 0) || !(s.InitBeta > 0) || math.IsInf(s.InitAlpha, 0) || math.IsInf(s.InitBeta, 0) {
		return nil, fmt.Errorf("backfit: NewRVM: settings %+v: PruneAlpha, InitAlpha and InitBeta must be positive and finite", s)
	}
	if s.Update != MacKay && s.Update != EMUpdate {
		return nil, fmt.Errorf("backfit: NewRVM: unknown update %d", s.Update)
	}
	r := &RVM{n: n, m0: m0, phi: phi, y: y, s: s,
		g: make([]float64, m0*m0), h: make([]float64, m0),
		alpha: make([]float64, m0), beta: s.InitBeta,
		active: make([]int, m0), order: make([]int, m0),
		l: make([]float64, m0*m0), sigma: make([]float64, m0*m0), mu: make([]float64, m0),
		resid: make([]float64, n), work: make([]float64, max(m0*m0, n))}
	for j := 0; j < m0; j++ {
		cj := phi[j*n : (j+1)*n]
		r.h[j] = numeric.Dot(cj, y)
		for k := 0; k <= j; k++ {
			v := numeric.Dot(cj, phi[k*n:(k+1)*n])
			r.g[j*m0+k], r.g[k*m0+j] = v, v
		}
		r.alpha[j] = s.InitAlpha
		r.active[j] = j
	}
	return r, nil
}

// evidence returns the three terms of the log evidence of the basis
// functions idx (the Cholesky factor l of their Σ⁻¹, stride len(idx)),
// and leaves μ in mu[:len(idx)] and y − Φμ in resid.
func (r *RVM) evidence(idx []int, l []float64) (lik, prior, volume float64) {
	k := len(idx)
	mu := r.mu[:k]
	for a, j := range idx {
		mu[a] = r.beta * r.h[j]
	}
	numeric.CholSolveVec(l, k, mu)
	numeric.CholSolveVecT(l, k, mu)
	copy(r.resid, r.y)
	var quad, lnA float64
	for a, j := range idx {
		numeric.Axpy(-mu[a], r.phi[j*r.n:(j+1)*r.n], r.resid)
		quad += r.alpha[j] * mu[a] * mu[a]
		lnA += math.Log(r.alpha[j])
	}
	r.rss = numeric.Dot(r.resid, r.resid)
	n, m := float64(r.n), float64(k)
	lik = -0.5*n*math.Log(2*math.Pi) + 0.5*n*math.Log(r.beta) - 0.5*r.beta*r.rss
	prior = -0.5*m*math.Log(2*math.Pi) + 0.5*lnA - 0.5*quad
	volume = 0.5*m*math.Log(2*math.Pi) - 0.5*numeric.CholLogDet(l, k)
	return lik, prior, volume
}

// factor writes Σ⁻¹ = A + βΦᵀΦ of the basis functions idx into r.l
// (stride len(idx)) and factors it.
func (r *RVM) factor(idx []int) error {
	k := len(idx)
	l := r.l[:k*k]
	for a, j := range idx {
		row := r.g[j*r.m0:]
		for b, i := range idx[:a+1] {
			l[a*k+b] = r.beta * row[i]
		}
		l[a*k+a] += r.alpha[j]
	}
	if !numeric.CholFactor(l, k) {
		return fmt.Errorf("backfit: RVM: the posterior precision of %d basis functions is not positive definite (β = %g)", k, r.beta)
	}
	return nil
}

// E prunes the basis functions whose α exceeds the cap, computes the
// posterior N(μ, Σ) of the weights of the rest (one Cholesky factor of
// Σ⁻¹ = A + βΦᵀΦ, O(M³)) and returns the log evidence ln p(y|α, β) in
// three terms. When basis functions leave, the evidence with them is
// computed from the same factor (the kept ones are ordered first, so that
// the factor of their block is the leading block of the whole one) and
// Bound.Jump is the change the pruning makes.
func (r *RVM) E() (vb.Bound, error) {
	if len(r.active) == 0 {
		return vb.Bound{}, errors.New("backfit: RVM: every basis function has been pruned")
	}
	ord := r.order[:0]
	kept := 0
	for _, j := range r.active {
		if r.alpha[j] <= r.s.PruneAlpha {
			ord = append(ord, j)
			kept++
		}
	}
	for _, j := range r.active {
		if !(r.alpha[j] <= r.s.PruneAlpha) {
			ord = append(ord, j)
		}
	}
	if kept == 0 {
		return vb.Bound{}, fmt.Errorf("backfit: RVM: every basis function has α above the cap %g", r.s.PruneAlpha)
	}
	m := len(ord)
	if err := r.factor(ord); err != nil {
		return vb.Bound{}, err
	}
	jump := 0.0
	if kept < m {
		lik, prior, vol := r.evidence(ord, r.l[:m*m])
		jump = -(lik + prior + vol)
		// The leading kept×kept block of the factor is the factor of the
		// kept basis functions' Σ⁻¹: compact it to stride kept, in place
		// (row i moves to i·kept ≤ i·m, never past row i+1's start). The
		// kept ones keep their relative order, so active stays increasing.
		for i := 0; i < kept; i++ {
			copy(r.l[i*kept:i*kept+i+1], r.l[i*m:i*m+i+1])
		}
		for _, j := range ord[kept:] {
			r.alpha[j] = math.Inf(1)
		}
		r.active = r.active[:kept]
		copy(r.active, ord[:kept])
	}
	k := len(r.active)
	lik, prior, vol := r.evidence(r.active, r.l[:k*k])
	if kept < m {
		jump += lik + prior + vol
	}
	numeric.CholInverse(r.sigma[:k*k], r.l[:k*k], k, r.work)
	r.terms = [3]vb.Term{{Name: TermRVMLik, Value: lik}, {Name: TermRVMPrior, Value: prior}, {Name: TermRVMVolume, Value: vol}}
	r.bound = vb.Bound{F: lik + prior + vol, Terms: r.terms[:], Jump: jump}
	r.ready = true
	return r.bound, nil
}

// M re-estimates α of the basis functions in the model and, unless
// FixBeta, β, from the posterior of the last E step, by MacKay's fixed
// point or by EM (RVMUpdate). A basis function whose γ_j = 1 − α_j Σ_jj
// is not positive, or whose μ_j is zero, gets α_j = ∞ under MacKay's rule
// (the data determine nothing of it) and leaves at the next E.
func (r *RVM) M() {
	if !r.ready {
		return
	}
	k := len(r.active)
	mu, sig := r.mu[:k], r.sigma[:k*k]
	var gamma, trace float64
	for a, j := range r.active {
		saa := sig[a*k+a]
		switch r.s.Update {
		case EMUpdate:
			r.alpha[j] = 1 / (mu[a]*mu[a] + saa)
		default:
			ga := 1 - r.alpha[j]*saa
			gamma += ga
			if ga > 0 && mu[a] != 0 {
				r.alpha[j] = ga / (mu[a] * mu[a])
			} else {
				r.alpha[j] = math.Inf(1)
			}
		}
	}
	if !r.s.FixBeta {
		switch r.s.Update {
		case EMUpdate:
			// tr(ΦΣΦᵀ) = Σ_ab Σ_ab (ΦᵀΦ)_ab.
			for a, j := range r.active {
				row := r.g[j*r.m0:]
				for b, i := range r.active {
					trace += sig[a*k+b] * row[i]
				}
			}
			r.beta = float64(r.n) / (r.rss + trace)
		default:
			r.beta = (float64(r.n) - gamma) / r.rss
		}
	}
	r.ready = false
}

// Alpha returns the precisions α_j of every basis function (+Inf for a
// pruned one) as of the last M step.
func (r *RVM) Alpha() []float64 { return append([]float64(nil), r.alpha...) }

// Beta returns the noise precision β.
func (r *RVM) Beta() float64 { return r.beta }

// Kept returns the basis functions still in the model after the last E
// step (α_j at most the cap then), in increasing order.
func (r *RVM) Kept() []int { return append([]int(nil), r.active...) }

// Mean writes the posterior mean of every weight (zero for a pruned one)
// into dst (length M; nil allocates) and returns it.
func (r *RVM) Mean(dst []float64) []float64 {
	if dst == nil {
		dst = make([]float64, r.m0)
	}
	clear(dst)
	for a, j := range r.active {
		dst[j] = r.mu[a]
	}
	return dst
}

// Sigma returns the posterior covariance of the weights of Kept (row-major,
// len(Kept())²) as of the last E step.
func (r *RVM) Sigma() []float64 {
	k := len(r.active)
	return append([]float64(nil), r.sigma[:k*k]...)
}

// Bound returns the log evidence of the last E step.
func (r *RVM) Bound() vb.Bound { return r.bound }

// Predict writes the predictive mean Σ_j μ_j φ_j(x) of nt points into dst
// (nil allocates) from their column-major nt×M design phi (the same basis
// functions as the training design) and returns it.
func (r *RVM) Predict(dst, phi []float64, nt int) []float64 {
	if len(phi) != nt*r.m0 {
		panic(fmt.Sprintf("backfit: RVM.Predict: design of %d values for %d points of %d basis functions", len(phi), nt, r.m0))
	}
	if dst == nil {
		dst = make([]float64, nt)
	}
	dst = dst[:nt]
	clear(dst)
	for a, j := range r.active {
		numeric.Axpy(r.mu[a], phi[j*nt:(j+1)*nt], dst)
	}
	return dst
}
