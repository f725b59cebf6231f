package numeric

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ErrNotPositiveDefinite is returned by CholeskySPD when a matrix cannot be
// factorised even after the largest diagonal jitter.
var ErrNotPositiveDefinite = errors.New("numeric: matrix is not positive definite")

// ErrNotFinite is returned by CholeskySPD when a matrix has a NaN or infinite
// element.
var ErrNotFinite = errors.New("numeric: matrix has a non-finite element")

// Jitter policy of CholeskySPD.
const (
	// JitterStart is the first relative jitter ε tried by CholeskySPD.
	JitterStart = 1e-10
	// JitterGrowth is the factor by which ε grows on each retry.
	JitterGrowth = 10
	// JitterRetries is the number of jittered attempts after the first,
	// unjittered one; the largest relative jitter is JitterStart·JitterGrowth⁵ = 1e-5.
	JitterRetries = 6
)

// Symmetrize sets dst to the symmetric part (A + Aᵀ)/2 of the square matrix
// a. If dst is empty it is resized; otherwise its size must match or
// Symmetrize panics.
func Symmetrize(dst *mat.SymDense, a mat.Matrix) {
	r, c := a.Dims()
	if r != c {
		panic("numeric: matrix not square")
	}
	if dst.IsEmpty() {
		dst.ReuseAsSym(r)
	} else if dst.SymmetricDim() != r {
		panic("numeric: dimension mismatch")
	}
	for i := 0; i < r; i++ {
		for j := i; j < r; j++ {
			dst.SetSym(i, j, 0.5*(a.At(i, j)+a.At(j, i)))
		}
	}
}

// CholeskySPD returns the Cholesky factorisation of the symmetric part
// (A + Aᵀ)/2 of the square matrix a, adding diagonal jitter if needed.
//
// The policy is: try the plain factorisation; if it fails, retry with
// ε·mean(diag A) added to the diagonal, ε = 1e-10, 1e-9, …, 1e-5 (six
// retries). jitter is the amount actually added to each diagonal element
// (0 when none was needed). If every attempt fails, or the mean diagonal is
// not positive, CholeskySPD returns ErrNotPositiveDefinite; if a has a NaN or
// infinite element it returns ErrNotFinite. The input is not modified.
// CholeskySPD panics if a is not square or is empty.
//
// The Gaussian and Wishart posteriors of Beal (2003) chapters 4–5 (e.g. the
// covariances of eqs. (5.43)–(5.44)) are factorised with it.
func CholeskySPD(a mat.Matrix) (chol *mat.Cholesky, jitter float64, err error) {
	r, c := a.Dims()
	if r != c {
		panic("numeric: matrix not square")
	}
	if r == 0 {
		panic("numeric: empty matrix")
	}
	var sym mat.SymDense
	Symmetrize(&sym, a)
	var trace float64
	for i := 0; i < r; i++ {
		for j := i; j < r; j++ {
			v := sym.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, 0, ErrNotFinite
			}
		}
		trace += sym.At(i, i)
	}
	chol = new(mat.Cholesky)
	if chol.Factorize(&sym) {
		return chol, 0, nil
	}
	meanDiag := trace / float64(r)
	if !(meanDiag > 0) {
		return nil, 0, ErrNotPositiveDefinite
	}
	work := mat.NewSymDense(r, nil)
	eps := JitterStart
	for retry := 0; retry < JitterRetries; retry++ {
		jitter = eps * meanDiag
		work.CopySym(&sym)
		for i := 0; i < r; i++ {
			work.SetSym(i, i, sym.At(i, i)+jitter)
		}
		if chol.Factorize(work) {
			return chol, jitter, nil
		}
		eps *= JitterGrowth
	}
	return nil, 0, ErrNotPositiveDefinite
}

// LogDetChol returns ln|A| = 2 Σ_i ln L_ii for the Cholesky factorisation
// A = LLᵀ, as used for the ln|Σ| and ln|S| terms of the Gaussian and Wishart
// entropies and KL divergences (Beal (2003) Appendix A).
func LogDetChol(chol *mat.Cholesky) float64 {
	n := chol.SymmetricDim()
	u := chol.RawU()
	var s float64
	for i := 0; i < n; i++ {
		s += math.Log(u.At(i, i))
	}
	return 2 * s
}
