package lds

import "math"

// Dense kernels of the VBM step and the hyperparameter updates. Matrices are
// row-major []float64 (package infer's layouts); a Cholesky factor L of an
// n×n symmetric positive-definite matrix (= LLᵀ) overwrites its lower
// triangle, and its strict upper triangle is never read. The matrices here
// are (k+d)×(k+d), small, so plain serial loops with a fixed order of
// summation suffice; none of them allocates.

// cholesky overwrites the lower triangle of the symmetric n×n matrix a (only
// the lower triangle is read) with its Cholesky factor. It returns false if
// a pivot is not positive (a is not positive definite to working precision,
// or holds a NaN).
func cholesky(a []float64, n int) bool {
	for j := 0; j < n; j++ {
		rj := a[j*n : j*n+j+1]
		d := rj[j]
		for _, v := range rj[:j] {
			d -= v * v
		}
		if !(d > 0) {
			return false
		}
		d = math.Sqrt(d)
		rj[j] = d
		for i := j + 1; i < n; i++ {
			ri := a[i*n : i*n+j+1]
			s := ri[j]
			for m, v := range rj[:j] {
				s -= ri[m] * v
			}
			ri[j] = s / d
		}
	}
	return true
}

// logDiag returns Σ_{lo ≤ i < hi} ln L_ii for the n×n factor l.
func logDiag(l []float64, n, lo, hi int) float64 {
	var s float64
	for i := lo; i < hi; i++ {
		s += math.Log(l[i*n+i])
	}
	return s
}

// solveLower overwrites the n×m matrix b with L⁻¹b.
func solveLower(l []float64, n int, b []float64, m int) {
	for i := 0; i < n; i++ {
		bi := b[i*m : (i+1)*m]
		for r, lir := range l[i*n : i*n+i] {
			br := b[r*m : (r+1)*m]
			for c := range bi {
				bi[c] -= lir * br[c]
			}
		}
		inv := 1 / l[i*n+i]
		for c := range bi {
			bi[c] *= inv
		}
	}
}

// solveLowerT overwrites the n×m matrix b with L⁻ᵀb.
func solveLowerT(l []float64, n int, b []float64, m int) {
	for i := n - 1; i >= 0; i-- {
		bi := b[i*m : (i+1)*m]
		inv := 1 / l[i*n+i]
		for c := range bi {
			bi[c] *= inv
		}
		for r, lir := range l[i*n : i*n+i] {
			br := b[r*m : (r+1)*m]
			for c := range br {
				br[c] -= lir * bi[c]
			}
		}
	}
}

// invertChol writes (LLᵀ)⁻¹ into the n×n matrix dst, exactly symmetric, by
// solving against the identity.
func invertChol(dst, l []float64, n int) {
	clear(dst[:n*n])
	for i := 0; i < n; i++ {
		dst[i*n+i] = 1
	}
	solveLower(l, n, dst, n)
	solveLowerT(l, n, dst, n)
	symmetrize(dst, n)
}

// symmetrize replaces the n×n matrix a by (a + aᵀ)/2.
func symmetrize(a []float64, n int) {
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			v := 0.5 * (a[i*n+j] + a[j*n+i])
			a[i*n+j], a[j*n+i] = v, v
		}
	}
}

// addOuter adds w·a bᵀ to the len(a)×len(b) matrix dst.
func addOuter(dst, a, b []float64, w float64) {
	m := len(b)
	for i, ai := range a {
		wa := w * ai
		di := dst[i*m : (i+1)*m]
		for j, bj := range b {
			di[j] += wa * bj
		}
	}
}

// block copies the r×c block of the n-column matrix src at (i0, j0) into the
// r×c matrix dst.
func block(dst []float64, src []float64, n, i0, j0, r, c int) {
	for i := 0; i < r; i++ {
		copy(dst[i*c:(i+1)*c], src[(i0+i)*n+j0:(i0+i)*n+j0+c])
	}
}
