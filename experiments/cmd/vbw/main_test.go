package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

func vbw(args ...string) (stdout, stderr string, err error) {
	var o, e bytes.Buffer
	err = run(context.Background(), args, &o, &e)
	return o.String(), e.String(), err
}

func TestList(t *testing.T) {
	out, _, err := vbw("list")
	if err != nil || !strings.Contains(out, "chapter3/synthetic ") {
		t.Fatalf("list: %q, %v", out, err)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"frobnicate"}, {"run"}, {"plot"}, {"run", "-shard", "3/2", "x.toml"}, {"run", "chapter9/nothing"}, {"run", "-configs", "/nonexistent", "chapter3/synthetic"}} {
		if _, _, err := vbw(args...); err == nil {
			t.Errorf("vbw %q: no error", args)
		}
	}
}

func TestRunQuickAndPlot(t *testing.T) {
	out := t.TempDir()
	cfg := filepath.Join("..", "..", "..", "configs", "chapter3", "synthetic.toml")
	stdout, _, err := vbw("run", "-quick", "-out", out, "-data", experiments.TestDataDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(out, "chapter3", "synthetic")
	if !strings.Contains(stdout, dir) {
		t.Fatalf("stdout %q does not name %s", stdout, dir)
	}
	for _, f := range []string{"summary.json", "fig3_2.svg", "fig3_2.png", "fig3_3.svg", "fig3_3.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	for _, target := range []string{"chapter3", "chapter3/synthetic", "all", dir} {
		if _, _, err := vbw("plot", "-out", out, target); err != nil {
			t.Errorf("plot %s: %v", target, err)
		}
	}
	if _, _, err := vbw("plot", "-out", out, "chapter9"); err == nil {
		t.Error("plot of a chapter without results succeeded")
	}
}

func TestRunBadConfigIsOneLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(p, []byte("experiment = \"chapter3/synthetic\"\nrestarts = 2\n[prior]\npi = -1.0\n"), 0o644)
	_, _, err := vbw("run", "-out", t.TempDir(), p)
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), ":4: prior.pi = -1") {
		t.Fatalf("error %q, want one line naming prior.pi at line 4", err)
	}
	os.WriteFile(p, []byte("experiment = \"chapter3/nothing\"\n"), 0o644)
	if _, _, err := vbw("run", "-out", t.TempDir(), p); err == nil || !strings.Contains(err.Error(), "unknown experiment") {
		t.Fatalf("unknown experiment: %v", err)
	}
	if _, _, err := vbw("run", "-out", t.TempDir(), filepath.Join(t.TempDir(), "missing.toml")); err == nil {
		t.Fatal("missing config file accepted")
	}
}

