package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// setKey returns text with key set to value in the table [table] ("" for
// the top level) and, where it sets the key too, in its [quick] overlay
// ([quick] or [quick.<table>]); the key must occur in [table].
func setKey(t *testing.T, text, table, key, value string) string {
	t.Helper()
	quick := "quick"
	if table != "" {
		quick += "." + table
	}
	line := regexp.MustCompile(`^(\s*` + regexp.QuoteMeta(key) + `\s*=\s*)[^#]*?(\s*(#.*)?)$`)
	lines := strings.Split(text, "\n")
	section, found := "", false
	for i, l := range lines {
		if h := strings.TrimSpace(l); strings.HasPrefix(h, "[") {
			section = strings.Trim(strings.Fields(strings.SplitN(h, "#", 2)[0])[0], "[]")
			continue
		}
		if (section == table || section == quick) && line.MatchString(l) {
			lines[i] = line.ReplaceAllString(l, "${1}"+value+"${2}")
			found = found || section == table
		}
	}
	if !found {
		t.Fatalf("key %q not in [%s]", key, table)
	}
	return strings.Join(lines, "\n")
}

// refused runs vbw and checks a refusal: a non-zero exit status, at most
// three lines on stderr, no Go stack trace, and every string of want in
// it. It returns stderr, the peak resident memory of the process (bytes)
// and the CPU time it used.
func refused(t *testing.T, cmd *exec.Cmd, want ...string) (string, int64, time.Duration) {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A case that is not refused would run for hours: stop it.
	timer := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	if !timer.Stop() {
		t.Fatalf("still running after a minute, killed: not refused (stderr %q)", stderr.String())
	}
	text := strings.TrimRight(stderr.String(), "\n")
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() == 0 {
		t.Fatalf("exit: %v (stderr %q), want a non-zero status", err, text)
	}
	if n := strings.Count(text, "\n") + 1; n > 3 {
		t.Errorf("%d lines on stderr:\n%s", n, text)
	}
	if strings.Contains(text, "goroutine ") || strings.Contains(text, "panic:") || strings.Contains(text, "fatal error") {
		t.Errorf("stack trace on stderr:\n%s", text)
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("stderr %q, want %q", text, w)
		}
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return text, ru.Maxrss * 1024, cpu
}

// Bounds of a refusal: the peak resident memory of the whole vbw process
// (a Go program that reads a config resides in about 15 MiB) and its CPU
// time (user + system, not wall time, so that a loaded machine does not
// fail the test).
const (
	refusalRSS = 64 << 20
	refusalCPU = time.Second
)

