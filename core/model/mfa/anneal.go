package mfa

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// Annealed is the tempered target of annealed importance sampling (Beal
// (2003) eqs. (6.49)–(6.61) with f_τ = p(Λ) p(y|Λ)^τ) for the marginal
// likelihood of ONE Bayesian factor analyser (S = 1 in eqs. (4.1)–(4.21)),
// its hyperparameters a*, b*, μ*, ν*, Ψ held fixed at a Hyper's values.
// The state is the loading matrix, row-major,
//
//	θ = vec Λ = (Λ_11, …, Λ_1k, Λ_21, …, Λ_pk),  Dim = p·k,
//
// everything else integrated out exactly: the factors x_i (eq. (4.11): y_i
// | Λ, μ ~ N(μ, C), C = ΛΛᵀ + Ψ), the ARD precisions ν_l ~ Ga(a*, b*)
// (shape, rate; eq. (4.18)) of the columns Λ_{·l} ~ N(0, I_p/ν_l) (eq.
// (4.17)), which leaves the column Student-t of targets ch4-mfa.md §1.2 as
// the prior (the t of ISTarget, eq. (4.115)),
//
//	ln p(Λ) = Σ_l [a* ln b* + ln Γ(a*+p/2) − ln Γ(a*) − (p/2) ln 2π
//	               − (a*+p/2) ln(b* + ½‖Λ_{·l}‖²)],
//
// and the mean μ ~ N(μ*, V), V = diag(1/ν*) (eq. (4.19)), by the Gaussian
// convolution of Π_i N(y_i | μ, C) = (2π)^{p/2} |C/N|^{1/2} N(ȳ | μ, C/N)
// × (the rest) with N(μ | μ*, V):
//
//	ln p(y | Λ) = −(Np/2) ln 2π − (p/2) ln N − ((N−1)/2) ln|C| − ½ tr(C⁻¹S)
//	              − ½ ln|D| − ½ rᵀD⁻¹r,
//
// with ȳ the data mean, S = Σ_i (y_i − ȳ)(y_i − ȳ)ᵀ, D = V + C/N and r =
// ȳ − μ* (at Λ = 0 this is, per coordinate, the exact evidence of the
// k = 0 analyser, targets §1.13 item 2). So the evidence of the analyser
// is Z = ∫ p(Λ) p(y|Λ) dΛ, the same ln p(y) that VB's F (eq. (4.29) at
// S = 1, where −KL[π], E[ln p(s|π)] and H[q(s)] vanish) bounds from below.
// Its gradients are closed forms (∂ ln|C|/∂Λ = 2C⁻¹Λ, ∂ tr(C⁻¹S)/∂Λ =
// −2C⁻¹SC⁻¹Λ):
//
//	∇ ln p(y|Λ) = [C⁻¹SC⁻¹ − (N−1)C⁻¹ + (1/N)(D⁻¹rrᵀD⁻¹ − D⁻¹)] Λ,
//	∂ ln p(Λ)/∂Λ_ql = −(a*+p/2) Λ_ql / (b* + ½‖Λ_{·l}‖²).
//
// The data enter only through N, ȳ and S, so an evaluation costs O(p³ +
// p²k) (EvalFlops), whatever N. The target is invariant under Λ_{·l} ↦
// −Λ_{·l} and under permutations of the columns: for k = 1 the posterior
// has the two mirrored modes ±Λ̂.
//
// Annealed satisfies samplers/ais.Model[[]float64], samplers/mcmc.GradTempered
// and samplers/is.Target (LogProb) by its method set and is safe for
// concurrent use (scratch space from a pool).
type Annealed struct {
	n, p, k int
	ybar    []float64 // ȳ
	scat    []float64 // S, p×p
	psi     []float64
	v       []float64 // 1/ν*
	r       []float64 // ȳ − μ*
	a, b    float64
	tShape  float64 // a* + p/2
	tConst  float64 // a* ln b* + ln Γ(a*+p/2) − ln Γ(a*) − (p/2) ln 2π
	lnConst float64 // −(Np/2) ln 2π − (p/2) ln N
	pool    sync.Pool
}

type annealScratch struct {
	c, cinv, d, dinv, work, m, t []float64 // p×p
	u                            []float64 // p
}

