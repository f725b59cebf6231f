package vbtest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/mixture"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// ln2Pi is ln 2π.
var ln2Pi = math.Log(2 * math.Pi)

// Term names of the mixture bounds, in the order E reports them.
const (
	// TermLnZ is Σ_n ln Σ_k exp(E[ln π_k] + E[ln N(x_n | μ_k, τ_k⁻¹)]).
	TermLnZ = "lnZ"
	// TermKLPi is −KL(q(π) ‖ p(π)).
	TermKLPi = "-KL[pi]"
	// TermKLTheta is −Σ_k KL(q(μ_k, τ_k) ‖ p(μ_k, τ_k)).
	TermKLTheta = "-KL[mu,tau]"
	// TermLogLik is the log-likelihood ln p(x | θ) of GaussianMixtureEM.
	TermLogLik = "lnp(x|theta)"
)

// MixturePrior holds the hyperparameters of the one-dimensional Bayesian
// Gaussian mixture
//
//	π ~ Dir(Alpha0/K, …, Alpha0/K),
//	τ_k ~ Ga(A0, B0)            (shape A0, rate B0),
//	μ_k | τ_k ~ N(M0, (Beta0·τ_k)⁻¹),
//	z_n | π ~ Cat(π),  x_n | z_n = k ~ N(μ_k, τ_k⁻¹),
//
// PRML eqs. (10.37)–(10.40) for D = 1 (with the Dirichlet's per-component
// parameter written Alpha0/K, so that Alpha0 is the strength of Beal (2003)
// eq. (3.43)). Every field except M0 must be positive and finite.
type MixturePrior struct {
	// Alpha0 is the strength f of the symmetric Dirichlet prior on π.
	Alpha0 float64
	// M0 is the prior mean of every μ_k.
	M0 float64
	// Beta0 scales the prior precision of μ_k given τ_k.
	Beta0 float64
	// A0 is the shape of the gamma prior on τ_k.
	A0 float64
	// B0 is the rate (not the scale) of the gamma prior on τ_k.
	B0 float64
}

func (p MixturePrior) check() {
	for _, v := range [...]float64{p.Alpha0, p.Beta0, p.A0, p.B0} {
		if !(v > 0) || math.IsInf(v, 1) {
			panic("vbtest: mixture hyperparameter not positive and finite")
		}
	}
	if math.IsNaN(p.M0) || math.IsInf(p.M0, 0) {
		panic("vbtest: mixture prior mean not finite")
	}
}