// TestHostileSizes runs every case of issue 21's items 1 (sizes and
// counts of chapters 4-6), 2 (-workers) and 5 (messages) through the vbw
// binary with -quick: each is refused with one line naming the key (and
// for a size the estimate and the limit), a non-zero status, no stack
// trace, and within refusalRSS of peak memory and refusalCPU of CPU time,
// both read from the process's rusage (getrusage(RUSAGE_CHILDREN)-style
// ProcessState.SysUsage: ru_maxrss, ru_utime + ru_stime). The memory limit
// is fixed (-max-memory 4GiB) so that the refusals do not depend on the
// machine.
func TestHostileSizes(t *testing.T) {
	bin := buildVBW(t)
	data := experiments.TestDataDir()
	root := filepath.Join("..", "..", "..", "configs")
	const tera = "1000000000000"
	type edit struct{ table, key, value string }
	cases := []struct {
		name   string
		config string // a shipped config, chapterN/x.toml
		edits  []edit
		args   []string
		lock   *string // content of a lock file left in the results folder
		want   []string
	}{
		{"genes k_grid", "chapter5/genes.toml", []edit{{"model", "k_grid", "[10000]"}}, nil, nil,
			[]string{"model.k_grid = [10000]: this run needs about", "of memory", "more than the limit of 4.0 GiB (-max-memory)"}},
		{"dimensionality t_max", "chapter5/dimensionality.toml", []edit{{"data", "t_max", "1000000000"}}, nil, nil,
			[]string{"data.t_max = 1000000000: must be from 2 to 1e7"}},
		{"dimensionality p", "chapter5/dimensionality.toml", []edit{{"data", "p", "1000000"}}, nil, nil, []string{"data.p = 1000000: must be from 1 to 100000"}},
		{"inputs model.k", "chapter5/inputs.toml", []edit{{"model", "k", "10000"}}, nil, nil, []string{"model.k = 10000: this run needs about"}},
		{"inputs seeds", "chapter5/inputs.toml", []edit{{"", "seeds", "1000000"}}, nil, nil, []string{"seeds = 1000000: this run needs about"}},
		{"single-instance ais.steps", "chapter6/single-instance.toml", []edit{{"ais", "steps", tera}}, nil, nil, []string{"ais.steps = " + tera + ": must be from 2 to 1e9"}},
		{"schedules hysteresis.n", "chapter6/schedules.toml", []edit{{"hysteresis", "n", tera}}, nil, nil, []string{"hysteresis.n = " + tera + ": must be from 1 to 1e7"}},
		{"schedules steps_grid", "chapter6/schedules.toml", []edit{{"hysteresis", "steps_grid", "[1000000000]"}}, nil, nil,
			[]string{"hysteresis.steps_grid = [1000000000]: this run needs about"}},
		{"ais-granularity n", "chapter6/ais-granularity.toml", []edit{{"", "n", "1000000000"}}, nil, nil, []string{"n = 1000000000: must be from 1 to 1e7"}},
		{"prior-average instances", "chapter6/prior-average-12.toml", []edit{{"", "instances", "1000000"}}, nil, nil,
			[]string{"instances = 1000000: this run needs about"}},
		// Counts at the top of their declared ranges, refused by the estimate.
		{"lattice restarts", "chapter4/lattice.toml", []edit{{"", "restarts", "1000000"}}, nil, nil, []string{"restarts = 1000000: this run needs about"}},
		{"embedded restarts", "chapter4/embedded.toml", []edit{{"", "restarts", "1000000"}}, nil, nil, []string{"restarts = 1000000: this run needs about"}},
		{"digits-classify repetitions", "chapter4/digits-classify.toml", []edit{{"", "repetitions", "1000000"}}, nil, nil,
			[]string{"repetitions = 1000000: this run needs about"}},
		{"is-hazard mc_samples", "chapter4/is-hazard.toml", []edit{{"", "mc_samples", tera}}, nil, nil,
			[]string{"mc_samples = " + tera + ": this run needs about", "operations", "more than the limit of 5e+14", "-max-work"}},
		// 9e18 restarts (a product beyond int64 with everything else): the
		// declared range refuses it before the estimate multiplies it.
		{"embedded restarts overflow", "chapter4/embedded.toml", []edit{{"", "restarts", "9000000000000000000"}}, nil, nil,
			[]string{"restarts = 9000000000000000000: must be from 1 to 1e6"}},
		// The estimate names the key that drives it: the proposal's fits, not k_max.
		{"fig10_7 is.max_fits", "vbgmm/fig10_7.toml", []edit{{"is", "max_fits", "10000"}}, []string{"-max-work", "1e9"}, nil,
			[]string{"is.max_fits = 10000: this run needs about", "lower is.max_fits"}},
		{"workers zero", "chapter4/is-hazard.toml", nil, []string{"-workers", "0"}, nil, []string{"-workers 0: want at least 1"}},
		{"workers negative", "chapter4/is-hazard.toml", nil, []string{"-workers", "-5"}, nil, []string{"-workers -5: want at least 1"}},
		{"workers absurd", "chapter4/is-hazard.toml", nil, []string{"-workers", "100000000"}, nil, []string{"-workers 100000000: at most"}},
		{"max-memory unreadable", "chapter4/is-hazard.toml", nil, []string{"-max-memory", "lots"}, nil, []string{"-max-memory lots:"}},
		{"max-work beyond the cap", "chapter4/is-hazard.toml", nil, []string{"-max-work", "1e30"}, nil, []string{"-max-work 1e30:"}},
		{"empty lock file", "chapter4/is-hazard.toml", nil, nil, ptr(""),
			[]string{"is being written by another vbw run (its lock file is empty: a run is taking the lock right now, or one was killed while taking it)"}},
		{"partial lock file", "chapter4/is-hazard.toml", nil, nil, ptr("999999999\n"), []string{"(pid 999999999; its lock file is cut short)"}},
		{"inputs max_iterations", "chapter5/inputs.toml", []edit{{"vb", "max_iterations", "-1"}}, nil, nil, []string{"vb.max_iterations = -1: must be from 2 to 1e8"}},
		{"genes unknown train_set", "chapter5/genes.toml", []edit{{"data", "train_set", `"tcell99"`}}, nil, nil,
			[]string{`no series of the set "tcell99" (data.train_set; the file's sets are tcell10, tcell34)`}},
	}
	var maxRSS int64
	var maxCPU time.Duration
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.config)))
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			for _, e := range c.edits {
				text = setKey(t, text, e.table, e.key, e.value)
			}
			dir, out := t.TempDir(), t.TempDir()
			path := filepath.Join(dir, filepath.Base(c.config))
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if c.lock != nil {
				j, err := experiments.Prepare(path, experiments.RunOptions{Out: out, Quick: true, DataDir: data})
				if err != nil {
					t.Fatal(err)
				}
				// The lock lives in the folder's state directory; a run
				// writes it whole (by rename), so an empty or cut-short
				// lock can only be planted, as here.
				state := results.OpenFolder(j.Dir).StateDir()
				if err := os.MkdirAll(state, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(state, experiments.LockFile), []byte(*c.lock), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := append([]string{"run", "-quick", "-noplot", "-out", out, "-data", data, "-max-memory", "4GiB"}, c.args...)
			text, rss, cpu := refused(t, exec.Command(bin, append(args, path)...), c.want...)
			t.Log(text)
			if strings.Contains(text, "pid  on") {
				t.Errorf("empty fields in %q", text)
			}
			if rss > refusalRSS || cpu > refusalCPU {
				t.Errorf("the refusal took %d MiB of memory at its peak and %v of CPU, want at most %d MiB and %v", rss>>20, cpu, refusalRSS>>20, refusalCPU)
			}
			maxRSS, maxCPU = max(maxRSS, rss), max(maxCPU, cpu)
		})
	}
	t.Logf("largest peak resident memory of a refusal %.1f MiB, largest CPU time %v", float64(maxRSS)/(1<<20), maxCPU)
}

