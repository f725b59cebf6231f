package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// The hostile sweep: every numeric key and every list of every shipped
// config, found in its resolved quick config (so that a new document is
// covered with no edit here), set to a hostile value. Either loading,
// validation and the estimate refuse it in one line that names the key,
// or the quick run finishes (under a memory cap, within a time limit)
// without a panic, and no table of it holds a NaN or ±Inf the unmodified
// run does not hold while every check passes. testing.Short() tries one
// hostile value per key (chosen by a hash of the config and key, so that
// every value is tried on some keys); without it every value of every key.

// hostileScalars are the values tried on a number: TOML literals.
var hostileScalars = []string{"0", "-1", "nan", "inf", "1e300", "-1e300", "9223372036854775808"}

// The limits of every run of the sweep: refusals by the estimate above
// them are clean; a run that passes the estimate must finish within
// sweepTimeout under the address-space cap sweepAS. The work limit is
// sweepWorkFactor times the estimate of the unmodified quick config, at
// least sweepMinWork: a hostile value may make a run cheaper, not ten times
// dearer, without the estimate refusing it.
const (
	sweepMinWork    = 2e11
	sweepWorkFactor = 10
	sweepMaxMemory  = 2 << 30
	sweepAS         = 6 << 30
	sweepTimeout    = 150 * time.Second
)

// workLimit returns the sweep's work limit for the config at path.
func workLimit(t *testing.T, path string) float64 {
	t.Helper()
	j, err := experiments.Prepare(path, experiments.RunOptions{Out: t.TempDir(), Workers: 1, Quick: true,
		DataDir: experiments.TestDataDir(), Limits: experiments.Limits{Work: experiments.MaxWorkLimit}})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return math.Max(sweepMinWork, sweepWorkFactor*j.Estimate.Work)
}

// hostileCase is one key of one config set to one value.
type hostileCase struct {
	config string  // the shipped config's path
	work   float64 // the work limit of its runs
	key    string  // dotted key, in the resolved config
	value  string  // the TOML literal
	text   string  // the config with the key set
}

func (c hostileCase) String() string {
	return fmt.Sprintf("%s: %s = %s", filepath.Join(filepath.Base(filepath.Dir(c.config)), filepath.Base(c.config)), c.key, c.value)
}

// sweepPlaceholder marks the value to replace in the encoded text.
const sweepPlaceholder = "VBW-HOSTILE-VALUE"

// resolvedQuick returns the resolved quick config of path as a TOML map.
func resolvedQuick(t *testing.T, path string) map[string]any {
	t.Helper()
	_, cfg, err := experiments.Load(path, true)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	data, _, err := config.Encode(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if _, err := toml.Decode(string(data), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// sweepKeys returns the numeric keys and lists of m (arrays of tables:
// their first table's), with their kind: "number", "numbers" or "strings".
func sweepKeys(m map[string]any) map[string]string {
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(strings.TrimPrefix(prefix+"."+k, "."), x)
			}
		case []map[string]any:
			if len(v) > 0 {
				walk(prefix, v[0])
			}
		case int64, float64:
			out[prefix] = "number"
		case []any:
			kind := "strings"
			for _, e := range v {
				switch e.(type) {
				case int64, float64:
					kind = "numbers"
				case map[string]any:
					kind = "tables"
				}
			}
			if kind != "tables" {
				out[prefix] = kind
			}
		}
	}
	walk("", m)
	return out
}

// withKey returns a deep copy of m with key set to v (in the first table of
// an array of tables on the way).
func withKey(m map[string]any, key string, v any) map[string]any {
	out := deepCopy(m).(map[string]any)
	parts := strings.Split(key, ".")
	cur := out
	for _, p := range parts[:len(parts)-1] {
		switch x := cur[p].(type) {
		case map[string]any:
			cur = x
		case []map[string]any:
			cur = x[0]
		}
	}
	cur[parts[len(parts)-1]] = v
	return out
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = deepCopy(x)
		}
		return m
	case []map[string]any:
		s := make([]map[string]any, len(v))
		for i, x := range v {
			s[i] = deepCopy(x).(map[string]any)
		}
		return s
	case []any:
		s := make([]any, len(v))
		for i, x := range v {
			s[i] = deepCopy(x)
		}
		return s
	}
	return v
}

