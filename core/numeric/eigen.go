package numeric

import "math"

// PrincipalAxis returns the unit eigenvector of the largest eigenvalue of
// the symmetric positive semi-definite n×n matrix a (row-major), by 200
// power iterations from (1, 1, …, 1)/√n (deterministic). It allocates the
// result and one n-vector. The mixtures' births split a component across
// the principal axis of its covariance (core/model/gmm, core/model/moe).
func PrincipalAxis(a []float64, n int) []float64 {
	v, w := make([]float64, n), make([]float64, n)
	for i := range v {
		v[i] = 1 / math.Sqrt(float64(n))
	}
	for range 200 {
		var s float64
		for i := 0; i < n; i++ {
			var t float64
			for j := 0; j < n; j++ {
				t += a[i*n+j] * v[j]
			}
			w[i] = t
			s += t * t
		}
		s = math.Sqrt(s)
		for i := range v {
			v[i] = w[i] / s
		}
	}
	return v
}
