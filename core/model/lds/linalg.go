package lds

// Dense helpers of the VBM step and the hyperparameter updates. Matrices are
// row-major []float64 (package infer's layouts); the Cholesky kernels are
// numeric's small-matrix set (numeric.CholFactor and its companions), whose
// factor L of A = LLᵀ overwrites A's lower triangle. The matrices here are
// (k+d)×(k+d), small, so plain serial loops with a fixed order of summation
// suffice; none of them allocates (numeric.InverseSPD, which does, is for
// one-off conversions).

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
