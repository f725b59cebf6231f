package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// stripCPU returns a CSV's rows without its cpu_seconds column (a measured
// time, the one value two identical runs do not share).
func stripCPU(t *testing.T, path string) [][]string {
	t.Helper()
	tab, err := results.ReadCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(tab.Header, "cpu_seconds")
	out := [][]string{slices.Delete(slices.Clone(tab.Header), col, col+1)}
	for _, r := range tab.Rows {
		out = append(out, slices.Delete(slices.Clone(r), col, col+1))
	}
	return out
}

// TestCompareReproducesRow runs vbw compare on a shipped data set (Old
// Faithful, the file the vbgmm configs read) as a user's CSV and checks
// that its estimates and grid are those of vbw run on the gmm row's
// config with the same data and K written by hand, that it prints the
// grid, that the same command resumes (its cells kept), and that a
// comparison under the same name with other settings is refused.
func TestCompareReproducesRow(t *testing.T) {
	faithful := filepath.Join(experiments.TestDataDir(), "faithful.csv")
	if _, err := os.Stat(faithful); err != nil {
		t.Skipf("the shipped data set: %v", err)
	}
	out := t.TempDir()
	args := []string{"compare", "-model", "gmm", "-data", faithful, "-k", "1", "-quick", "-noplot", "-workers", "2", "-out", out}
	stdout, _, err := vbw(args...)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(out, "atlas", "compare-gmm-faithful")
	for _, want := range []string{"faithful/K=1", "vb", "closed-form", "within 3 SE", dir} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the printed grid lacks %q:\n%s", want, stdout)
		}
	}
	// The same row by vbw run, its config written by hand.
	abs, err := filepath.Abs(filepath.Join("..", "..", "..", "configs", "atlas", "gmm.toml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "by-hand.toml")
	text := "base = \"" + abs + "\"\nsettings = \"ours\"\nsettings_note = \"by hand\"\ndata = \"" + faithful + "\"\nk = [1]\n[quick]\ndata = \"" + faithful + "\"\nk = [1]\n"
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out2 := t.TempDir()
	if _, _, err := vbw("run", "-quick", "-noplot", "-workers", "2", "-out", out2, cfg); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"estimates.csv", "grid.csv"} {
		a, b := stripCPU(t, filepath.Join(dir, f)), stripCPU(t, filepath.Join(out2, "atlas", "by-hand", f))
		if !slices.EqualFunc(a, b, slices.Equal) {
			t.Errorf("%s of vbw compare differs from vbw run's:\n%v\n%v", f, a, b)
		}
	}
	// Again: the kept cells are reused, the results the same.
	before := stripCPU(t, filepath.Join(dir, "estimates.csv"))
	if _, _, err := vbw(args...); err != nil {
		t.Fatalf("the same compare again: %v", err)
	}
	if after := stripCPU(t, filepath.Join(dir, "estimates.csv")); !slices.EqualFunc(before, after, slices.Equal) {
		t.Error("the resumed compare changed the estimates")
	}
	// Other K under the same name: refused, and the results kept.
	other := slices.Clone(args)
	other[slices.Index(other, "-k")+1] = "1..2"
	if _, _, err := vbw(other...); err == nil || !strings.Contains(err.Error(), "holds another comparison") {
		t.Errorf("a comparison over another's name: %v", err)
	}
}

// TestCompareBadFlags checks that every bad invocation is refused before
// anything runs, with one line naming the flag.
func TestCompareBadFlags(t *testing.T) {
	faithful := filepath.Join(experiments.TestDataDir(), "faithful.csv")
	out := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-data", faithful, "-k", "1"}, "-model is required"},
		{[]string{"-model", "hmm2", "-data", faithful, "-k", "1"}, "-model hmm2: unknown model"},
		{[]string{"-model", "gmm", "-k", "1"}, "-data is required"},
		{[]string{"-model", "gmm", "-data", filepath.Join(out, "missing.csv"), "-k", "1"}, "no such file"},
		{[]string{"-model", "gmm", "-data", out, "-k", "1"}, "a directory"},
		{[]string{"-model", "gmm", "-data", faithful}, "-k is required"},
		{[]string{"-model", "gmm", "-data", faithful, "-k", "3..1"}, "-k 3..1: the range is empty"},
		{[]string{"-model", "gmm", "-data", faithful, "-k", "0..2"}, "at least 1"},
		{[]string{"-model", "gmm", "-data", faithful, "-k", "1,1"}, "must increase"},
		{[]string{"-model", "gmm", "-data", faithful, "-k", "a..b"}, "two integers"},
		{[]string{"-model", "gmm", "-data", faithful, "-k", "x"}, "not an integer"},
		{[]string{"-model", "gmm", "-data", faithful, "-k", "1..9"}, "k = [1, 2, 3, 4, 5, 6, 7, 8, 9]"},
		{[]string{"-model", "logistic", "-data", faithful, "-k", "2"}, "-k: the logistic row has no K"},
		{[]string{"-model", "gmm", "-data", faithful, "-k", "1", "-class", "x"}, "-class: the gmm row has no such setting"},
		{[]string{"-model", "gmm", "-data", faithful, "-k", "1", "stray"}, "unexpected argument"},
	} {
		_, _, err := vbw(append(append([]string{"compare"}, c.args...), "-out", out)...)
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("compare %q: error %v, want one line with %q", c.args, err, c.want)
		}
	}
}
