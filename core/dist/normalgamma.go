package dist

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// NormalGamma is the joint distribution of a precision ρ and a vector c whose
// covariance scales with 1/ρ,
//
//	q(c, ρ) = Ga(ρ | a, b) · N(c | m, ρ⁻¹Σ),
//
// with shape a and rate b. It is the form of the pairs q(ρ_s) q(c_s | ρ_s)
// (and q(d_s | ρ_s)) of the VB linear dynamical system, Beal (2003) eqs.
// (5.42)–(5.44), and of the Gaussian-gamma KL of Appendix C.3. The marginal
// of c is a multivariate Student-t with 2a degrees of freedom and covariance
// b/(a−1)·Σ for a > 1. A NormalGamma is immutable.
//
// As an ExpFam, a sample is (c₁, …, c_d, ρ), u = (ln ρ, ρ, ρc, ρc_ic_j for
// i ≤ j in row-major upper-triangle order), η = (a − 1 + d/2,
// −b − ½mᵀΣ⁻¹m, Σ⁻¹m, −½(Σ⁻¹)_ii for i = j and −(Σ⁻¹)_ij for i < j), and
// A(η) = ln Γ(a) − a ln b + ½ ln|Σ| + (d/2) ln 2π.
type NormalGamma struct {
	rho  Gamma
	cond *Gaussian // N(m, Σ), the conditional of c at ρ = 1
}

var _ ExpFam = (*NormalGamma)(nil)

// NewNormalGamma returns Ga(ρ | a, b) N(c | m, ρ⁻¹Σ), or false if sigma is
// not positive definite. It panics if a or b is not positive and finite, or
// if len(m) differs from the order of sigma.
func NewNormalGamma(a, b float64, m []float64, sigma mat.Symmetric) (*NormalGamma, bool) {
	rho := NewGammaShapeRate(a, b)
	cond, ok := NewGaussian(m, sigma)
	if !ok {
		return nil, false
	}
	return &NormalGamma{rho: rho, cond: cond}, true
}

// Dim returns the dimension d of c.
func (ng *NormalGamma) Dim() int { return ng.cond.Dim() }

// Rho returns the marginal q(ρ) = Ga(a, b).
func (ng *NormalGamma) Rho() Gamma { return ng.rho }

// Conditional returns q(c | ρ) = N(m, ρ⁻¹Σ). It panics if ρ ≤ 0.
func (ng *NormalGamma) Conditional(rho float64) *Gaussian {
	if !(rho > 0) {
		panic("dist: precision not positive")
	}
	var s mat.SymDense
	s.ScaleSym(1/rho, ng.cond.sigma)
	g, ok := NewGaussian(ng.cond.mu, &s)
	if !ok {
		panic("dist: singular conditional covariance")
	}
	return g
}

// Mean returns E[c] = m.
func (ng *NormalGamma) Mean(dst []float64) []float64 { return ng.cond.Mean(dst) }

// ScaleMatrix sets dst to Σ (the covariance of c at ρ = 1); an empty dst is
// resized.
func (ng *NormalGamma) ScaleMatrix(dst *mat.SymDense) { ng.cond.Covariance(dst) }

// MeanRho returns E[ρ] = a/b.
func (ng *NormalGamma) MeanRho() float64 { return ng.rho.Mean() }

// MeanLogRho returns E[ln ρ] = ψ(a) − ln b.
func (ng *NormalGamma) MeanLogRho() float64 { return ng.rho.MeanLog() }

// MeanRhoC returns E[ρc] = (a/b)m.
func (ng *NormalGamma) MeanRhoC(dst []float64) []float64 {
	dst = ng.cond.Mean(dst)
	r := ng.rho.Mean()
	for i := range dst {
		dst[i] *= r
	}
	return dst
}

// MeanRhoOuter sets dst to E[ρccᵀ] = (a/b)mmᵀ + Σ; an empty dst is resized.
func (ng *NormalGamma) MeanRhoOuter(dst *mat.SymDense) {
	d := ng.Dim()
	resizeSym(dst, d)
	r := ng.rho.Mean()
	m := ng.cond.mu
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			dst.SetSym(i, j, r*m[i]*m[j]+ng.cond.sigma.At(i, j))
		}
	}
}

