package dist

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

const ln2Pi = 1.83787706640934548356065947281123527972279494727556 // ln 2π

// Gaussian is the multivariate normal distribution with full covariance,
//
//	N(x | μ, Σ) = (2π)^(−d/2) |Σ|^(−1/2) exp(−½ (x−μ)ᵀΣ⁻¹(x−μ))
//
// (Beal (2003) Appendix A). The Cholesky factor of Σ, the precision Σ⁻¹ and
// ln|Σ| are computed once by the constructors; a Gaussian is immutable.
//
// As an ExpFam, a sample is x (length d), u(x) = (x, x_i x_j for i ≤ j in
// row-major upper-triangle order), η = (Σ⁻¹μ, −½(Σ⁻¹)_ii for i = j and
// −(Σ⁻¹)_ij for i < j), and A(η) = ½μᵀΣ⁻¹μ + ½ ln|Σ| + (d/2) ln 2π (so
// h(x) = 1).
//
// Test oracle: no model uses Gaussian (the models keep their Gaussians as
// GaussianRows or flat arrays); it is the reference that GaussianRows and
// NormalGamma are tested against.
type Gaussian struct {
	mu     []float64
	sigma  *mat.SymDense
	prec   *mat.SymDense
	chol   mat.Cholesky
	upper  *mat.TriDense // Σ = UᵀU
	logDet float64       // ln|Σ|
}

var _ ExpFam = (*Gaussian)(nil)

// NewGaussian returns N(mu, sigma), or false if sigma is not positive
// definite. It panics if len(mu) differs from the order of sigma. mu and
// sigma are copied.
func NewGaussian(mu []float64, sigma mat.Symmetric) (*Gaussian, bool) {
	d := len(mu)
	if sigma.SymmetricDim() != d || d == 0 {
		panic(badDim)
	}
	g := &Gaussian{mu: append([]float64(nil), mu...)}
	var ok bool
	g.chol, g.upper, g.prec, g.logDet, ok = factor(sigma)
	if !ok {
		return nil, false
	}
	g.sigma = mat.NewSymDense(d, nil)
	g.sigma.CopySym(sigma)
	return g, true
}

// NewGaussianPrecision returns N(mu, prec⁻¹), or false if prec is not
// positive definite. It panics if len(mu) differs from the order of prec.
func NewGaussianPrecision(mu []float64, prec mat.Symmetric) (*Gaussian, bool) {
	d := len(mu)
	if prec.SymmetricDim() != d || d == 0 {
		panic(badDim)
	}
	_, _, sigma, _, ok := factor(prec)
	if !ok {
		return nil, false
	}
	return NewGaussian(mu, sigma)
}

// NewGaussianChol returns N(mu, Σ) with Σ given by its Cholesky
// factorisation, for example from numeric.CholeskySPD. It panics if the
// sizes differ.
func NewGaussianChol(mu []float64, chol *mat.Cholesky) *Gaussian {
	var sigma mat.SymDense
	chol.ToSym(&sigma)
	g, ok := NewGaussian(mu, &sigma)
	if !ok {
		panic("dist: Cholesky factor of a singular matrix")
	}
	return g
}

// Dim returns d.
func (g *Gaussian) Dim() int { return len(g.mu) }

// Mean returns μ.
func (g *Gaussian) Mean(dst []float64) []float64 {
	dst = reuse(dst, len(g.mu))
	copy(dst, g.mu)
	return dst
}

// Covariance sets dst to Σ; an empty dst is resized.
func (g *Gaussian) Covariance(dst *mat.SymDense) {
	resizeSym(dst, len(g.mu))
	dst.CopySym(g.sigma)
}

// Precision sets dst to Σ⁻¹; an empty dst is resized.
func (g *Gaussian) Precision(dst *mat.SymDense) {
	resizeSym(dst, len(g.mu))
	dst.CopySym(g.prec)
}

// MeanOuter sets dst to E[xxᵀ] = Σ + μμᵀ; an empty dst is resized.
func (g *Gaussian) MeanOuter(dst *mat.SymDense) {
	d := len(g.mu)
	resizeSym(dst, d)
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			dst.SetSym(i, j, g.sigma.At(i, j)+g.mu[i]*g.mu[j])
		}
	}
}

// LogDetCov returns ln|Σ|.
func (g *Gaussian) LogDetCov() float64 { return g.logDet }

// LogProb returns ln N(x | μ, Σ).
func (g *Gaussian) LogProb(x []float64) float64 {
	if len(x) != len(g.mu) {
		panic(badDim)
	}
	return -0.5 * (float64(len(x))*ln2Pi + g.logDet + quadForm(g.prec, x, g.mu))
}

// Rand draws x = μ + Uᵀz, z ~ N(0, I), into dst (allocating if nil).
func (g *Gaussian) Rand(dst []float64, rnd *rand.Rand) []float64 {
	d := len(g.mu)
	dst = reuse(dst, d)
	for i := range dst {
		dst[i] = rnd.NormFloat64()
	}
	// x_i = μ_i + Σ_{j≤i} U_ji z_j; going from the last row up reads only
	// z_j that have not yet been overwritten.
	for i := d - 1; i >= 0; i-- {
		s := g.mu[i]
		for j := 0; j <= i; j++ {
			s += g.upper.At(j, i) * dst[j]
		}
		dst[i] = s
	}
	return dst
}

