package vembias

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/vbworkbench/vbw/core/numeric"
)

// LDS1Prior is the prior of Beal (2003)'s linear dynamical system with
// one hidden state and one output and no inputs (thesis eqs. 5.2-5.13
// with k = p = 1, state noise Q = 1): A ~ N(0, 1/α), C | ρ ~ N(0,
// 1/(ργ)), ρ ~ Ga(a, b) (shape, rate), x_0 ~ N(0, Σ_0). The prior mean of
// x_0 is 0, so that (C, x) and (−C, −x) have the same joint density: the
// posterior is symmetric in C, and the likelihood depends on C through
// η = C²ρ alone given ρ (CollapsedLogJoint).
type LDS1Prior struct {
	Alpha, Gamma float64 // ARD precisions of A and of C
	A, B         float64 // shape and rate of the noise precision ρ
	Sigma0       float64 // Σ_0, the prior variance of x_0
}

// Check returns an error unless every hyperparameter is positive.
func (p LDS1Prior) Check() error {
	for _, v := range []float64{p.Alpha, p.Gamma, p.A, p.B, p.Sigma0} {
		if !(v > 0) || math.IsInf(v, 1) {
			return fmt.Errorf("vembias: LDS1Prior %+v: every hyperparameter must be positive and finite", p)
		}
	}
	return nil
}

// LDS1LogLik returns ln p(y_{1:T} | A, C, ρ) of the scalar linear dynamical
// system x_0 ~ N(0, Σ_0), x_t = A x_{t−1} + N(0, 1), y_t = C x_t +
// N(0, 1/ρ), by the Kalman filter (thesis eqs. 5.77-5.83 with k = p = 1).
func LDS1LogLik(y []float64, a, c, rho, sigma0 float64) float64 {
	quad, logDet := lds1Filter(y, a, c, 1/rho, sigma0)
	return -0.5 * (float64(len(y))*ln2Pi + logDet + quad)
}

// lds1Filter runs the Kalman filter of LDS1LogLik with output noise
// variance r and returns Σ_t e_t²/s_t and Σ_t ln s_t (innovations e_t,
// their variances s_t).
func lds1Filter(y []float64, a, c, r, sigma0 float64) (quad, logDet float64) {
	m, P := 0.0, sigma0
	// Σ ln s_t is taken as the log of a running product, flushed before
	// it can overflow or underflow (s_t ≥ r > 0): one log per ~30 steps.
	prod := 1.0
	for _, yt := range y {
		m, P = a*m, a*a*P+1
		s := c*c*P + r
		e := yt - c*m
		quad += e * e / s
		prod *= s
		if prod > 1e150 || prod < 1e-150 {
			logDet += math.Log(prod)
			prod = 1
		}
		k := P * c / s
		m += k * e
		P -= k * c * P
	}
	return quad, logDet + math.Log(prod)
}

// LogJoint returns ln p(y, A, C, ln ρ) = ln p(y | A, C, ρ) + ln p(A) +
// ln p(C | ρ) + ln p(ρ) + ln ρ: the joint density in the coordinates
// (A, C, u = ln ρ) (the last term is the Jacobian), by the Kalman filter
// of LDS1LogLik: the importance samplers of the bridge use it, independent
// of CollapsedLogJoint.
func (p LDS1Prior) LogJoint(y []float64, a, c, u float64) float64 {
	rho := math.Exp(u)
	lp := 0.5*(math.Log(p.Alpha)-ln2Pi) - 0.5*p.Alpha*a*a
	lp += 0.5*(math.Log(rho*p.Gamma)-ln2Pi) - 0.5*rho*p.Gamma*c*c
	lg, _ := math.Lgamma(p.A)
	lp += p.A*math.Log(p.B) - lg + (p.A-1)*u - p.B*rho + u
	return lp + LDS1LogLik(y, a, c, rho, p.Sigma0)
}

