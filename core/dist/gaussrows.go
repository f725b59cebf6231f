package dist

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/numeric"
)

// GaussianRows is the distribution of an R×D random matrix Λ whose rows
// λ_r (taken as column vectors) are independent Gaussians,
//
//	q(Λ) = Π_r N(λ_r | μ_r, c_r Σ_r),
//
// with either
//
//   - one covariance Σ shared by every row, scaled per row by c_r > 0
//     (Σ_r = Σ); or
//   - a distinct covariance Σ_r for each row (c_r = 1).
//
// It is the variational posterior of a matrix of regression weights whose
// likelihood factorises over rows: the factor loadings q(Λ̃^s) = Π_q
// N(Λ̃_q | Λ̄_q, Γ̃_q) of the mixture of factor analysers, one covariance per
// row (Beal (2003) eqs. (4.43)–(4.50); ../shared/seeds/000_055f6e591db3cc60.txt
// lines 2486–2511), and the dynamics and output matrices of the linear
// dynamical system, q(a_(j)) = N(·, Σ_A) with one Σ_A for all rows (eqs.
// (5.35)–(5.41), lines 3423–3444) and q(c_(s) | ρ_s) = N(·, ρ_s⁻¹Σ̂_C), one
// Σ̂_C scaled per row (eqs. (5.43)–(5.50), lines 3452–3475).
//
// # Scales and the prior
//
// The ARD prior of every row is zero-mean with a diagonal precision per
// column that carries the same scale as the row's posterior,
//
//	p(λ_r | α) = N(λ_r | 0, c_r diag(α)⁻¹),
//
// which with c_r = 1 is the prior of the rows of Λ (eq. (4.17), line 2310)
// and of A and B (eqs. (5.8)–(5.9), lines 3262–3265). A scale c_r ≠ 1 is the
// conjugate, noise-linked prior of C and D, p(c_(s) | ρ_s) = N(0,
// ρ_s⁻¹diag(γ)⁻¹) (eqs. (5.10)–(5.11), lines 3268–3271): with c_s = 1/ρ̄_s,
// ρ̄_s = E_q[ρ_s], the KL divergences of this type are the expected
// conditional KLs ⟨KL(C | ρ)⟩_q(ρ) of eq. (5.147) (Appendix C.3, lines
// 5325–5335), and the moments weighted by w_s = ρ̄_s are ⟨CᵀR⁻¹C⟩ (eq. (5.63)).
// (Only these ρ-weighted moments are meaningful then: the marginal of c_(s)
// over ρ_s is a Student-t, not N(μ_s, Σ/ρ̄_s).)
// Joint rows [c_(s) d_(s)] with α = (γ, δ) give ⟨KL(D | ρ)⟩ + ⟨KL(C | ρ, D)⟩
// in one term by the chain rule (C.19).
//
// The Cholesky factorisation of each stored matrix (the shared one, or one
// per row) is computed once by the constructor; a GaussianRows is immutable.
type GaussianRows struct {
	r, d  int
	mean  *mat.Dense
	scale []float64 // c_r, length r

	// Shared covariance: one element each; distinct: r elements each.
	sigma  []*mat.SymDense // Σ_r, unscaled
	logDet []float64       // ln|Σ_r|, unscaled
	// u holds the upper Cholesky factor U (A = UᵀU, D×D, stride D) of Σ_r,
	// or of Σ_r⁻¹ when fromPrec.
	u []blas64.Triangular
	// fromPrec records that u holds the factor of the precision Σ⁻¹.
	fromPrec bool
}

// NotPositiveDefiniteError is returned by the GaussianRows constructors when
// a covariance or precision matrix that must be positive definite cannot be
// factorised. It satisfies errors.Is(err, numeric.ErrNotPositiveDefinite), or
// numeric.ErrNotFinite if the matrix has a NaN or infinite element. Models
// wrap it with the name of the parameter, e.g. fmt.Errorf("lds: q(A): %w",
// err). See the package documentation, "One positive-definiteness policy".
type NotPositiveDefiniteError struct {
	// Matrix says which matrix failed, e.g. "shared row precision" or
	// "covariance of row 3".
	Matrix string
	// Dim is the order of the matrix.
	Dim int
	// Index is the first pivot of the unpivoted Cholesky factorisation that
	// is not positive (numeric.CholeskyMinPivot), or −1 if the matrix has a
	// non-finite element.
	Index int
	// Pivot is the value of that pivot.
	Pivot float64
}

func (e *NotPositiveDefiniteError) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("dist: GaussianRows %s (%d×%d) has a non-finite element", e.Matrix, e.Dim, e.Dim)
	}
	return fmt.Sprintf("dist: GaussianRows %s (%d×%d) is not positive definite (pivot %d is %.3g)", e.Matrix, e.Dim, e.Dim, e.Index, e.Pivot)
}

// Unwrap returns numeric.ErrNotFinite or numeric.ErrNotPositiveDefinite.
func (e *NotPositiveDefiniteError) Unwrap() error {
	if e.Index < 0 {
		return numeric.ErrNotFinite
	}
	return numeric.ErrNotPositiveDefinite
}

