package experiments

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vbworkbench/vbw/core/parallel"
	"github.com/vbworkbench/vbw/results"
)

// The tiers of the claims on a run's worker budget (parallel.Budget), the
// tie-break between claims of equal cost: a job's own work after its
// cells (assembly, figures; claimed at infinite cost, so first), a cell,
// the start of a job (tierStart − i for the i-th job of RunJobs, so that
// of equal starts the first given starts first).
const (
	tierStart = 0
	tierCell  = 1
	tierMain  = 2
)

// JobOutcome is how one job of RunJobs ended.
type JobOutcome struct {
	Job     *Job
	Dir     string
	Err     error         // nil: its results are committed
	Started bool          // it held a worker: its folder was opened and cells may be kept
	Elapsed time.Duration // from its start to its end
	// Cause: it failed before anything stopped the run (an interrupt or
	// another job's failure); its failure stopped the others.
	Cause bool
}

// RunJobs runs the jobs on one budget of workers tokens
// (parallel.Budget): every job and every cell of every job holds a token
// while it computes, so that the cells of all the configs share the
// workers, the longest claim first: a cell by its estimated seconds
// (cellSeconds), the start of a job by its longest cell's. A job commits its
// results when its last cell is done, as Job.Run alone does, and its
// numbers are those of Job.Run alone: only the order in which cells run
// changes. The first job that fails stops the others (their finished cells
// stay stored); an interrupt (ctx) stops all. done is called, one call at
// a time, as each job commits. The outcomes are in the order of jobs.
func RunJobs(ctx context.Context, jobs []*Job, workers int, done func(JobOutcome)) []JobOutcome {
	if workers <= 0 {
		workers = defaultWorkers()
	}
	if len(jobs) == 1 {
		// One job alone: its own budget, and the process's CPU time.
		j := jobs[0]
		dir, err := j.Run(ctx)
		o := JobOutcome{Job: j, Dir: dir, Err: err, Started: j.started, Cause: err != nil && ctx.Err() == nil}
		if j.started {
			o.Elapsed = time.Since(j.startedAt)
		}
		if err == nil && done != nil {
			done(o)
		}
		return []JobOutcome{o}
	}
	budget := parallel.NewBudget(workers)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([]JobOutcome, len(jobs))
	var mu sync.Mutex
	gate := newMemoryGate(jobs)
	// One goroutine per job, each waiting on the budget before it starts:
	// the budget, not the number of goroutines, bounds what computes.
	// The budget is held until every job waits for it (or for memory),
	// so that the first token goes to the longest claim, not to the job
	// whose goroutine asked first.
	held := budget.TryAcquire(budget.Size())
	finished := make(chan struct{})
	var exited atomic.Int64
	go func() {
		defer close(finished)
		parallel.For(len(jobs), len(jobs), func(i int) {
			defer exited.Add(1)
			runJob(ctx, cancel, jobs, i, budget, gate, out, &mu, done)
		})
	}()
	for budget.Waiting()+gate.blocked()+int(exited.Load()) < len(jobs) && ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	budget.Release(held)
	<-finished
	return out
}

// runJob runs jobs[i] for RunJobs into out[i].
func runJob(ctx context.Context, cancel func(), jobs []*Job, i int, budget *parallel.Budget, gate *memoryGate, out []JobOutcome, mu *sync.Mutex, done func(JobOutcome)) {
	j := jobs[i]
	if !gate.enter(ctx, i) {
		out[i] = JobOutcome{Job: j, Err: ctx.Err()}
		return
	}
	defer gate.leave(i)
	dir, err := j.run(ctx, budget, tierStart-i)
	o := JobOutcome{Job: j, Dir: dir, Err: err, Started: j.started}
	if j.started {
		o.Elapsed = time.Since(j.startedAt)
	}
	out[i] = o
	if err != nil {
		mu.Lock()
		o.Cause = ctx.Err() == nil
		out[i] = o
		cancel()
		mu.Unlock()
		return
	}
	if done != nil {
		mu.Lock()
		done(o)
		mu.Unlock()
	}
}

// memoryGate keeps the jobs that hold their data at once (those started
// and not finished) within the memory limit, by their estimates: a job
// starts when its estimate fits beside those of the jobs under way (the
// first always does).
type memoryGate struct {
	mu      sync.Mutex
	cond    *sync.Cond
	limit   float64
	used    float64
	live    int
	waiting int // jobs waiting in enter
	bytes   []float64
}

func newMemoryGate(jobs []*Job) *memoryGate {
	g := &memoryGate{bytes: make([]float64, len(jobs)), limit: math.Inf(1)}
	g.cond = sync.NewCond(&g.mu)
	for i, j := range jobs {
		g.bytes[i] = j.Estimate.Bytes
		if i == 0 {
			g.limit, _ = j.o.Limits.memory()
		}
	}
	return g
}

