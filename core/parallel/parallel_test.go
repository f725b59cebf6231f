package parallel

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

func TestForEveryIndexOnce(t *testing.T) {
	for _, workers := range []int{-1, 0, 1, 2, 7, 100} {
		for _, n := range []int{0, 1, 3, 50} {
			calls := make([]atomic.Int32, n)
			For(n, workers, func(i int) { calls[i].Add(1) })
			for i := range calls {
				if c := calls[i].Load(); c != 1 {
					t.Fatalf("workers=%d n=%d: index %d called %d times", workers, n, i, c)
				}
			}
		}
	}
}

func TestWorkers(t *testing.T) {
	for _, c := range []struct{ w, n, want int }{{1000, 3, 3}, {2, 10, 2}, {5, 0, 1}, {1, 1, 1}} {
		if got := Workers(c.w, c.n); got != c.want {
			t.Errorf("Workers(%d, %d) = %d, want %d", c.w, c.n, got, c.want)
		}
	}
	if Workers(0, 1<<20) < 1 {
		t.Error("Workers(0, n) < 1")
	}
}

func TestForErrLowestIndexAndStops(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		var calls atomic.Int32
		err := ForErr(1000, workers, func(i int) error {
			calls.Add(1)
			if i == 5 || i == 7 {
				return fmt.Errorf("item %d", i)
			}
			return nil
		})
		if err == nil || err.Error() != "item 5" && (workers == 1 || err.Error() != "item 7") {
			t.Fatalf("workers=%d: %v", workers, err)
		}
		if workers == 1 && err.Error() != "item 5" {
			t.Fatalf("one worker: %v, want item 5", err)
		}
		if c := calls.Load(); c > 5+int32(2*workers) {
			t.Fatalf("workers=%d: %d calls after an error at index 5", workers, c)
		}
	}
	if err := ForErr(10, 3, func(int) error { return nil }); err != nil {
		t.Fatal(err)
	}
}

func TestWithWorkerState(t *testing.T) {
	type ws struct{ buf []int }
	states := []*ws{{make([]int, 4)}, {make([]int, 4)}, {make([]int, 4)}}
	out := make([]int, 40)
	With(len(out), states, func(w *ws, i int) {
		for k := range w.buf {
			w.buf[k] = i + k
		}
		out[i] = w.buf[3]
	})
	for i, v := range out {
		if v != i+3 {
			t.Fatalf("slot %d = %d", i, v)
		}
	}
}

func TestPanicRaisedOnCaller(t *testing.T) {
	for _, workers := range []int{1, 3} {
		func() {
			defer func() {
				if r := recover(); r != "boom" {
					t.Fatalf("workers=%d: recovered %v", workers, r)
				}
			}()
			For(100, workers, func(i int) {
				if i == 17 {
					panic("boom")
				}
			})
			t.Fatalf("workers=%d: no panic", workers)
		}()
	}
}

// TestOrderedFoldsInOrderWithinWindow: the folds come in index order,
// no item is worked on more than window items ahead of the fold, and a
// float sum folded in order is the same for any number of workers.
func TestOrderedFoldsInOrderWithinWindow(t *testing.T) {
	const n = 500
	ref := 0.0
	for _, nw := range []int{1, 2, 5} {
		for _, window := range []int{1, 2, 8} {
			ws := make([]int, nw)
			slots := make([]float64, window)
			var folded atomic.Int64
			var ahead atomic.Bool
			var sum float64
			order := 0
			Ordered(n, ws, window, func(_ int, i int) {
				if int64(i) >= folded.Load()+int64(window) {
					ahead.Store(true)
				}
				slots[i%window] = 1 / float64(i+1)
			}, func(i int) {
				if i != order {
					t.Fatalf("fold %d, want %d", i, order)
				}
				order++
				sum += slots[i%window]
				folded.Store(int64(i + 1))
			})
			if ahead.Load() {
				t.Fatalf("workers=%d window=%d: an item worked on beyond the window", nw, window)
			}
			if order != n {
				t.Fatalf("%d folds", order)
			}
			if ref == 0 {
				ref = sum
			} else if sum != ref {
				t.Fatalf("workers=%d window=%d: sum %v, want %v", nw, window, sum, ref)
			}
		}
	}
}

func TestOrderedPanics(t *testing.T) {
	for _, where := range []string{"work", "fold"} {
		func() {
			defer func() {
				if r := recover(); r == nil || r.(error).Error() != where {
					t.Fatalf("%s: recovered %v", where, r)
				}
			}()
			Ordered(100, make([]int, 3), 4, func(_ int, i int) {
				if where == "work" && i == 40 {
					panic(errors.New("work"))
				}
			}, func(i int) {
				if where == "fold" && i == 30 {
					panic(errors.New("fold"))
				}
			})
		}()
	}
}
