package results

import (
	"math"
	"slices"
)

// Mean returns the arithmetic mean of xs, or NaN if xs is empty.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Quantile returns the q-quantile of xs by linear interpolation between
// order statistics: with x₍₁₎ ≤ … ≤ x₍ₙ₎ and h = (n−1)q, it is
// x₍⌊h⌋+1₎ + (h−⌊h⌋)(x₍⌊h⌋+2₎ − x₍⌊h⌋+1₎). This is Hyndman and Fan's type 7,
// the default of R's quantile and of NumPy's percentile.
//
// xs is not modified and need not be sorted. The input must be free of NaN
// (see DropNaN); if it contains a NaN the result is NaN. An empty xs gives
// NaN. ±Inf are allowed. Quantile panics if q is outside [0, 1].
func Quantile(xs []float64, q float64) float64 {
	if !(q >= 0 && q <= 1) {
		panic("results: quantile outside [0, 1]")
	}
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s) // NaNs sort first
	if math.IsNaN(s[0]) {
		return math.NaN()
	}
	h := float64(len(s)-1) * q
	lo := int(math.Floor(h))
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	frac := h - float64(lo)
	a, b := s[lo], s[lo+1]
	if frac == 0 || a == b { // also keeps Inf, Inf from giving NaN
		return a
	}
	return a + frac*(b-a)
}

// Median returns Quantile(xs, 0.5).
func Median(xs []float64) float64 { return Quantile(xs, 0.5) }

// IQR returns the interquartile range Quantile(xs, 0.75) − Quantile(xs, 0.25).
func IQR(xs []float64) float64 { return Quantile(xs, 0.75) - Quantile(xs, 0.25) }

// DropNaN returns the values of xs that are not NaN, in order, and how many
// were dropped. xs is not modified.
func DropNaN(xs []float64) (kept []float64, dropped int) {
	kept = make([]float64, 0, len(xs))
	for _, x := range xs {
		if math.IsNaN(x) {
			dropped++
			continue
		}
		kept = append(kept, x)
	}
	return kept, dropped
}