// factorOnce sets chol to the Cholesky factorisation of a. If a is a
// *mat.Cholesky its factor is copied as is (no factorisation). Otherwise a is
// factorised once, without jitter; on failure the error names the matrix.
func factorOnce(chol *mat.Cholesky, a mat.Symmetric, name string) error {
	if c, ok := a.(*mat.Cholesky); ok {
		chol.Clone(c)
		return nil
	}
	n := a.SymmetricDim()
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if v := a.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return &NotPositiveDefiniteError{Matrix: name, Dim: n, Index: -1, Pivot: v}
			}
		}
	}
	if chol.Factorize(a) {
		return nil
	}
	idx, piv, _ := numeric.CholeskyMinPivot(a)
	return &NotPositiveDefiniteError{Matrix: name, Dim: n, Index: idx, Pivot: piv}
}

// newUpper returns a zero D×D upper triangular matrix of stride D.
func newUpper(d int) blas64.Triangular {
	return blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: d, Stride: d, Data: make([]float64, d*d)}
}

// upperOf returns a copy of the upper factor U of chol.
func upperOf(chol *mat.Cholesky) blas64.Triangular {
	src := chol.RawU().(mat.RawTriangular).RawTriangular()
	u := newUpper(src.N)
	copyUpper(u, src.Data, src.Stride)
	return u
}

// copyUpper copies the upper triangle of the row-major src (stride ss)
// into u.
func copyUpper(u blas64.Triangular, src []float64, ss int) {
	for i := 0; i < u.N; i++ {
		copy(u.Data[i*u.Stride+i:i*u.Stride+u.N], src[i*ss+i:i*ss+u.N])
	}
}

// factorInto sets u to the upper Cholesky factor of a, as factorOnce does
// (a *mat.Cholesky is used as is; otherwise the same unpivoted LAPACK
// factorisation, without jitter: numeric.CholFactorUpper, LAPACK's
// operations in gonum's order, bit for bit) but in place and without the
// condition estimate of mat.Cholesky.Factorize, so without allocating or
// the call overhead of the level-1 and level-2 routines. On failure it
// returns factorOnce's error with an empty Matrix name, and u is left
// partly overwritten.
func factorInto(u blas64.Triangular, a mat.Symmetric) error {
	n := u.N
	if c, ok := a.(*mat.Cholesky); ok {
		src := c.RawU().(mat.RawTriangular).RawTriangular()
		copyUpper(u, src.Data, src.Stride)
		return nil
	}
	if rs, ok := a.(mat.RawSymmetricer); ok && rs.RawSymmetric().Uplo == blas.Upper {
		raw := rs.RawSymmetric()
		copyUpper(u, raw.Data, raw.Stride)
	} else {
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				u.Data[i*u.Stride+j] = a.At(i, j)
			}
		}
	}
	for i := 0; i < n; i++ {
		for _, v := range u.Data[i*u.Stride+i : i*u.Stride+n] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &NotPositiveDefiniteError{Dim: n, Index: -1, Pivot: v}
			}
		}
	}
	if numeric.CholFactorUpper(u.Data, n, u.Stride) {
		return nil
	}
	idx, piv, _ := numeric.CholeskyMinPivot(a)
	return &NotPositiveDefiniteError{Dim: n, Index: idx, Pivot: piv}
}

// logDetUpper returns ln|UᵀU| = Σ_i 2 ln U_ii, summed as
// mat.Cholesky.LogDet sums it.
func logDetUpper(u blas64.Triangular) float64 {
	var det float64
	for i := 0; i < u.N; i++ {
		det += 2 * math.Log(u.Data[i*u.Stride+i])
	}
	return det
}

// newRows checks the shapes common to all constructors and copies the
// scales.
func newRows(r, d int, scale []float64) *GaussianRows {
	if r == 0 || d == 0 {
		panic(badDim)
	}
	g := &GaussianRows{r: r, d: d, scale: make([]float64, r)}
	if scale == nil {
		for i := range g.scale {
			g.scale[i] = 1
		}
		return g
	}
	if len(scale) != r {
		panic(badDim)
	}
	for i, c := range scale {
		if !(c > 0) || math.IsInf(c, 1) {
			panic("dist: row scale not positive and finite")
		}
		g.scale[i] = c
	}
	return g
}

// NewGaussianRows returns the rows N(μ_r, c_r Σ) with means the rows of mean
// (R×D), one covariance sigma (D×D) shared by all rows, and scales c_r =
// scale[r] (nil means every c_r = 1). sigma is factorised once; if it is a
// *mat.Cholesky (for example from numeric.CholeskySPD) its factor is used as
// is. It returns a *NotPositiveDefiniteError if sigma is not positive
// definite, and panics if the sizes differ or a scale is not positive and
// finite. The arguments are copied.
func NewGaussianRows(mean mat.Matrix, sigma mat.Symmetric, scale []float64) (*GaussianRows, error) {
	r, d := mean.Dims()
	if sigma.SymmetricDim() != d {
		panic(badDim)
	}
	g := newRows(r, d, scale)
	var chol mat.Cholesky
	if err := factorOnce(&chol, sigma, "shared row covariance"); err != nil {
		return nil, err
	}
	g.u = []blas64.Triangular{upperOf(&chol)}
	g.mean = mat.DenseCopyOf(mean)
	s := mat.NewSymDense(d, nil)
	chol.ToSym(s)
	g.sigma = []*mat.SymDense{s}
	g.logDet = []float64{chol.LogDet()}
	return g, nil
}

