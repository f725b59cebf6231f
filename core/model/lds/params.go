package lds

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/numeric"
)

// Params are point parameters of the linear dynamical system (Beal 2003
// eqs. 5.2-5.5 and 5.13),
//
//	x_0 ~ N(μ_0, Σ_0),  x_t = A x_{t−1} + B u_t + w_t,  y_t = C x_t + D u_t + v_t,
//
// for t = 1, …, T, with w_t ~ N(0, I) (Q = I, line 3203) and v_t ~ N(0, R),
// R = diag(ρ)⁻¹. They are what Simulate draws from, what EM fits and what
// VB.MeanParams returns.
type Params struct {
	A *mat.Dense // k×k dynamics
	B *mat.Dense // k×d input-to-state; nil without inputs
	C *mat.Dense // p×k output
	D *mat.Dense // p×d input-to-output; nil without inputs
	// Rho (p) are the output-noise precisions ρ_s > 0.
	Rho []float64
	// Mu0 (k) is μ_0; nil means 0.
	Mu0 []float64
	// Sigma0 is Σ_0 (k×k); nil means 0, x_0 = μ_0 exactly, which Simulate
	// accepts and Smooth does not. The thesis's generators (section 5.4,
	// targets §4 #17) draw x_1 ~ N(0, I) with B = 0: that is Mu0 = nil,
	// Sigma0 = nil.
	Sigma0 *mat.SymDense
}

// dims checks the shapes of par and returns k, p, d; it panics on a
// mismatch.
func (par *Params) dims() (k, p, d int) {
	k, ka := par.A.Dims()
	p, kc := par.C.Dims()
	if ka != k || kc != k || len(par.Rho) != p || (par.Mu0 != nil && len(par.Mu0) != k) ||
		(par.Sigma0 != nil && par.Sigma0.SymmetricDim() != k) || (par.B == nil) != (par.D == nil) {
		panic("lds: Params shape mismatch")
	}
	if par.B != nil {
		kb, db := par.B.Dims()
		pd, dd := par.D.Dims()
		if kb != k || pd != p || dd != db {
			panic("lds: Params shape mismatch")
		}
		d = db
	}
	return k, p, d
}

// raw returns the matrices in package infer's row-major layouts.
func (par *Params) raw() (a, b, c, d []float64) {
	k, p, du := par.dims()
	flat := func(m *mat.Dense, r, cc int) []float64 {
		s := make([]float64, r*cc)
		for i := 0; i < r; i++ {
			mat.Row(s[i*cc:(i+1)*cc], i, m)
		}
		return s
	}
	a, c = flat(par.A, k, k), flat(par.C, p, k)
	if du > 0 {
		b, d = flat(par.B, k, du), flat(par.D, p, du)
	}
	return a, b, c, d
}

// Clone returns a deep copy of par.
func (par *Params) Clone() *Params {
	q := &Params{A: mat.DenseCopyOf(par.A), C: mat.DenseCopyOf(par.C), Rho: slices.Clone(par.Rho), Mu0: slices.Clone(par.Mu0)}
	if par.B != nil {
		q.B, q.D = mat.DenseCopyOf(par.B), mat.DenseCopyOf(par.D)
	}
	if par.Sigma0 != nil {
		q.Sigma0 = mat.NewSymDense(par.Sigma0.SymmetricDim(), nil)
		q.Sigma0.CopySym(par.Sigma0)
	}
	return q
}

// Simulate draws one sequence of length T ≥ 1 from the model with
// parameters par (eqs. 5.2-5.5, 5.13) and inputs u (T×d; nil without
// inputs), using rnd alone: first x_0 (k standard normals, only if Sigma0 is
// not nil), then for each t = 1..T the k state-noise and the p
// output-noise normals. It returns the sequence (with U = u) and the states
// x_1, …, x_T (T×k). It panics if the shapes disagree or Σ_0 is not
// positive semi-definite.
func Simulate(rnd *rand.Rand, par *Params, T int, u *mat.Dense) (Sequence, *mat.Dense) {
	k, p, d := par.dims()
	if T < 1 {
		panic("lds: Simulate: T < 1")
	}
	if (u == nil) != (d == 0) {
		panic("lds: Simulate: inputs must be given exactly when B and D are")
	}
	if u != nil {
		if r, c := u.Dims(); r != T || c != d {
			panic(fmt.Sprintf("lds: Simulate: inputs are %d×%d, want %d×%d", r, c, T, d))
		}
	}
	a, b, c, dd := par.raw()
	x := make([]float64, k)
	if par.Mu0 != nil {
		copy(x, par.Mu0)
	}
	if par.Sigma0 != nil {
		l := sqrtPSD(par.Sigma0)
		z := make([]float64, k)
		for i := range z {
			z[i] = rnd.NormFloat64()
		}
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				x[i] += l[i*k+j] * z[j]
			}
		}
	}
	ys := mat.NewDense(T, p, nil)
	xs := mat.NewDense(T, k, nil)
	next := make([]float64, k)
	ut := make([]float64, d)
	for t := 0; t < T; t++ {
		if d > 0 {
			mat.Row(ut, t, u)
		}
		for i := 0; i < k; i++ {
			v := rnd.NormFloat64()
			for j := 0; j < k; j++ {
				v += a[i*k+j] * x[j]
			}
			for e := 0; e < d; e++ {
				v += b[i*d+e] * ut[e]
			}
			next[i] = v
		}
		x, next = next, x
		xs.SetRow(t, x)
		for s := 0; s < p; s++ {
			v := rnd.NormFloat64() / math.Sqrt(par.Rho[s])
			for j := 0; j < k; j++ {
				v += c[s*k+j] * x[j]
			}
			for e := 0; e < d; e++ {
				v += dd[s*d+e] * ut[e]
			}
			ys.Set(t, s, v)
		}
	}
	return Sequence{Y: ys, U: u}, xs
}