// enter waits until job i fits, or ctx is done (false).
func (g *memoryGate) enter(ctx context.Context, i int) bool {
	stop := context.AfterFunc(ctx, func() {
		g.mu.Lock()
		g.cond.Broadcast()
		g.mu.Unlock()
	})
	defer stop()
	g.mu.Lock()
	defer g.mu.Unlock()
	for g.live > 0 && !(g.used+g.bytes[i] <= g.limit) && ctx.Err() == nil {
		g.waiting++
		g.cond.Wait()
		g.waiting--
	}
	if ctx.Err() != nil {
		return false
	}
	g.live++
	g.used += g.bytes[i]
	return true
}

// blocked returns the number of jobs waiting in enter.
func (g *memoryGate) blocked() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.waiting
}

func (g *memoryGate) leave(i int) {
	g.mu.Lock()
	g.live--
	g.used -= g.bytes[i]
	g.cond.Broadcast()
	g.mu.Unlock()
}

// recordedSeconds is the CPU time of the job's previous run in its results
// folder (the cells it resumed included), or 0 when there is none.
func (j *Job) recordedSeconds() float64 {
	m, err := results.ReadManifest(filepath.Join(j.Dir, results.ManifestFile))
	if err != nil || m.Quick != j.o.Quick {
		return 0
	}
	s := m.CPUSeconds
	if s <= 0 {
		s = m.WallSeconds
	}
	if c := m.Cells; c != nil {
		s += c.ResumedSeconds
	}
	return s
}

// estimatedSeconds is the job's CPU time as recorded by its previous run,
// else as its estimate of work says (an upper bound: every fit to its
// cap).
func (j *Job) estimatedSeconds() float64 {
	if s := j.recordedSeconds(); s > 0 {
		return s
	}
	return j.Estimate.Work / OpsPerSecond
}

// startSeconds is the cost of the claim that starts the job: the seconds
// of its longest cell as its stored cells recorded them (computed by any
// earlier build or config), else its estimated seconds shared equally by
// its cells.
func (j *Job) startSeconds() float64 {
	files, _ := filepath.Glob(filepath.Join(j.CellsDir(), "*.json"))
	longest := 0.0
	for _, f := range files {
		if s, ok := storedSeconds(f); ok {
			longest = max(longest, s)
		}
	}
	if longest > 0 {
		return longest
	}
	return j.estimatedSeconds() / max(j.Estimate.Cells, 1)
}

// storedSeconds reads the seconds a stored cell file recorded.
func storedSeconds(path string) (float64, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	var sc struct {
		Seconds float64 `json:"seconds"`
	}
	if json.Unmarshal(data, &sc) != nil || !(sc.Seconds > 0) {
		return 0, false
	}
	return sc.Seconds, true
}

// cellSeconds estimates the seconds of the cells todo (indices into names):
// those a stored cell of the same name recorded (recorded[i] > 0, from any
// earlier build or config), else the job's seconds (Env.jobSeconds) shared
// by cost (nil: equally).
func cellSeconds(jobSeconds float64, n int, todo []int, cost, recorded []float64) []float64 {
	est := make([]float64, n)
	total := 0.0
	for _, i := range todo {
		total += weight(cost, i)
	}
	for _, i := range todo {
		switch {
		case recorded[i] > 0:
			est[i] = recorded[i]
		case total > 0:
			est[i] = jobSeconds * weight(cost, i) / total
		}
	}
	return est
}

func weight(cost []float64, i int) float64 {
	if cost == nil {
		return 1
	}
	return cost[i]
}

// threadCPU measures the CPU time of the calling goroutine's thread over
// the calls of f: the goroutine is locked to its thread meanwhile.
func threadCPU(f func()) (seconds float64, known bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, ok0 := results.ThreadCPUSeconds()
	f()
	c1, ok1 := results.ThreadCPUSeconds()
	return c1 - c0, ok0 && ok1
}

// addCPU adds the measured CPU seconds of a piece of the job's work.
func (e *Env) addCPU(s float64, known bool) {
	e.mu.Lock()
	e.cpu += s
	e.cpuUnknown = e.cpuUnknown || !known
	e.mu.Unlock()
}

// resume starts measuring the job's own work on its (locked) thread.
func (e *Env) resume() { e.mainCPU0, _ = results.ThreadCPUSeconds() }

// suspend adds the thread CPU time of the job's own work since resume.
func (e *Env) suspend() {
	c, ok := results.ThreadCPUSeconds()
	e.addCPU(c-e.mainCPU0, ok)
}

// yield hands the job's token to its cells: the first (longest) cell,
// k = 0, takes it (take true) instead of claiming one, so that no other
// claim comes between the job and its cells. back, when the cells are done, takes a
// token for the job's own work again (first in line) unless no cell took
// the job's, and measures that work's CPU time around the cells.
func (e *Env) yield() (take func(k int) bool, back func()) {
	if e.budget == nil {
		return func(int) bool { return false }, func() {}
	}
	e.suspend()
	var held atomic.Bool
	held.Store(true)
	take = func(k int) bool { return k == 0 && held.Swap(false) }
	back = func() {
		if !held.Load() {
			e.budget.Acquire(context.Background(), math.Inf(1), tierMain)
		}
		e.resume()
	}
	return take, back
}

// ctx is the run's context (Background when none is set).
func (e *Env) ctx() context.Context {
	if e.Ctx == nil {
		return context.Background()
	}
	return e.Ctx
}