// getKey returns the value of key in m.
func getKey(m map[string]any, key string) any {
	var cur any = m
	for _, p := range strings.Split(key, ".") {
		switch x := cur.(type) {
		case map[string]any:
			cur = x[p]
		case []map[string]any:
			cur = x[0][p]
		default:
			return nil
		}
	}
	return cur
}

// encodeWith encodes m with the placeholder replaced by the literal.
func encodeWith(t *testing.T, m map[string]any, literal string) string {
	t.Helper()
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(m); err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(b.String(), strconv.Quote(sweepPlaceholder), literal)
}

// hostileCases returns the cases of one config: for a number, each
// hostile scalar; for a list, the empty list, its first element alone, the
// reversed list, and (a list of numbers) each hostile scalar in place of
// its first element.
func hostileCases(t *testing.T, path string, keys []string) []hostileCase {
	t.Helper()
	m := resolvedQuick(t, path)
	kinds := sweepKeys(m)
	if keys == nil {
		for k := range kinds {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []hostileCase
	for _, k := range keys {
		kind, ok := kinds[k]
		if !ok {
			continue
		}
		add := func(value string, text string) {
			out = append(out, hostileCase{config: path, key: k, value: value, text: text})
		}
		switch kind {
		case "number":
			for _, h := range hostileScalars {
				add(h, encodeWith(t, withKey(m, k, sweepPlaceholder), h))
			}
		default:
			list := getKey(m, k).([]any)
			add("[]", encodeWith(t, withKey(m, k, []any{}), ""))
			if len(list) > 1 {
				add("[first]", encodeWith(t, withKey(m, k, list[:1]), ""))
				rev := slices.Clone(list)
				slices.Reverse(rev)
				add("reversed", encodeWith(t, withKey(m, k, rev), ""))
			}
			if kind == "numbers" && len(list) > 0 {
				for _, h := range hostileScalars {
					l := slices.Clone(list)
					l[0] = sweepPlaceholder
					add("["+h+", …]", encodeWith(t, withKey(m, k, l), h))
				}
			}
		}
	}
	return out
}

// pick keeps one case per key: the one a hash of the config and key picks.
func pick(cases []hostileCase) []hostileCase {
	byKey := map[string][]hostileCase{}
	var order []string
	for _, c := range cases {
		id := c.config + " " + c.key
		if _, ok := byKey[id]; !ok {
			order = append(order, id)
		}
		byKey[id] = append(byKey[id], c)
	}
	var out []hostileCase
	for _, id := range order {
		cs := byKey[id]
		h := fnv.New32a()
		h.Write([]byte(id))
		out = append(out, cs[int(h.Sum32()%uint32(len(cs)))])
	}
	return out
}

// ownKeys returns the keys a variant sets itself (without [quick]), as
// they appear in the resolved config; nil for a config without a base.
func ownKeys(t *testing.T, path string) []string {
	t.Helper()
	var own map[string]any
	if _, err := toml.DecodeFile(path, &own); err != nil {
		t.Fatal(err)
	}
	if _, ok := own[config.BaseKey]; !ok {
		return nil
	}
	var keys []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if sub, ok := v.(map[string]any); ok {
			for k, x := range sub {
				walk(strings.TrimPrefix(prefix+"."+k, "."), x)
			}
			return
		}
		keys = append(keys, prefix)
	}
	for k, v := range own {
		if k != config.BaseKey && k != "quick" {
			walk(k, v)
		}
	}
	return append(keys, "") // non-nil: only these
}

var (
	sweepBinOnce sync.Once
	sweepBin     string
	sweepBinErr  error
)

// sweepBinary builds vbw once for the sweep.
func sweepBinary(t *testing.T) string {
	t.Helper()
	sweepBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "vbw-sweep-bin")
		if err != nil {
			sweepBinErr = err
			return
		}
		sweepBin = filepath.Join(dir, "vbw")
		if out, err := exec.Command("go", "build", "-o", sweepBin, ".").CombinedOutput(); err != nil {
			sweepBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if sweepBinErr != nil {
		t.Fatal(sweepBinErr)
	}
	return sweepBin
}

// runOutcome is what one run of a config did.
type runOutcome struct {
	ok      bool
	stderr  string
	summary *results.Summary
	nonfin  map[string]int // table/column → non-finite cells
}

// runQuick runs the config text as a full run (the text is a resolved
// quick config) in a new folder, under the sweep's limits.
func runQuick(t *testing.T, name, text string, work float64) runOutcome {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, name+".toml")
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	ctx, cancel := context.WithTimeout(context.Background(), sweepTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "prlimit", "--as="+strconv.Itoa(sweepAS), "--", sweepBinary(t), "run",
		"-workers", "1", "-out", out, "-data", experiments.TestDataDir(),
		"-max-work", strconv.FormatFloat(work, 'g', 3, 64), "-max-memory", strconv.Itoa(sweepMaxMemory), cfg)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	o := runOutcome{ok: err == nil, stderr: stderr.String()}
	if ctx.Err() != nil {
		o.stderr = fmt.Sprintf("ran over %s (the estimate passed it)", sweepTimeout) + "\n" + o.stderr
		return o
	}
	if !o.ok {
		return o
	}
	var folders []string
	all, _ := filepath.Glob(filepath.Join(out, "*", "*"))
	for _, f := range all {
		if !strings.HasPrefix(filepath.Base(f), ".") {
			folders = append(folders, f)
		}
	}
	if len(folders) != 1 {
		o.ok, o.stderr = false, "no results folder"
		return o
	}
	if s, err := results.ReadSummary(filepath.Join(folders[0], "summary.json")); err == nil {
		o.summary = &s
	}
	o.nonfin = nonFinite(folders[0])
	return o
}

