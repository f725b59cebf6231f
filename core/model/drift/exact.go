package drift

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// LogMarginal returns ln p(y | λ, ψ_y) with the weights integrated out: y
// is Gaussian with mean x_nᵀŵ_0 and covariance
//
//	Cov(y_n, y_m) = x_nᵀx_m (1/ζ_0 + min(n, m)/λ) + δ_nm/ψ_y,
//
// since w_n = w_0 + Σ_{k≤n} η_k (eqs. 3.11-3.12). It costs O(T³) and
// panics on invalid data, prior or precisions (it is a reference for
// small T).
func LogMarginal(data Data, p Prior, lambda, psi float64) float64 {
	if err := data.check(); err != nil {
		panic(err)
	}
	if err := p.check(data.D); err != nil {
		panic(err)
	}
	if !(lambda > 0) || !(psi > 0) {
		panic(fmt.Sprintf("drift: LogMarginal at λ=%g, ψ_y=%g", lambda, psi))
	}
	d, T := data.D, data.T()
	S := mat.NewSymDense(T, nil)
	r := make([]float64, T)
	for n := 0; n < T; n++ {
		xn := data.X[n*d : (n+1)*d]
		r[n] = data.Y[n]
		if p.W0 != nil {
			r[n] -= numeric.Dot(xn, p.W0)
		}
		for m := 0; m <= n; m++ {
			v := numeric.Dot(xn, data.X[m*d:(m+1)*d]) * (1/p.Zeta0 + float64(m+1)/lambda)
			if m == n {
				v += 1 / psi
			}
			S.SetSym(m, n, v)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(S) {
		panic("drift: LogMarginal: covariance not positive definite")
	}
	z := mat.NewVecDense(T, nil)
	rv := mat.NewVecDense(T, r)
	if err := ch.SolveVecTo(z, rv); err != nil {
		panic(err)
	}
	return -0.5*float64(T)*math.Log(2*math.Pi) - 0.5*ch.LogDet() - 0.5*mat.Dot(rv, z)
}

// LambdaPosterior is the exact posterior of λ with ψ_y known, by
// quadrature: its mean, the mean of ln λ, and the log evidence ln p(y) =
// ln ∫ p(λ) p(y | λ, ψ_y) dλ.
type LambdaPosterior struct {
	Mean, MeanLog, LogEvidence float64
}

// ExactLambda integrates p(λ) p(y | λ, ψ_y) (LogMarginal) over u = ln λ on
// [ln lo, ln hi] by adaptive quadrature, centred at the integrand's largest
// value on a grid of step 0.05 in u; the caller chooses a range that holds
// the posterior's mass (an error if the grid's maximum is at an end). The
// reference against which VB's q(λ) is judged (Turner & Sahani's question
// whether a factorised q under-estimates it).
func ExactLambda(data Data, p Prior, psi, lo, hi float64) (LambdaPosterior, error) {
	if !(lo > 0) || !(hi > lo) {
		return LambdaPosterior{}, fmt.Errorf("drift: ExactLambda range [%g, %g]", lo, hi)
	}
	pl := dist.Gamma{Alpha: p.ALambda, Beta: p.BLambda}
	logf := func(u float64) float64 {
		l := math.Exp(u)
		return pl.LogProb(l) + u + LogMarginal(data, p, l, psi)
	}
	a, b := math.Log(lo), math.Log(hi)
	best, at := math.Inf(-1), a
	for u := a; u <= b; u += 0.05 {
		if v := logf(u); v > best {
			best, at = v, u
		}
	}
	if at < a+0.1 || at > b-0.1 {
		return LambdaPosterior{}, errors.New("drift: ExactLambda: the posterior's mode is at the end of the range")
	}
	tol := numeric.QuadTol{Rel: 1e-10}
	z, err := numeric.Integrate(func(u float64) float64 { return math.Exp(logf(u) - best) }, a, b, tol)
	if err != nil {
		return LambdaPosterior{}, err
	}
	m, err := numeric.Integrate(func(u float64) float64 { return math.Exp(u + logf(u) - best) }, a, b, tol)
	if err != nil {
		return LambdaPosterior{}, err
	}
	ml, err := numeric.Integrate(func(u float64) float64 { return u * math.Exp(logf(u)-best) }, a, b, tol)
	if err != nil {
		return LambdaPosterior{}, err
	}
	return LambdaPosterior{Mean: m / z, MeanLog: ml / z, LogEvidence: best + math.Log(z)}, nil
}