// sqrtPSD returns a k×k matrix L with LLᵀ = s for a positive semi-definite
// s (from its eigendecomposition, so that a singular Σ_0 is allowed).
func sqrtPSD(s *mat.SymDense) []float64 {
	k := s.SymmetricDim()
	var eig mat.EigenSym
	if !eig.Factorize(s, true) {
		panic("lds: Σ_0: eigendecomposition failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	l := make([]float64, k*k)
	for j, v := range vals {
		if v < -1e-12*math.Max(1, math.Abs(vals[len(vals)-1])) {
			panic("lds: Σ_0 is not positive semi-definite")
		}
		sv := math.Sqrt(math.Max(v, 0))
		for i := 0; i < k; i++ {
			l[i*k+j] = vecs.At(i, j) * sv
		}
	}
	return l
}

// natural returns φ̄ of the point parameters (infer.LDSNatural.SetPoint)
// with the x_0 prior; Σ_0 must be positive definite.
func (par *Params) natural() (*infer.LDSNatural, error) {
	k, p, d := par.dims()
	if par.Sigma0 == nil {
		return nil, errors.New("lds: Params.Sigma0 is nil; the smoother needs Σ_0 positive definite")
	}
	phi := infer.NewLDSNatural(k, p, d)
	a, b, c, dd := par.raw()
	phi.SetPoint(a, b, c, dd, par.Rho)
	if par.Mu0 != nil {
		copy(phi.Mu0, par.Mu0)
	}
	s0 := make([]float64, k*k)
	for i := 0; i < k; i++ {
		for j := 0; j <= i; j++ {
			s0[i*k+j] = par.Sigma0.At(i, j)
		}
	}
	if _, ok := numeric.InverseSPD(phi.Lambda0, s0, k); !ok {
		return nil, errors.New("lds: Params.Sigma0 is not positive definite")
	}
	return phi, nil
}

// Smooth runs the Kalman filter and smoother (in the information form of
// package infer, which with point parameters is the ordinary one, eqs.
// 5.77-5.86 and 5.106-5.115) on one sequence and returns its posterior
// p(x_{0:T} | y_{1:T}, θ); LogZ is the exact log-likelihood
// ln p(y_{1:T} | θ, μ_0, Σ_0). Σ_0 must be positive definite.
func (par *Params) Smooth(seq Sequence) (*infer.LDSPosterior, error) {
	phi, err := par.natural()
	if err != nil {
		return nil, err
	}
	ds, err := newDataset([]Sequence{seq})
	if err != nil {
		return nil, err
	}
	if ds.p != phi.P || ds.d != phi.D {
		return nil, fmt.Errorf("lds: Smooth: the sequence has p=%d, d=%d; the parameters p=%d, d=%d", ds.p, ds.d, phi.P, phi.D)
	}
	ks := infer.NewKalmanSmoother(phi.K, phi.P, phi.D, ds.tmax)
	post := new(infer.LDSPosterior)
	if err := ks.Smooth(post, phi, ds.y[0], ds.u[0]); err != nil {
		return nil, fmt.Errorf("lds: Smooth: %w", err)
	}
	return post, nil
}

// LogLikelihood returns ln p(y | θ, μ_0, Σ_0) = Σ_i ln p(y_i | θ, μ_0, Σ_0)
// over the sequences, by the Kalman filter (eq. 5.83).
func (par *Params) LogLikelihood(data []Sequence) (float64, error) {
	var ll float64
	for i, s := range data {
		post, err := par.Smooth(s)
		if err != nil {
			return math.NaN(), fmt.Errorf("sequence %d: %w", i, err)
		}
		ll += post.LogZ
	}
	return ll, nil
}
