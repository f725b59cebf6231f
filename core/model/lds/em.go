package lds

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// TermLogLik names the objective of EM, ln p(y | θ, μ_0, Σ_0).
const TermLogLik = "lnp(y|theta)"

// TermLogPrior names MAP-EM's second term, ln p(θ) under EMSettings.Prior.
const TermLogPrior = "lnp(theta)"

// EMSettings configure NewEM. The zero value of every field means its
// documented default.
type EMSettings struct {
	// Sigma0Update is the form of the Σ_0 update. Default Sigma0Diagonal.
	Sigma0Update Sigma0Mode
	// FixX0 keeps μ_0 and Σ_0 at their starting values.
	FixX0 bool
	// Prior, when set, makes the algorithm MAP-EM under the priors of
	// eqs. 5.8-5.12 at its precisions (zero fields their defaults): the
	// objective is ln p(y | θ) + ln p(A, B, C, D, ρ) and the M step its
	// conditional mode (Beal 2003 §6.4.1 scores BIC and CS at the MAP
	// point). The mode is of the density over (A, B, C, D, ρ):
	//
	//	[A B] rows: (P + diag(α, β))⁻¹ [S_A; M̃],
	//	[C D] rows: (P_C + diag(γ, δ))⁻¹ [S_C; U_Y],
	//	ρ_s = (T + k + d + 2a − 2) / (2b + Ÿ_ss − r_sᵀ(P_C + diag(γ, δ))⁻¹ r_s),
	//
	// the ridge regressions of the Gaussian priors and the joint mode of
	// each Normal-Gamma (c_s, ρ_s), whose C-part is free of ρ_s.
	Prior *Hyper
}

// EM is maximum-likelihood EM for the linear dynamical system (Shumway and
// Stoffer 1982; Ghahramani and Hinton 1996), the sanity baseline of
// targets §2.2, with the thesis's conventions: Q = I fixed, R = diag(ρ)⁻¹,
// an auxiliary state x_0 ~ N(μ_0, Σ_0) and dynamics sums over t = 1..T. Its
// E step is the Kalman smoother of package infer at point parameters
// (infer.LDSNatural.SetPoint; eqs. 5.77-5.86, 5.106-5.115), whose ln Z' is
// ln p(y | θ); its M step solves the regressions
//
//	[A B] = [S_Aᵀ M̃ᵀ] [[W_A, G_A], [G_Aᵀ, Ü]]⁻¹,
//	[C D] = [S_Cᵀ U_Y ᵀ] [[W_C, G_C], [G_Cᵀ, Ü]]⁻¹,
//	1/ρ_s = (Ÿ_ss − [s_C,(s); u_Y,(s)]ᵀ [[W_C, G_C], [G_Cᵀ, Ü]]⁻¹ [s_C,(s); u_Y,(s)]) / T,
//
// the limits of the VBM step's means and ρ̄ as the prior vanishes (eqs.
// 5.35-5.62), and sets μ_0, Σ_0 as UpdateHyper(HyperX0) does. It implements
// vb.Model; ln p(y | θ) never decreases. An EM is not safe for concurrent
// use.
type EM struct {
	// Sigma0Update and FixX0 are as in EMSettings.
	Sigma0Update Sigma0Mode
	FixX0        bool

	k, p, d, n1 int
	data        *dataset
	ks          *infer.KalmanSmoother
	post        []infer.LDSPosterior
	stats       *infer.LDSStats
	phi         *infer.LDSNatural

	a, b, c, dd, rho []float64
	mu0, lambda0     []float64
	prior            *Hyper // MAP-EM's priors (defaults resolved), nil for ML
	chol, rhs, x0    []float64
	err              error
}

// NewEM returns ML-EM on data started from the parameters start, whose Σ_0
// must be positive definite.
func NewEM(data []Sequence, start *Params, set EMSettings) (*EM, error) {
	ds, err := newDataset(data)
	if err != nil {
		return nil, err
	}
	k, p, d := start.dims()
	if ds.p != p || ds.d != d {
		return nil, fmt.Errorf("lds: NewEM: the data have p=%d, d=%d; the parameters p=%d, d=%d", ds.p, ds.d, p, d)
	}
	phi, err := start.natural()
	if err != nil {
		return nil, err
	}
	a, b, c, dd := start.raw()
	n1 := k + d
	e := &EM{
		Sigma0Update: set.Sigma0Update, FixX0: set.FixX0,
		k: k, p: p, d: d, n1: n1, data: ds,
		ks:    infer.NewKalmanSmoother(k, p, d, ds.tmax),
		post:  make([]infer.LDSPosterior, len(ds.y)),
		stats: infer.NewLDSStats(k, p, d),
		phi:   phi,
		a:     a, b: b, c: c, dd: dd, rho: slices.Clone(start.Rho),
		mu0: slices.Clone(phi.Mu0), lambda0: slices.Clone(phi.Lambda0),
		chol: make([]float64, n1*n1), rhs: make([]float64, n1*max(k, p)), x0: make([]float64, 2*k*k),
	}
	if e.b == nil {
		e.b, e.dd = []float64{}, []float64{}
	}
	if set.Prior != nil {
		h, err := set.Prior.withDefaults(k, d)
		if err != nil {
			return nil, fmt.Errorf("lds: NewEM prior: %w", err)
		}
		e.prior = &h
	}
	return e, nil
}

