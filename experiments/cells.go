package experiments

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vbworkbench/vbw/core/parallel"
	"github.com/vbworkbench/vbw/results"
)

func defaultWorkers() int { return runtime.GOMAXPROCS(0) }

// Shard selects the I-th (1-based) of N disjoint parts of a cell sweep, so
// that a large sweep can be spread over a cluster's array jobs. The zero
// value means the whole sweep.
type Shard struct{ I, N int }

// ParseShard parses "i/N" with 1 ≤ i ≤ N.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("-shard %q: want i/N with 1 ≤ i ≤ N, e.g. 2/8", s)
	}
	return Shard{I: i, N: n}, nil
}

// Active reports whether the shard selects a strict part of the sweep.
func (s Shard) Active() bool { return s.N > 1 }

// Owns reports whether the cell with the given name belongs to this shard.
// The assignment hashes the name, so it does not depend on the order or the
// number of cells.
func (s Shard) Owns(name string) bool {
	if !s.Active() {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32()%uint32(s.N)) == s.I-1
}

// String formats the shard as "i/N", or "" for the whole sweep.
func (s Shard) String() string {
	if !s.Active() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// storedCell is the file format of one finished cell.
type storedCell struct {
	Name    string          `json:"name"`
	Hash    string          `json:"config_hash"`
	Seconds float64         `json:"seconds"`
	Result  json.RawMessage `json:"result"`
}

// CellDir is the folder, inside a results folder's state directory, that holds
// finished cells.
const CellDir = "cells"

func cellFile(dir, name string) string {
	r := strings.NewReplacer("/", "_", "\\", "_", " ", "_", ":", "_")
	return filepath.Join(dir, CellDir, r.Replace(name)+".json")
}

// LoadCell reads a stored cell; ok is false if it is absent or was computed
// under another config hash.
func LoadCell[T any](dir, hash, name string) (T, bool, error) {
	v, _, ok, err := loadCell[T](dir, hash, name)
	return v, ok, err
}

// loadCell is LoadCell that also returns the seconds the cell took when it
// was computed, also when it was computed under another hash (ok false):
// an estimate of the seconds it takes.
func loadCell[T any](dir, hash, name string) (v T, seconds float64, ok bool, err error) {
	data, err := os.ReadFile(cellFile(dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return v, 0, false, nil
	}
	if err != nil {
		return v, 0, false, err
	}
	var sc storedCell
	if err := json.Unmarshal(data, &sc); err != nil {
		// A damaged cell file is recomputed rather than trusted.
		return v, 0, false, nil
	}
	if sc.Name != name {
		return v, 0, false, nil
	}
	if sc.Hash != hash {
		return v, sc.Seconds, false, nil
	}
	// A cell without a result (null, or cut off) is recomputed: decoding
	// null would leave a zero value that looks like a result.
	if r := bytes.TrimSpace(sc.Result); len(r) == 0 || bytes.Equal(r, []byte("null")) {
		return v, 0, false, nil
	}
	if err := json.Unmarshal(sc.Result, &v); err != nil {
		return v, 0, false, nil
	}
	return v, sc.Seconds, true, nil
}

// SaveCell stores a finished cell atomically, without syncing it to disk: a
// cell lost or emptied by a crash of the machine reads as damaged and is
// recomputed (LoadCell), and thousands of small cells would otherwise spend
// more time in fsync than in their work.
func SaveCell(dir, hash, name string, seconds float64, v any) error {
	res, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("cell %s: %w", name, err)
	}
	data, err := json.Marshal(storedCell{Name: name, Hash: hash, Seconds: seconds, Result: res})
	if err != nil {
		return err
	}
	return results.WriteCacheAtomic(cellFile(dir, name), data)
}

// RunCells computes the named cells in parallel on env.Workers goroutines.
// A cell already stored under env.CellKey is loaded instead of recomputed, and
// each cell is stored as soon as it finishes, so a run that is killed and
// started again completes without recomputing finished cells. Only the
// cells owned by env.Shard are run; done[i] reports whether out[i] holds a
// result. Cell results must be JSON-encodable (NaN and ±Inf are not: encode
// them as strings or pointers). The first error stops the remaining cells;
// finished ones stay stored.
func RunCells[T any](env *Env, names []string, run func(i int) (T, error)) (out []T, done []bool, err error) {
	return RunCellsOrdered(env, names, nil, run)
}

// RunCellsOrdered is RunCells with a cost estimate per cell (nil: equal):
// cells start in decreasing order of their estimated seconds (ties by
// index), so that the workers finish together: the seconds a stored cell
// of the same name took when an earlier build or config computed it, else
// the job's estimated seconds shared in proportion to cost. Each cell
// holds a token of the run's worker budget while it computes, claimed at
// its estimated seconds, so that the cells of the configs of one vbw run
// share the workers longest first (RunJobs); the job gives its own token
// back meanwhile. The order affects only wall time, never the results.
func RunCellsOrdered[T any](env *Env, names []string, cost []float64, run func(i int) (T, error)) (out []T, done []bool, err error) {
	if cost != nil && len(cost) != len(names) {
		panic("experiments: cost and names differ in length")
	}
	out = make([]T, len(names))
	done = make([]bool, len(names))
	var todo []int
	recorded := make([]float64, len(names))
	cached, owned := 0, 0
	for i, name := range names {
		if !env.Shard.Owns(name) {
			continue
		}
		owned++
		v, secs, ok, err := loadCell[T](env.cellRoot(), env.CellKey, name)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			out[i], done[i] = v, true
			cached++
			env.countCells(0, 1, secs)
			continue
		}
		recorded[i] = secs
		todo = append(todo, i)
	}
	if env.MergeOnly && len(todo) > 0 {
		return nil, nil, missingCells(names, todo, env.MergeShards)
	}
	if env.Shard.Active() {
		// One line per shard start, so that a cluster job's log shows
		// whether a rerun resumed.
		fmt.Fprintf(env.Log, "%s: shard %s has %d of %d cells: %d stored by an earlier run, %d to run\n",
			env.ID, env.Shard, owned, len(names), cached, len(todo))
	}
	est := cellSeconds(env.jobSeconds, len(names), todo, cost, recorded)
	if cost != nil || slices.ContainsFunc(recorded, func(s float64) bool { return s > 0 }) {
		sort.SliceStable(todo, func(a, b int) bool { return est[todo[a]] > est[todo[b]] })
	}
	prog := NewProgress(env.Log, env.ID, cached+len(todo), cached)
	if cost != nil {
		var w float64
		for _, i := range todo {
			w += cost[i]
		}
		prog.weight = w
	}
	defer prog.Finish()
	defer prog.Heartbeat(HeartbeatEvery)()
	// No more goroutines than cells to run (-workers 1000 on 3 cells
	// starts 3); each cell first checks for a stop (a signal, a limit).
	take, back := env.yield()
	defer back()
	// With a budget, one goroutine more than the workers, so that the
	// next cell's claim waits while the others compute: a token set free
	// goes to the longest claim of the run, this config's next cell among
	// them.
	nw := max(env.Workers, 1)
	if env.budget != nil {
		nw++
	}
	var failed atomic.Bool // a cell failed: the claims still waiting run nothing
	err = parallel.ForErr(len(todo), nw, func(k int) (err error) {
		if err := env.Stop(); err != nil {
			return err
		}
		i := todo[k]
		if b := env.budget; b != nil {
			if !take(k) {
				if err := b.Acquire(env.ctx(), est[i], tierCell); err != nil {
					return err
				}
			}
			defer b.Release(1)
		}
		if err := env.Stop(); err != nil || failed.Load() {
			return err
		}
		defer func() {
			if err != nil {
				failed.Store(true)
			}
		}()
		start := time.Now()
		var v T
		cpu, known := threadCPU(func() { v, err = run(i) })
		env.addCPU(cpu, known)
		secs := time.Since(start).Seconds()
		if err == nil {
			err = SaveCell(env.cellRoot(), env.CellKey, names[i], secs, v)
		}
		if err != nil {
			return fmt.Errorf("cell %s: %w", names[i], err) // not done: the progress counts stored cells
		}
		out[i], done[i] = v, true
		env.countCells(1, 0, 0)
		if cost != nil {
			prog.DoneWeighted(1, cost[i])
		} else {
			prog.Done(1)
		}
		return nil
	})
	return out, done, err
}

