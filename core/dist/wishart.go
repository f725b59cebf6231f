package dist

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Wishart is the Wishart distribution over k×k symmetric positive definite
// matrices with ν degrees of freedom and scale matrix S,
//
//	W(W | ν, S) = |W|^((ν−k−1)/2) exp(−½ tr(S⁻¹W)) / Z_νS,
//	Z_νS = 2^(νk/2) π^(k(k−1)/4) |S|^(ν/2) Π_{i=1..k} Γ((ν+1−i)/2),
//
// so that E[W] = νS (Beal (2003) Appendix A; eq. (5.7) uses the same form).
// ν > k − 1 and S is positive definite. It is the conjugate prior of a
// Gaussian precision matrix. A Wishart is immutable.
//
// As an ExpFam, a sample is W flattened row-major (length k²), u(W) =
// (ln|W|, W_ij for i ≤ j in row-major upper-triangle order), η =
// ((ν−k−1)/2, −½(S⁻¹)_ii for i = j and −(S⁻¹)_ij for i < j), and A(η) = ln Z_νS.
//
// Not yet used by a model: it is tested against gonum (LogProb) and the
// ExpFam identities, and is the Normal-Wishart piece of the multivariate
// Gaussian mixture (Bishop (2006) PRML section 10.2, the next model).
type Wishart struct {
	nu      float64
	s       *mat.SymDense
	sInv    *mat.SymDense
	upper   *mat.TriDense // S = UᵀU
	logDetS float64
}

var _ ExpFam = (*Wishart)(nil)

// NewWishart returns W(ν, S), or false if s is not positive definite. It
// panics if ν ≤ k − 1 or ν is not finite. s is copied.
func NewWishart(nu float64, s mat.Symmetric) (*Wishart, bool) {
	k := s.SymmetricDim()
	if k == 0 {
		panic(badDim)
	}
	if !(nu > float64(k-1)) || math.IsInf(nu, 1) {
		panic("dist: Wishart degrees of freedom ν ≤ k − 1")
	}
	w := &Wishart{nu: nu}
	var ok bool
	_, w.upper, w.sInv, w.logDetS, ok = factor(s)
	if !ok {
		return nil, false
	}
	w.s = mat.NewSymDense(k, nil)
	w.s.CopySym(s)
	return w, true
}

// Dim returns k.
func (w *Wishart) Dim() int { return w.s.SymmetricDim() }

// Nu returns the degrees of freedom ν.
func (w *Wishart) Nu() float64 { return w.nu }

// Scale sets dst to S; an empty dst is resized.
func (w *Wishart) Scale(dst *mat.SymDense) {
	resizeSym(dst, w.Dim())
	dst.CopySym(w.s)
}

// Mean sets dst to E[W] = νS; an empty dst is resized.
func (w *Wishart) Mean(dst *mat.SymDense) {
	resizeSym(dst, w.Dim())
	dst.ScaleSym(w.nu, w.s)
}

// MeanLogDet returns
//
//	E[ln|W|] = Σ_{i=1..k} ψ((ν+1−i)/2) + k ln 2 + ln|S|
//
// (Beal (2003) Appendix A).
func (w *Wishart) MeanLogDet() float64 {
	k := w.Dim()
	return numeric.MultiDigamma(w.nu/2, k) + float64(k)*math.Ln2 + w.logDetS
}

// LogNormalizer returns ln Z_νS = (νk/2) ln 2 + (ν/2) ln|S| + ln Γ_k(ν/2).
func (w *Wishart) LogNormalizer() float64 {
	k := float64(w.Dim())
	return w.nu*k/2*math.Ln2 + w.nu/2*w.logDetS + numeric.LogMultiGamma(w.nu/2, w.Dim())
}

// Entropy returns H = ln Z_νS − (ν−k−1)/2 · E[ln|W|] + νk/2 (Beal (2003)
// Appendix A).
func (w *Wishart) Entropy() float64 {
	k := float64(w.Dim())
	return w.LogNormalizer() - (w.nu-k-1)/2*w.MeanLogDet() + w.nu*k/2
}

// LogProb returns ln W(x | ν, S), or −Inf if x is not positive definite. It
// panics if x is not k×k.
func (w *Wishart) LogProb(x mat.Symmetric) float64 {
	k := w.Dim()
	if x.SymmetricDim() != k {
		panic(badDim)
	}
	var chol mat.Cholesky
	if !chol.Factorize(x) {
		return math.Inf(-1)
	}
	return (w.nu-float64(k)-1)/2*chol.LogDet() - 0.5*traceProd(w.sInv, x) - w.LogNormalizer()
}