// TestNoSilentOverwrite: a user's variant of a shipped config never
// replaces the shipped results, in one call or one after another.
func TestNoSilentOverwrite(t *testing.T) {
	out, data := t.TempDir(), experiments.TestDataDir()
	shipped := filepath.Join("..", "..", "..", "configs", "chapter3", "synthetic.toml")
	text, err := os.ReadFile(shipped)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := vbw("run", "-quick", "-noplot", "-out", out, "-data", data, shipped); err != nil {
		t.Fatal(err)
	}
	sumPath := filepath.Join(out, "chapter3", "synthetic", "summary.json")
	before, err := os.ReadFile(sumPath)
	if err != nil {
		t.Fatal(err)
	}
	// A copy under the same file name, with other settings: refused, naming
	// the shipped config, before anything runs.
	variant := strings.Replace(string(text), "restarts   = 10", "restarts   = 1", 1)
	copyDir := t.TempDir()
	copyPath := filepath.Join(copyDir, "synthetic.toml")
	os.WriteFile(copyPath, []byte(variant), 0o644)
	_, _, err = vbw("run", "-quick", "-noplot", "-out", out, "-data", data, copyPath)
	if err == nil || !strings.Contains(err.Error(), "holds the results of another config") || !strings.Contains(err.Error(), "name = ") {
		t.Fatalf("variant with the shipped name: error %v, want a refusal", err)
	}
	if after, _ := os.ReadFile(sumPath); !bytes.Equal(before, after) {
		t.Fatal("the shipped summary changed")
	}
	// Two configs that would share a folder in one call: refused before
	// either runs.
	out2 := t.TempDir()
	_, _, err = vbw("run", "-quick", "-noplot", "-out", out2, "-data", data, shipped, copyPath)
	if err == nil || !strings.Contains(err.Error(), "would both write to") {
		t.Fatalf("two configs, one folder: error %v", err)
	}
	if _, err := os.Stat(filepath.Join(out2, "chapter3")); err == nil {
		t.Fatal("something was written before the refusal")
	}
	// Named by its file, or by its name key: its own folder.
	minePath := filepath.Join(copyDir, "mine.toml")
	os.WriteFile(minePath, []byte(variant), 0o644)
	named := filepath.Join(copyDir, "named.toml")
	os.WriteFile(named, []byte("name = \"variant-2\"\n"+variant), 0o644)
	stdout, _, err := vbw("run", "-quick", "-noplot", "-out", out, "-data", data, minePath, named)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"mine", "variant-2"} {
		if !strings.Contains(stdout, filepath.Join(out, "chapter3", d)) {
			t.Errorf("stdout %q does not name results folder %s", stdout, d)
		}
	}
	if after, _ := os.ReadFile(sumPath); !bytes.Equal(before, after) {
		t.Fatal("the shipped summary changed")
	}
	// plot finds every folder of the experiment.
	stdout, _, err = vbw("plot", "-out", out, "chapter3/synthetic")
	if err != nil || strings.Count(stdout, "plotted") != 3 {
		t.Fatalf("plot: %q, %v; want 3 folders", stdout, err)
	}
	// A bad name is refused.
	os.WriteFile(named, []byte("name = \"../up\"\n"+variant), 0o644)
	if _, _, err := vbw("run", "-quick", "-out", out, "-data", data, named); err == nil || !strings.Contains(err.Error(), "name = \"../up\"") {
		t.Fatalf("bad name: %v", err)
	}
}

// TestImpossibleSizeIsOneLine: a k the machine cannot hold is refused
// before anything is allocated, in one line that gives the estimate.
func TestImpossibleSizeIsOneLine(t *testing.T) {
	shipped := filepath.Join("..", "..", "..", "configs", "chapter3")
	for _, c := range []struct{ file, from, to string }{
		{"synthetic.toml", "\nk = 12 ", "\nk = 100000 "},
		{"model-order.toml", "k = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]", "k = [1, 2, 100000]"},
		{"alice.toml", "canonical  = { n = 2, k = 40, u0 = 2.0 }", "canonical  = { n = 2, k = 100000, u0 = 2.0 }"},
	} {
		text, err := os.ReadFile(filepath.Join(shipped, c.file))
		if err != nil {
			t.Fatal(err)
		}
		s := strings.Replace(string(text), c.from, c.to, 1)
		if c.file == "alice.toml" {
			s = strings.Replace(s, "k  = [1, 2, 4, 10, 20, 40, 60]", "k  = [1, 2, 4, 10, 20, 40, 60, 100000]", 1)
		}
		if s == string(text) {
			t.Fatalf("%s: %q not found", c.file, c.from)
		}
		p := filepath.Join(t.TempDir(), "huge.toml")
		os.WriteFile(p, []byte(s), 0o644)
		_, _, err = vbw("run", "-noplot", "-out", t.TempDir(), "-data", experiments.TestDataDir(), p)
		// The key is named with its value (a list, for model.k and grid.k).
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "needs about") || !regexp.MustCompile(`k = \[?[0-9, ]*100000`).MatchString(err.Error()) {
			t.Errorf("%s with k = 100000: error %v, want one line with the estimate", c.file, err)
		}
	}
}