// logPrior is ln p(A, B, C, D, ρ) at the current parameters under e.prior
// (eqs. 5.8-5.12, every constant): Gaussian rows of A and B, and for each
// output s Ga(ρ_s | a, b) times the Gaussian rows of C and D given ρ_s.
func (e *EM) logPrior() float64 {
	h := e.prior
	k, p, d := e.k, e.p, e.d
	lnN := func(x, prec float64) float64 { return 0.5*math.Log(prec/(2*math.Pi)) - 0.5*prec*x*x }
	var l float64
	for j := 0; j < k; j++ {
		for i := 0; i < k; i++ {
			l += lnN(e.a[j*k+i], h.Alpha[i])
		}
		for c := 0; c < d; c++ {
			l += lnN(e.b[j*d+c], h.Beta[c])
		}
	}
	lg, _ := math.Lgamma(h.NoiseShape)
	for s := 0; s < p; s++ {
		r := e.rho[s]
		l += h.NoiseShape*math.Log(h.NoiseRate) - lg + (h.NoiseShape-1)*math.Log(r) - h.NoiseRate*r
		for j := 0; j < k; j++ {
			l += lnN(e.c[s*k+j], r*h.Gamma[j])
		}
		for c := 0; c < d; c++ {
			l += lnN(e.dd[s*d+c], r*h.Delta[c])
		}
	}
	return l
}

// E runs the Kalman smoother on every sequence at the current parameters
// and returns ln p(y | θ, μ_0, Σ_0) (eq. 5.83 summed over sequences) as the
// single term TermLogLik. It allocates only the returned Terms.
func (e *EM) E() (vb.Bound, error) {
	if e.err != nil {
		return vb.Bound{F: math.NaN()}, e.err
	}
	phi, ds := e.phi, e.data
	phi.SetPoint(e.a, e.b, e.c, e.dd, e.rho)
	copy(phi.Mu0, e.mu0)
	copy(phi.Lambda0, e.lambda0)
	if i, err := e.ks.SmoothSequences(e.post, phi, ds.y, ds.u, ds.mom); err != nil {
		return vb.Bound{F: math.NaN()}, fmt.Errorf("lds: EM E step, sequence %d: %w", i, err)
	}
	e.stats.Zero()
	for i := range ds.y {
		e.stats.AddSequence(&e.post[i], ds.y[i], ds.u[i])
	}
	ll := e.stats.LogZ
	if e.prior != nil {
		lp := e.logPrior()
		return vb.Bound{F: ll + lp, Terms: []vb.Term{{Name: TermLogLik, Value: ll}, {Name: TermLogPrior, Value: lp}}}, nil
	}
	return vb.Bound{F: ll, Terms: []vb.Term{{Name: TermLogLik, Value: ll}}}, nil
}

