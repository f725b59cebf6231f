package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/report"
	"github.com/vbworkbench/vbw/results"
)

// asKilled renames what this process owns under root (staging folders and
// temporary files are named <host>-<pid>) and rewrites its locks as if a
// process that has exited made them: a copy of the output folder taken at
// some instant of a run is then what a kill at that instant leaves.
func asKilled(t *testing.T, root string, dead int) {
	t.Helper()
	mine := "-" + strconv.Itoa(os.Getpid()) + "-"
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), mine) {
			paths = append(paths, p)
		}
		if b, rerr := os.ReadFile(p); err == nil && d.Name() == experiments.LockFile && rerr == nil {
			os.WriteFile(p, []byte(strings.Replace(string(b), strconv.Itoa(os.Getpid())+" ", strconv.Itoa(dead)+" ", 1)), 0o644)
		}
		return nil
	})
	slices.Reverse(paths) // children first
	for _, p := range paths {
		if err := os.Rename(p, filepath.Join(filepath.Dir(p), strings.Replace(filepath.Base(p), mine, "-"+strconv.Itoa(dead)+"-", 1))); err != nil {
			t.Fatal(err)
		}
	}
}

// TestKillAtEveryStepOfTheCommit: a run of a folder that holds results is
// stopped before every file-system step of its commit (the output folder
// is copied there, which is what a kill at that instant leaves, once the
// run's own files are renamed as a dead process's). Every copy holds the
// old results or the new ones, whole: vbw report marks it verified, vbw
// plot redraws it, and the next vbw run removes what the killed run left
// and commits.
func TestKillAtEveryStepOfTheCommit(t *testing.T) {
	out, data := t.TempDir(), experiments.TestDataDir()
	cfg := filepath.Join("..", "..", "..", "configs", "chapter3", "synthetic.toml")
	manifest := func(root string) []byte {
		b, _ := os.ReadFile(filepath.Join(root, "chapter3", "synthetic", results.ManifestFile))
		return b
	}
	if _, _, err := vbw("run", "-quick", "-out", out, "-data", data, cfg); err != nil {
		t.Fatal(err)
	}
	old := manifest(out)
	var steps, snaps []string
	results.CommitHook = func(step string) {
		snap := filepath.Join(t.TempDir(), "out")
		if b, err := exec.Command("cp", "-a", out, snap).CombinedOutput(); err != nil {
			t.Fatalf("cp -a: %v %s", err, b)
		}
		steps, snaps = append(steps, step), append(snaps, snap)
	}
	_, _, err := vbw("run", "-quick", "-out", out, "-data", data, cfg)
	results.CommitHook = nil
	if err != nil {
		t.Fatal(err)
	}
	nu := manifest(out)
	if bytes.Equal(old, nu) || !slices.Contains(steps, "switch link") {
		t.Fatalf("the second run did not commit new results (steps %q)", steps)
	}
	t.Logf("%d steps: %q", len(steps), steps)
	dead := deadPID(t)
	seen := map[string]bool{}
	for i, snap := range snaps {
		asKilled(t, snap, dead)
		m := manifest(snap)
		switch {
		case bytes.Equal(m, old):
			seen["old"] = true
		case bytes.Equal(m, nu):
			seen["new"] = true
		default:
			t.Fatalf("killed before %q: the manifest is neither the old nor the new one", steps[i])
		}
		r, err := report.Build(snap)
		if err != nil {
			t.Fatalf("killed before %q: vbw report: %v", steps[i], err)
		}
		if len(r.Experiments) != 1 || r.Experiments[0].State != report.Verified || !r.Experiments[0].Trusted {
			t.Fatalf("killed before %q: the report does not verify the folder: %+v", steps[i], r.Experiments)
		}
		sdir := filepath.Join(snap, "chapter3", "synthetic")
		if _, _, err := vbw("plot", sdir); err != nil {
			t.Fatalf("killed before %q: vbw plot: %v", steps[i], err)
		}
		if _, _, err := vbw("run", "-quick", "-noplot", "-out", snap, "-data", data, cfg); err != nil {
			t.Fatalf("killed before %q: the next run: %v", steps[i], err)
		}
		state := results.OpenFolder(sdir).StateDir()
		entries, _ := os.ReadDir(state)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		target, _ := os.Readlink(sdir)
		if len(names) != 3 || names[0] != "cells" || names[1] != "config-path" || target != filepath.Join(filepath.Base(state), names[2]) {
			t.Errorf("killed before %q: after the next run the state holds %q (link %s), want cells, config-path and the current generation", steps[i], names, target)
		}
		if tmps, _ := filepath.Glob(filepath.Join(state, "cells", ".*")); len(tmps) > 0 {
			t.Errorf("killed before %q: temporary cell files left: %q", steps[i], tmps)
		}
	}
	if !seen["old"] || !seen["new"] {
		t.Errorf("the copies hold %v; want both the old and the new results", seen)
	}
}

