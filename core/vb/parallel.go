package vb

import (
	"runtime"
	"sync"
)

// ForEach calls f(i) for i = 0..n−1 on up to workers goroutines
// (workers ≤ 0 means runtime.GOMAXPROCS(0)). Calls are independent: results
// must be written to per-index slots, so they do not depend on scheduling.
func ForEach(n, workers int, f func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

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