// TestConfigFieldsAreTagged: every exported field of every registered
// config has a toml tag (or is an embedded struct), so that the key a user
// writes is exactly the one the loader expects: keys are case-sensitive.
func TestConfigFieldsAreTagged(t *testing.T) {
	var walk func(path string, typ reflect.Type, depth int)
	walk = func(path string, typ reflect.Type, depth int) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map || typ.Kind() == reflect.Array {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || depth > 8 {
			return
		}
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			if !f.IsExported() {
				continue
			}
			if f.Anonymous && f.Tag.Get("toml") == "" {
				walk(path, f.Type, depth+1)
				continue
			}
			tag := f.Tag.Get("toml")
			if tag == "" {
				t.Errorf("%s.%s has no toml tag", path, f.Name)
				continue
			}
			if tag != "-" {
				walk(path+"."+tag, f.Type, depth+1)
			}
		}
	}
	for _, s := range experiments.List() {
		walk(s.ID, reflect.TypeOf(s.NewConfig()), 0)
	}
}

// TestFlagsAfterConfig: flags after the config are honoured, and a bad one
// is refused before anything runs.
func TestFlagsAfterConfig(t *testing.T) {
	out := t.TempDir()
	cfg := filepath.Join("..", "..", "..", "configs", "chapter3", "synthetic.toml")
	stdout, _, err := vbw("run", cfg, "-quick", "-noplot", "-out", out, "-data", experiments.TestDataDir())
	if err != nil || !strings.Contains(stdout, filepath.Join(out, "chapter3", "synthetic")) {
		t.Fatalf("flags after the config: %q, %v", stdout, err)
	}
	sum, err := os.ReadFile(filepath.Join(out, "chapter3", "synthetic", "summary.json"))
	if err != nil || !strings.Contains(string(sum), `"quick": true`) {
		t.Fatalf("-quick after the config was not applied: %v", err)
	}
	out2 := t.TempDir()
	if _, _, err := vbw("run", cfg, "-out", out2, "-bogus"); err == nil {
		t.Fatal("unknown flag after the config accepted")
	}
	if entries, _ := os.ReadDir(out2); len(entries) > 0 {
		t.Fatal("a run started before the bad flag was refused")
	}
}

// TestMergeRefusesMissingShard: a merge before every shard has finished
// fails naming the shard to run again, and writes no results.
func TestMergeRefusesMissingShard(t *testing.T) {
	out, data := t.TempDir(), experiments.TestDataDir()
	cfg := filepath.Join("..", "..", "..", "configs", "chapter3", "alice-grid-full.toml")
	dir := filepath.Join(out, "chapter3", "alice-grid")
	if _, _, err := vbw("run", "-quick", "-out", out, "-data", data, "-shard", "1/2", cfg); err != nil {
		t.Fatal(err)
	}
	for _, shards := range []string{"-1", "x"} {
		if _, _, err := vbw("merge", "-quick", "-out", out, "-data", data, "-shards", shards, cfg); err == nil {
			t.Errorf("merge -shards %s accepted", shards)
		}
	}
	if _, _, err := vbw("run", "-shards", "2", cfg); err == nil {
		t.Error("run accepted -shards, a merge flag")
	}
	_, _, err := vbw("merge", "-quick", "-out", out, "-data", data, "-shards", "2", cfg)
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "cells are missing") ||
		!strings.Contains(err.Error(), "shard 2 of 2 (-shard 2/2)") {
		t.Fatalf("merge with shard 2/2 missing: %v", err)
	}
	for _, f := range []string{"summary.json", "cells.csv", results.ManifestFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Fatalf("a failed merge wrote %s", f)
		}
	}
	if _, _, err := vbw("run", "-quick", "-out", out, "-data", data, "-shard", "2/2", cfg); err != nil {
		t.Fatal(err)
	}
	if _, _, err := vbw("merge", "-quick", "-out", out, "-data", data, "-shards", "2", cfg); err != nil {
		t.Fatalf("merge after both shards: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
		t.Fatal(err)
	}
}

