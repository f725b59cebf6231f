package moe_test

import (
	"math"
	"math/rand/v2"
)

// piecewise draws n points x uniform on [−1, 1]^d and y = |x₁| + noise of
// standard deviation sd: two linear regimes, which two experts fit exactly.
func piecewise(rnd *rand.Rand, n, d int, sd float64) (x, y []float64) {
	x, y = make([]float64, n*d), make([]float64, n)
	for i := 0; i < n; i++ {
		for a := 0; a < d; a++ {
			x[i*d+a] = 2*rnd.Float64() - 1
		}
		y[i] = math.Abs(x[i*d]) + sd*rnd.NormFloat64()
	}
	return x, y
}
