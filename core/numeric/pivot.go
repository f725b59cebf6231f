package numeric

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// CholeskyMinPivot runs the unpivoted Cholesky factorisation A = LLᵀ of the
// symmetric matrix a in plain Go and reports its pivots d_k = L_kk², the
// diagonal of the successive Schur complements
//
//	d_k = a_kk − Σ_{j<k} L_kj².
//
// If a pivot is not positive (or is NaN) the factorisation breaks down there:
// CholeskyMinPivot returns that index and pivot and ok = false. Otherwise it
// returns the index and value of the smallest pivot and ok = true.
//
// It is a diagnostic for error messages, not a solver: it costs O(n³) with
// an n² scratch array and is called only after mat.Cholesky.Factorize has
// failed, to say where and by how much a matrix that should be positive
// definite (a posterior precision diag(α) + S, Beal (2003) eqs. (4.46),
// (5.37)) is not. It panics if a is empty.
func CholeskyMinPivot(a mat.Symmetric) (index int, pivot float64, ok bool) {
	n := a.SymmetricDim()
	if n == 0 {
		panic("numeric: empty matrix")
	}
	l := make([]float64, n*n) // lower triangle of L, row-major
	index, pivot = -1, math.Inf(1)
	for k := 0; k < n; k++ {
		d := a.At(k, k)
		for j := 0; j < k; j++ {
			d -= l[k*n+j] * l[k*n+j]
		}
		if !(d > 0) {
			return k, d, false
		}
		if d < pivot {
			index, pivot = k, d
		}
		lkk := math.Sqrt(d)
		l[k*n+k] = lkk
		for i := k + 1; i < n; i++ {
			s := a.At(i, k)
			for j := 0; j < k; j++ {
				s -= l[i*n+j] * l[k*n+j]
			}
			l[i*n+k] = s / lkk
		}
	}
	return index, pivot, true
}