// NewGaussianRowsPrecision returns the rows whose natural parameters are the
// output of a VBM step: a shared precision P (D×D) and linear terms b_r (the
// rows of b, R×D),
//
//	Σ = P⁻¹,   μ_r = Σ b_r,   Cov(λ_r) = c_r Σ,
//
// e.g. Σ_A⁻¹ = diag(α) + W_A and b_(j) = s_A,(j) − G_A⟨b_(j)⟩ (Beal (2003)
// eqs. (5.36)–(5.37), lines 3426–3430), or Σ_C⁻¹ = diag(γ) + W_C with c_s =
// 1/ρ̄_s (eqs. (5.44)–(5.45), lines 3455–3459). Note that μ_r does not depend
// on c_r: the natural parameters of row r are (b_r/c_r, P/c_r). prec is
// factorised once (and not inverted twice: Σ comes from the factor); if it
// is a *mat.Cholesky its factor is used as is. scale nil means every c_r =
// 1. It returns a *NotPositiveDefiniteError if prec is not positive definite
// and panics if the sizes differ or a scale is not positive and finite.
func NewGaussianRowsPrecision(prec mat.Symmetric, b mat.Matrix, scale []float64) (*GaussianRows, error) {
	r, d := b.Dims()
	if prec.SymmetricDim() != d {
		panic(badDim)
	}
	g := newRows(r, d, scale)
	g.fromPrec = true
	var chol mat.Cholesky
	if err := factorOnce(&chol, prec, "shared row precision"); err != nil {
		return nil, err
	}
	g.u = []blas64.Triangular{upperOf(&chol)}
	s := mat.NewSymDense(d, nil)
	if err := inverseFromChol(s, &chol); err != nil {
		return nil, &NotPositiveDefiniteError{Matrix: "shared row precision", Dim: d, Index: -1, Pivot: math.NaN()}
	}
	g.sigma = []*mat.SymDense{s}
	g.logDet = []float64{-chol.LogDet()}
	// μ = (P⁻¹bᵀ)ᵀ by two triangular solves with the factor.
	var x mat.Dense
	if err := chol.SolveTo(&x, b.T()); err != nil {
		if _, isCond := err.(mat.Condition); !isCond {
			return nil, err
		}
	}
	g.mean = mat.DenseCopyOf(x.T())
	return g, nil
}

// NewGaussianRowsDistinct returns the rows N(μ_r, Σ_r) with means the rows of
// mean (R×D) and a covariance sigmas[r] per row (c_r = 1). Each sigmas[r] is
// factorised once; a *mat.Cholesky is used as is. It returns a
// *NotPositiveDefiniteError naming the first row whose covariance is not
// positive definite, and panics if the sizes differ.
func NewGaussianRowsDistinct(mean mat.Matrix, sigmas []mat.Symmetric) (*GaussianRows, error) {
	r, d := mean.Dims()
	if len(sigmas) != r {
		panic(badDim)
	}
	g := newRows(r, d, nil)
	g.u = make([]blas64.Triangular, r)
	g.sigma = make([]*mat.SymDense, r)
	g.logDet = make([]float64, r)
	var chol mat.Cholesky
	for i, s := range sigmas {
		if s.SymmetricDim() != d {
			panic(badDim)
		}
		if err := factorOnce(&chol, s, fmt.Sprintf("covariance of row %d", i)); err != nil {
			return nil, err
		}
		g.u[i] = upperOf(&chol)
		g.sigma[i] = mat.NewSymDense(d, nil)
		chol.ToSym(g.sigma[i])
		g.logDet[i] = chol.LogDet()
	}
	g.mean = mat.DenseCopyOf(mean)
	return g, nil
}

