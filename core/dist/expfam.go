package dist

import (
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/numeric"
	"gonum.org/v1/gonum/mat"
)

// Panic messages shared by the families.
const (
	badDim     = "dist: dimension mismatch"
	badFamily  = "dist: distributions of different families"
	badNatural = "dist: natural parameters outside the family's domain"
)

// ExpFam is a distribution in the exponential family,
//
//	p(x | η) = h(x) exp(ηᵀu(x) − A(η)),
//
// with natural parameters η, sufficient statistics u(x), log normaliser A(η)
// and base measure h. It is the common form of every prior and posterior of
// a conjugate-exponential model (Beal (2003) section 2.4, eqs. (2.80)–(2.99);
// Appendix A, row "Exponential Family"). The interface lets generic code and
// tests treat every family alike:
//
//   - E_q[u] = ∇A(η) (ExpectedStats), the quantity the VBE step consumes
//     (eq. (2.95));
//   - the conjugate VBM update adds statistics to η (Posterior, eqs.
//     (2.97)–(2.99));
//   - KL(q‖p) = A(η_p) − A(η_q) − (η_p − η_q)ᵀE_q[u] for two members of the
//     same family, so a closed-form KL can be checked against the generic one.
//
// Samples x are exchanged as flat []float64 vectors of length SampleLen; each
// family documents its layout. Methods with a dst argument write to dst and
// return it, allocating a new slice if dst is nil; they panic if a non-nil
// dst has the wrong length.
//
// Test oracle: no model calls ExpFam or its methods (models use the closed
// forms, see the package doc); the tests check every family against these
// generic identities.
type ExpFam interface {
	// NumParams returns the length of η and of u(x).
	NumParams() int
	// NaturalParams returns η.
	NaturalParams(dst []float64) []float64
	// ExpectedStats returns E[u(x)] = ∇A(η).
	ExpectedStats(dst []float64) []float64
	// Stats returns u(x) for a flat sample x.
	Stats(dst, x []float64) []float64
	// LogNormalizer returns A(η).
	LogNormalizer() float64
	// Entropy returns the differential (or discrete) entropy in nats.
	Entropy() float64
	// FromNatural returns the member of the same family, with the same
	// dimensions, whose natural parameters are eta. It panics if eta is
	// outside the family's domain.
	FromNatural(eta []float64) ExpFam
	// KL returns the closed-form KL(receiver ‖ p) in nats. It panics if p is
	// of another family or of other dimensions.
	KL(p ExpFam) float64
	// SampleLen returns the length of a flat sample.
	SampleLen() int
	// LogProbVec returns ln p(x) for a flat sample x.
	LogProbVec(x []float64) float64
	// RandVec draws a flat sample using rnd.
	RandVec(dst []float64, rnd *rand.Rand) []float64
}

// Posterior returns the conjugate update of prior by the statistics t,
//
//	η̃ = η + β·t,
//
// where t is expressed in the coordinates of η: for the thesis's conjugate
// prior ExpFam(η, ν) it holds both the count n and the summed expected
// statistics Σ_i ū(y_i), i.e. eqs. (2.98)–(2.99) of Beal (2003). β = 1 is the
// plain VBM step; β ∈ [0, 1] is the annealed step (2.118)–(2.119). Applying
// Posterior batch by batch, each result serving as the next prior, is the
// online VBM step (2.114)–(2.117). Posterior panics if len(t) ≠
// prior.NumParams() or if the result is outside the family's domain.
//
// Test oracle: no model calls it; the tests check the families' conjugate
// updates and the batch, online and annealed forms with it.
func Posterior(prior ExpFam, t []float64, beta float64) ExpFam {
	if len(t) != prior.NumParams() {
		panic(badDim)
	}
	eta := prior.NaturalParams(nil)
	for i, v := range t {
		eta[i] += beta * v
	}
	return prior.FromNatural(eta)
}

// reuse returns dst if it has length n, a new slice if dst is nil, and
// panics otherwise.
func reuse(dst []float64, n int) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(badDim)
	}
	return dst
}

// triLen returns the number of elements of the upper triangle (diagonal
// included) of a d×d matrix.
func triLen(d int) int { return d * (d + 1) / 2 }