// NewAnnealed returns the target of one analyser with k factors on the data
// y (n×p, one observation per row), with the hyperparameters h: h.A, h.B,
// h.Mu, h.Nu and h.Psi must be set (h.Alpha is not used: with S = 1, π = 1).
// It returns an error for k outside [1, p], empty or non-finite data, or a
// hyperparameter that is not positive and finite (μ* finite).
func NewAnnealed(y mat.Matrix, k int, h Hyper) (*Annealed, error) {
	n, p := y.Dims()
	if n < 1 || p < 1 {
		return nil, fmt.Errorf("mfa: annealed target for %d×%d data", n, p)
	}
	if k < 1 || k > p {
		return nil, fmt.Errorf("mfa: annealed target needs 1 ≤ k ≤ p = %d, got %d", p, k)
	}
	if len(h.Psi) != p || len(h.Mu) != p || len(h.Nu) != p {
		return nil, fmt.Errorf("mfa: annealed target: Ψ, μ*, ν* have lengths %d, %d, %d; want p = %d", len(h.Psi), len(h.Mu), len(h.Nu), p)
	}
	pos := func(name string, v float64) error {
		if !(v > 0) || math.IsInf(v, 1) {
			return fmt.Errorf("mfa: annealed target: %s = %v, want positive and finite", name, v)
		}
		return nil
	}
	if err := errors.Join(pos("a*", h.A), pos("b*", h.B)); err != nil {
		return nil, err
	}
	a := &Annealed{n: n, p: p, k: k, ybar: make([]float64, p), scat: make([]float64, p*p), psi: make([]float64, p),
		v: make([]float64, p), r: make([]float64, p), a: h.A, b: h.B}
	for q := 0; q < p; q++ {
		if err := errors.Join(pos(fmt.Sprintf("ψ_%d", q), h.Psi[q]), pos(fmt.Sprintf("ν*_%d", q), h.Nu[q])); err != nil {
			return nil, err
		}
		if math.IsNaN(h.Mu[q]) || math.IsInf(h.Mu[q], 0) {
			return nil, fmt.Errorf("mfa: annealed target: μ*_%d = %v", q, h.Mu[q])
		}
		a.psi[q], a.v[q] = h.Psi[q], 1/h.Nu[q]
	}
	for i := 0; i < n; i++ {
		for q := 0; q < p; q++ {
			v := y.At(i, q)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, errors.New("mfa: annealed target: data not finite")
			}
			a.ybar[q] += v
		}
	}
	for q := range a.ybar {
		a.ybar[q] /= float64(n)
		a.r[q] = a.ybar[q] - h.Mu[q]
	}
	for i := 0; i < n; i++ {
		for q := 0; q < p; q++ {
			dq := y.At(i, q) - a.ybar[q]
			for s := 0; s < p; s++ {
				a.scat[q*p+s] += dq * (y.At(i, s) - a.ybar[s])
			}
		}
	}
	a.tShape = h.A + float64(p)/2
	a.tConst = h.A*math.Log(h.B) + numeric.LogGamma(a.tShape) - numeric.LogGamma(h.A) - float64(p)/2*ln2Pi
	a.lnConst = -float64(n*p)/2*ln2Pi - float64(p)/2*math.Log(float64(n))
	a.pool.New = func() any {
		return &annealScratch{c: make([]float64, p*p), cinv: make([]float64, p*p), d: make([]float64, p*p), dinv: make([]float64, p*p),
			work: make([]float64, p*p), m: make([]float64, p*p), t: make([]float64, p*p), u: make([]float64, p)}
	}
	return a, nil
}

// Dim returns p·k.
func (a *Annealed) Dim() int { return a.p * a.k }

// P returns the data dimension p.
func (a *Annealed) P() int { return a.p }

// K returns the number of factors k.
func (a *Annealed) K() int { return a.k }

// N returns the number of observations.
func (a *Annealed) N() int { return a.n }

// EvalFlops is the count of multiply-adds charged for one evaluation of
// LogLik or GradLogLik: forming C (p²k), two Cholesky factors and inverses
// (4p³/3 each, rounded to 2p³), the traces and the products of the
// gradient (4p² + 2p²k), and the prior (2pk).
func (a *Annealed) EvalFlops() float64 {
	p, k := float64(a.p), float64(a.k)
	return 4*p*p*p + 3*p*p*k + 4*p*p + 2*p*k
}

func (a *Annealed) check(theta []float64) {
	if len(theta) != a.Dim() {
		panic(fmt.Sprintf("mfa: annealed state length %d, want %d", len(theta), a.Dim()))
	}
}