// NewGaussianRowsDistinctPrecision returns the rows with a precision P_r and
// a linear term b_r (row r of b) each,
//
//	Σ_r = P_r⁻¹,   μ_r = Σ_r b_r,
//
// the VBM form of the factor-loading rows of the mixture of factor
// analysers, Γ̃_q⁻¹ = diag(⟨ν⟩, ν*_q) + ψ_q⁻¹ Σ_i q_is⟨x̃x̃ᵀ⟩ (Beal (2003)
// eqs. (4.44)–(4.50), lines 2489–2511, solved jointly as the spec corrects).
// Each precision is factorised once; a *mat.Cholesky is used as is. It
// returns a *NotPositiveDefiniteError naming the first row whose precision
// is not positive definite, and panics if the sizes differ.
func NewGaussianRowsDistinctPrecision(precs []mat.Symmetric, b mat.Matrix) (*GaussianRows, error) {
	r, d := b.Dims()
	if len(precs) != r {
		panic(badDim)
	}
	g := newRows(r, d, nil)
	g.fromPrec = true
	g.u = make([]blas64.Triangular, r)
	g.sigma = make([]*mat.SymDense, r)
	g.logDet = make([]float64, r)
	g.mean = mat.NewDense(r, d, nil)
	for i, p := range precs {
		if p.SymmetricDim() != d {
			panic(badDim)
		}
		g.u[i] = newUpper(d)
		g.sigma[i] = mat.NewSymDense(d, nil)
		if err := g.setRowPrecision(i, p, b); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// setRowPrecision sets row i of g (distinct covariances, with u[i] and
// sigma[i] of order D) to Σ_i = P⁻¹, μ_i = Σ_i b_i (b_i row i of b), with ln|Σ_i|
// from the factor of P: P = UᵀU by LAPACK's unpivoted Cholesky (factorInto),
// Σ_i = U⁻¹U⁻ᵀ (numeric.CholInverseUpper) and μ_i by two triangular solves
// (numeric.CholSolveUpperVec), so that P is never inverted twice. It does
// not allocate for D ≤ 16.
func (g *GaussianRows) setRowPrecision(i int, p mat.Symmetric, b mat.Matrix) error {
	d := g.d
	u := g.u[i]
	if err := factorInto(u, p); err != nil {
		err.(*NotPositiveDefiniteError).Matrix = fmt.Sprintf("precision of row %d", i)
		return err
	}
	var buf [16 * 16]float64
	w := buf[:]
	if d > 16 {
		w = make([]float64, d*d)
	}
	sg := g.sigma[i].RawSymmetric()
	if !numeric.CholInverseUpper(sg.Data, sg.Stride, u.Data, d, u.Stride, w) {
		return &NotPositiveDefiniteError{Matrix: fmt.Sprintf("precision of row %d", i), Dim: d, Index: -1, Pivot: math.NaN()}
	}
	g.logDet[i] = -logDetUpper(u)
	row := g.mean.RawRowView(i)
	if rb, ok := b.(mat.RawMatrixer); ok {
		raw := rb.RawMatrix()
		copy(row, raw.Data[i*raw.Stride:i*raw.Stride+d])
	} else {
		for j := range row {
			row[j] = b.At(i, j)
		}
	}
	numeric.CholSolveUpperVec(u.Data, d, u.Stride, row)
	return nil
}

// SetDistinctPrecision sets g, in place, to the rows that
// NewGaussianRowsDistinctPrecision(precs, b) returns (the same numbers, bit
// for bit), reusing g's storage: the VBM step of a loop that refreshes one
// q(Λ) at every iteration (the factor loadings of the mixture of factor
// analysers) then does not allocate (for D ≤ 16), against about 10
// allocations per row for the constructor. Each precision is factorised in
// place by the same LAPACK routine as mat.Cholesky.Factorize but without
// its condition estimate (which the rows never use, and which costs more
// than the factorisation at small D). g must hold a distinct covariance per
// row (from NewGaussianRowsDistinct or NewGaussianRowsDistinctPrecision, or
// a single row) and have the shape of b; otherwise it panics, as it does
// when a precision has another order. Every scale c_r becomes 1.
//
// This breaks the immutability of g: use it only on a GaussianRows that
// nobody else holds. If a precision is not positive definite, or its
// inverse is not finite, it returns the constructor's
// *NotPositiveDefiniteError and g is left partly overwritten: it must be
// set again before any other use.
func (g *GaussianRows) SetDistinctPrecision(precs []mat.Symmetric, b mat.Matrix) error {
	r, d := b.Dims()
	if r != g.r || d != g.d || len(precs) != r || len(g.u) != r || len(g.sigma) != r {
		panic(badDim)
	}
	g.fromPrec = true
	for i := range g.scale {
		g.scale[i] = 1
	}
	for i, p := range precs {
		if p.SymmetricDim() != d {
			panic(badDim)
		}
		if err := g.setRowPrecision(i, p, b); err != nil {
			return err
		}
	}
	return nil
}

// inverseFromChol sets dst to A⁻¹ from the factorisation of A. A Condition
// error still yields the inverse (as in factor); only a non-finite result is
// rejected.
func inverseFromChol(dst *mat.SymDense, chol *mat.Cholesky) error {
	if err := chol.InverseTo(dst); err != nil {
		if _, isCond := err.(mat.Condition); !isCond {
			return err
		}
	}
	n := dst.SymmetricDim()
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if v := dst.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return numeric.ErrNotFinite
			}
		}
	}
	return nil
}

// Dims returns the number of rows R and the row dimension D.
func (g *GaussianRows) Dims() (r, d int) { return g.r, g.d }

// Shared reports whether all rows share one covariance Σ (up to their
// scales c_r).
func (g *GaussianRows) Shared() bool { return len(g.sigma) == 1 }

// Scale returns c_r.
func (g *GaussianRows) Scale(r int) float64 { return g.scale[r] }

// sig returns the unscaled Σ_r.
func (g *GaussianRows) sig(r int) *mat.SymDense {
	if len(g.sigma) == 1 {
		return g.sigma[0]
	}
	return g.sigma[r]
}

// factor returns the upper Cholesky factor of Σ_r (of Σ_r⁻¹ if fromPrec).
func (g *GaussianRows) factor(r int) blas64.Triangular {
	if len(g.u) == 1 {
		return g.u[0]
	}
	return g.u[r]
}

func (g *GaussianRows) ldet(r int) float64 {
	if len(g.logDet) == 1 {
		return g.logDet[0]
	}
	return g.logDet[r]
}