// TestReportCommandForAQuickOnlyFolderRuns: for an experiment whose only
// run is a quick one in the folder a full run writes, the report's command
// moves the quick run into <out>/quick and runs the full one, which is not
// refused; the report then shows both.
func TestReportCommandForAQuickOnlyFolderRuns(t *testing.T) {
	out, data := t.TempDir(), experiments.TestDataDir()
	t.Chdir(filepath.Join("..", "..", ".."))
	if _, _, err := vbw("run", "-quick", "-out", out, "-data", data, "configs/chapter3/synthetic.toml"); err != nil {
		t.Fatal(err)
	}
	r, err := report.Build(out)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(r.Missing, func(m report.Missing) bool { return m.ID == "chapter3/synthetic" })
	if i < 0 {
		t.Fatal("the quick-only experiment is not among those without a full run")
	}
	m := r.Missing[i]
	parts := strings.Split(m.Command, " && ")
	if len(parts) != 3 || !strings.Contains(m.Note, "is in the folder a full run writes") || !strings.HasPrefix(parts[2], "bin/vbw run ") {
		t.Fatalf("missing %+v: want a command that moves the quick run and runs the full one", m)
	}
	if b, err := exec.Command("sh", "-c", parts[0]+" && "+parts[1]).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v %s", parts[1], err, b)
	}
	args := append(strings.Fields(strings.TrimPrefix(parts[2], "bin/vbw ")), "-data", data)
	if _, _, err := vbw(args...); err != nil {
		t.Fatalf("the report's command was refused: %v", err)
	}
	r, err = report.Build(out)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range r.Experiments {
		if e.State != report.Verified {
			t.Errorf("%s: %s %q", e.Dir, e.State, e.Problems)
		}
		kinds = append(kinds, e.Dir+" "+e.Kind)
	}
	if want := []string{"chapter3/synthetic full", "quick/chapter3/synthetic QUICK"}; !slices.Equal(kinds, want) {
		t.Errorf("folders %q, want %q", kinds, want)
	}
}

// TestManifestCountsResumedCells: the manifest of a run says how many
// cells it computed and how many it took from an earlier run's store
// (the same config run again by the same build resumes them all), so that
// its wall and CPU times are not mistaken for the whole computation's.
func TestManifestCountsResumedCells(t *testing.T) {
	out, data := t.TempDir(), experiments.TestDataDir()
	cfg := filepath.Join("..", "..", "..", "configs", "chapter3", "synthetic.toml")
	cells := func() *results.CellCounts {
		t.Helper()
		if _, _, err := vbw("run", "-quick", "-noplot", "-out", out, "-data", data, cfg); err != nil {
			t.Fatal(err)
		}
		man, err := results.ReadManifest(filepath.Join(out, "chapter3", "synthetic", results.ManifestFile))
		if err != nil {
			t.Fatal(err)
		}
		if man.Cells == nil {
			t.Fatal("the manifest does not count the cells")
		}
		return man.Cells
	}
	first := cells()
	if first.Computed == 0 || first.Resumed != 0 {
		t.Fatalf("first run: %+v, want every cell computed", *first)
	}
	again := cells()
	if again.Computed != 0 || again.Resumed != first.Computed || !(again.ResumedSeconds > 0) {
		t.Fatalf("second run: %+v, want all %d cells resumed, with their time", *again, first.Computed)
	}
}