func ptr(s string) *string { return &s }

// TestInterruptMessage: a run stopped by Ctrl-C (SIGINT) exits with
// status 130 and one line that says how many finished cells it kept,
// where, that no results were written, which configs did not start, and
// how to resume, instead of "context canceled".
func TestInterruptMessage(t *testing.T) {
	bin := buildVBW(t)
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "configs", "chapter4", "is-hazard.toml"))
	if err != nil {
		t.Fatal(err)
	}
	// Cells of a few seconds each, one at a time: long enough to stop the
	// run after the first.
	text := setKey(t, string(b), "", "mc_samples", "10000000")
	dir, out := t.TempDir(), t.TempDir()
	path, other := filepath.Join(dir, "is-hazard.toml"), filepath.Join(dir, "other.toml")
	for p, text := range map[string]string{path: text, other: setKey(t, text, "", "name", `"other"`)} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	j, err := experiments.Prepare(path, experiments.RunOptions{Out: out, Quick: true})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "-quick", "-noplot", "-workers", "1", "-out", out, path, other)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	cells := j.CellsDir()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if m, _ := filepath.Glob(filepath.Join(cells, "*.json")); len(m) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no cell finished; stderr %q", stderr.String())
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit %v, want status 130; stderr %q", err, stderr.String())
	}
	lines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
	last := lines[len(lines)-1]
	kept := regexp.MustCompile(`: ([1-9][0-9]*) finished cells are kept in ` + regexp.QuoteMeta(cells) + ` \(no results were written\)`)
	for _, want := range []string{"vbw: interrupted after ", "in " + path, "; not started: " + other, "; run the same command again to resume (kept cells are not recomputed)"} {
		if !strings.Contains(last, want) {
			t.Errorf("last line %q, want %q", last, want)
		}
	}
	m := kept.FindStringSubmatch(last)
	if m == nil || strings.Contains(last, "context canceled") {
		t.Fatalf("last line %q, want the number of kept cells and where", last)
	}
	// The same command resumes: both configs commit, the interrupted one
	// with its kept cells resumed rather than computed.
	if o, err := exec.Command(bin, "run", "-quick", "-noplot", "-workers", "2", "-out", out, path, other).CombinedOutput(); err != nil {
		t.Fatalf("resumed run: %v\n%s", err, o)
	}
	man, err := results.ReadManifest(filepath.Join(j.Dir, results.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if man.Cells == nil || strconv.Itoa(man.Cells.Resumed) != m[1] {
		t.Errorf("resumed run's cells %+v, want the %s kept cells resumed", man.Cells, m[1])
	}
	if _, err := results.ReadManifest(filepath.Join(out, "chapter4", "other", results.ManifestFile)); err != nil {
		t.Errorf("the config not started before: %v", err)
	}
}

// TestShippedConfigsWithinLimits: the estimate of every shipped config,
// on 2 workers, is within the default limits with room to spare: a full
// run at most half of DefaultMaxWork and 1 GiB, a -quick run at most 1e12
// operations (17 core-minutes, as upper bounds) and 128 MiB, so that the
// shipped configs, and variants twice their size, run on a modest machine
// without a flag.
func TestShippedConfigsWithinLimits(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "configs", "*", "*.toml"))
	if err != nil || len(files) < 30 {
		t.Fatalf("configs: %d, %v", len(files), err)
	}
	for _, f := range files {
		for _, quick := range []bool{false, true} {
			_, cfg, err := experiments.Load(f, quick)
			if err != nil {
				t.Fatal(err)
			}
			e := cfg.Estimate().Eval(2)
			maxWork, maxBytes := experiments.DefaultMaxWork/2, float64(1<<30)
			if quick {
				maxWork, maxBytes = 1e12, 128<<20
			}
			name := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
			t.Logf("%-42s quick=%-5v %5.0f cells %10s %8.2g operations (%s)", name, quick, e.Cells, experiments.FormatBytes(e.Bytes), e.Work, experiments.CoreTime(e.Work))
			if !(e.Work <= maxWork && e.Bytes <= maxBytes) {
				t.Errorf("%s (quick=%v): estimate %s and %.2g operations, want at most %s and %.2g (largest parts: %s; %s)",
					name, quick, experiments.FormatBytes(e.Bytes), e.Work, experiments.FormatBytes(maxBytes), maxWork, e.MemPart.What, e.WorkPart.What)
			}
		}
	}
}