// MeanTo sets dst to E[Λ], the R×D matrix of row means, and returns it. A
// nil dst is allocated, an empty one resized; a dst of another size panics.
func (g *GaussianRows) MeanTo(dst *mat.Dense) *mat.Dense {
	dst = g.reuseDense(dst)
	dst.Copy(g.mean)
	return dst
}

// reuseDense returns dst sized R×D: a new matrix if dst is nil, dst resized
// if it is empty; it panics if dst has another size.
func (g *GaussianRows) reuseDense(dst *mat.Dense) *mat.Dense {
	if dst == nil {
		return mat.NewDense(g.r, g.d, nil)
	}
	if dst.IsEmpty() {
		dst.ReuseAs(g.r, g.d)
	} else if r, c := dst.Dims(); r != g.r || c != g.d {
		panic(badDim)
	}
	return dst
}

// reuseSym returns dst sized D×D: a new matrix if dst is nil, dst resized if
// it is empty; it panics if dst has another size.
func (g *GaussianRows) reuseSym(dst *mat.SymDense) *mat.SymDense {
	if dst == nil {
		return mat.NewSymDense(g.d, nil)
	}
	resizeSym(dst, g.d)
	return dst
}

// RowMeanTo sets dst to E[λ_r] = μ_r, allocating if dst is nil.
func (g *GaussianRows) RowMeanTo(dst []float64, r int) []float64 {
	dst = reuse(dst, g.d)
	copy(dst, g.mean.RawRowView(r))
	return dst
}

// CovarianceTo sets dst to Cov(λ_r) = c_r Σ_r and returns it; a nil dst is
// allocated, an empty one resized.
func (g *GaussianRows) CovarianceTo(dst *mat.SymDense, r int) *mat.SymDense {
	dst = g.reuseSym(dst)
	dst.ScaleSym(g.scale[r], g.sig(r))
	return dst
}

// LogDetCov returns ln|c_r Σ_r| = D ln c_r + ln|Σ_r|.
func (g *GaussianRows) LogDetCov(r int) float64 {
	return float64(g.d)*math.Log(g.scale[r]) + g.ldet(r)
}

// RowSecondMomentTo sets dst to E[λ_r λ_rᵀ] = c_r Σ_r + μ_r μ_rᵀ and returns
// it; a nil dst is allocated, an empty one resized. It does not allocate
// otherwise.
func (g *GaussianRows) RowSecondMomentTo(dst *mat.SymDense, r int) *mat.SymDense {
	dst = g.reuseSym(dst)
	raw := dst.RawSymmetric()
	s := g.sig(r).RawSymmetric()
	c := g.scale[r]
	mu := g.mean.RawRowView(r)
	for i := 0; i < g.d; i++ {
		for j := i; j < g.d; j++ {
			raw.Data[i*raw.Stride+j] = c*s.Data[i*s.Stride+j] + mu[i]*mu[j]
		}
	}
	return dst
}

// SecondMomentTo sets dst to the weighted sum of the row second moments
//
//	E[ΛᵀWΛ] = Σ_r w_r E[λ_r λ_rᵀ] = Σ_r w_r (c_r Σ_r + μ_r μ_rᵀ),   W = diag(w),
//
// and returns it; w nil means every w_r = 1 (E[ΛᵀΛ]). With w_q = ψ_q⁻¹ it is
// ⟨Λ̃ᵀΨ⁻¹Λ̃⟩, whose leading k×k block enters q(x | s) (Beal (2003) eq.
// (4.54), line 2530); with unit weights, ⟨AᵀA⟩ = ⟨A⟩ᵀ⟨A⟩ + kΣ̂_A (eq. (5.53),
// line 3489); with w_s = ρ̄_s and c_s = 1/ρ̄_s, ⟨CᵀR⁻¹C⟩ = ⟨C⟩ᵀdiag(ρ̄)⟨C⟩ +
// pΣ̂_C (eq. (5.63), line 3518). A nil dst is allocated, an empty one
// resized. It panics if len(w) ≠ R, and does not allocate otherwise.
func (g *GaussianRows) SecondMomentTo(dst *mat.SymDense, w []float64) *mat.SymDense {
	if w != nil && len(w) != g.r {
		panic(badDim)
	}
	dst = g.reuseSym(dst)
	raw := dst.RawSymmetric()
	for i := 0; i < g.d; i++ {
		row := raw.Data[i*raw.Stride+i : i*raw.Stride+g.d]
		for j := range row {
			row[j] = 0
		}
	}
	var sumWC float64 // Σ_r w_r c_r, for the shared Σ
	for r := 0; r < g.r; r++ {
		wr := 1.0
		if w != nil {
			wr = w[r]
		}
		if wr == 0 {
			continue
		}
		if g.Shared() {
			sumWC += wr * g.scale[r]
			blas64.Syr(wr, blas64.Vector{N: g.d, Inc: 1, Data: g.mean.RawRowView(r)}, raw)
		} else {
			addScaledSymSyr(raw, wr*g.scale[r], g.sigma[r].RawSymmetric(), wr, g.mean.RawRowView(r))
		}
	}
	if g.Shared() && sumWC != 0 {
		addScaledSym(raw, sumWC, g.sigma[0].RawSymmetric())
	}
	return dst
}