// GaussianMixture is variational Bayesian EM for the one-dimensional mixture
// of K Gaussians of MixturePrior, with the factorisation
//
//	q(z, π, μ, τ) = Π_n q(z_n) · Dir(π | Alpha) · Π_k Ga(τ_k | A_k, B_k) N(μ_k | Mu_k, (Beta_k τ_k)⁻¹)
//
// (Beal (2003) eqs. (2.53)–(2.56) and Theorem 2.2; PRML eqs. (10.42),
// (10.55), (10.57), (10.59)). It implements vb.Model and vb.HyperUpdater.
//
// E is the VBE step (2.54), (2.94)–(2.96): with expected natural parameters
//
//	ln ρ_nk = E[ln π_k] + ½E[ln τ_k] − ½ln 2π − 1/(2Beta_k) − ½E[τ_k](x_n − Mu_k)²,
//	E[ln π_k] = ψ(Alpha_k) − ψ(Σ Alpha),  E[ln τ_k] = ψ(A_k) − ln B_k,  E[τ_k] = A_k/B_k
//
// (PRML (10.46), (10.64)–(10.66) for D = 1) the responsibilities are
// r_nk = ρ_nk/Σ_j ρ_nj (10.49) (mixture.NormalizeLog), and the bound, valid
// right after the VBE step, is
//
//	F = Σ_n ln Σ_k ρ_nk − KL(q(π) ‖ p(π)) − Σ_k KL(q(μ_k, τ_k) ‖ p(μ_k, τ_k))
//
// in nats with every constant included (the "ln Z̃ − KL" form of Beal (2003)
// eqs. (2.60)–(2.63) and (3.79); it equals PRML (10.70)–(10.77), because
// with the optimal q(z) the terms E[ln p(x, z | θ)] + H[q(z)] sum to ln Z̃).
//
// M is the VBM step (2.97)–(2.99): with N_k = Σ_n r_nk, x̄_k = Σ_n r_nk x_n/N_k
// and S_k = Σ_n r_nk (x_n − x̄_k)²,
//
//	Alpha_k = Alpha0/K + N_k,                      (PRML 10.58; its α0 is Alpha0/K)
//	Beta_k  = Beta0 + N_k,                         (10.60)
//	Mu_k    = (Beta0 M0 + N_k x̄_k)/Beta_k,          (10.61)
//	A_k     = A0 + N_k/2,                          (10.63, ν = 2a)
//	B_k     = B0 + ½[S_k + Beta0 N_k (x̄_k − M0)²/(Beta0 + N_k)].   (10.62, W⁻¹ = 2b)
//
// UpdateHyper re-estimates Prior.Alpha0 by maximising F (2.79).
//
// The fields may be read, and set before a call to E or M (for example Resp
// followed by M for a hand-built initialisation); the slices must keep their
// lengths.
type GaussianMixture struct {
	X     []float64
	K     int
	Prior MixturePrior

	// Alpha holds the parameters of q(π) = Dir(Alpha).
	Alpha []float64
	// Mu, Beta, A and B give
	// q(μ_k, τ_k) = Ga(τ_k | A_k, B_k) N(μ_k | Mu_k, (Beta_k τ_k)⁻¹)
	// (A shape, B rate).
	Mu, Beta, A, B []float64
	// Resp[k*N+n] = q(z_n = k), component-major as package mixture lays
	// it out (N = len(X)): from the last E step, or the initialisation
	// before the first one.
	Resp []float64

	// scratch: E[ln π], the x-independent part of ln ρ_nk, E[τ], and
	// ln Σ_k ρ_nk (N)
	elnpi, c, et, lnZ []float64
}

var (
	_ vb.Model        = (*GaussianMixture)(nil)
	_ vb.HyperUpdater = (*GaussianMixture)(nil)
)

// NewGaussianMixture returns VBEM for the mixture of k Gaussians with the
// given prior on the data x (not copied). Each row of the initial q(z) is
// drawn from the flat Dirichlet Dir(1, …, 1) with rnd, and a VBM step then
// sets q(θ), so the first E step of vb.Run already uses a data-dependent
// q(θ). With k = 1 the initial q(z) is exact and rnd is not used. A nil rnd
// gives the uniform q(z) = 1/k, a symmetric fixed point that VBEM never
// leaves, meant to be overwritten: set Resp and call M for a hand-built
// start. It panics if x is empty, k < 1, a hyperparameter is invalid or x is
// not finite.
func NewGaussianMixture(x []float64, k int, prior MixturePrior, rnd *rand.Rand) *GaussianMixture {
	if len(x) == 0 || k < 1 {
		panic("vbtest: empty data or k < 1")
	}
	prior.check()
	checkData(x)
	m := &GaussianMixture{
		X: x, K: k, Prior: prior,
		Alpha: make([]float64, k), Mu: make([]float64, k), Beta: make([]float64, k),
		A: make([]float64, k), B: make([]float64, k), Resp: make([]float64, len(x)*k),
		elnpi: make([]float64, k), c: make([]float64, k), et: make([]float64, k), lnZ: make([]float64, len(x)),
	}
	randomResp(m.Resp, k, rnd)
	m.M()
	return m
}

func checkData(x []float64) {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			panic("vbtest: data not finite")
		}
	}
}

// randomResp fills q(z_n) of every point n of resp (k components,
// component-major) with a draw from the flat Dirichlet Dir(1, …, 1):
// normalised standard exponentials. With rnd nil every entry is 1/k.
func randomResp(resp []float64, k int, rnd *rand.Rand) {
	if k == 1 || rnd == nil {
		for i := range resp {
			resp[i] = 1 / float64(k)
		}
		return
	}
	N := len(resp) / k
	for n := 0; n < N; n++ {
		var s float64
		for j := 0; j < k; j++ {
			resp[j*N+n] = rnd.ExpFloat64()
			s += resp[j*N+n]
		}
		for j := 0; j < k; j++ {
			resp[j*N+n] /= s
		}
	}
}