// M sets the parameters to the maximisers of the expected complete-data
// log-likelihood under the last E step's posterior (see EM). It does not
// allocate. A singular regression (for example inputs that are linearly
// dependent) or a zero residual makes the next E return an error.
func (e *EM) M() {
	k, p, d, n1 := e.k, e.p, e.d, e.n1
	st, ds := e.stats, e.data
	e.err = nil
	// Dynamics: P = [[W_A, G_A], [G_Aᵀ, Ü]], right-hand sides [S_A; M̃].
	P, X := e.chol, e.rhs[:n1*k]
	fillJoint(P, st.WA, st.GA, ds.uu, k, d)
	if h := e.prior; h != nil {
		ridge(P, h.Alpha, h.Beta, k, d)
	}
	for i := 0; i < k; i++ {
		copy(X[i*k:(i+1)*k], st.SA[i*k:(i+1)*k])
	}
	for c := 0; c < d; c++ {
		for j := 0; j < k; j++ {
			X[(k+c)*k+j] = st.GC[j*d+c]
		}
	}
	if !numeric.CholFactor(P, n1) {
		e.err = fmt.Errorf("lds: EM M step: the dynamics regression is singular: %w", numeric.ErrNotPositiveDefinite)
		return
	}
	numeric.CholSolve(P, n1, X, k)
	numeric.CholSolveT(P, n1, X, k)
	for j := 0; j < k; j++ {
		for i := 0; i < k; i++ {
			e.a[j*k+i] = X[i*k+j]
		}
		for c := 0; c < d; c++ {
			e.b[j*d+c] = X[(k+c)*k+j]
		}
	}
	// Outputs: P = [[W_C, G_C], [G_Cᵀ, Ü]], right-hand sides [S_C; U_Y].
	X = e.rhs[:n1*p]
	fillJoint(P, st.WC, st.GC, ds.uu, k, d)
	if h := e.prior; h != nil {
		ridge(P, h.Gamma, h.Delta, k, d)
	}
	copy(X[:k*p], st.SC)
	copy(X[k*p:], ds.uy)
	if !numeric.CholFactor(P, n1) {
		e.err = fmt.Errorf("lds: EM M step: the output regression is singular: %w", numeric.ErrNotPositiveDefinite)
		return
	}
	numeric.CholSolve(P, n1, X, p)
	for s := 0; s < p; s++ {
		g := ds.yy[s]
		for i := 0; i < n1; i++ {
			g -= X[i*p+s] * X[i*p+s]
		}
		if !(g > 0) {
			e.err = fmt.Errorf("lds: EM M step: output %d has no residual variance (%.3g)", s, g)
			return
		}
		if h := e.prior; h != nil {
			e.rho[s] = (float64(ds.nobs+k+d) + 2*h.NoiseShape - 2) / (2*h.NoiseRate + g)
		} else {
			e.rho[s] = float64(ds.nobs) / g
		}
	}
	numeric.CholSolveT(P, n1, X, p)
	for s := 0; s < p; s++ {
		for j := 0; j < k; j++ {
			e.c[s*k+j] = X[j*p+s]
		}
		for c := 0; c < d; c++ {
			e.dd[s*d+c] = X[(k+c)*p+s]
		}
	}
	if !e.FixX0 {
		updateX0(st, e.Sigma0Update, e.mu0, e.lambda0, e.x0)
	}
}

// ridge adds diag(x, u) to the (k+d)×(k+d) matrix P: the prior
// precisions of a MAP regression's k state and d input coefficients.
func ridge(P, x, u []float64, k, d int) {
	n1 := k + d
	for i := 0; i < k; i++ {
		P[i*n1+i] += x[i]
	}
	for c := 0; c < d; c++ {
		P[(k+c)*n1+k+c] += u[c]
	}
}

// fillJoint sets the (k+d)×(k+d) matrix P to [[W, G], [Gᵀ, U]] for the k×k
// W, k×d G and d×d U.
func fillJoint(P, W, G, U []float64, k, d int) {
	n1 := k + d
	for i := 0; i < k; i++ {
		copy(P[i*n1:i*n1+k], W[i*k:(i+1)*k])
		for c := 0; c < d; c++ {
			P[i*n1+k+c] = G[i*d+c]
			P[(k+c)*n1+i] = G[i*d+c]
		}
	}
	for c := 0; c < d; c++ {
		copy(P[(k+c)*n1+k:(k+c+1)*n1], U[c*d:(c+1)*d])
	}
}

// Params returns a copy of the current parameters.
func (e *EM) Params() *Params {
	k, p, d := e.k, e.p, e.d
	par := &Params{
		A: mat.NewDense(k, k, slices.Clone(e.a)), C: mat.NewDense(p, k, slices.Clone(e.c)),
		Rho: slices.Clone(e.rho), Mu0: slices.Clone(e.mu0),
	}
	if d > 0 {
		par.B, par.D = mat.NewDense(k, d, slices.Clone(e.b)), mat.NewDense(p, d, slices.Clone(e.dd))
	}
	s := make([]float64, k*k)
	numeric.InverseSPD(s, e.lambda0, k)
	par.Sigma0 = mat.NewSymDense(k, s)
	return par
}

// Posterior returns p(x_{0:T} | y, θ) of sequence i from the last E step;
// it belongs to the EM and is overwritten by the next E.
func (e *EM) Posterior(i int) *infer.LDSPosterior { return &e.post[i] }