// MarginalCovariance sets dst to Cov[c] = b/(a−1)·Σ and returns true if
// a > 1; otherwise the covariance is infinite, dst is untouched and it
// returns false. An empty dst is resized.
func (ng *NormalGamma) MarginalCovariance(dst *mat.SymDense) bool {
	if !(ng.rho.Alpha > 1) {
		return false
	}
	resizeSym(dst, ng.Dim())
	dst.ScaleSym(ng.rho.Beta/(ng.rho.Alpha-1), ng.cond.sigma)
	return true
}

// LogProb returns ln Ga(ρ | a, b) + ln N(c | m, ρ⁻¹Σ), or −Inf if ρ ≤ 0.
func (ng *NormalGamma) LogProb(c []float64, rho float64) float64 {
	d := ng.Dim()
	if len(c) != d {
		panic(badDim)
	}
	if !(rho > 0) {
		return math.Inf(-1)
	}
	fd := float64(d)
	return ng.rho.LogProb(rho) - 0.5*(fd*ln2Pi+ng.cond.logDet-fd*math.Log(rho)+rho*quadForm(ng.cond.prec, c, ng.cond.mu))
}

// Rand draws ρ ~ Ga(a, b), then c ~ N(m, ρ⁻¹Σ) into dst (allocating if nil).
func (ng *NormalGamma) Rand(dst []float64, rnd *rand.Rand) (c []float64, rho float64) {
	rho = ng.rho.Rand(rnd)
	c = ng.cond.Rand(dst, rnd)
	s := 1 / math.Sqrt(rho)
	for i, m := range ng.cond.mu {
		c[i] = m + s*(c[i]-m)
	}
	return c, rho
}

// Entropy returns H = H[Ga(a, b)] + d/2 · ln(2πe) + ½ ln|Σ| − (d/2)E[ln ρ].
func (ng *NormalGamma) Entropy() float64 {
	return ng.rho.Entropy() + ng.cond.Entropy() - float64(ng.Dim())/2*ng.rho.MeanLog()
}

// ExpectedCondKL returns the expected conditional KL divergence
//
//	⟨KL[q(c | ρ) ‖ p(c | ρ)]⟩_q(ρ) = ½[tr(Σ_p⁻¹Σ_q) − d − ln|Σ_q| + ln|Σ_p|
//	                                 + E[ρ] (μ_q − μ_p)ᵀΣ_p⁻¹(μ_q − μ_p)]
//
// for q(c | ρ) = N(μ_q, ρ⁻¹Σ_q) and p(c | ρ) = N(μ_p, ρ⁻¹Σ_p), where q and p
// are the conditionals at ρ = 1 and meanRho = E_q(ρ)[ρ]. Only the
// Mahalanobis term depends on ρ, hence the single factor E[ρ] (Beal (2003)
// Appendix C.3, eqs. (C.17)–(C.23); definition (5.141)). With meanRho = 1 it
// equals KLGaussian(q, p). It panics if the dimensions differ.
func ExpectedCondKL(meanRho float64, q, p *Gaussian) float64 {
	d := q.Dim()
	if p.Dim() != d {
		panic(badDim)
	}
	return 0.5 * (traceProd(p.prec, q.sigma) - float64(d) - q.logDet + p.logDet + meanRho*quadForm(p.prec, q.mu, p.mu))
}

// KLNormalGamma returns KL(q(c, ρ) ‖ p(c, ρ)) by the chain rule
//
//	KL = KL[q(ρ) ‖ p(ρ)] + ⟨KL[q(c | ρ) ‖ p(c | ρ)]⟩_q(ρ)
//
// (Beal (2003) eqs. (C.18)–(C.19) with the gamma factor of (C.22)–(C.23)),
// i.e. KLGamma plus ExpectedCondKL with E[ρ] = a_q/b_q. It panics if the
// dimensions differ.
func KLNormalGamma(q, p *NormalGamma) float64 {
	if q.Dim() != p.Dim() {
		panic(badDim)
	}
	return KLGamma(q.rho, p.rho) + ExpectedCondKL(q.rho.Mean(), q.cond, p.cond)
}

