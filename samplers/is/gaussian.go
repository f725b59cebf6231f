package is

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

const ln2Pi = 1.83787706640934548356065947281123527972279494727556 // ln 2π

// location is a mean μ and a lower Cholesky factor L of a d×d matrix Σ = LLᵀ,
// kept as row-major slices together with L⁻¹ so that draws and Mahalanobis
// distances need neither allocation nor scratch.
type location struct {
	d      int
	mu     []float64
	l      []float64 // L, row-major, lower triangle used
	linv   []float64 // L⁻¹, row-major, lower triangle used
	logDet float64   // ln|Σ| = 2 Σ_i ln L_ii
}

func newLocation(mu []float64, chol *mat.Cholesky) location {
	d := len(mu)
	if d == 0 || chol.SymmetricDim() != d {
		panic(badDim)
	}
	var lt, li mat.TriDense
	chol.LTo(&lt)
	if err := li.InverseTri(&lt); err != nil {
		// A Condition error still gives the inverse; anything else means
		// the factor is singular.
		if _, ok := err.(mat.Condition); !ok {
			panic("is: singular Cholesky factor")
		}
	}
	loc := location{
		d:    d,
		mu:   append([]float64(nil), mu...),
		l:    make([]float64, d*d),
		linv: make([]float64, d*d),
	}
	for i := 0; i < d; i++ {
		for j := 0; j <= i; j++ {
			loc.l[i*d+j] = lt.At(i, j)
			loc.linv[i*d+j] = li.At(i, j)
		}
		loc.logDet += 2 * math.Log(lt.At(i, i))
	}
	return loc
}

// transform sets x = μ + s·Lx in place, where x holds z on entry, and
// returns ‖z‖². Going from the last row up reads only entries z_j, j ≤ i,
// that have not yet been overwritten.
func (loc *location) transform(x []float64, s float64) float64 {
	d := loc.d
	zz := floats.Dot(x, x)
	for i := d - 1; i >= 0; i-- {
		x[i] = loc.mu[i] + s*floats.Dot(loc.l[i*d:i*d+i+1], x[:i+1])
	}
	return zz
}

// mahalanobis returns δ² = (x−μ)ᵀΣ⁻¹(x−μ) = ‖L⁻¹(x−μ)‖².
func (loc *location) mahalanobis(x []float64) float64 {
	if len(x) != loc.d {
		panic(badDim)
	}
	d := loc.d
	var q float64
	for i := 0; i < d; i++ {
		row := loc.linv[i*d : i*d+i+1]
		var w float64
		for j, v := range row {
			w += v * (x[j] - loc.mu[j])
		}
		q += w * w
	}
	return q
}

// Gaussian is the multivariate normal proposal
//
//	N(θ | μ, Σ) = (2π)^(−d/2) |Σ|^(−1/2) exp(−½ (θ−μ)ᵀΣ⁻¹(θ−μ)),   Σ = LLᵀ,
//
// for instance one row Λ̃^s_q ~ N(m^s_q, Γ^s_q) of the MFA posterior q(Λ̃)
// (Beal (2003) eq. (4.116) ff., lines 3042 and 3144). Draws are θ = μ + Lz
// with z ~ N(0, I).
type Gaussian struct {
	loc location
}

var _ Proposal = (*Gaussian)(nil)

// NewGaussian returns N(mu, Σ) with Σ given by its Cholesky factorisation.
// mu and the factor are copied. It panics if the sizes differ or are zero.
func NewGaussian(mu []float64, chol *mat.Cholesky) *Gaussian {
	return &Gaussian{loc: newLocation(mu, chol)}
}

// Dim returns d.
func (g *Gaussian) Dim() int { return g.loc.d }

// LogProb returns ln N(x | μ, Σ). It panics if len(x) != d.
func (g *Gaussian) LogProb(x []float64) float64 {
	return -0.5 * (float64(g.loc.d)*ln2Pi + g.loc.logDet + g.loc.mahalanobis(x))
}