// Entropy returns H = d/2 · ln(2πe) + ½ ln|Σ| (Beal (2003) Appendix A).
func (g *Gaussian) Entropy() float64 {
	return 0.5 * (float64(len(g.mu))*(ln2Pi+1) + g.logDet)
}

// ExpectedQuadForm returns E[(x−m)ᵀA(x−m)] = tr(AΣ) + (μ−m)ᵀA(μ−m) for a
// symmetric A; a nil m means m = 0. Such terms make up the expected
// log-likelihoods of chapters 4–5 (e.g. eqs. (5.57)–(5.58)).
func (g *Gaussian) ExpectedQuadForm(a mat.Symmetric, m []float64) float64 {
	d := len(g.mu)
	if a.SymmetricDim() != d || (m != nil && len(m) != d) {
		panic(badDim)
	}
	return traceProd(a, g.sigma) + quadForm(a, g.mu, m)
}

// KLGaussian returns
//
//	KL(N(μ_q, Σ_q) ‖ N(μ_p, Σ_p)) = ½[tr(Σ_p⁻¹Σ_q) + (μ_p − μ_q)ᵀΣ_p⁻¹(μ_p − μ_q)
//	                                 − d + ln|Σ_p| − ln|Σ_q|]
//
// in nats (Beal (2003) Appendix A and eq. (C.17)). It panics if the
// dimensions differ.
//
// Test oracle: the reference for KLRowDiag, KLARD and KLNormalGamma in the
// tests.
func KLGaussian(q, p *Gaussian) float64 {
	d := len(q.mu)
	if len(p.mu) != d {
		panic(badDim)
	}
	return 0.5 * (traceProd(p.prec, q.sigma) + quadForm(p.prec, q.mu, p.mu) - float64(d) + p.logDet - q.logDet)
}

// NumParams returns d + d(d+1)/2.
func (g *Gaussian) NumParams() int { d := len(g.mu); return d + triLen(d) }

// NaturalParams returns η = (Σ⁻¹μ, packed −½Σ⁻¹).
func (g *Gaussian) NaturalParams(dst []float64) []float64 {
	d := len(g.mu)
	dst = reuse(dst, g.NumParams())
	for i := 0; i < d; i++ {
		var s float64
		for j := 0; j < d; j++ {
			s += g.prec.At(i, j) * g.mu[j]
		}
		dst[i] = s
	}
	packSymNatural(dst[d:], g.prec)
	return dst
}

// ExpectedStats returns (μ, packed Σ + μμᵀ).
func (g *Gaussian) ExpectedStats(dst []float64) []float64 {
	d := len(g.mu)
	dst = reuse(dst, g.NumParams())
	copy(dst, g.mu)
	var mo mat.SymDense
	g.MeanOuter(&mo)
	packSym(dst[d:], &mo)
	return dst
}

// Stats returns u(x) = (x, packed xxᵀ).
func (g *Gaussian) Stats(dst, x []float64) []float64 {
	d := len(g.mu)
	if len(x) != d {
		panic(badDim)
	}
	dst = reuse(dst, g.NumParams())
	copy(dst, x)
	k := d
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			dst[k] = x[i] * x[j]
			k++
		}
	}
	return dst
}

// LogNormalizer returns A = ½μᵀΣ⁻¹μ + ½ ln|Σ| + (d/2) ln 2π.
func (g *Gaussian) LogNormalizer() float64 {
	return 0.5 * (quadForm(g.prec, g.mu, nil) + g.logDet + float64(len(g.mu))*ln2Pi)
}

// FromNatural returns the Gaussian with natural parameters eta.
func (g *Gaussian) FromNatural(eta []float64) ExpFam {
	d := len(g.mu)
	if len(eta) != g.NumParams() {
		panic(badDim)
	}
	sigma := inverseFromNatural(eta[d:], d)
	mu := make([]float64, d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			mu[i] += sigma.At(i, j) * eta[j]
		}
	}
	r, ok := NewGaussian(mu, sigma)
	if !ok {
		panic(badNatural)
	}
	return r
}

// KL returns KLGaussian(g, p); p must be a *Gaussian.
func (g *Gaussian) KL(p ExpFam) float64 { return expFamKL(g, p, KLGaussian) }

// SampleLen returns d.
func (g *Gaussian) SampleLen() int { return len(g.mu) }

// LogProbVec returns LogProb(x).
func (g *Gaussian) LogProbVec(x []float64) float64 { return g.LogProb(x) }

// RandVec returns Rand(dst, rnd).
func (g *Gaussian) RandVec(dst []float64, rnd *rand.Rand) []float64 { return g.Rand(dst, rnd) }

// resizeSym makes an empty dst d×d and panics if a non-empty dst has another
// size.
func resizeSym(dst *mat.SymDense, d int) {
	if dst.IsEmpty() {
		dst.ReuseAsSym(d)
		return
	}
	if dst.SymmetricDim() != d {
		panic(badDim)
	}
}