// logTerms writes ln ρ_nk = c_k − ½E[τ_k](x_n − Mu_k)² into column k of resp
// (component-major) for every component and point.
func logTerms(resp, x, c, et, mu []float64) {
	N := len(x)
	for j, cj := range c {
		row := resp[j*N : (j+1)*N]
		for n, xn := range x {
			d := xn - mu[j]
			row[n] = cj - 0.5*et[j]*d*d
		}
	}
}

// E is the VBE step: it sets Resp from the current q(θ) and returns F with
// the terms TermLnZ, TermKLPi and TermKLTheta (see the type's comment).
func (m *GaussianMixture) E() (vb.Bound, error) {
	k := m.K
	dist.DirichletMeanLogTo(m.elnpi, m.Alpha)
	c, et := m.c, m.et
	for j := 0; j < k; j++ {
		et[j] = m.A[j] / m.B[j]
		elnt := numeric.Digamma(m.A[j]) - math.Log(m.B[j])
		c[j] = m.elnpi[j] + 0.5*elnt - 0.5*ln2Pi - 0.5/m.Beta[j]
	}
	logTerms(m.Resp, m.X, c, et, m.Mu)
	if err := mixture.NormalizeLog(m.Resp, len(m.X), m.lnZ); err != nil {
		return vb.Bound{F: math.NaN()}, fmt.Errorf("vbtest: %w", err)
	}
	lnZ := numeric.Sum(m.lnZ)
	klPi, klTheta := m.KL()
	return vb.Bound{F: lnZ - klPi - klTheta, Terms: []vb.Term{
		{Name: TermLnZ, Value: lnZ}, {Name: TermKLPi, Value: -klPi}, {Name: TermKLTheta, Value: -klTheta},
	}}, nil
}

// KL returns KL(q(π) ‖ p(π)) (the Dirichlet KL of Beal (2003) Appendix A)
// and Σ_k KL(q(μ_k, τ_k) ‖ p(μ_k, τ_k)) (the Normal-Gamma chain rule of
// Appendix C.3, eqs. (C.18)–(C.23)) for the current q(θ) and Prior.
func (m *GaussianMixture) KL() (pi, theta float64) {
	p := m.Prior
	pi = mixture.KLWeights(m.Alpha, p.Alpha0)
	pr := normalGamma(p.A0, p.B0, p.M0, p.Beta0)
	for j := 0; j < m.K; j++ {
		theta += dist.KLNormalGamma(normalGamma(m.A[j], m.B[j], m.Mu[j], m.Beta[j]), pr)
	}
	return pi, theta
}

// normalGamma returns Ga(τ | a, b) N(μ | m, (βτ)⁻¹) as a one-dimensional
// dist.NormalGamma (scale matrix Σ = 1/β).
func normalGamma(a, b, m, beta float64) *dist.NormalGamma {
	ng, ok := dist.NewNormalGamma(a, b, []float64{m}, mat.NewSymDense(1, []float64{1 / beta}))
	if !ok {
		panic(fmt.Sprintf("vbtest: invalid Normal-Gamma precision scale β = %v", beta))
	}
	return ng
}

// M is the VBM step: q(π) and each q(μ_k, τ_k) from the responsibilities
// Resp (see the type's comment for the updates). The scatter S_k is
// accumulated about x̄_k, which avoids the cancellation of Σr x² − N x̄².
func (m *GaussianMixture) M() {
	k, p := m.K, m.Prior
	mixture.UpdateWeights(m.Alpha, m.Resp, len(m.X), p.Alpha0)
	for j := 0; j < k; j++ {
		nk, xbar, ss := weightedMoments(m.X, m.Resp, j, p.M0)
		dm := xbar - p.M0
		m.Beta[j] = p.Beta0 + nk
		m.Mu[j] = (p.Beta0*p.M0 + nk*xbar) / m.Beta[j]
		m.A[j] = p.A0 + nk/2
		m.B[j] = p.B0 + 0.5*(ss+p.Beta0*nk*dm*dm/(p.Beta0+nk))
	}
}