// Rand draws W ~ W(ν, S) into dst (an empty dst is resized) by the Bartlett
// decomposition: with S = LLᵀ and a lower-triangular A whose diagonal is
// A_ii = √χ²(ν−i+1) (i = 1..k) and whose sub-diagonal entries are N(0, 1),
// W = (LA)(LA)ᵀ.
func (w *Wishart) Rand(dst *mat.SymDense, rnd *rand.Rand) {
	k := w.Dim()
	resizeSym(dst, k)
	a := make([]float64, k*k) // lower triangle of A, row-major
	for i := 0; i < k; i++ {
		// χ²(m) = 2·Ga(m/2, 1).
		a[i*k+i] = math.Sqrt(2 * math.Exp(randLogStdGamma((w.nu-float64(i))/2, rnd)))
		for j := 0; j < i; j++ {
			a[i*k+j] = rnd.NormFloat64()
		}
	}
	// B = LA with L = Uᵀ lower triangular: B_ij = Σ_{j≤m≤i} U_mi A_mj.
	b := make([]float64, k*k)
	for i := 0; i < k; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for m := j; m <= i; m++ {
				s += w.upper.At(m, i) * a[m*k+j]
			}
			b[i*k+j] = s
		}
	}
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			var s float64
			for m := 0; m <= i; m++ { // B is lower triangular
				s += b[i*k+m] * b[j*k+m]
			}
			dst.SetSym(i, j, s)
		}
	}
}

// KLWishart returns
//
//	KL(W(ν_q, S_q) ‖ W(ν_p, S_p)) = ln Z_p − ln Z_q + (ν_q − ν_p)/2 · E_q[ln|W|]
//	                               + (ν_q/2) tr(S_p⁻¹S_q − I)
//
// in nats (Beal (2003) Appendix A, where "ln Z_νS/Z_νS" means ln Z_p − ln Z_q).
// It panics if the dimensions differ.
//
// Not yet used by a model (see Wishart).
func KLWishart(q, p *Wishart) float64 {
	k := q.Dim()
	if p.Dim() != k {
		panic(badDim)
	}
	kl := p.LogNormalizer() - q.LogNormalizer() + q.nu/2*(traceProd(p.sInv, q.s)-float64(k))
	if d := q.nu - p.nu; d != 0 {
		kl += d / 2 * q.MeanLogDet()
	}
	return kl
}

// NumParams returns 1 + k(k+1)/2.
func (w *Wishart) NumParams() int { return 1 + triLen(w.Dim()) }

// NaturalParams returns η = ((ν−k−1)/2, packed −½S⁻¹).
func (w *Wishart) NaturalParams(dst []float64) []float64 {
	dst = reuse(dst, w.NumParams())
	dst[0] = (w.nu - float64(w.Dim()) - 1) / 2
	packSymNatural(dst[1:], w.sInv)
	return dst
}

// ExpectedStats returns (E[ln|W|], packed νS).
func (w *Wishart) ExpectedStats(dst []float64) []float64 {
	dst = reuse(dst, w.NumParams())
	dst[0] = w.MeanLogDet()
	var m mat.SymDense
	w.Mean(&m)
	packSym(dst[1:], &m)
	return dst
}

// Stats returns u(W) = (ln|W|, packed W) for a flat sample; ln|W| is NaN if
// W is not positive definite.
func (w *Wishart) Stats(dst, x []float64) []float64 {
	dst = reuse(dst, w.NumParams())
	s := w.flatToSym(x)
	var chol mat.Cholesky
	if chol.Factorize(s) {
		dst[0] = chol.LogDet()
	} else {
		dst[0] = math.NaN()
	}
	packSym(dst[1:], s)
	return dst
}

// FromNatural returns the Wishart with natural parameters eta.
func (w *Wishart) FromNatural(eta []float64) ExpFam {
	k := w.Dim()
	if len(eta) != w.NumParams() {
		panic(badDim)
	}
	nu := 2*eta[0] + float64(k) + 1
	if !(nu > float64(k-1)) || math.IsInf(nu, 1) {
		panic(badNatural)
	}
	r, ok := NewWishart(nu, inverseFromNatural(eta[1:], k))
	if !ok {
		panic(badNatural)
	}
	return r
}

// KL returns KLWishart(w, p); p must be a *Wishart.
func (w *Wishart) KL(p ExpFam) float64 { return expFamKL(w, p, KLWishart) }

// SampleLen returns k².
func (w *Wishart) SampleLen() int { k := w.Dim(); return k * k }

// LogProbVec returns LogProb of the flat (row-major) matrix x; only its upper
// triangle is read.
func (w *Wishart) LogProbVec(x []float64) float64 { return w.LogProb(w.flatToSym(x)) }

// RandVec draws W and writes it row-major into dst.
func (w *Wishart) RandVec(dst []float64, rnd *rand.Rand) []float64 {
	k := w.Dim()
	dst = reuse(dst, k*k)
	var s mat.SymDense
	w.Rand(&s, rnd)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			dst[i*k+j] = s.At(i, j)
		}
	}
	return dst
}

// flatToSym returns the symmetric matrix whose upper triangle is read from
// the row-major flat x.
func (w *Wishart) flatToSym(x []float64) *mat.SymDense {
	k := w.Dim()
	if len(x) != k*k {
		panic(badDim)
	}
	s := mat.NewSymDense(k, nil)
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			s.SetSym(i, j, x[i*k+j])
		}
	}
	return s
}