// packSymNatural writes the natural-parameter coordinates of the quadratic
// term −½ xᵀPx, i.e. −½P_ii for the diagonal and −P_ij for i < j, in
// row-major upper-triangle order. Off-diagonal entries appear twice in xᵀPx,
// which is why they carry a factor of −1 instead of −½; with this minimal
// parameterisation ∂A/∂η is E[x_i x_j] for every packed entry.
func packSymNatural(dst []float64, p mat.Symmetric) {
	d := p.SymmetricDim()
	k := 0
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			if i == j {
				dst[k] = -0.5 * p.At(i, i)
			} else {
				dst[k] = -p.At(i, j)
			}
			k++
		}
	}
}

// expFamKL is the ExpFam.KL method of every family: kl(q, p) when p is of
// q's family T, a panic otherwise.
func expFamKL[T ExpFam](q T, p ExpFam, kl func(q, p T) float64) float64 {
	pt, ok := p.(T)
	if !ok {
		panic(badFamily)
	}
	return kl(q, pt)
}

// inverseFromNatural returns P⁻¹ for the P of the packed coordinates eta of
// −½ xᵀPx (unpackSymNatural), the covariance of a Gaussian or the scale of a
// Wishart from its natural parameters; it panics if P is not positive
// definite.
func inverseFromNatural(eta []float64, d int) *mat.SymDense {
	_, _, inv, _, ok := factor(unpackSymNatural(eta, d))
	if !ok {
		panic(badNatural)
	}
	return inv
}

// unpackSymNatural inverts packSymNatural: it returns P from the packed
// coordinates of −½ xᵀPx.
func unpackSymNatural(eta []float64, d int) *mat.SymDense {
	p := mat.NewSymDense(d, nil)
	k := 0
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			if i == j {
				p.SetSym(i, i, -2*eta[k])
			} else {
				p.SetSym(i, j, -eta[k])
			}
			k++
		}
	}
	return p
}

// packSym writes the upper triangle of s in row-major order.
func packSym(dst []float64, s mat.Symmetric) {
	d := s.SymmetricDim()
	k := 0
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			dst[k] = s.At(i, j)
			k++
		}
	}
}

// traceProd returns tr(AB) for symmetric A and B.
func traceProd(a, b mat.Symmetric) float64 {
	d := a.SymmetricDim()
	if b.SymmetricDim() != d {
		panic(badDim)
	}
	var t float64
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			t += a.At(i, j) * b.At(j, i)
		}
	}
	return t
}

// quadForm returns (x−m)ᵀA(x−m); a nil m means zero.
func quadForm(a mat.Symmetric, x, m []float64) float64 {
	d := a.SymmetricDim()
	var q float64
	for i := 0; i < d; i++ {
		di := x[i]
		if m != nil {
			di -= m[i]
		}
		var row float64
		for j := 0; j < d; j++ {
			dj := x[j]
			if m != nil {
				dj -= m[j]
			}
			row += a.At(i, j) * dj
		}
		q += di * row
	}
	return q
}

// factor returns the Cholesky factorisation of a, its upper factor U
// (A = UᵀU), A⁻¹ and ln|A|, or ok = false if a is not positive definite.
func factor(a mat.Symmetric) (chol mat.Cholesky, u *mat.TriDense, inv *mat.SymDense, logDet float64, ok bool) {
	if !chol.Factorize(a) {
		return chol, nil, nil, 0, false
	}
	u = new(mat.TriDense)
	chol.UTo(u)
	inv = new(mat.SymDense)
	if err := chol.InverseTo(inv); err != nil {
		// A Condition error still yields the inverse; only reject
		// matrices that are singular to working precision.
		if _, isCond := err.(mat.Condition); !isCond {
			return chol, nil, nil, 0, false
		}
	}
	return chol, u, inv, chol.LogDet(), true
}

// RandLogGamma returns ln G for G ~ Ga(shape, 1), drawn in the log domain so
// that shapes far below 1 do not underflow (the sampler of Dirichlet.Rand).
// It panics unless shape is positive and finite.
func RandLogGamma(shape float64, rnd *rand.Rand) float64 { return randLogStdGamma(shape, rnd) }