// TestDataSizeRefusal: a valid Old Faithful file of 3 million rows in
// place of the published 272 is refused by -max-work 1e12 before it is
// read, naming the data key, within the refusals' memory and time.
func TestDataSizeRefusal(t *testing.T) {
	bin := buildVBW(t)
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "big-faithful.csv"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "eruptions,waiting")
	for i := range 3000000 {
		fmt.Fprintf(w, "%d.%d,%d\n", 1+i%5, i%10, 40+i%50)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "configs", "vbgmm", "fig10_7.toml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "fig10_7.toml")
	text := strings.Replace(string(b), `data = "faithful.csv"`, `data = "big-faithful.csv"`, 1)
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	msg, rss, cpu := refused(t, exec.Command(bin, "run", "-out", t.TempDir(), "-data", dir, "-max-work", "1e12", "-max-memory", "1TiB", cfg),
		`data = "big-faithful.csv": this run needs about`, "3000000 points of big-faithful.csv", "more than the limit of 1e+12", "use a smaller file for data")
	t.Log(msg)
	if rss > refusalRSS || cpu > refusalCPU {
		t.Errorf("the refusal took %d MiB of memory at its peak and %v of CPU, want at most %d MiB and %v", rss>>20, cpu, refusalRSS>>20, refusalCPU)
	}
}

// TestDataSizeRefusalText: a 400 GiB text (a sparse file, nothing written)
// named by chapter 3's alice config is refused by the memory estimate
// from the file's size alone, before the text is read.
func TestDataSizeRefusalText(t *testing.T) {
	bin := buildVBW(t)
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "huge.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(400 << 30); err != nil {
		f.Close()
		t.Skip("no sparse files here:", err)
	}
	f.Close()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "configs", "chapter3", "alice.toml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "alice.toml")
	text := strings.Replace(string(b), `file               = "alice29.txt"`, `file               = "huge.txt"`, 1)
	if text == string(b) {
		t.Fatal("alice.toml names no alice29.txt")
	}
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	msg, rss, cpu := refused(t, exec.Command(bin, "run", "-out", t.TempDir(), "-data", dir, "-max-memory", "64GiB", cfg),
		`data.file = "huge.txt": this run needs about`, "of memory", "characters of the text (a bound of its symbols) of huge.txt", "more than the limit of 64.0 GiB")
	t.Log(msg)
	if rss > refusalRSS || cpu > refusalCPU {
		t.Errorf("the refusal took %d MiB of memory at its peak and %v of CPU, want at most %d MiB and %v", rss>>20, cpu, refusalRSS>>20, refusalCPU)
	}
}