// RunAllCells is RunCellsOrdered (cost may be nil) for an experiment that
// needs every cell before it writes anything: complete is false, with a
// nil error, in a shard run (-shard i/N, whose cells are stored for vbw
// merge and which writes nothing else), and otherwise a cell that did not
// finish is an error naming it.
func RunAllCells[T any](env *Env, names []string, cost []float64, run func(i int) (T, error)) (out []T, complete bool, err error) {
	out, done, err := RunCellsOrdered(env, names, cost, run)
	if err != nil || env.Shard.Active() {
		return out, false, err
	}
	if i := slices.Index(done, false); i >= 0 {
		return out, false, fmt.Errorf("cell %s did not finish", names[i])
	}
	return out, true, nil
}

// countCells adds to the counts of computed and resumed cells that the
// manifest records (results.Manifest.Cells).
func (e *Env) countCells(computed, resumed int, resumedSeconds float64) {
	e.mu.Lock()
	e.cells.Computed += computed
	e.cells.Resumed += resumed
	e.cells.ResumedSeconds += resumedSeconds
	e.mu.Unlock()
}

// CellCounts returns the cells computed and resumed so far by RunCells and
// RunCellsOrdered, or nil if there were none.
func (e *Env) CellCounts() *results.CellCounts {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cells.Computed+e.cells.Resumed == 0 {
		return nil
	}
	c := e.cells
	return &c
}