// UpdateHyper sets Prior.Alpha0 to the strength f that maximises F with
// q(z) and q(θ) held fixed (Beal (2003) eq. (2.79)). Only −KL(q(π) ‖ p(π))
// depends on f, through
//
//	G(f) = ln Γ(f) − K ln Γ(f/K) + (f/K − 1)·Σ_k E[ln π_k],
//
// the R = 1 case of dist.FitSymmetricStrength (eqs. (3.43), (4.66)–(4.67)),
// which is concave in f. FitSymmetricStrength searches [1e-6, 1e6]; should
// its clamped answer have a lower G than the current f (possible only if
// the current f lies outside that interval), Alpha0 is left unchanged, so the
// step never lowers F. With K = 1 the prior on π is a point mass and
// UpdateHyper does nothing.
func (m *GaussianMixture) UpdateHyper(group string) {
	if group != HyperAlpha0 {
		panic("vbtest: unknown hyperparameter group " + group)
	}
	if m.K < 2 {
		return
	}
	dist.DirichletMeanLogTo(m.elnpi, m.Alpha)
	var s float64
	for _, v := range m.elnpi {
		s += v
	}
	k := float64(m.K)
	g := func(f float64) float64 {
		return numeric.LogGamma(f) - k*numeric.LogGamma(f/k) + (f/k-1)*s
	}
	f := dist.FitSymmetricStrength(1, m.K, s)
	if g(f) >= g(m.Prior.Alpha0) {
		m.Prior.Alpha0 = f
	}
}

// HyperAlpha0 is the one hyperparameter group of GaussianMixture: the
// Dirichlet strength Prior.Alpha0.
const HyperAlpha0 = "alpha0"

// HyperGroups returns HyperAlpha0.
func (m *GaussianMixture) HyperGroups() []string { return []string{HyperAlpha0} }

// GaussianMixtureEM is maximum-likelihood EM for the same one-dimensional
// mixture of K Gaussians: VBEM with q(θ) restricted to a point mass
// δ(θ − θ*), whose VBM step re-estimates θ* and whose objective is the
// log-likelihood ln p(x | θ*) (Beal (2003) section 2.3.1, L1164 of the thesis
// text; PRML eqs. (9.13) and (9.24)–(9.28)). It implements vb.Model.
//
// E sets r_nk ∝ Pi_k N(x_n | Mu_k, 1/Tau_k) and returns
// ln p(x | θ) = Σ_n ln Σ_k Pi_k N(x_n | Mu_k, 1/Tau_k); M sets Pi_k = N_k/N,
// Mu_k = x̄_k and 1/Tau_k = max(S_k/N_k, VarFloor). A component with N_k = 0
// keeps its Mu and Tau (they do not affect the likelihood while Pi_k = 0).
//
// The likelihood is unbounded (a component collapsing onto one point has
// Tau → ∞); with VarFloor > 0 the M step maximises over variances
// ≥ VarFloor, which is still an exact coordinate-ascent step since the
// objective is unimodal in each variance.
type GaussianMixtureEM struct {
	X  []float64
	K  int
	Pi []float64 // mixing weights
	Mu []float64 // component means
	// Tau holds the component precisions.
	Tau []float64
	// Resp[k*N+n] = p(z_n = k | x_n, θ), component-major (N = len(X)), from
	// the last E step or the initialisation.
	Resp []float64
	// VarFloor ≥ 0 is the smallest variance the M step may choose (0: none).
	VarFloor float64
}

var _ vb.Model = (*GaussianMixtureEM)(nil)