// TestFoldersTellTheTruth: a results folder's files describe one run.
func TestFoldersTellTheTruth(t *testing.T) {
	out, data := t.TempDir(), experiments.TestDataDir()
	cfg := filepath.Join("..", "..", "..", "configs", "chapter3", "synthetic.toml")
	dir := filepath.Join(out, "chapter3", "synthetic")
	if _, _, err := vbw("run", "-quick", "-out", out, "-data", data, cfg); err != nil {
		t.Fatal(err)
	}
	summary := filepath.Join(dir, "summary.json")
	before, _ := os.ReadFile(summary)

	// A full run into the quick run's folder is refused before it starts.
	_, _, err := vbw("run", "-out", out, "-data", data, cfg)
	if err == nil || !strings.Contains(err.Error(), "holds the results of a -quick run") {
		t.Fatalf("full run into a quick folder: %v", err)
	}

	// A second run while one holds the lock is refused at once, naming it;
	// a lock left by a dead process is taken over.
	state := results.OpenFolder(dir).StateDir()
	lock := filepath.Join(state, experiments.LockFile)
	host, _ := os.Hostname()
	os.WriteFile(lock, []byte(fmt.Sprintf("%d %s 2026-01-01T00:00:00Z\n", os.Getpid(), host)), 0o644)
	_, _, err = vbw("run", "-quick", "-out", out, "-data", data, cfg)
	if err == nil || !strings.Contains(err.Error(), "is being written by another vbw run (pid "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("locked folder: %v", err)
	}
	os.WriteFile(lock, []byte(fmt.Sprintf("%d %s 2026-01-01T00:00:00Z\n", deadPID(t), host)), 0o644)
	if _, _, err := vbw("run", "-quick", "-noplot", "-out", out, "-data", data, cfg); err != nil {
		t.Fatalf("stale lock not taken over: %v", err)
	}
	if _, err := os.Stat(lock); err == nil {
		t.Fatal("lock left behind")
	}

	// A failed run leaves the previous results: a data file that vanished.
	_, _, err = vbw("run", "-quick", "-out", out, "-data", t.TempDir(), cfg)
	if err == nil {
		t.Fatal("run without data succeeded")
	}
	if after, _ := os.ReadFile(summary); !bytes.Equal(before, after) {
		t.Fatal("a failed run changed summary.json")
	}
	if entries, _ := filepath.Glob(filepath.Join(state, "staging-*")); len(entries) > 0 {
		t.Fatalf("staging left behind: %v", entries)
	}

	// plot refuses a table cut at a line boundary.
	runs := filepath.Join(dir, "runs.csv")
	text, _ := os.ReadFile(runs)
	lines := strings.SplitAfter(string(text), "\n")
	os.WriteFile(runs, []byte(strings.Join(lines[:len(lines)/2], "")), 0o644)
	_, _, err = vbw("plot", dir)
	if err == nil || !strings.Contains(err.Error(), "does not match the manifest") {
		t.Fatalf("plot of a cut runs.csv: %v", err)
	}
}

// deadPID returns the pid of a process that has exited.
func deadPID(t *testing.T) int {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot start a process:", err)
	}
	return cmd.Process.Pid
}

