package results

import (
	"math"
	"slices"
	"sort"
)

// Sum returns the sum of xs, added in order (0 if xs is empty).
func Sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}

// Mean returns the arithmetic mean of xs, or NaN if xs is empty.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return Sum(xs) / float64(len(xs))
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

// Argmax returns the index of the first largest value of xs (0 if xs is
// empty, or if xs[0] is NaN: a NaN is never larger).
func Argmax(xs []float64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}

// Order returns the indices of xs in increasing order of their values,
// equal values (and NaNs, which compare false) keeping their order: the
// permutation that sorts xs stably.
func Order(xs []float64) []int {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	return idx
}

// Ranks returns the ranks 1..n of xs in increasing order, tied values
// sharing the mean of their ranks (mid-ranks), so that the ranks always
// sum to n(n+1)/2. xs is not modified; NaN values keep their input order
// among themselves and are ranked as the sort leaves them.
func Ranks(xs []float64) []float64 {
	idx := Order(xs)
	r := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && xs[idx[j+1]] == xs[idx[i]] {
			j++
		}
		mid := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = mid
		}
		i = j + 1
	}
	return r
}

// Spearman returns Spearman's rank correlation of x and y: the Pearson
// correlation of their mid-ranks (Ranks). It is NaN for fewer than two
// pairs or when either variable is constant, and panics if x and y differ
// in length.
//
// Ranks are half-integers whose mean is exactly (n+1)/2, so every sum
// below is exact and the result does not depend on the order of
// summation (it equals gonum's stat.Correlation of the ranks bit for bit).
func Spearman(x, y []float64) float64 {
	if len(x) != len(y) {
		panic("results: Spearman of slices of different lengths")
	}
	if len(x) < 2 {
		return math.NaN()
	}
	rx, ry := Ranks(x), Ranks(y)
	mx, my := Mean(rx), Mean(ry)
	var sxx, syy, sxy float64
	for i := range rx {
		dx, dy := rx[i]-mx, ry[i]-my
		sxx += dx * dx
		syy += dy * dy
		sxy += dx * dy
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}

// SignTestP is the one-sided p-value of the sign test: the probability of
// at least wins successes in wins+losses flips of a fair coin (ties dropped
// before the call); 1 when there are none.
func SignTestP(wins, losses int) float64 {
	n := wins + losses
	if n == 0 {
		return 1
	}
	lg, _ := math.Lgamma(float64(n + 1))
	var p float64
	for k := wins; k <= n; k++ {
		a, _ := math.Lgamma(float64(k + 1))
		b, _ := math.Lgamma(float64(n - k + 1))
		p += math.Exp(lg - a - b - float64(n)*math.Ln2)
	}
	return math.Min(p, 1)
}
