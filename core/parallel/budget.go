package parallel

import (
	"container/heap"
	"context"
	"sync"
)

// Budget is a fixed number of worker tokens shared by every piece of work
// of a process (the cells of several experiments, their assembly, the
// inner loops of a cell): a goroutine holds a token while it computes, so
// that no more than Size goroutines compute at once whatever the number of
// callers, and a token set free goes to the waiting claim of highest cost
// (longest first: the workers then finish together).
//
// Acquire waits for one token; TryAcquire takes tokens that nobody waits
// for, without waiting, for an inner loop that may use the cores its
// caller's neighbours leave idle (For). Which goroutine gets a token
// affects only when work runs, never what it computes.
type Budget struct {
	mu    sync.Mutex
	size  int
	used  int
	peak  int
	seq   uint64
	queue claims
}

// NewBudget returns a budget of Workers(size, 1<<30) tokens (size ≤ 0: one
// per CPU).
func NewBudget(size int) *Budget { return &Budget{size: Workers(size, 1<<30)} }

// Size returns the number of tokens.
func (b *Budget) Size() int { return b.size }

// Peak returns the largest number of tokens held at once so far.
func (b *Budget) Peak() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peak
}

// Waiting returns the number of claims waiting for a token.
func (b *Budget) Waiting() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.queue)
}

// claim is a waiting Acquire.
type claim struct {
	cost  float64
	tier  int
	seq   uint64
	ready chan struct{}
	index int // in the heap; −1 once granted or withdrawn
}

// claims is a heap of waiting claims, the next to serve first: higher
// cost, then higher tier, then earlier arrival.
type claims []*claim

func (q claims) Len() int { return len(q) }
func (q claims) Less(i, j int) bool {
	a, b := q[i], q[j]
	if a.cost != b.cost {
		return a.cost > b.cost
	}
	if a.tier != b.tier {
		return a.tier > b.tier
	}
	return a.seq < b.seq
}
func (q claims) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *claims) Push(x any) {
	c := x.(*claim)
	c.index = len(*q)
	*q = append(*q, c)
}
func (q *claims) Pop() any {
	old := *q
	c := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	c.index = -1
	return c
}

// Acquire waits for a token. Of the claims waiting when a token is set
// free the one of highest cost gets it (ties: higher tier, then the
// earliest); a claim gets a free token at once only when none waits. It
// returns ctx's error, holding no token, if ctx is done first.
func (b *Budget) Acquire(ctx context.Context, cost float64, tier int) error {
	b.mu.Lock()
	if b.used < b.size && len(b.queue) == 0 {
		b.take(1)
		b.mu.Unlock()
		return nil
	}
	c := &claim{cost: cost, tier: tier, seq: b.seq, ready: make(chan struct{})}
	b.seq++
	heap.Push(&b.queue, c)
	b.mu.Unlock()
	select {
	case <-c.ready:
		return nil
	case <-ctx.Done():
		b.mu.Lock()
		defer b.mu.Unlock()
		if c.index < 0 {
			// Granted as ctx ended: hand the token on.
			b.release(1)
		} else {
			heap.Remove(&b.queue, c.index)
		}
		return ctx.Err()
	}
}

// TryAcquire takes up to n tokens that are free while no claim waits, and
// returns how many it took (0 when none is free); give them back with
// Release.
func (b *Budget) TryAcquire(n int) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.queue) > 0 {
		return 0
	}
	k := max(min(n, b.size-b.used), 0)
	b.take(k)
	return k
}

// Release gives back n tokens, each to the next waiting claim if any.
func (b *Budget) Release(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.release(n)
}

func (b *Budget) take(n int) {
	b.used += n
	b.peak = max(b.peak, b.used)
}

func (b *Budget) release(n int) {
	if n > b.used {
		panic("parallel: Budget released more tokens than were held")
	}
	b.used -= n
	for b.used < b.size && len(b.queue) > 0 {
		c := heap.Pop(&b.queue).(*claim)
		b.take(1)
		close(c.ready)
	}
}

// For is parallel.For(n, workers, f) for a caller that holds one token of
// b: it runs on that token and on as many more as are idle (TryAcquire),
// up to Workers(workers, n) goroutines in all, and gives the extra tokens
// back when it returns. A nil budget leaves the Workers(workers, n)
// goroutines of parallel.For. f's results must not depend on the number
// of goroutines (per-index slots), as for For.
func (b *Budget) For(n, workers int, f func(i int)) {
	if b == nil {
		For(n, workers, f)
		return
	}
	extra := b.TryAcquire(Workers(workers, n) - 1)
	defer b.Release(extra)
	For(n, 1+extra, f)
}
