package approx

import (
	"errors"
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Sigmoid returns σ(a) = 1/(1 + e^{−a}).
func Sigmoid(a float64) float64 { return 1 / (1 + math.Exp(-a)) }

// LogSigmoid returns ln σ(a) without overflow: −ln(1 + e^{−a}).
func LogSigmoid(a float64) float64 {
	if a < -30 {
		return a - math.Log1p(math.Exp(a))
	}
	return -math.Log1p(math.Exp(-a))
}

// JJLambda returns λ(ξ) = (σ(ξ) − ½)/(2ξ) > 0 (PRML eq. (10.150), with the
// sign of targets other-seeds.md §2.3's erratum for (10.141)); λ(0) = 1/8.
func JJLambda(xi float64) float64 {
	xi = math.Abs(xi)
	if xi < 1e-6 {
		return 0.125 - xi*xi/96
	}
	return (Sigmoid(xi) - 0.5) / (2 * xi)
}

// JJLogSigmoidBound returns the Jaakkola–Jordan lower bound on ln σ(a) at
// the variational parameter ξ (PRML eq. (10.144)):
//
//	ln σ(a) ≥ ln σ(ξ) + (a − ξ)/2 − λ(ξ)(a² − ξ²),
//
// with equality at a = ±ξ.
func JJLogSigmoidBound(a, xi float64) float64 {
	return LogSigmoid(xi) + (a-xi)/2 - JJLambda(xi)*(a*a-xi*xi)
}

// LogisticPrior is the prior of Bayesian logistic regression: w ~ N(0,
// α⁻¹I) with α fixed (Hyper false, PRML eq. (10.147) with S₀ = α⁻¹I), or
// with α ~ Gam(A0, B0) and q(w)q(α) (Hyper true, PRML §10.6.3, eqs.
// (10.165)–(10.183)).
type LogisticPrior struct {
	Alpha  float64
	Hyper  bool
	A0, B0 float64
}

// Logistic is variational Bayesian logistic regression with the
// Jaakkola–Jordan bound (PRML §10.6): q(w) = N(μ_N, S_N) with
//
//	S_N⁻¹ = E[α] I + 2 Σ_n λ(ξ_n) φ_n φ_nᵀ,  μ_N = S_N Σ_n (t_n − ½) φ_n
//
// (eqs. (10.156)–(10.157)), ξ_n² = φ_nᵀ(S_N + μ_Nμ_Nᵀ)φ_n (eq. (10.163)),
// and with the hyperprior q(α) = Gam(a_N, b_N), a_N = a₀ + M/2, b_N = b₀ +
// ½E[wᵀw], E[wᵀw] = tr S_N + μ_Nᵀμ_N (eqs. (10.177)–(10.183) with the
// errata of targets §2.3). It is a vb.Model: E updates q(w) and returns
// the bound, M updates ξ and then q(α); each step maximises the same
// bound, so it never decreases.
type Logistic struct {
	phi   []float64 // N×M, row-major
	t     []float64 // 0 or 1
	n, m  int
	prior LogisticPrior
	Mean  []float64 // μ_N
	Cov   []float64 // S_N
	Xi    []float64
	AN    float64
	BN    float64
	// scratch
	prec, work, l []float64
	terms         [3]vb.Term
}

var _ vb.Model = (*Logistic)(nil)

// NewLogistic returns the fit of targets t ∈ {0, 1} on the rows of phi
// (N rows of M features), started from ξ_n = 1 and q(α) at its prior (or
// α fixed).
func NewLogistic(phi [][]float64, t []int, prior LogisticPrior) (*Logistic, error) {
	if len(phi) == 0 || len(phi) != len(t) {
		return nil, fmt.Errorf("approx: logistic regression: %d rows and %d targets", len(phi), len(t))
	}
	if prior.Hyper {
		if !(prior.A0 > 0 && prior.B0 > 0) {
			return nil, errors.New("approx: logistic regression: the hyperprior needs a₀, b₀ > 0")
		}
	} else if !(prior.Alpha > 0) {
		return nil, errors.New("approx: logistic regression: α must be positive")
	}
	m := len(phi[0])
	lr := &Logistic{n: len(phi), m: m, prior: prior, Mean: make([]float64, m), Cov: make([]float64, m*m),
		Xi: make([]float64, len(phi)), prec: make([]float64, m*m), work: make([]float64, m*m), l: make([]float64, m*m)}
	for i, row := range phi {
		if len(row) != m {
			return nil, fmt.Errorf("approx: logistic regression: row %d has %d features, want %d", i, len(row), m)
		}
		if t[i] != 0 && t[i] != 1 {
			return nil, fmt.Errorf("approx: logistic regression: target %d is %d, want 0 or 1", i, t[i])
		}
		lr.phi = append(lr.phi, row...)
		lr.t = append(lr.t, float64(t[i]))
		lr.Xi[i] = 1
	}
	if prior.Hyper {
		lr.AN, lr.BN = prior.A0, prior.B0
	}
	return lr, nil
}

// alpha returns E[α] and E[ln α].
func (lr *Logistic) alpha() (float64, float64) {
	if !lr.prior.Hyper {
		return lr.prior.Alpha, math.Log(lr.prior.Alpha)
	}
	g := dist.NewGammaShapeRate(lr.AN, lr.BN)
	return g.Mean(), g.MeanLog()
}

// updateW is eqs. (10.156)–(10.157).
func (lr *Logistic) updateW() error {
	m := lr.m
	ea, _ := lr.alpha()
	clear(lr.prec)
	clear(lr.Mean)
	for i := range m {
		lr.prec[i*m+i] = ea
	}
	for n := range lr.n {
		f := lr.phi[n*m : (n+1)*m]
		c := 2 * JJLambda(lr.Xi[n])
		for i := range m {
			lr.Mean[i] += (lr.t[n] - 0.5) * f[i]
			for j := 0; j <= i; j++ {
				lr.prec[i*m+j] += c * f[i] * f[j]
			}
		}
	}
	copy(lr.l, lr.prec)
	if !numeric.CholFactor(lr.l, m) {
		return errors.New("approx: logistic regression: S_N⁻¹ is not positive definite")
	}
	numeric.CholInverse(lr.Cov, lr.l, m, lr.work)
	for i := range m {
		for j := 0; j < i; j++ {
			lr.Cov[i*m+j] = lr.Cov[j*m+i]
		}
	}
	numeric.CholSolveVec(lr.l, m, lr.Mean)
	numeric.CholSolveVecT(lr.l, m, lr.Mean)
	return nil
}

// moments returns E[a_n] = φᵀμ and E[a_n²] = φᵀ(S + μμᵀ)φ.
func (lr *Logistic) moments(n int) (ea, ea2 float64) {
	m := lr.m
	f := lr.phi[n*m : (n+1)*m]
	var quad float64
	for i := range m {
		ea += f[i] * lr.Mean[i]
		for j := range m {
			quad += f[i] * lr.Cov[i*m+j] * f[j]
		}
	}
	return ea, quad + ea*ea
}

// Bound returns the bound (PRML eq. (10.164), with the hyperprior's terms
// of (10.165)–(10.183) when Hyper) and its terms: "E[ln h(w,xi)]", the JJ
// bound on the log-likelihood; "-KL[q(w)||p(w|alpha)]" (E[ln p(w|α)] + H[q(w)]);
// "-KL[q(alpha)||p(alpha)]" (0 without the hyperprior).
func (lr *Logistic) Bound() vb.Bound {
	m := lr.m
	var lik float64
	for n := range lr.n {
		ea, ea2 := lr.moments(n)
		xi := lr.Xi[n]
		lik += LogSigmoid(xi) + (lr.t[n]-0.5)*ea - xi/2 - JJLambda(xi)*(ea2-xi*xi)
	}
	ew2 := 0.0
	for i := range m {
		ew2 += lr.Cov[i*m+i] + lr.Mean[i]*lr.Mean[i]
	}
	ea, ela := lr.alpha()
	ldetS := -numeric.CholLogDet(lr.l, m)
	klw := -(0.5*float64(m)*(ela-math.Log(2*math.Pi)) - 0.5*ea*ew2 + 0.5*ldetS + 0.5*float64(m)*(1+math.Log(2*math.Pi)))
	var kla float64
	if lr.prior.Hyper {
		kla = dist.KLGamma(dist.NewGammaShapeRate(lr.AN, lr.BN), dist.NewGammaShapeRate(lr.prior.A0, lr.prior.B0))
	}
	lr.terms = [3]vb.Term{{Name: "E[ln h(w,xi)]", Value: lik}, {Name: "-KL[q(w)||p(w|alpha)]", Value: -klw}, {Name: "-KL[q(alpha)||p(alpha)]", Value: -kla}}
	return vb.Bound{F: lik - klw - kla, Terms: lr.terms[:]}
}

// E updates q(w) and returns the bound.
func (lr *Logistic) E() (vb.Bound, error) {
	if err := lr.updateW(); err != nil {
		return vb.Bound{}, err
	}
	return lr.Bound(), nil
}

// M updates ξ (eq. (10.163)) and then q(α) (eqs. (10.177)–(10.183)).
func (lr *Logistic) M() {
	for n := range lr.n {
		_, ea2 := lr.moments(n)
		lr.Xi[n] = math.Sqrt(ea2)
	}
	if lr.prior.Hyper {
		ew2 := 0.0
		for i := range lr.m {
			ew2 += lr.Cov[i*lr.m+i] + lr.Mean[i]*lr.Mean[i]
		}
		lr.AN = lr.prior.A0 + 0.5*float64(lr.m)
		lr.BN = lr.prior.B0 + 0.5*ew2
	}
}

// Predict returns the predictive p(t = 1 | φ) ≈ σ(κ(σ_a²)μ_a) with
// κ(s) = (1 + πs/8)^{−1/2} (PRML eqs. (4.153)–(4.155), (10.174)).
func (lr *Logistic) Predict(phi []float64) float64 {
	m := lr.m
	var mu, s2 float64
	for i := range m {
		mu += phi[i] * lr.Mean[i]
		for j := range m {
			s2 += phi[i] * lr.Cov[i*m+j] * phi[j]
		}
	}
	return Sigmoid(mu / math.Sqrt(1+math.Pi*s2/8))
}

// LogisticJoint returns ln p(t, w) = Σ_n ln σ((2t_n − 1) φ_nᵀw) + ln N(w | 0,
// α⁻¹I) with its gradient and Hessian (also in one pass, GradHess), the
// target of Laplace's approximation for logistic regression (PRML §4.5,
// eqs. (4.142)–(4.143)) and of quadrature or sampling. It panics on ragged
// rows.
func LogisticJoint(phi [][]float64, t []int, alpha float64) Func {
	m := len(phi[0])
	act := func(n int, w []float64) float64 {
		var a float64
		for i, v := range phi[n] {
			a += v * w[i]
		}
		return a
	}
	// grad adds (t_n − σ)φ_n to dst.
	grad := func(dst []float64, n int, s float64) {
		r := float64(t[n]) - s
		for i, v := range phi[n] {
			dst[i] += r * v
		}
	}
	// hess adds −σ(1 − σ)φ_nφ_nᵀ to the lower triangle of dst.
	hess := func(dst []float64, n int, s float64) {
		f := phi[n]
		c := s * (1 - s)
		for i := range m {
			ci, row := c*f[i], dst[i*m:i*m+i+1]
			for j := range row {
				row[j] -= ci * f[j]
			}
		}
	}
	startGrad := func(dst, w []float64) {
		for i := range dst {
			dst[i] = -alpha * w[i]
		}
	}
	startHess := func(dst []float64) {
		clear(dst)
		for i := range m {
			dst[i*m+i] = -alpha
		}
	}
	mirror := func(dst []float64) {
		for i := range m {
			for j := range i {
				dst[j*m+i] = dst[i*m+j]
			}
		}
	}
	return Func{
		LogP: func(w []float64) float64 {
			v := 0.5*float64(m)*math.Log(alpha/(2*math.Pi)) - 0.5*alpha*dot(w, w)
			for n := range phi {
				v += LogSigmoid((2*float64(t[n]) - 1) * act(n, w))
			}
			return v
		},
		Grad: func(dst, w []float64) {
			startGrad(dst, w)
			for n := range phi {
				grad(dst, n, Sigmoid(act(n, w)))
			}
		},
		Hess: func(dst, w []float64) {
			startHess(dst)
			for n := range phi {
				hess(dst, n, Sigmoid(act(n, w)))
			}
			mirror(dst)
		},
		GradHess: func(g, h, w []float64) {
			startGrad(g, w)
			startHess(h)
			for n := range phi {
				s := Sigmoid(act(n, w))
				grad(g, n, s)
				hess(h, n, s)
			}
			mirror(h)
		},
	}
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