// maxNamed is the number of missing cells a merge error names.
const maxNamed = 10

// missingCells is the error of a merge that lacks the cells names[i] for i
// in missing (in increasing order). It names the cells and, when the
// number of shards is known (shards > 1), the shards that own them, so that
// exactly those can be run again. Nothing has been written when it is
// returned.
func missingCells(names []string, missing []int, shards int) error {
	var list []string
	for _, i := range missing[:min(len(missing), maxNamed)] {
		list = append(list, names[i])
	}
	cells := strings.Join(list, ", ")
	if len(missing) > maxNamed {
		cells += fmt.Sprintf(" and %d more", len(missing)-maxNamed)
	}
	rerun := "run the shards that own them (every -shard i/N of the sweep) into this output directory"
	if shards > 1 {
		owners := map[int]bool{}
		for _, i := range missing {
			for s := 1; s <= shards; s++ {
				if (Shard{I: s, N: shards}).Owns(names[i]) {
					owners[s] = true
					break
				}
			}
		}
		var ids, flags []string
		for s := 1; s <= shards; s++ {
			if owners[s] {
				ids = append(ids, strconv.Itoa(s))
				flags = append(flags, fmt.Sprintf("-shard %d/%d", s, shards))
			}
		}
		word := "shard"
		if len(ids) > 1 {
			word = "shards"
		}
		rerun = fmt.Sprintf("run %s %s of %d (%s) into this output directory", word, strings.Join(ids, ","), shards, strings.Join(flags, ", "))
	}
	return fmt.Errorf("merge: %d of %d cells are missing (%s); nothing was written: %s, then merge again", len(missing), len(names), cells, rerun)
}

// Progress prints "id: done/total cells, elapsed, ETA" to a writer at most
// once a second, and a final line, when the work takes longer than two
// seconds.
type Progress struct {
	mu       sync.Mutex
	w        io.Writer
	label    string
	total    int
	done     int
	cached   int
	weight   float64 // total cost of the units to run (0: count units)
	doneW    float64 // cost of the units finished in this run
	start    time.Time
	last     time.Time
	printed  bool
	finished bool
}

// NewProgress starts a progress report of total units, cached of which were
// already done before starting.
func NewProgress(w io.Writer, label string, total, cached int) *Progress {
	if w == nil {
		w = io.Discard
	}
	now := time.Now()
	return &Progress{w: w, label: label, total: total, done: cached, cached: cached, start: now, last: now}
}

// Done records n finished units.
func (p *Progress) Done(n int) { p.DoneWeighted(n, 0) }

// DoneWeighted records n finished units of total estimated cost w; with
// costs, the ETA extrapolates the cost still to run rather than the count.
func (p *Progress) DoneWeighted(n int, w float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	p.doneW += w
	now := time.Now()
	if now.Sub(p.start) > 2*time.Second && now.Sub(p.last) >= time.Second {
		p.last = now
		p.print(now)
	}
}

func (p *Progress) print(now time.Time) {
	el := now.Sub(p.start)
	eta := "?"
	if ran := p.done - p.cached; ran > 0 && p.done < p.total {
		frac := float64(ran) / float64(p.total-p.cached)
		if p.weight > 0 && p.doneW > 0 {
			frac = p.doneW / p.weight
		}
		rem := time.Duration(float64(el) * (1 - frac) / frac)
		eta = rem.Round(time.Second).String()
	} else if p.done >= p.total {
		eta = "0s"
	}
	cached := ""
	if p.cached > 0 {
		cached = fmt.Sprintf(" (%d from earlier runs)", p.cached)
	}
	fmt.Fprintf(p.w, "%s: %d/%d cells%s, %s elapsed, ETA %s\n", p.label, p.done, p.total, cached, el.Round(100*time.Millisecond), eta)
	p.printed = true
}

// HeartbeatEvery is the longest a run of cells stays silent once it has
// taken more than two seconds: while cells run, a progress line is printed
// at least this often even when none finishes (a long cell).
const HeartbeatEvery = 30 * time.Second

// Heartbeat prints the progress line every interval in which no other
// line was printed, until the returned function is called: work that
// runs long between two Done calls still shows that it runs and for how
// long.
func (p *Progress) Heartbeat(every time.Duration) (stop func()) {
	t := time.NewTicker(every)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				p.beat(now, every)
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { t.Stop(); close(done) }) }
}

// beat prints the progress line at now if none was printed in the last
// interval every and the work has run for more than two seconds.
func (p *Progress) beat(now time.Time, every time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	// Within a tenth of the interval counts as the interval: the ticker
	// that calls beat fires at the same instants as the last line.
	if p.finished || now.Sub(p.start) <= 2*time.Second || now.Sub(p.last) < every-every/10 {
		return
	}
	p.last = now
	p.print(now)
}

// Finish prints the final line if any progress was printed.
func (p *Progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.finished = true
	if p.printed {
		p.print(time.Now())
	}
}
