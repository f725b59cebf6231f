// Package parallel is vbw's one worker pool: independent calls f(i),
// i = 0..n−1, spread over a fixed number of goroutines, handed out in
// index order. Results are written by the callers to per-index slots, so
// they never depend on the number of workers or on scheduling; a panic in a
// worker stops the hand-out and is raised again on the caller's goroutine.
//
// For runs independent calls; ForErr stops at the first error; With gives
// each worker its own state (a workspace, a proposal); Ordered folds the
// results in index order while later items are still being computed, so a
// sum over items is the same for any number of workers.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers resolves a requested number of workers for n items: ≤ 0 means
// runtime.GOMAXPROCS(0), and never more than n nor fewer than 1.
func Workers(workers, n int) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return max(1, min(workers, n))
}

// For calls f(i) for i = 0..n−1 on Workers(workers, n) goroutines (on the
// caller's goroutine when that is 1).
func For(n, workers int, f func(i int)) {
	nw := Workers(workers, n)
	ws := make([]struct{}, nw)
	With(n, ws, func(_ struct{}, i int) { f(i) })
}

// ForErr calls f(i) for i = 0..n−1 on Workers(workers, n) goroutines until
// a call returns an error: no further index is handed out, the calls under
// way finish, and the error of the lowest failed index is returned.
func ForErr(n, workers int, f func(i int) error) error {
	var (
		mu    sync.Mutex
		first = -1
		err   error
	)
	nw := Workers(workers, n)
	run(n, nw, func(_, i int) bool {
		e := f(i)
		if e == nil {
			return true
		}
		mu.Lock()
		if first < 0 || i < first {
			first, err = i, e
		}
		mu.Unlock()
		return false
	})
	return err
}

// With calls f(ws[w], i) for i = 0..n−1 on len(ws) goroutines, worker w
// using only its own state ws[w]. f must not depend on which worker runs
// it beyond that state's reuse (workspaces overwritten by each call).
func With[W any](n int, ws []W, f func(w W, i int)) {
	if len(ws) == 0 {
		panic("parallel: With without workers")
	}
	run(n, min(len(ws), max(n, 1)), func(w, i int) bool {
		f(ws[w], i)
		return true
	})
}

// run hands out i = 0..n−1 to nw workers (the caller alone when nw = 1)
// until body returns false. A worker's panic stops the hand-out and is
// raised again on the caller's goroutine once every worker has returned.
func run(n, nw int, body func(w, i int) bool) {
	if n <= 0 {
		return
	}
	if nw <= 1 {
		for i := 0; i < n; i++ {
			if !body(0, i) {
				return
			}
		}
		return
	}
	var (
		next    atomic.Int64
		stop    atomic.Bool
		wg      sync.WaitGroup
		once    sync.Once
		panicky any
	)
	wg.Add(nw)
	for w := 0; w < nw; w++ {
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					once.Do(func() { panicky = r })
					stop.Store(true)
				}
			}()
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if !body(w, i) {
					stop.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	if panicky != nil {
		panic(panicky)
	}
}

// Ordered calls work(ws[w], i) for i = 0..n−1 on len(ws) goroutines and
// fold(i) on the caller's goroutine in index order, each fold as soon as
// its work is done. At most window items are worked on ahead of the fold,
// so work(i) may reuse the buffers of item i − window (slot i % window),
// which fold has consumed. A worker's panic stops both and is raised again
// on the caller's goroutine.
func Ordered[W any](n int, ws []W, window int, work func(w W, i int), fold func(i int)) {
	if len(ws) == 0 || window < 1 {
		panic("parallel: Ordered without workers or window")
	}
	if len(ws) == 1 || n <= 1 {
		for i := 0; i < n; i++ {
			work(ws[0], i)
			fold(i)
		}
		return
	}
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		next    int // next item to hand out
		folded  int // items folded
		done    = make([]bool, window)
		failed  bool
		panicky any
		wg      sync.WaitGroup
	)
	nw := min(len(ws), n)
	wg.Add(nw)
	for w := 0; w < nw; w++ {
		go func(st W) {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					mu.Lock()
					if !failed {
						failed, panicky = true, r
					}
					cond.Broadcast()
					mu.Unlock()
				}
			}()
			for {
				mu.Lock()
				i := next
				if i >= n || failed {
					mu.Unlock()
					return
				}
				next++
				for i >= folded+window && !failed {
					cond.Wait()
				}
				if failed {
					mu.Unlock()
					return
				}
				mu.Unlock()
				work(st, i)
				mu.Lock()
				done[i%window] = true
				cond.Broadcast()
				mu.Unlock()
			}
		}(ws[w])
	}
	// A panic in fold stops the workers before it propagates.
	defer func() {
		if r := recover(); r != nil {
			mu.Lock()
			failed = true
			cond.Broadcast()
			mu.Unlock()
			wg.Wait()
			panic(r)
		}
	}()
	for i := 0; i < n; i++ {
		mu.Lock()
		for !done[i%window] && !failed {
			cond.Wait()
		}
		stop := failed
		mu.Unlock()
		if stop {
			break
		}
		fold(i)
		mu.Lock()
		done[i%window] = false
		folded = i + 1
		cond.Broadcast()
		mu.Unlock()
	}
	wg.Wait()
	if failed {
		panic(panicky)
	}
}