// addScaledSymSyr adds f·s and then w·μμᵀ to the upper triangle of dst, in
// one pass: each element gets f·s_ij added and then μ_j·(μ_i·w), the
// operations of addScaledSym followed by blas64.Syr(w, μ, dst) (gonum's
// Dsyr, which skips a row i with μ_i·w = 0), so the same bits without the
// call and its checks.
func addScaledSymSyr(dst blas64.Symmetric, f float64, s blas64.Symmetric, w float64, mu []float64) {
	n := dst.N
	mu = mu[:n]
	for i := 0; i < n; i++ {
		di := dst.Data[i*dst.Stride+i : i*dst.Stride+n]
		si := s.Data[i*s.Stride+i : i*s.Stride+n]
		si = si[:len(di)]
		tmp := mu[i] * w
		if tmp == 0 {
			for j := range di {
				di[j] += f * si[j]
			}
			continue
		}
		mi := mu[i:]
		mi = mi[:len(di)]
		for j := range di {
			t := di[j] + f*si[j]
			di[j] = t + mi[j]*tmp
		}
	}
}

// addScaledSym adds f·s to the upper triangle of dst.
func addScaledSym(dst blas64.Symmetric, f float64, s blas64.Symmetric) {
	for i := 0; i < dst.N; i++ {
		for j := i; j < dst.N; j++ {
			dst.Data[i*dst.Stride+j] += f * s.Data[i*s.Stride+j]
		}
	}
}

// ColumnSecondMomentsTo sets dst_j to the column second moments
//
//	m_j = Σ_r E[λ_rj²]/c_r = Σ_r ([Σ_r]_jj + μ_rj²/c_r),
//
// the diagonal of SecondMomentTo with w_r = 1/c_r, and returns dst
// (allocating if nil). They are the statistics of the ARD updates: Σ_q
// ⟨Λ_ql²⟩ of q(ν_l) (Beal (2003) eq. (4.40), line 2468, with the square the
// print lost), [⟨AᵀA⟩]_jj and, with c_s = 1/ρ̄_s, [⟨CᵀR⁻¹C⟩]_jj of (5.133)–
// (5.136) (lines 3884–3894). It does not allocate when dst is not nil.
func (g *GaussianRows) ColumnSecondMomentsTo(dst []float64) []float64 {
	dst = reuse(dst, g.d)
	for j := range dst {
		dst[j] = 0
	}
	for r := 0; r < g.r; r++ {
		s := g.sig(r).RawSymmetric()
		mu := g.mean.RawRowView(r)
		ic := 1 / g.scale[r]
		for j := range dst {
			dst[j] += s.Data[j*s.Stride+j] + mu[j]*mu[j]*ic
		}
	}
	return dst
}

// Entropy returns H[q(Λ)] = Σ_r [(D/2) ln(2πe) + ½ ln|c_r Σ_r|] (Beal
// (2003) Appendix A, line 5125).
func (g *GaussianRows) Entropy() float64 {
	var h float64
	for r := 0; r < g.r; r++ {
		h += 0.5 * (float64(g.d)*(ln2Pi+1) + g.LogDetCov(r))
	}
	return h
}

// LogProb returns ln q(Λ) = Σ_r ln N(λ_r | μ_r, c_r Σ_r) for an R×D x.
func (g *GaussianRows) LogProb(x mat.Matrix) float64 {
	if r, c := x.Dims(); r != g.r || c != g.d {
		panic(badDim)
	}
	dev := make([]float64, g.d)
	work := make([]float64, g.d)
	var lp float64
	for r := 0; r < g.r; r++ {
		mu := g.mean.RawRowView(r)
		for j := range dev {
			dev[j] = x.At(r, j) - mu[j]
		}
		q := g.mahalanobis(r, dev, work) / g.scale[r]
		lp -= 0.5 * (float64(g.d)*ln2Pi + g.LogDetCov(r) + q)
	}
	return lp
}

// mahalanobis returns devᵀΣ_r⁻¹dev using the stored factor; work has
// length D.
func (g *GaussianRows) mahalanobis(r int, dev, work []float64) float64 {
	u := g.factor(r) // A = UᵀU, upper
	d := g.d
	var q float64
	if g.fromPrec {
		// Σ⁻¹ = UᵀU: q = |U dev|².
		for i := 0; i < d; i++ {
			var s float64
			for j := i; j < d; j++ {
				s += u.Data[i*u.Stride+j] * dev[j]
			}
			q += s * s
		}
		return q
	}
	// Σ = UᵀU: solve Uᵀy = dev (forward substitution), q = |y|².
	for i := 0; i < d; i++ {
		s := dev[i]
		for j := 0; j < i; j++ {
			s -= u.Data[j*u.Stride+i] * work[j]
		}
		work[i] = s / u.Data[i*u.Stride+i]
		q += work[i] * work[i]
	}
	return q
}

