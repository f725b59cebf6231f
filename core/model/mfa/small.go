package mfa

import "math"

// Dense kernels for the small matrices of the model: the k×k posterior
// covariance Σ^s of the factors and the (k+1)-dimensional products of the
// E step. k is at most p (typically ≤ 10), so plain loops over row-major
// slices beat a BLAS call, never allocate and never spawn goroutines.

// cholLower overwrites the lower triangle of the n×n row-major matrix a
// (only its lower triangle is read) with the Cholesky factor L, a = LLᵀ. It
// returns false if a is not positive definite (or has a NaN).
func cholLower(a []float64, n int) bool {
	for j := 0; j < n; j++ {
		rj := a[j*n : j*n+j]
		s := a[j*n+j]
		for _, v := range rj {
			s -= v * v
		}
		if !(s > 0) || math.IsInf(s, 0) {
			return false
		}
		d := math.Sqrt(s)
		a[j*n+j] = d
		for i := j + 1; i < n; i++ {
			ri := a[i*n : i*n+j]
			t := a[i*n+j]
			for c, v := range ri {
				t -= v * rj[c]
			}
			a[i*n+j] = t / d
		}
	}
	return true
}

// logDetLower returns ln|LLᵀ| = 2 Σ_i ln L_ii.
func logDetLower(l []float64, n int) float64 {
	var s float64
	for i := 0; i < n; i++ {
		s += math.Log(l[i*n+i])
	}
	return 2 * s
}

// invFromLower sets dst (n×n, full, row-major) to (LLᵀ)⁻¹ = L⁻ᵀL⁻¹, using
// work (n×n) for L⁻¹. dst, l and work must not overlap.
func invFromLower(dst, l []float64, n int, work []float64) {
	w := work[:n*n]
	for i := range w {
		w[i] = 0
	}
	for j := 0; j < n; j++ {
		w[j*n+j] = 1 / l[j*n+j]
		for i := j + 1; i < n; i++ {
			var s float64
			for c := j; c < i; c++ {
				s += l[i*n+c] * w[c*n+j]
			}
			w[i*n+j] = -s / l[i*n+i]
		}
	}
	for a := 0; a < n; a++ {
		for b := a; b < n; b++ {
			var s float64
			for c := b; c < n; c++ {
				s += w[c*n+a] * w[c*n+b]
			}
			dst[a*n+b] = s
			dst[b*n+a] = s
		}
	}
}

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

// sum returns Σ_i x_i, with four partial sums (as dot).
func sum(x []float64) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i]
		s1 += x[i+1]
		s2 += x[i+2]
		s3 += x[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i]
	}
	return (s0 + s1) + (s2 + s3)
}