// randLogStdGamma returns ln G for G ~ Ga(alpha, 1) (LogGammaSampler).
func randLogStdGamma(alpha float64, rnd *rand.Rand) float64 {
	return NewLogGammaSampler(alpha).Rand(rnd)
}

// LogGammaSampler draws ln G for G ~ Ga(shape, 1), shape > 0, in the log
// domain so that shapes far below 1 do not underflow to G = 0. For
// shape ≥ 1 it uses Marsaglia & Tsang (2000); for shape < 1 it uses
// G = G'·U^(1/shape) with G' ~ Ga(shape+1, 1) (their boosting identity).
// It holds the constants of one shape (d = a − 1/3, c = 1/√(9d) and ln d
// for the a ≥ 1 that the method runs at), so repeated draws at one shape
// skip them; the draws are those of RandLogGamma to the bit.
type LogGammaSampler struct {
	shape, d, c, lnd float64
}

// NewLogGammaSampler returns the sampler for shape. It panics unless shape
// is positive and finite.
func NewLogGammaSampler(shape float64) LogGammaSampler {
	g, d := logGammaParts(shape)
	g.lnd = math.Log(d)
	return g
}

// logGammaParts returns the sampler for shape but its ln d, and d.
func logGammaParts(shape float64) (LogGammaSampler, float64) {
	if !(shape > 0) || math.IsInf(shape, 1) {
		panic("dist: gamma shape not positive and finite")
	}
	a := shape
	if a < 1 {
		a++
	}
	d := a - 1.0/3
	return LogGammaSampler{shape: shape, d: d, c: 1 / math.Sqrt(9*d)}, d
}

// NewLogGammaSamplers sets dst[i] = NewLogGammaSampler(shape[i]) for every
// i, bit for bit, taking the logarithms ln d four at a time
// (numeric.LogTo); work is scratch of len(shape). It panics if the lengths
// differ or a shape is not positive and finite.
func NewLogGammaSamplers(dst []LogGammaSampler, shape, work []float64) {
	if len(dst) != len(shape) || len(work) != len(shape) {
		panic(badDim)
	}
	for i, a := range shape {
		dst[i], work[i] = logGammaParts(a)
	}
	numeric.LogTo(work, work)
	for i := range dst {
		dst[i].lnd = work[i]
	}
}

// Rand returns ln G for G ~ Ga(shape, 1), drawing from rnd: for a shape
// below 1 first U, then the Marsaglia–Tsang normals and uniforms. It is
// FromLogV(ln v, t) of RandV's v and t.
func (g LogGammaSampler) Rand(rnd *rand.Rand) float64 {
	v, t := g.RandV(rnd)
	return g.FromLogV(math.Log(v), t)
}

// RandV makes Rand's draws from rnd and returns them before the last
// logarithm: the accepted v of Marsaglia–Tsang (G′ = d·v ~ Ga(d + 1/3, 1))
// and, for a shape below 1, t = ln U / shape (0 otherwise), so that a
// caller can take the logarithms ln v of many draws at once.
func (g LogGammaSampler) RandV(rnd *rand.Rand) (v, t float64) {
	if g.shape < 1 {
		u := 1 - rnd.Float64() // (0, 1]
		return g.marsagliaTsang(rnd), math.Log(u) / g.shape
	}
	return g.marsagliaTsang(rnd), 0
}

// FromLogV returns Rand's ln G from lnv = ln v and t of RandV:
// ln d + ln v, plus t for a shape below 1.
func (g LogGammaSampler) FromLogV(lnv, t float64) float64 {
	r := g.lnd + lnv
	if g.shape < 1 {
		r += t
	}
	return r
}

// marsagliaTsang returns the accepted v of Marsaglia & Tsang (2000) for
// Ga(d + 1/3, 1), d + 1/3 ≥ 1: G = d·v.
func (g LogGammaSampler) marsagliaTsang(rnd *rand.Rand) float64 {
	d, c := g.d, g.c
	for {
		x := rnd.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rnd.Float64()
		x2 := x * x
		if u < 1-0.0331*x2*x2 || math.Log(u) < 0.5*x2+d*(1-v+math.Log(v)) {
			return v
		}
	}
}