// nonFinite counts the NaN and ±Inf cells of every CSV table of dir by
// table and column.
func nonFinite(dir string) map[string]int {
	out := map[string]int{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil || len(recs) == 0 {
			continue
		}
		for _, r := range recs[1:] {
			for j, cell := range r {
				if v, err := strconv.ParseFloat(cell, 64); err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) && j < len(recs[0]) {
					out[filepath.Base(f)+"/"+recs[0][j]]++
				}
			}
		}
	}
	return out
}

// allPass reports whether every judged check of s passed.
func allPass(s *results.Summary) bool {
	if s == nil {
		return false
	}
	for _, c := range s.Checks {
		if !c.Pass && !c.NotApplicable {
			return false
		}
	}
	return true
}

// clean reports whether stderr is a clean refusal: one line (after the
// progress lines a run prints), no Go stack trace.
func cleanError(stderr string) (string, bool) {
	if strings.Contains(stderr, "panic:") || strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "runtime error") {
		return stderr, false
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	return last, strings.HasPrefix(last, "vbw: ")
}

// namesKey reports whether msg names key: its dotted form or its last
// component.
func namesKey(msg, key string) bool {
	last := key[strings.LastIndex(key, ".")+1:]
	return strings.Contains(msg, key) || strings.Contains(msg, last)
}

