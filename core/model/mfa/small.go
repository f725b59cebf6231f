package mfa

// Dense kernels for the small matrices of the model: the k×k posterior
// covariance Σ^s of the factors and the (k+1)-dimensional products of the
// E step. k is at most p (typically ≤ 10), so plain loops over row-major
// slices beat a BLAS call, never allocate and never spawn goroutines. The
// Cholesky kernels are numeric's small-matrix set (numeric.CholFactor,
// numeric.CholLogDet, numeric.CholInverse).

// dot returns Σ_i a_i b_i over len(a) elements, with four partial sums
// (the loop over n points is latency-bound with one).
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// axpy sets dst[j] += a·x[j] (len(x) ≥ len(dst)).
func axpy(dst []float64, a float64, x []float64) {
	x = x[:len(dst)]
	for j, v := range x {
		dst[j] += a * v
	}
}
