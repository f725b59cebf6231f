package parallel

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestBudgetNeverExceedsSize: many goroutines acquiring, trying for
// extra tokens and running inner loops on them never hold more than Size
// tokens at once, and every token comes back.
func TestBudgetNeverExceedsSize(t *testing.T) {
	for _, size := range []int{1, 2, 3} {
		b := NewBudget(size)
		var busy, most atomic.Int64
		work := func() {
			n := busy.Add(1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(50 * time.Microsecond)
			busy.Add(-1)
		}
		var wg sync.WaitGroup
		for g := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range 20 {
					if err := b.Acquire(context.Background(), float64((g*7+r)%5), r%2); err != nil {
						t.Error(err)
						return
					}
					work()
					b.For(6, 4, func(int) { work() })
					k := b.TryAcquire(3)
					b.Release(k)
					b.Release(1)
				}
			}()
		}
		wg.Wait()
		if p := b.Peak(); p > size || p < 1 {
			t.Errorf("size %d: peak %d tokens held", size, p)
		}
		if m := most.Load(); m > int64(size) {
			t.Errorf("size %d: %d goroutines computed at once", size, m)
		}
		if k := b.TryAcquire(size + 1); k != size {
			t.Errorf("size %d: %d tokens free at the end", size, k)
		}
	}
}

// TestBudgetLongestFirst: the claims waiting for a token are served in
// decreasing cost, ties by tier and then by arrival.
func TestBudgetLongestFirst(t *testing.T) {
	b := NewBudget(1)
	if err := b.Acquire(context.Background(), 0, 0); err != nil {
		t.Fatal(err)
	}
	type c struct {
		cost float64
		tier int
		name string
	}
	in := []c{{1, 0, "d"}, {5, 0, "b"}, {5, 1, "a"}, {1, 0, "e"}, {2, 0, "c"}}
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	for i, x := range in {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := b.Acquire(context.Background(), x.cost, x.tier); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, x.name)
			mu.Unlock()
			b.Release(1)
		}()
		// The claims arrive one after another.
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
			b.mu.Lock()
			n := len(b.queue)
			b.mu.Unlock()
			if n == i+1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d claims waiting, want %d", n, i+1)
			}
		}
	}
	if k := b.TryAcquire(1); k != 0 {
		t.Fatalf("TryAcquire took %d tokens while claims wait", k)
	}
	b.Release(1)
	wg.Wait()
	want := []string{"a", "b", "c", "d", "e"}
	for i := range want {
		if i >= len(order) || order[i] != want[i] {
			t.Fatalf("served %v, want %v", order, want)
		}
	}
}

// TestBudgetAcquireCancelled: a claim whose context ends returns its
// error and holds nothing; the token goes to the next claim.
func TestBudgetAcquireCancelled(t *testing.T) {
	b := NewBudget(1)
	if err := b.Acquire(context.Background(), 0, 0); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- b.Acquire(ctx, 10, 0) }()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		b.mu.Lock()
		n := len(b.queue)
		b.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the claim never waited")
		}
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Fatalf("Acquire after cancel: %v", err)
	}
	b.Release(1)
	if k := b.TryAcquire(1); k != 1 {
		t.Fatalf("%d tokens free after the cancelled claim, want 1", k)
	}
}

// TestBudgetForUsesIdleTokens: an inner loop of a caller that holds a
// token uses the idle ones, and only those.
func TestBudgetForUsesIdleTokens(t *testing.T) {
	b := NewBudget(3)
	if err := b.Acquire(context.Background(), 0, 0); err != nil {
		t.Fatal(err)
	}
	b.For(10, 8, func(int) {})
	if p := b.Peak(); p != 3 {
		t.Errorf("peak %d with 2 idle tokens, want 3", p)
	}
	other := b.TryAcquire(2)
	var calls atomic.Int32
	b.For(10, 8, func(int) { calls.Add(1) })
	if calls.Load() != 10 || b.Peak() != 3 {
		t.Errorf("%d calls, peak %d", calls.Load(), b.Peak())
	}
	b.Release(other + 1)
	var nilB *Budget
	nilB.For(3, 2, func(int) { calls.Add(1) })
	if calls.Load() != 13 {
		t.Errorf("nil budget: %d calls", calls.Load())
	}
}
