package lds

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// Proposal is an importance distribution for the marginal likelihood of
// the LDS with one hidden dimension (k = 1) and p outputs, without
// inputs, built from a VB posterior q(A) q(C | ρ) q(ρ) (eqs. 5.37, 5.42,
// 5.50; VB.CovAB, VB.CovCD, VB.NoisePosterior) on the coordinates of
// Annealed, θ = (A, C_1, …, C_p, ln ρ_1, …, ln ρ_p):
//
//	q_w(θ) = t_ν(A | ⟨A⟩, w² Σ_A) Π_s t_ν(C_s | n_s, w² Σ_C / ρ_s) Ga(ρ_s | a_s/w², b_s/w²) ρ_s,
//
// the VB posterior widened by w (the scales of A and C | ρ times w, the
// gammas' variances times w² at the same mean; ρ_s the Jacobian of ln ρ_s),
// its Gaussians replaced by Student t's of ν degrees of freedom for
// heavier tails (t_ν(x | μ, σ²) the location-scale t; ν = +Inf keeps the
// Gaussians), mirrored in C,
//
//	g(θ) = ½ q_w(A, C, ln ρ) + ½ q_w(A, −C, ln ρ).
//
// The mirror is the sign symmetry of the model (x ↦ −x, C ↦ −C with μ_0
// = 0 leaves p(y | θ) p(θ) unchanged): VB's q sits at one of the two
// modes of the posterior in C, and g covers both, so that an importance
// sampler estimates the whole of p(y) (Beal 2003 eqs. 4.93-4.95). It
// satisfies samplers/is.Proposal by its method set; it is not safe for
// concurrent use (Clone gives a copy for each goroutine).
type Proposal struct {
	p        int
	nu       float64 // +Inf: Gaussian
	lnNormT  float64 // ln Γ((ν+1)/2) − ln Γ(ν/2) − ½ ln(νπ), or −½ ln 2π
	meanA    float64
	sdA      float64
	meanC    []float64 // n_s
	sdC      float64   // w √Σ_C (times 1/√ρ_s)
	rho      []dist.Gamma
	lnNormRh []float64 // a ln b − ln Γ(a) of each widened gamma
}

// NewProposal returns the proposal of VB m widened by w ≥ 1 with t tails
// of nu > 0 degrees of freedom (+Inf: Gaussian; see Proposal). It returns
// an error for a model with k ≠ 1, with inputs, or in a MAP mode, for w <
// 1 or for nu ≤ 0.
func NewProposal(m *VB, w, nu float64) (*Proposal, error) {
	if m.k != 1 || m.d != 0 {
		return nil, fmt.Errorf("lds: NewProposal needs k = 1 and no inputs, the model has k = %d, d = %d", m.k, m.d)
	}
	if m.mode != Variational {
		return nil, errors.New("lds: NewProposal needs a variational model")
	}
	if !(w >= 1) || math.IsInf(w, 0) {
		return nil, fmt.Errorf("lds: NewProposal: widening %v, want a finite w ≥ 1", w)
	}
	if !(nu > 0) {
		return nil, fmt.Errorf("lds: NewProposal: ν = %v, want ν > 0 (+Inf: Gaussian)", nu)
	}
	q := &Proposal{p: m.p, nu: nu, lnNormT: -0.5 * math.Log(2*math.Pi), meanA: m.meanAB[0], sdA: w * math.Sqrt(m.covAB[0]), sdC: w * math.Sqrt(m.covCD[0])}
	for s := 0; s < m.p; s++ {
		q.meanC = append(q.meanC, m.meanCD[s])
		g := dist.Gamma{Alpha: m.rho[s].Alpha / (w * w), Beta: m.rho[s].Beta / (w * w)}
		q.rho = append(q.rho, g)
		q.lnNormRh = append(q.lnNormRh, g.Alpha*math.Log(g.Beta)-numeric.LogGamma(g.Alpha))
	}
	if !math.IsInf(nu, 1) {
		q.lnNormT = numeric.LogGamma((nu+1)/2) - numeric.LogGamma(nu/2) - 0.5*math.Log(nu*math.Pi)
	}
	if !(q.sdA > 0) || !(q.sdC > 0) {
		return nil, errors.New("lds: NewProposal: the VB covariances are not positive")
	}
	return q, nil
}

