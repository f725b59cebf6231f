package experiments

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/vbworkbench/vbw/core/parallel"
)

// TestCellsLongestFirstFromRecordedSeconds: cells start in decreasing
// order of the seconds their stored files recorded when an earlier build
// (another cell key) computed them; a cell without a record gets the job's
// seconds shared by cost.
func TestCellsLongestFirstFromRecordedSeconds(t *testing.T) {
	env := testEnv(t, context.Background(), 1)
	env.jobSeconds = 40
	ns := []string{"a", "b", "c", "d", "e"}
	for name, secs := range map[string]float64{"a": 1, "b": 5, "c": 3, "e": 30} {
		if err := SaveCell(env.cellRoot(), "h-older-build", name, secs, 0); err != nil {
			t.Fatal(err)
		}
	}
	// Without a record d is 40 · 2/(1+1+1+2+5) = 8 s by its cost; the
	// costs would put e first and d second.
	cost := []float64{1, 1, 1, 2, 5}
	var order []string
	if _, _, err := RunCellsOrdered(env, ns, cost, func(i int) (int, error) {
		order = append(order, ns[i])
		return i, nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"e", "d", "b", "c", "a"}; !slices.Equal(order, want) {
		t.Fatalf("cells ran in the order %v, want %v", order, want)
	}
}

// TestCellsShareTheBudgetLongestFirst: the cells of two jobs on one
// budget of one token run longest first across the jobs, and never more
// than the budget's tokens at once.
func TestCellsShareTheBudgetLongestFirst(t *testing.T) {
	budget := parallel.NewBudget(1)
	held := budget.TryAcquire(1) // until both jobs' cells wait
	var mu sync.Mutex
	var order []string
	busy, most := 0, 0
	job := func(id string, secs []float64) func() {
		env := testEnv(t, context.Background(), 1)
		env.ID, env.budget = id, budget
		ns := names(len(secs))
		for i, s := range secs {
			if err := SaveCell(env.cellRoot(), "h-older-build", ns[i], s, 0); err != nil {
				t.Fatal(err)
			}
		}
		return func() {
			// The job holds a token for its own work, as Job.run does.
			if err := budget.Acquire(context.Background(), 100, tierStart); err != nil {
				t.Error(err)
				return
			}
			defer budget.Release(1)
			if _, _, err := RunCellsOrdered(env, ns, nil, func(i int) (int, error) {
				mu.Lock()
				busy++
				most = max(most, busy)
				order = append(order, id+ns[i])
				mu.Unlock()
				time.Sleep(2 * time.Millisecond)
				mu.Lock()
				busy--
				mu.Unlock()
				return i, nil
			}); err != nil {
				t.Error(err)
			}
		}
	}
	jobs := []func(){job("x", []float64{9, 2, 5}), job("y", []float64{7, 1, 3})}
	done := make(chan struct{})
	go func() {
		parallel.For(len(jobs), len(jobs), func(i int) { jobs[i]() })
		close(done)
	}()
	// Both jobs' start claims wait; then the token goes to one, whose
	// first cell takes it over and whose next cell claims while it runs.
	for budget.Waiting() < 2 {
		runtime.Gosched()
	}
	budget.Release(held)
	<-done
	if most != 1 {
		t.Errorf("%d cells at once on one token", most)
	}
	// Either job may start first (equal start claims, arrival order):
	// each job's first cell takes the job's own token, then the cells
	// run longest first across both jobs.
	if len(order) != 6 {
		t.Fatalf("ran %v", order)
	}
	if order[0] == "xc00" {
		// x's first cell took x's token; then y starts (claim 100) and its
		// first cell (7 s) takes y's token; then 5, 3, 2, 1.
		if want := []string{"xc00", "yc00", "xc02", "yc02", "xc01", "yc01"}; !slices.Equal(order, want) {
			t.Errorf("order %v, want %v", order, want)
		}
	} else if want := []string{"yc00", "xc00", "xc02", "yc02", "xc01", "yc01"}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
}
