package approx

import (
	"errors"
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// NGPrior is the Normal–Gamma prior of PRML eqs. (10.22)–(10.23):
// μ | τ ~ N(μ₀, (λ₀τ)⁻¹), τ ~ Gam(a₀, b₀) (shape, rate). λ₀ = 0 stands for
// a flat prior on μ that does not depend on τ, and a₀ = b₀ = 0 for
// p(τ) ∝ 1/τ: the improper limit μ₀ = a₀ = b₀ = λ₀ = 0 of L238, under
// which the fixed point satisfies eq. (10.33). An improper prior has no
// evidence and no bound.
type NGPrior struct{ Mu0, Lambda0, A0, B0 float64 }

func (p NGPrior) proper() bool { return p.Lambda0 > 0 && p.A0 > 0 && p.B0 > 0 }

// GaussVB is variational Bayes for the mean and precision of a univariate
// Gaussian with q(μ, τ) = q(μ)q(τ) (PRML §10.1.3, eqs. (10.24)–(10.30),
// Fig. 10.4). q(μ) = N(μ_N, 1/λ_N) with (10.26)–(10.27), q(τ) = Gam(a_N,
// b_N) with (10.30) and
//
//	a_N = a₀ + (N + κ)/2,  κ = 1 if λ₀ > 0, else 0
//
// (PRML's printed (10.29) has a₀ + N/2, which omits the ½ ln τ that the
// conjugate p(μ|τ) contributes to ln q(τ) (10.28); it is right for the flat
// prior on μ that eq. (10.33) assumes). It is a vb.Model: E updates q(μ)
// and returns the bound, M updates q(τ) — the order of Fig. 10.4 (b), (c).
type GaussVB struct {
	x            []float64
	n, xbar, ss  float64 // N, x̄, Σ(x − x̄)²
	prior        NGPrior
	MuN, LambdaN float64 // q(μ)
	AN, BN       float64 // q(τ)
	terms        [2]vb.Term
}

var _ vb.Model = (*GaussVB)(nil)

// NewGaussVB returns the fit with q(μ) = N(muInit, 1/lambdaInit) and
// q(τ) = Gam(aInit, bInit), the initial factors of Fig. 10.4(a).
func NewGaussVB(x []float64, prior NGPrior, muInit, lambdaInit, aInit, bInit float64) (*GaussVB, error) {
	if len(x) < 2 {
		return nil, errors.New("approx: GaussVB needs at least two data points")
	}
	if prior.Lambda0 < 0 || prior.A0 < 0 || prior.B0 < 0 {
		return nil, errors.New("approx: GaussVB prior: λ₀, a₀, b₀ must not be negative")
	}
	mean, _ := numeric.MeanSD(x)
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return &GaussVB{x: x, n: float64(len(x)), xbar: mean, ss: ss, prior: prior,
		MuN: muInit, LambdaN: lambdaInit, AN: aInit, BN: bInit}, nil
}

// Tau returns q(τ).
func (g *GaussVB) Tau() dist.Gamma { return dist.NewGammaShapeRate(g.AN, g.BN) }

// UpdateMu is eqs. (10.26)–(10.27).
func (g *GaussVB) UpdateMu() {
	p := g.prior
	g.MuN = (p.Lambda0*p.Mu0 + g.n*g.xbar) / (p.Lambda0 + g.n)
	g.LambdaN = (p.Lambda0 + g.n) * g.AN / g.BN
}

// UpdateTau is eq. (10.30) with a_N as in the type's comment:
// E_μ[Σ(x_n − μ)²] = ss + N(x̄ − μ_N)² + N/λ_N.
func (g *GaussVB) UpdateTau() {
	p := g.prior
	kappa := 0.0
	if p.Lambda0 > 0 {
		kappa = 1
	}
	g.AN = p.A0 + (g.n+kappa)/2
	sq := g.ss + g.n*(g.xbar-g.MuN)*(g.xbar-g.MuN) + g.n/g.LambdaN
	pr := p.Lambda0 * ((g.MuN-p.Mu0)*(g.MuN-p.Mu0) + 1/g.LambdaN)
	g.BN = p.B0 + 0.5*(sq+pr)
}

// Bound returns F = E[ln p(x|μ,τ)] − KL[q(μ)q(τ) ‖ p(μ,τ)] with its two
// terms, or an error for an improper prior.
func (g *GaussVB) Bound() (vb.Bound, error) {
	p := g.prior
	if !p.proper() {
		return vb.Bound{}, errors.New("approx: GaussVB: an improper prior has no bound")
	}
	tau := g.Tau()
	et, elt := tau.Mean(), tau.MeanLog()
	sq := g.ss + g.n*(g.xbar-g.MuN)*(g.xbar-g.MuN) + g.n/g.LambdaN
	lik := 0.5*g.n*(elt-math.Log(2*math.Pi)) - 0.5*et*sq
	emu := 0.5*(math.Log(p.Lambda0)+elt-math.Log(2*math.Pi)) -
		0.5*p.Lambda0*et*((g.MuN-p.Mu0)*(g.MuN-p.Mu0)+1/g.LambdaN)
	etau := p.A0*math.Log(p.B0) - numeric.LogGamma(p.A0) + (p.A0-1)*elt - p.B0*et
	hmu := 0.5 * (1 + math.Log(2*math.Pi/g.LambdaN))
	kl := -(emu + etau + hmu + tau.Entropy())
	g.terms = [2]vb.Term{{Name: "E[ln p(x|mu,tau)]", Value: lik}, {Name: "-KL[q(mu)q(tau)||p(mu,tau)]", Value: -kl}}
	return vb.Bound{F: lik - kl, Terms: g.terms[:]}, nil
}

// E updates q(μ) and returns the bound.
func (g *GaussVB) E() (vb.Bound, error) {
	g.UpdateMu()
	return g.Bound()
}

// M updates q(τ).
func (g *GaussVB) M() { g.UpdateTau() }

// NGPosterior is the exact posterior p(μ, τ | x) = N(μ | M, (Λτ)⁻¹)
// Gam(τ | A, B) of the conjugate model and the exact ln p(x).
type NGPosterior struct {
	M, Lambda, A, B float64
	LogEvidence     float64
}

// ExactPosterior returns the Normal–Gamma posterior (PRML Exercise 2.44):
// Λ = λ₀ + N, M = (λ₀μ₀ + Nx̄)/Λ, A = a₀ + N/2, B = b₀ + ½[ss + λ₀N(x̄ −
// μ₀)²/Λ], and ln p(x) = ln Γ(A) − ln Γ(a₀) + a₀ ln b₀ − A ln B +
// ½ ln(λ₀/Λ) − (N/2) ln 2π. It needs a proper prior.
func (g *GaussVB) ExactPosterior() (NGPosterior, error) {
	p := g.prior
	if !p.proper() {
		return NGPosterior{}, errors.New("approx: GaussVB: an improper prior has no evidence")
	}
	lam := p.Lambda0 + g.n
	post := NGPosterior{
		M:      (p.Lambda0*p.Mu0 + g.n*g.xbar) / lam,
		Lambda: lam,
		A:      p.A0 + g.n/2,
		B:      p.B0 + 0.5*(g.ss+p.Lambda0*g.n*(g.xbar-p.Mu0)*(g.xbar-p.Mu0)/lam),
	}
	post.LogEvidence = numeric.LogGamma(post.A) - numeric.LogGamma(p.A0) + p.A0*math.Log(p.B0) -
		post.A*math.Log(post.B) + 0.5*math.Log(p.Lambda0/lam) - 0.5*g.n*math.Log(2*math.Pi)
	return post, nil
}

// LogDensity returns ln p(μ, τ | x) (−Inf for τ ≤ 0).
func (p NGPosterior) LogDensity(mu, tau float64) float64 {
	if !(tau > 0) {
		return math.Inf(-1)
	}
	g := dist.NewGammaShapeRate(p.A, p.B)
	prec := p.Lambda * tau
	return g.LogProb(tau) + 0.5*math.Log(prec/(2*math.Pi)) - 0.5*prec*(mu-p.M)*(mu-p.M)
}

// KLToPosterior returns KL(q(μ)q(τ) ‖ p(μ, τ | x)) directly from the two
// densities: E_q[ln q] − E_q[ln p(μ,τ|x)], with E_q[ln p(μ,τ|x)] =
// E[ln Gam(τ|A,B)] + ½(ln Λ + E[ln τ] − ln 2π) − ½ΛE[τ]((μ_N − M)² + 1/λ_N).
// It equals ln p(x) − F (PRML eq. (10.2)), which the tests check.
func (g *GaussVB) KLToPosterior(post NGPosterior) float64 {
	tau := g.Tau()
	et, elt := tau.Mean(), tau.MeanLog()
	elg := post.A*math.Log(post.B) - numeric.LogGamma(post.A) + (post.A-1)*elt - post.B*et
	emu := 0.5*(math.Log(post.Lambda)+elt-math.Log(2*math.Pi)) -
		0.5*post.Lambda*et*((g.MuN-post.M)*(g.MuN-post.M)+1/g.LambdaN)
	hq := 0.5*(1+math.Log(2*math.Pi/g.LambdaN)) + tau.Entropy()
	return -hq - elg - emu
}