// Rand draws Λ ~ q into dst (allocated if nil, resized if empty) and
// returns it.
func (g *GaussianRows) Rand(dst *mat.Dense, rnd *rand.Rand) *mat.Dense {
	dst = g.reuseDense(dst)
	d := g.d
	for r := 0; r < g.r; r++ {
		u := g.factor(r)
		x := dst.RawRowView(r)
		for i := range x {
			x[i] = rnd.NormFloat64()
		}
		if g.fromPrec {
			// Σ = (UᵀU)⁻¹, so U⁻¹z has covariance Σ: back substitution in
			// place (x_i needs only x_j, j > i, already solved).
			for i := d - 1; i >= 0; i-- {
				s := x[i]
				for j := i + 1; j < d; j++ {
					s -= u.Data[i*u.Stride+j] * x[j]
				}
				x[i] = s / u.Data[i*u.Stride+i]
			}
		} else {
			// Σ = UᵀU, so Uᵀz has covariance Σ; from the last element up,
			// x_i reads only z_j, j ≤ i, not yet overwritten.
			for i := d - 1; i >= 0; i-- {
				var s float64
				for j := 0; j <= i; j++ {
					s += u.Data[j*u.Stride+i] * x[j]
				}
				x[i] = s
			}
		}
		sc := math.Sqrt(g.scale[r])
		mu := g.mean.RawRowView(r)
		for i := range x {
			x[i] = mu[i] + sc*x[i]
		}
	}
	return dst
}

// KLRowDiag returns the (expected) KL divergence of row r of q from a
// Gaussian with a diagonal precision τ per coordinate that shares the row's
// scale c_r,
//
//	E_τ KL(N(μ_r, c_rΣ_r) ‖ N(m, c_r diag(τ)⁻¹))
//	  = ½[Σ_j E[τ_j]([Σ_r]_jj + (μ_rj − m_j)²/c_r) − Σ_j E[ln τ_j] − ln|Σ_r| − D],
//
// where meanPrec holds E[τ_j] and meanLogPrec E[ln τ_j]; a nil meanLogPrec
// means τ is fixed (E[ln τ_j] = ln E[τ_j]) and a nil m means m = 0 (Beal
// (2003) Appendix A, line 5125, (C.17), lines 5300–5308). It is the building
// block of KLARD and ExpectedKLARD and covers priors those do not, such as
// the augmented factor-loading row of the mixture of factor analysers,
// m = (0, …, 0, μ*_q), E[τ] = (⟨ν_1⟩, …, ⟨ν_k⟩, ν*_q) (the term T_Λ of eq.
// (4.29), lines 2405–2419). It panics if a length differs from D or a
// precision is not positive, and does not allocate.
func KLRowDiag(q *GaussianRows, r int, m, meanPrec, meanLogPrec []float64) float64 {
	d := q.d
	if len(meanPrec) != d || (m != nil && len(m) != d) || (meanLogPrec != nil && len(meanLogPrec) != d) {
		panic(badDim)
	}
	s := q.sig(r).RawSymmetric()
	mu := q.mean.RawRowView(r)
	ic := 1 / q.scale[r]
	var kl float64
	for j := 0; j < d; j++ {
		t := meanPrec[j]
		if !(t > 0) {
			panic(badARDPrecision)
		}
		dev := mu[j]
		if m != nil {
			dev -= m[j]
		}
		kl += t * (s.Data[j*s.Stride+j] + dev*dev*ic)
		if meanLogPrec != nil {
			kl -= meanLogPrec[j]
		} else {
			kl -= math.Log(t)
		}
	}
	return 0.5 * (kl - q.ldet(r) - float64(d))
}

const badARDPrecision = "dist: ARD precision not positive"

// KLARD returns the KL divergence of q(Λ) from the ARD prior p(Λ | α) =
// Π_r N(λ_r | 0, c_r diag(α)⁻¹) with fixed column precisions α (length D),
//
//	KL = Σ_r KL(N(μ_r, c_rΣ_r) ‖ N(0, c_r diag(α)⁻¹))
//	   = ½[Σ_j α_j m_j − R Σ_j ln α_j − Σ_r ln|Σ_r| − RD],
//
// with m_j the column second moments of ColumnSecondMomentsTo (Beal (2003)
// Appendix A, line 5125; eq. (C.17), lines 5300–5308). For A it is
// ⟨KL(A | B)⟩ of eq. (5.147) (line 3953), (k/2)[−ln|Σ_A| − Σ_j ln α_j − k] +
// ½ tr(diag(α)⟨AᵀA⟩); for C with c_s = 1/ρ̄_s it is ⟨KL(C | ρ)⟩, since the
// ρ_s of prior and posterior cancel in the log-determinants and leave ρ̄_s
// on the Mahalanobis term (Appendix C.3, lines 5325–5335). It panics if
// len(alpha) ≠ D or an α_j is not positive, and does not allocate.
//
// Test oracle: lds computes this KL on its flat joint matrices; the tests
// check it against per-row KLGaussian and Monte Carlo.
func KLARD(q *GaussianRows, alpha []float64) float64 {
	var kl float64
	for r := 0; r < q.r; r++ {
		kl += KLRowDiag(q, r, nil, alpha, nil)
	}
	return kl
}