// TestWrittenConfigReruns: the config.toml a run writes loads and reruns
// the same computation (the [quick] overlay is already applied in it).
func TestWrittenConfigReruns(t *testing.T) {
	out, data := t.TempDir(), experiments.TestDataDir()
	cfg := filepath.Join("..", "..", "..", "configs", "chapter3", "synthetic.toml")
	if _, _, err := vbw("run", "-quick", "-noplot", "-out", out, "-data", data, cfg); err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(out, "chapter3", "synthetic")
	out2 := t.TempDir()
	if _, _, err := vbw("run", "-noplot", "-out", out2, "-data", data, filepath.Join(first, "config.toml")); err != nil {
		t.Fatalf("the written config does not rerun: %v", err)
	}
	read := func(dir string) map[string]float64 {
		s, err := results.ReadSummary(filepath.Join(dir, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]float64{}
		for k, v := range s.Metrics {
			if !strings.Contains(k, "seconds") && !strings.Contains(k, "_ms_") {
				m[k] = v
			}
		}
		return m
	}
	a, b := read(first), read(filepath.Join(out2, "chapter3", "config"))
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("%d and %d metrics", len(a), len(b))
	}
	for k, v := range a {
		if b[k] != v && !(v != v && b[k] != b[k]) {
			t.Errorf("metric %s: %v, rerun %v", k, v, b[k])
		}
	}
}

// TestReportShowsEveryFigure: vbw report writes index.html and REPORT.md
// with every fig*.svg of the results, and refuses an empty folder in one
// line; vbw report -times tables the runs' times.
func TestReportShowsEveryFigure(t *testing.T) {
	out, data := t.TempDir(), experiments.TestDataDir()
	for _, name := range []string{"synthetic.toml", "model-order.toml"} {
		if _, _, err := vbw("run", "-quick", "-out", out, "-data", data, filepath.Join("..", "..", "..", "configs", "chapter3", name)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := vbw("report", "-out", out); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "REPORT.md")); err != nil {
		t.Fatal(err)
	}
	svgs, _ := filepath.Glob(filepath.Join(out, "chapter3", "*", "*.svg"))
	if len(svgs) == 0 {
		t.Fatal("no figures were drawn")
	}
	for _, s := range svgs {
		stem := strings.TrimSuffix(filepath.Base(s), ".svg")
		if !strings.Contains(string(page), `alt="`+stem+`"`) {
			t.Errorf("figure %s is not in the page", s)
		}
	}
	if n := strings.Count(string(page), "<img "); n < len(svgs) {
		t.Errorf("%d images for %d figures", n, len(svgs))
	}
	_, _, err = vbw("report", "-out", t.TempDir())
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Fatalf("report of an empty folder: %v", err)
	}
	// The run times: a row per shipped config of chapter 3, the two quick
	// runs measured, the full runs not.
	times, _, err := vbw("report", "-times", "-out", out, "-for", "chapter3")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"synthetic", "model-order"} {
		row := "| `configs/chapter3/" + name + ".toml` | chapter3/" + name + " | not measured |  |  |  |  | "
		if i := strings.Index(times, row); i < 0 || strings.HasPrefix(times[i+len(row):], "not measured") {
			t.Errorf("no row with the quick run of %s in\n%s", name, times)
		}
	}
	if !strings.Contains(times, "| `configs/chapter3/alice.toml` | chapter3/alice | not measured |") || strings.Contains(times, "chapter4") {
		t.Errorf("want a row for every config of chapter 3 and none of chapter 4:\n%s", times)
	}
}

// TestHelp: vbw alone prints the commands and an example, and -h of every
// command prints its flags; both succeed.
func TestHelp(t *testing.T) {
	out, _, err := vbw()
	if err != nil || !strings.Contains(out, "vbw run") || !strings.Contains(out, "example:") || !strings.Contains(out, "vbw run -quick chapter3/synthetic") {
		t.Errorf("vbw: %v\n%s", err, out)
	}
	for _, cmd := range []string{"run", "merge", "plot", "report"} {
		_, stderr, err := vbw(cmd, "-h")
		if err != nil || !strings.Contains(stderr, "-out") {
			t.Errorf("vbw %s -h: %v\n%s", cmd, err, stderr)
		}
	}
}

