package experiments

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vbworkbench/vbw/experiments/config"
)

func TestCostEval(t *testing.T) {
	restarts, k := Key("restarts", 10), Key("model.k", 100)
	c := Cost{
		Cells:      []Factor{restarts, Fixed(3, "data sets")},
		Memory:     []Part{Words("data", Fixed(1000, "points"))},
		CellMemory: []Part{Words("transition arrays", k, k)},
		Work:       []Part{Ops("forward-backward", 4, restarts, k, k), Ops("scores", 1, restarts)},
	}
	e := c.Eval(4)
	if e.Cells != 30 || e.Parallel != 4 {
		t.Fatalf("cells %v, parallel %v, want 30, 4", e.Cells, e.Parallel)
	}
	want := 30*CellBytes + 8*1000 + 4*8*100*100.0
	if e.Bytes != want {
		t.Errorf("bytes %v, want %v", e.Bytes, want)
	}
	if e.Work != 4*10*100*100+10 || e.WorkPart.What != "forward-backward" || e.MemPart.What != "transition arrays" {
		t.Errorf("work %v (%s), memory part %s", e.Work, e.WorkPart.What, e.MemPart.What)
	}
	// Fewer cells than workers: as many cells run as there are.
	if e := c.Eval(1000); e.Parallel != 30 {
		t.Errorf("parallel %v with 1000 workers, want the 30 cells", e.Parallel)
	}
	// A run of no cell factors is one cell; sizes beyond float64 are +Inf,
	// never NaN, and a negative size counts as 0.
	big := Cost{Work: []Part{Ops("absurd", 1, Key("a", math.MaxInt64), Key("b", math.MaxInt64), Fixed(math.MaxFloat64, "c"))}}
	if e := big.Eval(2); e.Cells != 1 || !math.IsInf(e.Work, 1) {
		t.Errorf("cells %v, work %v, want 1, +Inf", e.Cells, e.Work)
	}
	if v := Ops("zero", 1, Key("n", -5), Fixed(math.Inf(1), "inf")).Value(); v != math.Inf(1) {
		t.Errorf("0·Inf = %v, want +Inf (refused, not NaN)", v)
	}
}

func TestCostRefusal(t *testing.T) {
	saved := AvailableMemory
	defer func() { AvailableMemory = saved }()
	AvailableMemory = func() (float64, bool) { return 8 << 30, true }
	k := KeyN("model.k_grid", []int{1000000}, 1e6, "largest k")
	c := Cost{
		Cells:      []Factor{Key("seeds", 3)},
		CellMemory: []Part{Words("smoothed moments", Fixed(300, "steps"), k, k)},
		Work:       []Part{Ops("fits", 1, Key("seeds", 3), Key("vb.max_iterations", 300))},
	}
	err := c.Eval(2).check(Limits{}, 1)
	var ve *config.ValueError
	if !errors.As(err, &ve) || ve.Key != "model.k_grid" {
		t.Fatalf("error %v, want a *ValueError of model.k_grid", err)
	}
	for _, want := range []string{"model.k_grid = [1000000]: this run needs about", "more than the limit of 8.0 GiB (the memory available)",
		"smoothed moments: 2 running cells × 300 steps × (1000000 largest k)² × 8 B", "lower model.k_grid (no machine has that much)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// A need a machine can have names the flag and the value to give it.
	c.CellMemory = []Part{Words("smoothed moments", Fixed(300, "steps"), Key("model.k", 1500), Key("model.k", 1500))}
	err = c.Eval(2).check(Limits{}, 1)
	if err == nil || !strings.Contains(err.Error(), "-max-memory 11GiB (or VBW_MAX_MEMORY=11GiB)") {
		t.Fatalf("error %v, want the flag with 11GiB", err)
	}
	if err := c.Eval(2).check(Limits{Memory: 11 << 30}, 1); err != nil {
		t.Fatalf("under -max-memory 11GiB: %v", err)
	}
	// Work: refused over the default limit, naming the largest keyed
	// factor; a shard does its part, a merge none.
	c.CellMemory = nil
	c.Work = []Part{Ops("Monte Carlo weights", 40, Key("grid.steps", 30), Key("repeats", 4), Key("mc_samples", 1e12))}
	err = c.Eval(2).check(Limits{}, 1)
	if !errors.As(err, &ve) || ve.Key != "mc_samples" || !strings.Contains(err.Error(), "-max-work 4.8e+15") || !strings.Contains(err.Error(), "core-days") {
		t.Fatalf("error %v, want mc_samples named with -max-work 4.8e+15", err)
	}
	if err := c.Eval(2).check(Limits{}, 0); err != nil {
		t.Errorf("a merge was refused for work: %v", err)
	}
	if err := c.Eval(2).check(Limits{}, 1.0/10); err != nil {
		t.Errorf("a shard of 10 was refused: %v", err)
	}
	if err := c.Eval(2).check(Limits{Work: 5e15}, 1); err != nil {
		t.Errorf("under -max-work 5e15: %v", err)
	}
	// Beyond the cap no flag can help.
	c.Work = []Part{Ops("absurd", 1, Key("restarts", math.MaxInt64), Key("restarts", math.MaxInt64))}
	if err := c.Eval(2).check(Limits{}, 1); err == nil || !strings.Contains(err.Error(), "lower restarts (beyond any machine)") {
		t.Errorf("error %v", err)
	}
}

func TestLimitsAndWorkers(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
	}{{"64GiB", 64 << 30}, {"512MB", 512 << 20}, {"1.5e10", 1.5e10}, {"2k", 2048}, {" 3 TiB ", 3 << 40}, {"100b", 100}} {
		if got, err := ParseBytes(c.in); err != nil || got != c.want {
			t.Errorf("ParseBytes(%q) = %v, %v, want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "GiB", "-1GiB", "inf", "NaN", "12XB", "1e400"} {
		if _, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q) accepted", bad)
		}
	}
	for _, l := range []Limits{{Memory: -1}, {Memory: 2 * MaxMemoryLimit}, {Work: math.NaN()}, {Work: 2 * MaxWorkLimit}} {
		if l.Check() == nil {
			t.Errorf("limits %+v accepted", l)
		}
	}
	if (Limits{}).Check() != nil || (Limits{Memory: 1 << 40, Work: 1e16}).Check() != nil {
		t.Error("valid limits refused")
	}
	for _, n := range []int{0, -5, MaxWorkers() + 1, 100000000} {
		if err := CheckWorkers(n); err == nil || !strings.Contains(err.Error(), "-workers") {
			t.Errorf("CheckWorkers(%d) = %v", n, err)
		}
	}
	if CheckWorkers(1) != nil || CheckWorkers(MaxWorkers()) != nil {
		t.Error("a valid number of workers refused")
	}
}