// Dim returns AnnealedDim(1, p) = 1 + 2p.
func (q *Proposal) Dim() int { return 1 + 2*q.p }

// Clone returns an independent copy.
func (q *Proposal) Clone() *Proposal {
	c := *q
	return &c
}

// LogProb returns ln g(θ). It panics if len(theta) != Dim().
func (q *Proposal) LogProb(theta []float64) float64 {
	if len(theta) != q.Dim() {
		panic(fmt.Sprintf("lds: proposal state length %d, want %d", len(theta), q.Dim()))
	}
	p := q.p
	za := (theta[0] - q.meanA) / q.sdA
	lp := q.lnNormT - math.Log(q.sdA) + q.kernel(za*za)
	// The parts common to both mirrors, and the two C quadratics.
	var plus, minus float64
	for s := 0; s < p; s++ {
		c, lr := theta[1+s], theta[1+p+s]
		rho := math.Exp(lr)
		g := q.rho[s]
		lp += q.lnNormRh[s] + g.Alpha*lr - g.Beta*rho
		// t_ν(C | ±n, σ²/ρ): its constant, − ln σ + ½ ln ρ, and the
		// kernel of z² = ρ(C ∓ n)²/σ².
		lp += q.lnNormT - math.Log(q.sdC) + 0.5*lr
		dp, dm := c-q.meanC[s], c+q.meanC[s]
		plus += q.kernel(rho * dp * dp / (q.sdC * q.sdC))
		minus += q.kernel(rho * dm * dm / (q.sdC * q.sdC))
	}
	return lp + numeric.LogAddExp(plus, minus) - math.Ln2
}

// kernel is the log kernel of the standardised density at z²: −((ν+1)/2)
// ln(1 + z²/ν), or −z²/2 for the Gaussian.
func (q *Proposal) kernel(z2 float64) float64 {
	if math.IsInf(q.nu, 1) {
		return -0.5 * z2
	}
	return -0.5 * (q.nu + 1) * math.Log1p(z2/q.nu)
}

// std draws a standardised t_ν (z √(ν/G), G ~ χ²_ν = 2 Ga(ν/2, 1)), or a
// standard normal.
func (q *Proposal) std(rnd *rand.Rand) float64 {
	z := rnd.NormFloat64()
	if math.IsInf(q.nu, 1) {
		return z
	}
	g := 2 * math.Exp(dist.RandLogGamma(q.nu/2, rnd))
	return z * math.Sqrt(q.nu/g)
}

// RandLogProb draws θ ~ g into dst (the mirror by a fair coin, then A,
// ln ρ_s = ln G − ln b_s with G ~ Ga(a_s, 1) by dist.RandLogGamma, C_s;
// a t as a normal over the root of an independent χ²_ν/ν) and returns
// ln g(θ). It panics if len(dst) != Dim().
func (q *Proposal) RandLogProb(dst []float64, rnd *rand.Rand) float64 {
	if len(dst) != q.Dim() {
		panic(fmt.Sprintf("lds: proposal state length %d, want %d", len(dst), q.Dim()))
	}
	sign := 1.0
	if rnd.Uint64()&1 == 1 {
		sign = -1
	}
	p := q.p
	dst[0] = q.meanA + q.sdA*q.std(rnd)
	for s := 0; s < p; s++ {
		lr := dist.RandLogGamma(q.rho[s].Alpha, rnd) - math.Log(q.rho[s].Beta)
		dst[1+p+s] = lr
		dst[1+s] = sign*q.meanC[s] + q.sdC*math.Exp(-lr/2)*q.std(rnd)
	}
	return q.LogProb(dst)
}