// TestRunByID: an experiment ID that vbw list prints runs its shipped
// config, found from the working directory (this package's, inside the
// module) or in -configs DIR; a folder without it is a one-line error.
func TestRunByID(t *testing.T) {
	out := t.TempDir()
	stdout, _, err := vbw("run", "-quick", "-noplot", "-out", out, "-data", experiments.TestDataDir(), "chapter3/synthetic")
	if err != nil || !strings.Contains(stdout, filepath.Join("configs", "chapter3", "synthetic.toml")) {
		t.Fatalf("run chapter3/synthetic: %v\n%s", err, stdout)
	}
	configs := filepath.Join("..", "..", "..", "configs")
	for id, want := range map[string]string{
		"chapter3/synthetic":     "synthetic.toml",
		"chapter3/alice-grid":    "alice-grid-full.toml",  // only a long variant
		"chapter6/prior-average": "prior-average-12.toml", // the base config before the long variant
		"chapter4/is-samplers":   "is-samplers.toml",      // its results folder is named otherwise
	} {
		got, err := experiments.ShippedConfig(configs, id)
		if err != nil || filepath.Base(got) != want {
			t.Errorf("ShippedConfig(%s) = %s, %v; want %s", id, got, err, want)
		}
	}
	_, _, err = vbw("run", "-configs", t.TempDir(), "chapter3/synthetic")
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "no config of it") {
		t.Errorf("an empty -configs folder: %v", err)
	}
}

// TestOnePerExperiment: of every shipped config under -quick, every
// registered experiment runs, no two configs with one resolved config, and
// never a long variant beside a config of its experiment; named variants
// with settings of their own (lattice-rotated, digits-classify-refpenalty,
// embedded-relaxed) run beside their base.
func TestOnePerExperiment(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "..", "configs", "*", "*.toml"))
	if err != nil || len(paths) == 0 {
		t.Fatal("no shipped configs", err)
	}
	jobs, err := experiments.PrepareAll(paths, experiments.RunOptions{Out: t.TempDir(), Quick: true, DataDir: experiments.TestDataDir()})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	kept := onePerExperiment(jobs, &log)
	ids, hashes := map[string]string{}, map[string]string{}
	for _, j := range kept {
		if other, dup := hashes[j.Hash()]; dup {
			t.Errorf("%s and %s both run one resolved config", other, j.Path)
		}
		hashes[j.Hash()] = j.Path
		if strings.HasSuffix(j.Path, "-full.toml") {
			for _, k := range kept {
				if k.Spec.ID == j.Spec.ID && !strings.HasSuffix(k.Path, "-full.toml") {
					t.Errorf("the long variant %s runs beside %s", j.Path, k.Path)
				}
			}
		}
		if _, ok := ids[j.Spec.ID]; !ok || !strings.HasSuffix(j.Path, "-full.toml") && strings.HasSuffix(filepath.Base(j.Path), filepath.Base(j.Spec.ID)+".toml") {
			ids[j.Spec.ID] = j.Path
		}
	}
	if len(ids) != len(experiments.List()) {
		t.Errorf("%d experiments run, %d registered", len(ids), len(experiments.List()))
	}
	if got := strings.Count(log.String(), "\n"); got != len(jobs)-len(kept) {
		t.Errorf("%d lines for %d configs left out:\n%s", got, len(jobs)-len(kept), log.String())
	}
	if !strings.Contains(log.String(), "dimensionality-full.toml: left out, its resolved config equals") {
		t.Errorf("the long dimensionality's quick config is not recognised as dimensionality's:\n%s", log.String())
	}
	for _, variant := range []string{"lattice-rotated.toml", "digits-classify-refpenalty.toml", "embedded-relaxed.toml"} {
		if !slices.ContainsFunc(kept, func(j *experiments.Job) bool { return filepath.Base(j.Path) == variant }) {
			t.Errorf("the named variant %s does not run", variant)
		}
	}
	if ids["chapter4/digits-classify"] != filepath.Join("..", "..", "..", "configs", "chapter4", "digits-classify.toml") {
		t.Errorf("digits-classify runs %s", ids["chapter4/digits-classify"])
	}
}