// CollapsedLogJoint returns ln p(y, A, ℓ) with ρ integrated out, in the
// coordinates (A, ℓ = ln η) where η = C²ρ is the signal-to-noise ratio of
// the output, and the posterior of ρ given (A, η), Ga(shape, rate).
//
// With k = p = 1 the output's covariance is Cov(y) = C² K_A + I/ρ =
// ρ^{-1} M(A, η), M = η K_A + I (K_A the covariance of the unit-noise AR(1)
// chain from x_0 ~ N(0, Σ_0)), so that ρ scales it; and C | ρ ~ N(0,
// 1/(ργ)) (thesis eq. 5.10) makes ηγ = C²ργ ~ χ²_1 whatever ρ: η ~ Ga(1/2,
// γ/2) independent of ρ ~ Ga(a, b) (eq. 5.12) and A (eq. 5.8). The
// Normal-Gamma conjugacy then integrates ρ in closed form,
//
//	p(y | A, η) = (2π)^{−T/2} |M|^{−1/2} b^a Γ(a') / (Γ(a) b'^{a'}),
//	a' = a + T/2, b' = b + yᵀM⁻¹y/2,
//
// with |M| and yᵀM⁻¹y from the Kalman filter of LDS1LogLik at C = √η,
// ρ = 1. The density of ℓ is that of η times η. Both signs of C are in η:
// the posterior of (A, η) carries all of p(y).
func (p LDS1Prior) CollapsedLogJoint(y []float64, a, l float64) (lj, shape, rate float64) {
	eta := math.Exp(l)
	quad, logDet := lds1Filter(y, a, math.Sqrt(eta), 1, p.Sigma0)
	T := float64(len(y))
	shape, rate = p.A+T/2, p.B+quad/2
	lgA, _ := math.Lgamma(p.A)
	lgS, _ := math.Lgamma(shape)
	lj = 0.5*(math.Log(p.Alpha)-ln2Pi) - 0.5*p.Alpha*a*a // ln N(A; 0, 1/α)
	lj += 0.5*(math.Log(p.Gamma/2)-math.Log(math.Pi)) + l/2 - p.Gamma*eta/2
	lj += -0.5*(T*ln2Pi+logDet) + p.A*math.Log(p.B) - lgA + lgS - shape*math.Log(rate)
	if math.IsNaN(lj) {
		lj = math.Inf(-1)
	}
	return lj, shape, rate
}

// LDS1Posterior is the exact posterior of the scalar LDS's parameters
// summarised.
type LDS1Posterior struct {
	LogEvidence float64 // ln p(y) = ln ∫ p(y | θ) p(θ) dθ
	MeanA, VarA float64 // the posterior mean and variance of A
	// RelErr is the error estimate of p(y) relative to it (the sum of
	// the Gauss-Kronrod estimates of both levels, an upper bound in
	// practice: the 15-point rule is far more accurate than the 7-point
	// rule it is compared with).
	RelErr float64
	// Mode is the posterior mode of (A, ℓ = ln C²ρ) and Cov the inverse of
	// the negative Hessian there (row-major 2×2): the Laplace
	// approximation that places the quadrature's breaks.
	Mode [2]float64
	Cov  [4]float64
	// Points counts the evaluations of the collapsed joint density.
	Points int
}