// ExpectedKLARD returns the expected KL divergence of q(Λ) from the ARD
// prior when the column precisions have the posterior q(α_j) = Ga(a_j, b_j)
// (shape, rate),
//
//	E_q(α)[KL(q(Λ) ‖ p(Λ | α))] = ½[Σ_j E[α_j] m_j − R Σ_j E[ln α_j]
//	                              − Σ_r ln|Σ_r| − RD],
//
// E[α_j] = a_j/b_j, E[ln α_j] = ψ(a_j) − ln b_j: the KL is linear in α and
// ln α, and q(α) is independent of q(Λ) (the factorisation (4.28), line
// 2396). It is −T_Λ of the mixture of factor analysers without the mean
// column (eq. (4.29), lines 2405–2419; q(ν) of (4.40), line 2468) and the
// ⟨KL(A | B)⟩ of the hierarchical LDS (section 5.3.9, lines 4050–4058). It
// panics if len(alpha) ≠ D.
//
// Test oracle (see KLARD).
func ExpectedKLARD(q *GaussianRows, alpha []Gamma) float64 {
	if len(alpha) != q.d {
		panic(badDim)
	}
	var sumMeanLog float64
	for _, a := range alpha {
		a.check()
		sumMeanLog += a.MeanLog()
	}
	var kl float64
	for r := 0; r < q.r; r++ {
		s := q.sig(r).RawSymmetric()
		mu := q.mean.RawRowView(r)
		ic := 1 / q.scale[r]
		var t float64
		for j, a := range alpha {
			t += a.Mean() * (s.Data[j*s.Stride+j] + mu[j]*mu[j]*ic)
		}
		kl += 0.5 * (t - sumMeanLog - q.ldet(r) - float64(q.d))
	}
	return kl
}

// Bounds of the ARD precision update.
const (
	// ARDPrecisionFloor is the smallest α_j returned by ARDPrecisionTo,
	// so that diag(α) + S stays positive definite when S is rank-deficient
	// (targets ch5-lds.md §1.12, pitfall 12).
	ARDPrecisionFloor = 1e-10
	// ARDPrecisionCeil is the largest α_j returned, a guard against a
	// vanishing column second moment (ch5-lds.md §1.12, pitfall 7: pruned
	// precisions grow without bound; do not cap them below ~1e12).
	ARDPrecisionCeil = 1e15
)

// ARDPrecision returns the ARD precision update α = n/m for a column with
// second moment m over n rows, clamped to [ARDPrecisionFloor,
// ARDPrecisionCeil]; a NaN m gives NaN.
func ARDPrecision(n, m float64) float64 {
	if math.IsNaN(m) {
		return math.NaN()
	}
	if !(m > 0) {
		return ARDPrecisionCeil
	}
	return math.Max(ARDPrecisionFloor, math.Min(ARDPrecisionCeil, n/m))
}

// ARDPrecisionTo sets dst to the ARD hyperparameter update
//
//	α_j = R / m_j = R / Σ_r E[λ_rj²]/c_r,
//
// the maximiser of −KLARD(q, α) (and so of F) in α with q fixed: it solves
// ∂KL/∂α_j = ½(m_j − R/α_j) = 0, and KL is convex in ln α_j. These are the
// updates (5.133)–(5.136) of Beal (2003) (lines 3884–3894), in the simpler
// form α_j = k/[⟨AᵀA⟩]_jj, γ_j = p/[⟨CᵀR⁻¹C⟩]_jj (with 1/p for the printed
// 1/n; targets ch5-lds.md §1.7). Each α_j is clamped to
// [ARDPrecisionFloor, ARDPrecisionCeil]. dst is allocated if nil; otherwise
// it does not allocate.
//
// Test oracle: lds updates α, γ on its flat matrices (eqs. (5.133)–(5.136));
// the tests check that this is the maximiser.
func (g *GaussianRows) ARDPrecisionTo(dst []float64) []float64 {
	dst = g.ColumnSecondMomentsTo(dst)
	n := float64(g.r)
	for j, m := range dst {
		dst[j] = ARDPrecision(n, m)
	}
	return dst
}

// ARDGammaTo sets dst to the optimal gamma posteriors of the column
// precisions under the hyperprior α_j ~ Ga(a₀, b₀) (shape, rate),
//
//	q(α_j) = Ga(a₀ + R/2, b₀ + m_j/2),
//
// with m_j the column second moments: q(ν_l) of the mixture of factor
// analysers (Beal (2003) eqs. (4.38)–(4.40), lines 2462–2468) and q(α_j),
// q(γ_j) of the hierarchical LDS (section 5.3.9, lines 4050–4058). It
// maximises −ExpectedKLARD(q, ·) − Σ_j KLGamma(·, prior) with q fixed. dst
// is allocated if nil; otherwise it does not allocate.
//
// Test oracle: mfa's M step computes q(ν) itself in its own order of
// summation; its test TestARDUpdateMatchesOracle checks it against this.
func (g *GaussianRows) ARDGammaTo(dst []Gamma, prior Gamma) []Gamma {
	prior.check()
	if dst == nil {
		dst = make([]Gamma, g.d)
	} else if len(dst) != g.d {
		panic(badDim)
	}
	shape := prior.Alpha + 0.5*float64(g.r)
	for j := range dst {
		dst[j].Alpha = shape
		dst[j].Beta = prior.Beta
	}
	for r := 0; r < g.r; r++ {
		s := g.sig(r).RawSymmetric()
		mu := g.mean.RawRowView(r)
		ic := 1 / g.scale[r]
		for j := range dst {
			dst[j].Beta += 0.5 * (s.Data[j*s.Stride+j] + mu[j]*mu[j]*ic)
		}
	}
	return dst
}