// LogPrior returns ln p(Λ), the product of the column Student-t densities
// (targets §1.2; eq. (4.115) with ν integrated out). It panics if
// len(theta) != Dim().
func (a *Annealed) LogPrior(theta []float64) float64 {
	a.check(theta)
	k := a.k
	var lp float64
	for l := 0; l < k; l++ {
		var e float64
		for q := 0; q < a.p; q++ {
			v := theta[q*k+l]
			e += v * v
		}
		lp += a.tConst - a.tShape*math.Log(a.b+0.5*e)
	}
	return lp
}

// GradLogPrior writes ∇ ln p(Λ) into dst (see Annealed).
func (a *Annealed) GradLogPrior(dst, theta []float64) {
	a.check(theta)
	k := a.k
	for l := 0; l < k; l++ {
		var e float64
		for q := 0; q < a.p; q++ {
			v := theta[q*k+l]
			e += v * v
		}
		f := -a.tShape / (a.b + 0.5*e)
		for q := 0; q < a.p; q++ {
			dst[q*k+l] = f * theta[q*k+l]
		}
	}
}

// factor sets s.c = C = ΛΛᵀ + Ψ and s.d = V + C/N, their inverses s.cinv,
// s.dinv, and returns ln|C|, ln|D|, or false when a factorisation fails (a
// loading that is not finite).
func (a *Annealed) factor(s *annealScratch, theta []float64) (lnC, lnD float64, ok bool) {
	p, k := a.p, a.k
	for q := 0; q < p; q++ {
		for t := 0; t <= q; t++ {
			var v float64
			for l := 0; l < k; l++ {
				v += theta[q*k+l] * theta[t*k+l]
			}
			if q == t {
				v += a.psi[q]
			}
			s.c[q*p+t], s.c[t*p+q] = v, v
			w := v / float64(a.n)
			if q == t {
				w += a.v[q]
			}
			s.d[q*p+t], s.d[t*p+q] = w, w
		}
	}
	copy(s.m, s.c)
	if !numeric.CholFactor(s.m, p) {
		return 0, 0, false
	}
	lnC = numeric.CholLogDet(s.m, p)
	numeric.CholInverse(s.cinv, s.m, p, s.work)
	copy(s.m, s.d)
	if !numeric.CholFactor(s.m, p) {
		return 0, 0, false
	}
	lnD = numeric.CholLogDet(s.m, p)
	numeric.CholInverse(s.dinv, s.m, p, s.work)
	return lnC, lnD, true
}

// LogLik returns ln p(y | Λ) with μ, x and ν integrated out (see Annealed),
// or −Inf where C is not positive definite (a loading that is not finite).
// It panics if len(theta) != Dim().
func (a *Annealed) LogLik(theta []float64) float64 {
	a.check(theta)
	s := a.pool.Get().(*annealScratch)
	defer a.pool.Put(s)
	lnC, lnD, ok := a.factor(s, theta)
	if !ok {
		return math.Inf(-1)
	}
	p := a.p
	var tr, quad float64
	for q := 0; q < p; q++ {
		for t := 0; t < p; t++ {
			tr += s.cinv[q*p+t] * a.scat[t*p+q]
			quad += a.r[q] * s.dinv[q*p+t] * a.r[t]
		}
	}
	return a.lnConst - 0.5*(float64(a.n)-1)*lnC - 0.5*tr - 0.5*lnD - 0.5*quad
}

// GradLogLik writes ∇ ln p(y|Λ) into dst (see Annealed); zeros where the
// likelihood is not finite.
func (a *Annealed) GradLogLik(dst, theta []float64) {
	a.check(theta)
	s := a.pool.Get().(*annealScratch)
	defer a.pool.Put(s)
	p, k := a.p, a.k
	dst = dst[:a.Dim()]
	if _, _, ok := a.factor(s, theta); !ok {
		clear(dst)
		return
	}
	// t = S C⁻¹, then m = C⁻¹ t − (N−1) C⁻¹; u = D⁻¹ r, m += (uuᵀ − D⁻¹)/N.
	for q := 0; q < p; q++ {
		for t := 0; t < p; t++ {
			var v float64
			for j := 0; j < p; j++ {
				v += a.scat[q*p+j] * s.cinv[j*p+t]
			}
			s.t[q*p+t] = v
		}
		var u float64
		for t := 0; t < p; t++ {
			u += s.dinv[q*p+t] * a.r[t]
		}
		s.u[q] = u
	}
	fn := float64(a.n)
	for q := 0; q < p; q++ {
		for t := 0; t < p; t++ {
			var v float64
			for j := 0; j < p; j++ {
				v += s.cinv[q*p+j] * s.t[j*p+t]
			}
			s.m[q*p+t] = v - (fn-1)*s.cinv[q*p+t] + (s.u[q]*s.u[t]-s.dinv[q*p+t])/fn
		}
	}
	for q := 0; q < p; q++ {
		for l := 0; l < k; l++ {
			var v float64
			for t := 0; t < p; t++ {
				v += s.m[q*p+t] * theta[t*k+l]
			}
			dst[q*k+l] = v
		}
	}
}

