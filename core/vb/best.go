package vb

// Best returns the index of the largest finite value of f(i), i < n, and −1
// when none is finite. Ties go to the lowest index, so the choice does not
// depend on the order in which parallel restarts finished.
func Best(n int, f func(i int) float64) int {
	best := -1
	for i := 0; i < n; i++ {
		v := f(i)
		if v != v || v > 1e308 || v < -1e308 {
			continue
		}
		if best < 0 || v > f(best) {
			best = i
		}
	}
	return best
}