func TestHostileSweep(t *testing.T) {
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("prlimit (util-linux) is not installed")
	}
	// VBW_SWEEP_CONFIGS narrows the sweep to the shipped configs whose
	// path below configs/ matches it (a glob, e.g. "chapter4/*").
	pattern := "*/*.toml"
	if p := os.Getenv("VBW_SWEEP_CONFIGS"); p != "" {
		pattern = p
		if !strings.HasSuffix(pattern, ".toml") {
			pattern += ".toml"
		}
	}
	paths, err := filepath.Glob(filepath.Join("..", "..", "..", "configs", pattern))
	if err != nil || len(paths) == 0 {
		t.Fatalf("configs %s: %v", pattern, err)
	}
	var cases []hostileCase
	for _, p := range paths {
		var keys []string
		if testing.Short() {
			keys = ownKeys(t, p)
		}
		cs := hostileCases(t, p, keys)
		w := workLimit(t, p)
		for i := range cs {
			cs[i].work = w
		}
		if testing.Short() {
			cs = pick(cs)
		}
		cases = append(cases, cs...)
	}
	t.Logf("%d cases", len(cases))

	// Baselines: the unmodified quick runs, for their non-finite cells.
	var bmu sync.Mutex
	baselines := map[string]runOutcome{}
	baseline := func(path string, work float64) runOutcome {
		bmu.Lock()
		defer bmu.Unlock()
		if o, ok := baselines[path]; ok {
			return o
		}
		o := runQuick(t, "base", encodeWith(t, resolvedQuick(t, path), ""), work)
		baselines[path] = o
		return o
	}

	var mu sync.Mutex
	var failures []string
	counts := map[string]int{}
	// VBW_SWEEP_LOG names a file that gets every case's outcome, a line
	// each (for a report of the sweep).
	var logf *os.File
	if p := os.Getenv("VBW_SWEEP_LOG"); p != "" {
		if logf, err = os.Create(p); err != nil {
			t.Fatal(err)
		}
		defer logf.Close()
	}
	record := func(c hostileCase, outcome string) {
		if logf != nil {
			mu.Lock()
			fmt.Fprintf(logf, "%s\t%s\n", c, strings.ReplaceAll(outcome, "\n", " | "))
			mu.Unlock()
		}
	}
	fail := func(c hostileCase, why string) {
		mu.Lock()
		failures = append(failures, c.String()+": "+why)
		mu.Unlock()
		record(c, "FAIL: "+why)
	}
	count := func(c hostileCase, what, detail string) {
		mu.Lock()
		counts[what]++
		mu.Unlock()
		record(c, what+": "+detail)
	}
	work := make(chan hostileCase)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				start := time.Now()
				sweepOne(t, c, baseline, fail, count)
				if d := time.Since(start); d > 20*time.Second {
					record(c, fmt.Sprintf("slow: %.0f s", d.Seconds()))
				}
			}
		}()
	}
	for _, c := range cases {
		work <- c
	}
	close(work)
	wg.Wait()
	t.Logf("outcomes: %v", counts)
	sort.Strings(failures)
	for _, f := range failures {
		t.Error(f)
	}
}

// sweepOne judges one case.
func sweepOne(t *testing.T, c hostileCase, baseline func(string, float64) runOutcome, fail func(hostileCase, string), count func(hostileCase, string, string)) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.toml")
	if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
		t.Fatal(err)
	}
	var perr error
	func() {
		defer func() {
			if r := recover(); r != nil {
				perr = fmt.Errorf("panic: %v", r)
			}
		}()
		_, perr = experiments.Prepare(p, experiments.RunOptions{Out: filepath.Join(dir, "out"), Workers: 1,
			DataDir: experiments.TestDataDir(), Limits: experiments.Limits{Memory: sweepMaxMemory, Work: c.work}})
	}()
	if perr != nil {
		msg := perr.Error()
		switch {
		case strings.HasPrefix(msg, "panic: "):
			fail(c, "Prepare "+msg)
		case strings.Contains(msg, "\n"):
			fail(c, "refused in more than one line: "+msg)
		case !namesKey(msg, c.key):
			fail(c, "refused without naming the key: "+msg)
		default:
			count(c, "refused", msg)
		}
		return
	}
	o := runQuick(t, "x", c.text, c.work)
	if !o.ok {
		last, clean := cleanError(o.stderr)
		switch {
		case !clean:
			fail(c, "the run failed without a clean one-line error: "+firstLines(o.stderr, 6))
		case namesKey(last, c.key):
			// A refusal inside the run, once the data are read, that
			// names the key: clean.
			count(c, "refused in the run", last)
		default:
			fail(c, "the run failed with an error that does not name the key: "+last)
		}
		return
	}
	count(c, "ran", "")
	if !allPass(o.summary) {
		return
	}
	b := baseline(c.config, c.work)
	for col, n := range o.nonfin {
		if n > b.nonfin[col] {
			fail(c, fmt.Sprintf("every check passes, but %s has %d non-finite cells (the unmodified run %d)", col, n, b.nonfin[col]))
		}
	}
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}