// LDS1Quadrature returns the exact posterior of A and ln p(y) of the scalar
// LDS by adaptive Gauss-Kronrod quadrature (numeric.Integrate) of
// CollapsedLogJoint over (A, ℓ), ρ integrated in closed form: an outer
// integral over A of inner integrals over ℓ. The Laplace approximation at
// the mode (Nelder-Mead from start, a guess of (A, ℓ), then a
// finite-difference Hessian) puts the breaks at 0, ±1, ±2, ±4, ±8 standard
// deviations of A, and of ℓ given A (its linear regression on A), inside
// limits 24 standard deviations out and wider: 12 prior standard
// deviations of A, and 80 below (the density of ℓ falls as e^{ℓ/2} where
// the output carries no signal, η → 0: the pruned limit, where it is the
// prior's) and 6 above ℓ's centre (the prior falls as e^{−γη/2} there),
// grown while the density at a limit is within e^{−40} of the mode's.
// Both levels stop at relative error estimate relTol; the moments of A
// reuse the inner integrals (memoised by A). An error estimate above
// 1e-4 relative is an error.
func (p LDS1Prior) LDS1Quadrature(y []float64, start [2]float64, relTol float64) (LDS1Posterior, error) {
	if err := p.Check(); err != nil {
		return LDS1Posterior{}, err
	}
	if !(relTol > 0 && relTol < 1e-3) {
		return LDS1Posterior{}, fmt.Errorf("vembias: LDS1Quadrature: relTol %v must be in (0, 1e-3)", relTol)
	}
	var out LDS1Posterior
	f := func(a, l float64) float64 {
		out.Points++
		v, _, _ := p.CollapsedLogJoint(y, a, l)
		return v
	}
	mode, top, cov, err := laplace2(f, start)
	if err != nil {
		return out, err
	}
	out.Mode, out.Cov = mode, cov
	sA := math.Sqrt(cov[0])
	slope, sL := cov[1]/cov[0], math.Sqrt(math.Max(cov[3]-cov[1]*cov[1]/cov[0], 1e-4*cov[3]))
	// grow widens a limit until the density there is negligible.
	grow := func(at func(d float64) float64, d float64) float64 {
		for i := 0; i < 30 && at(d) > top-40; i++ {
			d *= 1.5
		}
		return d
	}
	steps := []float64{-8, -4, -2, -1, 0, 1, 2, 4, 8}
	breaks := func(c, s, lo, hi float64) []float64 {
		b := []float64{c - lo}
		for _, k := range steps {
			b = append(b, c+k*s)
		}
		return append(b, c+hi)
	}
	// The inner integrals' absolute tolerance is relTol/100 of the peak's
	// (the integrand is 1 at the mode), so that far out, where they are
	// negligible, they stop early; their errors are integrated over A.
	type memo struct{ v, e float64 }
	inner := map[float64]memo{}
	g := func(a float64) memo {
		if m, ok := inner[a]; ok {
			return m
		}
		c := mode[1] + slope*(a-mode[0])
		h := func(l float64) float64 { return math.Exp(f(a, l) - top) }
		lo := grow(func(d float64) float64 { return f(a, c-d) }, math.Max(24*sL, 80))
		hi := grow(func(d float64) float64 { return f(a, c+d) }, math.Max(24*sL, 6))
		v, e, err := numeric.IntegrateBreaks(h, breaks(c, sL, lo, hi), numeric.QuadTol{Abs: relTol * sL / 100, Rel: relTol, MaxIntervals: 400})
		if err != nil && !errors.Is(err, numeric.ErrQuadLimit) {
			v = math.NaN()
		}
		inner[a] = memo{v, e}
		return memo{v, e}
	}
	lim := math.Max(24*sA, math.Abs(mode[0])+12/math.Sqrt(p.Alpha))
	bA := breaks(mode[0], sA, lim, lim)
	var m [3]float64
	var outErr float64
	for k := range m {
		v, e, err := numeric.IntegrateBreaks(func(a float64) float64 { return math.Pow(a-mode[0], float64(k)) * g(a).v }, bA, numeric.QuadTol{Abs: relTol * sA * sL / 100, Rel: relTol, MaxIntervals: 400})
		if err != nil && !errors.Is(err, numeric.ErrQuadLimit) {
			return out, fmt.Errorf("vembias: LDS1Quadrature: %w", err)
		}
		m[k] = v
		if k == 0 {
			outErr = e / v
		}
	}
	inErr, _, _ := numeric.IntegrateBreaks(func(a float64) float64 { return g(a).e }, bA, numeric.QuadTol{Abs: 0, Rel: 0.1, MaxIntervals: 40})
	inErr /= m[0]
	out.LogEvidence = top + math.Log(m[0])
	d := m[1] / m[0]
	out.MeanA, out.VarA = mode[0]+d, m[2]/m[0]-d*d
	out.RelErr = outErr + inErr
	if !(out.RelErr <= 1e-4) {
		return out, fmt.Errorf("vembias: LDS1Quadrature: relative error estimate %.3g of p(y) (outer %.3g, inner %.3g; mode %v, covariance %v)", out.RelErr, outErr, inErr, mode, cov)
	}
	return out, nil
}

// laplace2 returns the mode of the 2-D log density f by Nelder-Mead from
// start, its value there, and the inverse of the negative Hessian by
// central differences (steps a tenth of the standard deviations of a
// first pass with steps 1e-3): the Laplace approximation.
func laplace2(f func(a, l float64) float64, start [2]float64) (mode [2]float64, top float64, cov [4]float64, err error) {
	prob := optimize.Problem{Func: func(x []float64) float64 {
		v := -f(x[0], x[1])
		if math.IsInf(v, 1) {
			return math.MaxFloat64
		}
		return v
	}}
	res, err := optimize.Minimize(prob, start[:], &optimize.Settings{Converger: &optimize.FunctionConverge{Absolute: 1e-10, Iterations: 40}}, &optimize.NelderMead{})
	if err != nil && res == nil {
		return mode, 0, cov, fmt.Errorf("vembias: the posterior mode: %w", err)
	}
	mode = [2]float64{res.X[0], res.X[1]}
	top = -res.F
	if !(top > -math.MaxFloat64) {
		return mode, top, cov, fmt.Errorf("vembias: the joint density is nowhere finite near %v", start)
	}
	h := [2]float64{1e-3, 1e-3}
	for pass := 0; pass < 2; pass++ {
		at := func(i, j int) float64 {
			x := mode
			x[0] += float64(i) * h[0]
			x[1] += float64(j) * h[1]
			return f(x[0], x[1])
		}
		haa := (at(1, 0) - 2*top + at(-1, 0)) / (h[0] * h[0])
		hll := (at(0, 1) - 2*top + at(0, -1)) / (h[1] * h[1])
		hal := (at(1, 1) - at(1, -1) - at(-1, 1) + at(-1, -1)) / (4 * h[0] * h[1])
		det := haa*hll - hal*hal
		if !(haa < 0 && hll < 0 && det > 0) {
			return mode, top, cov, fmt.Errorf("vembias: the Hessian at the mode %v is not negative definite", mode)
		}
		cov = [4]float64{-hll / det, hal / det, hal / det, -haa / det}
		h = [2]float64{0.1 * math.Sqrt(cov[0]), 0.1 * math.Sqrt(cov[3])}
	}
	return mode, top, cov, nil
}
