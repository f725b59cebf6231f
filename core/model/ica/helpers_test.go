package ica

import (
	"math"
	"math/rand/v2"
)

// toySources is the source density of the toy (L2495): two zero-mean
// components of variances 1 and 50, equal weights (the text does not give
// the weights).
func toySources() Sources {
	return Sources{Weights: []float64{0.5, 0.5}, Means: []float64{0, 0}, Variances: []float64{1, 50}}
}

// mixed draws n points t = Wx + μ + ε of p dimensions from k sources of
// density src, W ~ N(0, 1), μ ~ N(0, 1) and noise of variance noiseVar.
func mixed(rnd *rand.Rand, n, p, k int, src Sources, noiseVar float64) (t, w, x []float64) {
	w = make([]float64, p*k)
	for i := range w {
		w[i] = rnd.NormFloat64()
	}
	mu := make([]float64, p)
	for i := range mu {
		mu[i] = rnd.NormFloat64()
	}
	t, x = make([]float64, n*p), make([]float64, n*k)
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			u, c := rnd.Float64(), 0
			for c < len(src.Weights)-1 && u > src.Weights[c] {
				u -= src.Weights[c]
				c++
			}
			x[i*k+j] = src.Means[c] + rnd.NormFloat64()*math.Sqrt(src.Variances[c])
		}
		for q := 0; q < p; q++ {
			v := mu[q] + rnd.NormFloat64()*math.Sqrt(noiseVar)
			for j := 0; j < k; j++ {
				v += w[q*k+j] * x[i*k+j]
			}
			t[i*p+q] = v
		}
	}
	return t, w, x
}