// LogProb returns ln p(Λ) + ln p(y|Λ), the unnormalised log posterior (an
// importance-sampling target).
func (a *Annealed) LogProb(theta []float64) float64 {
	lp := a.LogPrior(theta)
	if math.IsInf(lp, -1) {
		return lp
	}
	return lp + a.LogLik(theta)
}

// SamplePrior draws Λ ~ p(Λ) exactly: for each column ν_l = g/b* with g ~
// Ga(a*, 1) (dist.RandLogGamma), then Λ_{·l} ~ N(0, I_p/ν_l) (eqs. (4.17),
// (4.18)). It writes into dst when its capacity suffices.
func (a *Annealed) SamplePrior(dst []float64, rnd *rand.Rand) []float64 {
	if cap(dst) < a.Dim() {
		dst = make([]float64, a.Dim())
	}
	dst = dst[:a.Dim()]
	k := a.k
	for l := 0; l < k; l++ {
		lnNu := dist.RandLogGamma(a.a, rnd) - math.Log(a.b)
		sd := math.Exp(-0.5 * lnNu)
		for q := 0; q < a.p; q++ {
			dst[q*k+l] = sd * rnd.NormFloat64()
		}
	}
	return dst
}

// MaxLikelihood returns the maximum-likelihood loadings Λ̂ (row-major p×k)
// and mean μ̂ = ȳ of the analyser with Ψ held fixed, and ln p(y | Λ̂, μ̂, Ψ)
// = −(Np/2) ln 2π − (N/2) ln|Ĉ| − ½ tr(Ĉ⁻¹S) (eq. (4.11) without the
// priors): with Ψ fixed, Λ = Ψ^{1/2}Λ′ turns the problem into probabilistic
// PCA of Ψ^{−1/2}y with unit noise, whose maximiser is Λ′ = U_k (E_k −
// I)_+^{1/2} (Tipping and Bishop 1999, eq. (7) with σ² = 1; Lawley and
// Maxwell 1971), U_k E_k the leading eigenpairs of Ψ^{−1/2}(S/N)Ψ^{−1/2}.
// This is the BIC point of section 4.6.2 (eq. (4.88)) for the fixed Ψ.
func (a *Annealed) MaxLikelihood() (lambda, mu []float64, logLik float64, err error) {
	p, k := a.p, a.k
	sym := mat.NewSymDense(p, nil)
	for q := 0; q < p; q++ {
		for t := 0; t <= q; t++ {
			sym.SetSym(q, t, a.scat[q*p+t]/float64(a.n)/math.Sqrt(a.psi[q]*a.psi[t]))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, true) {
		return nil, nil, 0, errors.New("mfa: eigendecomposition of the scaled scatter failed")
	}
	vals := eig.Values(nil) // ascending
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	lambda = make([]float64, p*k)
	for l := 0; l < k; l++ {
		j := p - 1 - l
		f := math.Sqrt(max(vals[j]-1, 0))
		for q := 0; q < p; q++ {
			lambda[q*k+l] = math.Sqrt(a.psi[q]) * vecs.At(q, j) * f
		}
	}
	s := a.pool.Get().(*annealScratch)
	defer a.pool.Put(s)
	lnC, _, ok := a.factor(s, lambda)
	if !ok {
		return nil, nil, 0, errors.New("mfa: ML covariance not positive definite")
	}
	var tr float64
	for q := 0; q < p; q++ {
		for t := 0; t < p; t++ {
			tr += s.cinv[q*p+t] * a.scat[t*p+q]
		}
	}
	logLik = -float64(a.n*p)/2*ln2Pi - float64(a.n)/2*lnC - 0.5*tr
	return lambda, append([]float64(nil), a.ybar...), logLik, nil
}