// RandLogProb draws x ~ N(μ, Σ) into dst and returns ln N(x | μ, Σ),
// computed from z as −½(‖z‖² + ln|Σ| + d ln 2π).
func (g *Gaussian) RandLogProb(dst []float64, rnd *rand.Rand) float64 {
	if len(dst) != g.loc.d {
		panic(badDim)
	}
	for i := range dst {
		dst[i] = rnd.NormFloat64()
	}
	zz := g.loc.transform(dst, 1)
	return -0.5 * (float64(g.loc.d)*ln2Pi + g.loc.logDet + zz)
}

// StudentT is the multivariate Student-t proposal with ν degrees of freedom,
// location μ and scale matrix Σ = LLᵀ,
//
//	t_ν(θ | μ, Σ) = Γ((ν+d)/2) / (Γ(ν/2) (νπ)^(d/2) |Σ|^(1/2))
//	               · (1 + δ²/ν)^(−(ν+d)/2),   δ² = (θ−μ)ᵀΣ⁻¹(θ−μ),
//
// the scale mixture ∫ Ga(γ | ν/2, ν/2) N(θ | μ, Σ/γ) dγ of Beal (2003) eqs.
// (4.122)–(4.127) (univariate: ν = 2a, σ² = b/a). Its covariance is
// ν/(ν−2)·Σ for ν > 2 and infinite for ν ≤ 2, the "relative variance" column
// of Table 4.3. Draws are θ = μ + Lz·√(ν/u), z ~ N(0, I), u ~ χ²_ν.
type StudentT struct {
	loc  location
	nu   float64
	chi2 dist.Gamma // χ²_ν = Ga(ν/2, rate ½)
	lnC  float64    // log normaliser without the ½ ln|Σ| term
}

var _ Proposal = (*StudentT)(nil)

// NewStudentT returns the t distribution with nu degrees of freedom,
// location mu and scale matrix Σ given by its Cholesky factorisation. Table
// 4.3 uses nu = 3 and nu = 2 with Σ the covariance Γ_q of a Gaussian row. It
// panics if nu is not positive and finite or if the sizes differ.
func NewStudentT(nu float64, mu []float64, chol *mat.Cholesky) *StudentT {
	if !(nu > 0) || math.IsInf(nu, 1) {
		panic(badParam)
	}
	loc := newLocation(mu, chol)
	d := float64(loc.d)
	return &StudentT{
		loc:  loc,
		nu:   nu,
		chi2: dist.NewGammaShapeRate(nu/2, 0.5),
		lnC:  numeric.LogGamma((nu+d)/2) - numeric.LogGamma(nu/2) - d/2*math.Log(nu*math.Pi),
	}
}

// Dim returns d.
func (t *StudentT) Dim() int { return t.loc.d }

// Nu returns the degrees of freedom ν.
func (t *StudentT) Nu() float64 { return t.nu }

// LogProb returns ln t_ν(x | μ, Σ). It panics if len(x) != d.
func (t *StudentT) LogProb(x []float64) float64 {
	d2 := t.loc.mahalanobis(x)
	return t.lnC - 0.5*t.loc.logDet - 0.5*(t.nu+float64(t.loc.d))*math.Log1p(d2/t.nu)
}

// RandLogProb draws x ~ t_ν(μ, Σ) into dst and returns ln t_ν(x | μ, Σ),
// using δ² = ‖z‖²·ν/u.
func (t *StudentT) RandLogProb(dst []float64, rnd *rand.Rand) float64 {
	if len(dst) != t.loc.d {
		panic(badDim)
	}
	for i := range dst {
		dst[i] = rnd.NormFloat64()
	}
	u := t.chi2.Rand(rnd)
	zz := t.loc.transform(dst, math.Sqrt(t.nu/u))
	return t.lnC - 0.5*t.loc.logDet - 0.5*(t.nu+float64(t.loc.d))*math.Log1p(zz/u)
}