// TestRunCellsBoundsGoroutines: -workers 1000 on three cells starts three
// goroutines, not a thousand.
func TestRunCellsBoundsGoroutines(t *testing.T) {
	env := &Env{ID: "t", Dir: t.TempDir(), Workers: 1000, CellKey: "k"}
	before := runtime.NumGoroutine()
	var most atomic.Int64
	_, _, err := RunCells(env, []string{"a", "b", "c"}, func(i int) (int, error) {
		most.Store(max(most.Load(), int64(runtime.NumGoroutine())))
		return i, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if g := most.Load() - int64(before); g > 6 {
		t.Errorf("%d more goroutines while the cells ran, want the 3 workers and the heartbeat", g)
	}
}

// TestProgressHeartbeat: a line is printed once an interval has passed
// without one (a long cell), never within the first two seconds, and not
// after Finish.
func TestProgressHeartbeat(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, "x", 3, 0)
	t0 := p.start
	p.beat(t0.Add(time.Second), 30*time.Second)
	if buf.Len() != 0 {
		t.Fatalf("a line within two seconds: %q", buf.String())
	}
	p.beat(t0.Add(30*time.Second), 30*time.Second)
	if !strings.Contains(buf.String(), "x: 0/3 cells, 30s elapsed, ETA ?") {
		t.Fatalf("heartbeat line %q", buf.String())
	}
	n := buf.Len()
	p.beat(t0.Add(40*time.Second), 30*time.Second)
	if buf.Len() != n {
		t.Fatalf("a second line within the interval: %q", buf.String())
	}
	p.beat(t0.Add(60*time.Second), 30*time.Second)
	if buf.Len() == n {
		t.Fatal("no line after a second interval")
	}
	p.Finish()
	n = buf.Len()
	p.beat(t0.Add(200*time.Second), 30*time.Second)
	if buf.Len() != n {
		t.Fatal("a line after Finish")
	}
	stop := p.Heartbeat(time.Millisecond)
	stop()
	stop() // idempotent
}

// TestLockHolder: an empty or partial lock file names what it has, never
// "pid  on ".
func TestLockHolder(t *testing.T) {
	for _, c := range []struct {
		fields []string
		want   string
	}{
		{nil, "its lock file is empty: a run is taking the lock right now, or one was killed while taking it"},
		{[]string{"123"}, "pid 123; its lock file is cut short"},
		{[]string{"123", "node7"}, "pid 123 on node7; its lock file is cut short"},
		{[]string{"123", "node7", "2024-01-01T00:00:00Z"}, "pid 123 on node7 since 2024-01-01T00:00:00Z"},
	} {
		if got := lockHolder(c.fields); got != c.want {
			t.Errorf("lockHolder(%q) = %q, want %q", c.fields, got, c.want)
		}
	}
}

// TestDataSizes: an estimate's data factors take the rows and columns of
// the file the config names, counted at Prepare (a header and blank lines
// left out); a missing file is refused naming the key.
func TestDataSizes(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("eruptions,waiting\n\n# a comment\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "%d,%d\n", i, 2*i)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	c := Cost{Work: []Part{Ops("E steps", 10, Key("restarts", 5), DataRows("data", "big.csv", "points"), DataCols("data", "big.csv", ""))}}
	if err := resolveData(&c, dir); err != nil {
		t.Fatal(err)
	}
	if e := c.Eval(1); e.Work != 10*5*1000*2 {
		t.Errorf("work %g, want %d", e.Work, 10*5*1000*2)
	}
	if got := c.Work[0].describe(formatSize); got != "E steps: restarts 5 × 1000 points of big.csv × 2 columns of big.csv × 10" {
		t.Errorf("describe = %q", got)
	}
	c = Cost{Memory: []Part{Words("data", DataRows("data", "nope.csv", ""))}}
	err := resolveData(&c, dir)
	var ve *config.ValueError
	if !errors.As(err, &ve) || ve.Key != "data" || !strings.Contains(err.Error(), `data = "nope.csv": no such file`) {
		t.Errorf("a missing file: %v", err)
	}
}

func TestCoreTime(t *testing.T) {
	for _, c := range []struct {
		ops  float64
		want string
	}{
		{1, "under a core-second"},
		{OpsPerSecond, "about a core-second"},
		{30 * OpsPerSecond, "about 30 core-seconds"},
		{3 * 3600 * OpsPerSecond, "about 3 core-hours"},
		{math.Inf(1), "forever"},
	} {
		if got := CoreTime(c.ops); got != c.want {
			t.Errorf("CoreTime(%g) = %q, want %q", c.ops, got, c.want)
		}
	}
}