// NumParams returns 2 + d + d(d+1)/2.
func (ng *NormalGamma) NumParams() int { d := ng.Dim(); return 2 + d + triLen(d) }

// NaturalParams returns η = (a − 1 + d/2, −b − ½mᵀΣ⁻¹m, Σ⁻¹m, packed −½Σ⁻¹).
func (ng *NormalGamma) NaturalParams(dst []float64) []float64 {
	d := ng.Dim()
	dst = reuse(dst, ng.NumParams())
	dst[0] = ng.rho.Alpha - 1 + float64(d)/2
	dst[1] = -ng.rho.Beta - 0.5*quadForm(ng.cond.prec, ng.cond.mu, nil)
	// The Gaussian's η is (Σ⁻¹m, packed −½Σ⁻¹): the same blocks.
	ng.cond.NaturalParams(dst[2:])
	return dst
}

// ExpectedStats returns (E[ln ρ], E[ρ], E[ρc], packed E[ρccᵀ]).
func (ng *NormalGamma) ExpectedStats(dst []float64) []float64 {
	d := ng.Dim()
	dst = reuse(dst, ng.NumParams())
	dst[0], dst[1] = ng.rho.MeanLog(), ng.rho.Mean()
	ng.MeanRhoC(dst[2 : 2+d])
	var o mat.SymDense
	ng.MeanRhoOuter(&o)
	packSym(dst[2+d:], &o)
	return dst
}

// Stats returns u = (ln ρ, ρ, ρc, packed ρccᵀ) for x = (c, ρ).
func (ng *NormalGamma) Stats(dst, x []float64) []float64 {
	d := ng.Dim()
	if len(x) != d+1 {
		panic(badDim)
	}
	dst = reuse(dst, ng.NumParams())
	rho := x[d]
	dst[0], dst[1] = math.Log(rho), rho
	k := 2
	for i := 0; i < d; i++ {
		dst[k] = rho * x[i]
		k++
	}
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			dst[k] = rho * x[i] * x[j]
			k++
		}
	}
	return dst
}

// LogNormalizer returns A = ln Γ(a) − a ln b + ½ ln|Σ| + (d/2) ln 2π.
func (ng *NormalGamma) LogNormalizer() float64 {
	return ng.rho.LogNormalizer() + 0.5*(ng.cond.logDet+float64(ng.Dim())*ln2Pi)
}

// FromNatural returns the NormalGamma with natural parameters eta.
func (ng *NormalGamma) FromNatural(eta []float64) ExpFam {
	d := ng.Dim()
	if len(eta) != ng.NumParams() {
		panic(badDim)
	}
	g := ng.cond.FromNatural(eta[2:]).(*Gaussian)
	a := eta[0] + 1 - float64(d)/2
	b := -eta[1] - 0.5*quadForm(g.prec, g.mu, nil)
	if !(a > 0) || !(b > 0) || math.IsInf(a, 1) || math.IsInf(b, 1) {
		panic(badNatural)
	}
	return &NormalGamma{rho: Gamma{Alpha: a, Beta: b}, cond: g}
}

// KL returns KLNormalGamma(ng, p); p must be a *NormalGamma.
func (ng *NormalGamma) KL(p ExpFam) float64 { return expFamKL(ng, p, KLNormalGamma) }

// SampleLen returns d + 1.
func (ng *NormalGamma) SampleLen() int { return ng.Dim() + 1 }

// LogProbVec returns LogProb(x[:d], x[d]).
func (ng *NormalGamma) LogProbVec(x []float64) float64 {
	d := ng.Dim()
	if len(x) != d+1 {
		panic(badDim)
	}
	return ng.LogProb(x[:d], x[d])
}

// RandVec draws (c, ρ) into dst.
func (ng *NormalGamma) RandVec(dst []float64, rnd *rand.Rand) []float64 {
	d := ng.Dim()
	dst = reuse(dst, d+1)
	_, dst[d] = ng.Rand(dst[:d], rnd)
	return dst
}