// NewGaussianMixtureEM returns ML-EM for k components on the data x (not
// copied), started from an M step on responsibilities drawn row by row from
// the flat Dirichlet with rnd (with k = 1 rnd is not used; a nil rnd gives
// the uniform, symmetric start 1/k). It panics if x is empty or not finite or
// k < 1.
func NewGaussianMixtureEM(x []float64, k int, rnd *rand.Rand) *GaussianMixtureEM {
	if len(x) == 0 || k < 1 {
		panic("vbtest: empty data or k < 1")
	}
	checkData(x)
	m := &GaussianMixtureEM{X: x, K: k, Pi: make([]float64, k), Mu: make([]float64, k), Tau: make([]float64, k), Resp: make([]float64, len(x)*k)}
	randomResp(m.Resp, k, rnd)
	m.M()
	return m
}

// E is the E step; it returns ln p(x | θ) with the single term TermLogLik.
func (m *GaussianMixtureEM) E() (vb.Bound, error) {
	k := m.K
	c := make([]float64, k)
	for j := 0; j < k; j++ {
		c[j] = math.Log(m.Pi[j]) + 0.5*math.Log(m.Tau[j]) - 0.5*ln2Pi
	}
	logTerms(m.Resp, m.X, c, m.Tau, m.Mu)
	lnZ := make([]float64, len(m.X))
	if err := mixture.NormalizeLog(m.Resp, len(m.X), lnZ); err != nil {
		return vb.Bound{F: math.NaN()}, fmt.Errorf("vbtest: %w", err)
	}
	ll := numeric.Sum(lnZ)
	return vb.Bound{F: ll, Terms: []vb.Term{{Name: TermLogLik, Value: ll}}}, nil
}

// M is the M step (see the type's comment).
func (m *GaussianMixtureEM) M() {
	k := m.K
	for j := 0; j < k; j++ {
		nk, mu, ss := weightedMoments(m.X, m.Resp, j, 0)
		m.Pi[j] = nk / float64(len(m.X))
		if !(nk > 0) {
			continue
		}
		m.Mu[j] = mu
		m.Tau[j] = 1 / math.Max(ss/nk, m.VarFloor)
	}
}

// LogLikelihood returns ln p(x | θ) = Σ_n ln Σ_k Pi_k N(x_n | Mu_k, 1/Tau_k)
// at the current parameters without touching Resp.
func (m *GaussianMixtureEM) LogLikelihood() float64 {
	lw := make([]float64, m.K)
	var ll float64
	for _, x := range m.X {
		for j := range lw {
			d := x - m.Mu[j]
			lw[j] = math.Log(m.Pi[j]) + 0.5*math.Log(m.Tau[j]) - 0.5*ln2Pi - 0.5*m.Tau[j]*d*d
		}
		ll += numeric.LogSumExp(lw)
	}
	return ll
}

// MixtureData draws n points from the one-dimensional Gaussian mixture with
// weights pi (normalised here), means mu and standard deviations sigma,
// using rnd. It panics if the lengths differ or a weight is negative.
func MixtureData(rnd *rand.Rand, n int, pi, mu, sigma []float64) []float64 {
	if len(pi) != len(mu) || len(pi) != len(sigma) || len(pi) == 0 {
		panic("vbtest: mixture parameter lengths differ")
	}
	var tot float64
	for _, w := range pi {
		if !(w >= 0) {
			panic("vbtest: negative mixture weight")
		}
		tot += w
	}
	x := make([]float64, n)
	for i := range x {
		u := rnd.Float64() * tot
		j := 0
		for ; j < len(pi)-1; j++ {
			u -= pi[j]
			if u < 0 {
				break
			}
		}
		x[i] = mu[j] + sigma[j]*rnd.NormFloat64()
	}
	return x
}

// NormalGammaLogEvidence returns the exact log marginal likelihood of x
// under one Gaussian component with the Normal-Gamma prior of p (Alpha0 is
// not used),
//
//	ln p(x) = −(N/2) ln 2π + ½ ln(Beta0/Beta_N) + ln Γ(A_N) − ln Γ(A0) + A0 ln B0 − A_N ln B_N,
//
// where Beta_N, A_N and B_N are the conjugate posterior's parameters (the
// updates of GaussianMixture.M with all responsibilities 1). It is the ratio
// (2π)^(−N/2) Z_N/Z_0 of the posterior and prior normalisers
// Z = Γ(a) b^(−a) (2π/β)^½ of Ga(τ | a, b) N(μ | m, (βτ)⁻¹). It is 0 for
// empty x.
func NormalGammaLogEvidence(x []float64, p MixturePrior) float64 {
	n := float64(len(x))
	if n == 0 {
		return 0
	}
	var s float64
	for _, v := range x {
		s += v
	}
	xbar := s / n
	var ss float64
	for _, v := range x {
		ss += (v - xbar) * (v - xbar)
	}
	return ngLogEvidence(n, xbar, ss, p)
}