// TestArtefacts: with every experiment package linked, every artefact of
// every document names registered experiments only, and every document
// declares each label once (a claim of one package may name an artefact
// another package declares, as approx's claims name Turner & Sahani's
// Figures 1.2 and 1.3, declared by vembias).
func TestArtefacts(t *testing.T) {
	registered := map[string]bool{}
	for _, s := range experiments.List() {
		registered[s.ID] = true
	}
	docs := experiments.Documents()
	if len(docs) < 5 {
		t.Fatalf("%d documents declare artefacts, want the thesis and four companions", len(docs))
	}
	for _, d := range docs {
		seen := map[string]bool{}
		for _, a := range d.Artefacts {
			if seen[a.Label] {
				t.Errorf("%s: %s declared twice", d.ID, a.Label)
			}
			seen[a.Label] = true
			for _, id := range a.Experiments {
				if !registered[id] {
					t.Errorf("%s %s: experiment %q is not registered", d.ID, a.Label, id)
				}
			}
		}
	}
}

// TestUsageListsEveryFlag: the usage block names every flag that each
// command defines (what vbw COMMAND -h prints), so the two cannot drift.
func TestUsageListsEveryFlag(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(out.String(), "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == "vbw" {
			lines[f[1]] += " " + l
		}
	}
	// README's "The vbw command" block is the usage, command by command.
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, _ := strings.Cut(string(readme), "## The `vbw` command\n\n```sh\n")
	block, _, _ = strings.Cut(block, "```")
	documented := map[string]string{}
	for _, l := range strings.Split(block, "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "bin/vbw" {
			documented[f[1]] += " " + l
		}
	}
	flagRe := regexp.MustCompile(`(?m)^  -([a-z-]+)`)
	for _, cmd := range []string{"run", "merge", "plot", "report", "verify"} {
		var help bytes.Buffer
		run(context.Background(), []string{cmd, "-h"}, io.Discard, &help)
		for _, m := range flagRe.FindAllStringSubmatch(help.String(), -1) {
			for where, text := range map[string]string{"the usage": lines[cmd], "README's vbw command": documented[cmd]} {
				if !strings.Contains(text, "-"+m[1]+" ") && !strings.Contains(text, "-"+m[1]+"]") {
					t.Errorf("%s of %s lacks -%s", where, cmd, m[1])
				}
			}
		}
	}
	if _, _, err := vbw("run", "chapter4/spirl"); err == nil || !strings.Contains(err.Error(), "did you mean chapter4/spiral?") {
		t.Errorf("a mistyped experiment ID: %v", err)
	}
	if _, _, err := vbw("run", "chapter4/embedded-faithful"); err == nil || !strings.Contains(err.Error(), `experiment "chapter4/embedded-faithful" was retired: `) || !strings.Contains(err.Error(), "configs/chapter4/embedded.toml") {
		t.Errorf("a retired experiment ID: %v", err)
	}
}

// TestCPUProfile: -cpuprofile writes a profile to a new file and refuses
// one that exists, before anything runs.
func TestCPUProfile(t *testing.T) {
	out := t.TempDir()
	cfg := filepath.Join("..", "..", "..", "configs", "chapter3", "synthetic.toml")
	prof := filepath.Join(out, "cpu.prof")
	if _, _, err := vbw("run", "-quick", "-noplot", "-out", out, "-cpuprofile", prof, "-data", experiments.TestDataDir(), cfg); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Fatalf("profile %s: %v", prof, err)
	}
	_, _, err := vbw("run", "-quick", "-noplot", "-out", t.TempDir(), "-cpuprofile", prof, "-data", experiments.TestDataDir(), cfg)
	if err == nil || !strings.Contains(err.Error(), "-cpuprofile") {
		t.Errorf("an existing profile file: %v", err)
	}
}
