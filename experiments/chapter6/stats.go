package chapter6

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// need scales a count "k of 20 sizes" of the targets to m sizes, rounding
// up.
func need(k, m int) int { return int(math.Ceil(float64(k) * float64(m) / 20)) }

// count returns how many i satisfy f(i) for i < n.
func count(n int, f func(i int) bool) int {
	c := 0
	for i := 0; i < n; i++ {
		if f(i) {
			c++
		}
	}
	return c
}

// largestRise returns the largest increase between consecutive values (0
// if none): a sequence meant to be non-increasing up to noise ε passes when
// largestRise ≤ ε.
func largestRise(v []float64) float64 {
	d := 0.0
	for i := 1; i < len(v); i++ {
		d = math.Max(d, v[i]-v[i-1])
	}
	return d
}

// largestFall returns the largest decrease between consecutive values.
func largestFall(v []float64) float64 {
	d := 0.0
	for i := 1; i < len(v); i++ {
		d = math.Max(d, v[i-1]-v[i])
	}
	return d
}

// meanSD returns the mean, the sample standard deviation and the standard
// error of the mean of xs.
func meanSD(xs []float64) (mean, sd, sem float64) {
	mean = stat.Mean(xs, nil)
	if len(xs) < 2 {
		return mean, math.NaN(), math.NaN()
	}
	sd = stat.StdDev(xs, nil)
	return mean, sd, sd / math.Sqrt(float64(len(xs)))
}

// expectedBestRandomRank returns the expected best rank of the true
// structure when each of trials trials picks one of m structures uniformly
// at random: Σ_{k=1}^{m} ((m+1−k)/m)^trials (targets T14; 1.8353 for 106
// trials of 136, the thesis's "roughly 1.8", line 4835).
func expectedBestRandomRank(m, trials int) float64 {
	var s float64
	for k := 1; k <= m; k++ {
		s += math.Pow(float64(m+1-k)/float64(m), float64(trials))
	}
	return s
}

// indexOf returns the position of n in sizes, or −1.
func indexOf(sizes []int, n int) int { return slices.Index(sizes, n) }