// ngLogEvidence is NormalGammaLogEvidence from the count n > 0, the mean and
// the scatter Σ(x − x̄)².
func ngLogEvidence(n, xbar, ss float64, p MixturePrior) float64 {
	bn := p.Beta0 + n
	an := p.A0 + n/2
	d := xbar - p.M0
	bN := p.B0 + 0.5*(ss+p.Beta0*n*d*d/bn)
	return -n/2*ln2Pi + 0.5*math.Log(p.Beta0/bn) + numeric.LogGamma(an) - numeric.LogGamma(p.A0) +
		p.A0*math.Log(p.B0) - an*math.Log(bN)
}

// maxAssignments bounds the enumeration of MixtureLogEvidence.
const maxAssignments = 1 << 24

// MixtureLogEvidence returns the exact log marginal likelihood ln p(x) of the
// Bayesian mixture of k Gaussians with prior p, by enumerating all k^N
// assignments z and adding, for each, the Dirichlet-multinomial probability
// of z (dist.DirichletLogMarginalCounts with parameters Alpha0/k; Beal (2003)
// eq. (6.9)) and the Normal-Gamma evidence of each component's points:
//
//	ln p(x) = ln Σ_z exp{ ln p(z) + Σ_k ln p(x_{z=k}) }.
//
// It is the reference against which F ≤ ln p(x) is checked (STYLE.md §2.6
// layer 2). It panics if k^N exceeds 2^24.
func MixtureLogEvidence(x []float64, k int, p MixturePrior) float64 {
	p.check()
	if k < 1 {
		panic("vbtest: k < 1")
	}
	total := 1
	for range x {
		total *= k
		if total > maxAssignments {
			panic("vbtest: too many assignments to enumerate")
		}
	}
	u := make([]float64, k)
	for j := range u {
		u[j] = p.Alpha0 / float64(k)
	}
	z := make([]int, len(x))
	counts := make([]float64, k)
	sum := make([]float64, k)
	lnp := math.Inf(-1)
	for {
		for j := range counts {
			counts[j], sum[j] = 0, 0
		}
		for i, v := range x {
			counts[z[i]]++
			sum[z[i]] += v
		}
		lp := dist.DirichletLogMarginalCounts(u, counts)
		for j := 0; j < k; j++ {
			if counts[j] == 0 {
				continue
			}
			xbar := sum[j] / counts[j]
			var ss float64
			for i, v := range x {
				if z[i] == j {
					ss += (v - xbar) * (v - xbar)
				}
			}
			lp += ngLogEvidence(counts[j], xbar, ss, p)
		}
		lnp = numeric.LogAddExp(lnp, lp)
		i := 0
		for ; i < len(z); i++ {
			z[i]++
			if z[i] < k {
				break
			}
			z[i] = 0
		}
		if i == len(z) {
			return lnp
		}
	}
}

// weightedMoments returns component j's responsibility-weighted count
// N_j = Σ_n r_nj, mean x̄_j (empty when N_j = 0: then x̄_j is the given
// fallback) and scatter S_j = Σ_n r_nj (x_n − x̄_j)², accumulated about x̄_j
// to avoid the cancellation of Σ r x² − N x̄².
func weightedMoments(x, resp []float64, j int, empty float64) (nk, mean, ss float64) {
	var s1 float64
	r := resp[j*len(x) : (j+1)*len(x)]
	for n, v := range x {
		r := r[n]
		nk += r
		s1 += r * v
	}
	mean = empty
	if nk > 0 {
		mean = s1 / nk
	}
	for n, v := range x {
		d := v - mean
		ss += r[n] * d * d
	}
	return nk, mean, ss
}
