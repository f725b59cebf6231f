package experiments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func testEnv(t *testing.T, ctx context.Context, workers int) *Env {
	return &Env{Ctx: ctx, ID: "test/cells", Dir: t.TempDir(), Workers: workers, Hash: "h", CellKey: "h-build", Log: io.Discard}
}

func names(n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprintf("c%02d", i)
	}
	return s
}

func TestRunCellsResumesAfterInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	env := testEnv(t, ctx, 2)
	var ran atomic.Int32
	run := func(i int) (int, error) {
		if ran.Add(1) == 5 {
			cancel() // an interrupt arrives while the 5th cell runs
		}
		return i * i, nil
	}
	_, done, err := RunCells(env, names(20), run)
	if err == nil {
		t.Fatal("an interrupted sweep reported no error")
	}
	finished := 0
	for _, d := range done {
		if d {
			finished++
		}
	}
	if finished == 0 || finished == 20 {
		t.Fatalf("%d of 20 cells finished before the interrupt", finished)
	}
	// Start again: only the unfinished cells run, and every result is there.
	env.Ctx = context.Background()
	var mu sync.Mutex
	reran := map[int]bool{}
	out, done, err := RunCells(env, names(20), func(i int) (int, error) {
		mu.Lock()
		reran[i] = true
		mu.Unlock()
		return i * i, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(reran) != 20-finished {
		t.Fatalf("resumed run recomputed %d cells, want %d", len(reran), 20-finished)
	}
	for i := range out {
		if !done[i] || out[i] != i*i {
			t.Fatalf("cell %d: done=%v value=%d", i, done[i], out[i])
		}
	}
	// Another build (or config) key recomputes everything.
	env.CellKey = "h-otherbuild"
	var n atomic.Int32
	RunCells(env, names(20), func(i int) (int, error) { n.Add(1); return i, nil })
	if n.Load() != 20 {
		t.Fatalf("a new cell key recomputed %d of 20 cells", n.Load())
	}
}

func TestRunCellsShardsPartitionAndMergeOnly(t *testing.T) {
	env := testEnv(t, context.Background(), 3)
	seen := map[string]int{}
	for i := 1; i <= 3; i++ {
		env.Shard = Shard{I: i, N: 3}
		_, done, err := RunCells(env, names(30), func(j int) (string, error) { return names(30)[j], nil })
		if err != nil {
			t.Fatal(err)
		}
		for j, d := range done {
			if d {
				seen[names(30)[j]]++
			}
		}
	}
	if len(seen) != 30 {
		t.Fatalf("shards covered %d of 30 cells", len(seen))
	}
	for n, c := range seen {
		if c != 1 {
			t.Fatalf("cell %s ran in %d shards", n, c)
		}
	}
	env.Shard, env.MergeOnly = Shard{}, true
	out, _, err := RunCells(env, names(30), func(int) (string, error) {
		t.Fatal("merge computed a cell")
		return "", nil
	})
	if err != nil || out[7] != "c07" {
		t.Fatalf("merge: %v %v", out[7], err)
	}
}

func TestMergeNamesMissingCellsAndTheirShards(t *testing.T) {
	env := testEnv(t, context.Background(), 2)
	var log strings.Builder
	env.Log = &log
	all := names(30)
	// Shards 1 and 3 of 3 finish; shard 2 stops after its first two cells
	// (a cancelled array task).
	for _, i := range []int{1, 3} {
		env.Shard = Shard{I: i, N: 3}
		if _, _, err := RunCells(env, all, func(j int) (int, error) { return j, nil }); err != nil {
			t.Fatal(err)
		}
	}
	var own2 []string
	for _, n := range all {
		if (Shard{I: 2, N: 3}).Owns(n) {
			own2 = append(own2, n)
		}
	}
	if len(own2) < 3 {
		t.Fatalf("shard 2/3 owns %d cells; the test needs 3 or more", len(own2))
	}
	for _, n := range own2[:2] {
		if err := SaveCell(env.Dir, env.CellKey, n, 0, 1); err != nil {
			t.Fatal(err)
		}
	}
	missing := own2[2:]
	for _, shards := range []int{0, 3} {
		env.Shard, env.MergeOnly, env.MergeShards = Shard{}, true, shards
		out, _, err := RunCells(env, all, func(int) (int, error) {
			t.Fatal("merge computed a cell")
			return 0, nil
		})
		if err == nil || out != nil {
			t.Fatalf("merge with %d missing cells: out %v, err %v", len(missing), out, err)
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") || !strings.Contains(msg, fmt.Sprintf("%d of 30 cells are missing", len(missing))) {
			t.Fatalf("merge error %q does not count the missing cells on one line", msg)
		}
		for i, n := range missing {
			if named := strings.Contains(msg, n); named != (i < maxNamed) {
				t.Errorf("merge error %q: cell %s named %v", msg, n, named)
			}
		}
		for _, n := range own2[:2] {
			if strings.Contains(msg, n) {
				t.Errorf("merge error %q names the stored cell %s", msg, n)
			}
		}
		if want := "shard 2 of 3 (-shard 2/3)"; (shards == 3) != strings.Contains(msg, want) {
			t.Errorf("merge error with -shards %d: %q (want %q named only when the shard count is known)", shards, msg, want)
		}
	}
	// The rerun of shard 2 says what it resumes, and runs only the missing
	// cells.
	log.Reset()
	env.Shard, env.MergeOnly, env.MergeShards = Shard{I: 2, N: 3}, false, 0
	var ran []string
	var mu sync.Mutex
	if _, _, err := RunCells(env, all, func(j int) (int, error) {
		mu.Lock()
		ran = append(ran, all[j])
		mu.Unlock()
		return j, nil
	}); err != nil {
		t.Fatal(err)
	}
	sort.Strings(ran)
	if !reflect.DeepEqual(ran, missing) {
		t.Fatalf("rerun of shard 2/3 ran %v, want the missing %v", ran, missing)
	}
	want := fmt.Sprintf("test/cells: shard 2/3 has %d of 30 cells: 2 stored by an earlier run, %d to run\n", len(own2), len(missing))
	if log.String() != want {
		t.Fatalf("shard log %q, want %q", log.String(), want)
	}
	env.Shard, env.MergeOnly = Shard{}, true
	if _, _, err := RunCells(env, all, func(int) (int, error) { return 0, errors.New("merge computed a cell") }); err != nil {
		t.Fatalf("merge after the rerun: %v", err)
	}
}

func TestParseShard(t *testing.T) {
	for _, bad := range []string{"0/2", "3/2", "a/b", "1", "1/0", "-1/2"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
	if s, err := ParseShard("2/8"); err != nil || s.I != 2 || s.N != 8 || !s.Active() || s.String() != "2/8" {
		t.Fatalf("ParseShard(2/8) = %+v, %v", s, err)
	}
}

func TestRunCellsErrorStopsAndKeepsFinished(t *testing.T) {
	env := testEnv(t, context.Background(), 1)
	_, done, err := RunCells(env, names(10), func(i int) (int, error) {
		if i == 3 {
			return 0, fmt.Errorf("boom")
		}
		return i, nil
	})
	if err == nil || done[3] {
		t.Fatalf("error not reported: %v", err)
	}
	if !done[0] || !done[2] {
		t.Fatal("cells finished before the error were lost")
	}
}

// TestFloatJSON: NaN is written as null (as in every JSON file of the
// project), ±Inf as strings, and all read back.
func TestFloatJSON(t *testing.T) {
	xs := []Float{1.5, Float(math.NaN()), Float(math.Inf(1)), Float(math.Inf(-1))}
	b, err := json.Marshal(xs)
	if err != nil || string(b) != `[1.5,null,"+Inf","-Inf"]` {
		t.Fatalf("marshal: %s %v", b, err)
	}
	var back []Float
	if err := json.Unmarshal([]byte(`[1.5,null,"+Inf","-Inf","NaN"]`), &back); err != nil {
		t.Fatal(err)
	}
	if back[0] != 1.5 || !math.IsNaN(float64(back[1])) || !math.IsInf(float64(back[2]), 1) || !math.IsInf(float64(back[3]), -1) || !math.IsNaN(float64(back[4])) {
		t.Fatalf("unmarshal: %v", back)
	}
}

// TestNullCellIsRecomputed: a stored cell whose result is null (or cut
// off) is not read as a zero result.
// TestNullCellIsRecomputed: a cell without a result, cut off or empty
// (SaveCell does not sync) is not read as a result.
func TestNullCellIsRecomputed(t *testing.T) {
	dir := t.TempDir()
	type res struct{ F float64 }
	if err := SaveCell(dir, "h", "c0", 1, res{F: -5}); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := LoadCell[res](dir, "h", "c0"); !ok || err != nil || v.F != -5 {
		t.Fatalf("stored cell: %v %v %v", v, ok, err)
	}
	for _, body := range []string{`{"name":"c0","config_hash":"h","seconds":1,"result":null}`,
		`{"name":"c0","config_hash":"h","seconds":1}`, `{"name":"c0","config_hash":"h","seconds":1,"result":{"F":`,
		``} { // the last: what a crash of the machine can leave of an unsynced cell

		if err := os.WriteFile(cellFile(dir, "c0"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := LoadCell[res](dir, "h", "c0"); ok || err != nil {
			t.Errorf("%s: read as a result (ok=%v, err=%v)", body, ok, err)
		}
	}
}

// The env counts the cells it computed and those it resumed, with the
// seconds the resumed ones took when they were computed (for the
// manifest's Cells), and nothing for a run without cells.
func TestRunCellsCounts(t *testing.T) {
	first := testEnv(t, context.Background(), 2)
	if c := first.CellCounts(); c != nil {
		t.Fatalf("before any cell: %+v, want nil", c)
	}
	slow := func(i int) (int, error) { time.Sleep(10 * time.Millisecond); return i, nil }
	if _, _, err := RunCells(first, names(5), slow); err != nil {
		t.Fatal(err)
	}
	if c := first.CellCounts(); c == nil || c.Computed != 5 || c.Resumed != 0 || c.ResumedSeconds != 0 {
		t.Fatalf("first run: %+v, want 5 computed, none resumed", c)
	}
	again := testEnv(t, context.Background(), 2)
	again.Dir = first.Dir
	if _, _, err := RunCells(again, names(8), slow); err != nil {
		t.Fatal(err)
	}
	c := again.CellCounts()
	if c == nil || c.Computed != 3 || c.Resumed != 5 || !(c.ResumedSeconds >= 0.05) {
		t.Fatalf("second run: %+v, want 3 computed, 5 resumed that took at least 0.05 s", c)
	}
}

// RunAllCells: complete after a whole run; not complete, with no error,
// in a shard; an interrupted run is an error, not a partial result.
func TestRunAllCells(t *testing.T) {
	env := testEnv(t, context.Background(), 2)
	env.Shard = Shard{I: 1, N: 3}
	if _, complete, err := RunAllCells(env, names(9), nil, func(i int) (int, error) { return i, nil }); complete || err != nil {
		t.Fatalf("shard 1/3: complete %v, err %v; want false, nil", complete, err)
	}
	env.Shard = Shard{}
	out, complete, err := RunAllCells(env, names(9), nil, func(i int) (int, error) { return i * i, nil })
	if !complete || err != nil || out[3] != 9 {
		t.Fatalf("whole run: complete %v, err %v, out %v", complete, err, out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stopped := testEnv(t, ctx, 2)
	if _, complete, err := RunAllCells(stopped, names(9), nil, func(i int) (int, error) { return i, nil }); complete || err == nil {
		t.Fatalf("interrupted run: complete %v, err %v; want false and an error", complete, err)
	}
}
