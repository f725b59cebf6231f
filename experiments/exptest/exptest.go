// Package exptest holds test helpers shared by the chapter packages'
// tests. It is imported from _test.go files only.
package exptest

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// ConfigEdit is one bad edit of a shipped config, {file, from, to, want}:
// the text from (which must occur in the file) replaced by to must make
// experiments.Load fail with a one-line error containing want (the key's
// name).
type ConfigEdit [4]string

// CheckConfigEdits applies each edit to the config dir/File on its own and
// checks the error. A From that does not occur fails the test: the edit
// would test nothing.
func CheckConfigEdits(t testing.TB, dir string, edits []ConfigEdit) {
	t.Helper()
	for _, e := range edits {
		c := struct{ File, From, To, Want string }{e[0], e[1], e[2], e[3]}
		base, err := os.ReadFile(filepath.Join(dir, c.File))
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Replace(string(base), c.From, c.To, 1)
		if text == string(base) {
			t.Errorf("%s: pattern %q not found", c.File, c.From)
			continue
		}
		p := EditedCopy(t, dir, c.File, text)
		_, _, err = experiments.Load(p, false)
		if err == nil || !strings.Contains(err.Error(), c.Want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %s: error %v, want one line naming %s", c.File, c.To, err, c.Want)
		}
	}
}

// EditedCopy copies every config of dir into a new temporary folder, so
// that a variant finds its base, writes text as its file, and returns that
// file's path.
func EditedCopy(t testing.TB, dir, file, text string) string {
	t.Helper()
	tmp := t.TempDir()
	files, err := filepath.Glob(filepath.Join(dir, "*.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(tmp, file)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// CheckConfigsLoad loads every *.toml of dir, with and without its
// [quick] section, and fails the test if there are fewer than min or one
// does not load.
func CheckConfigsLoad(t testing.TB, dir string, min int) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.toml"))
	if err != nil || len(files) < min {
		t.Fatalf("configs: %v, %v", files, err)
	}
	for _, f := range files {
		for _, q := range []bool{false, true} {
			if _, _, err := experiments.Load(f, q); err != nil {
				t.Errorf("%s (quick=%v): %v", f, q, err)
			}
		}
	}
}

// Checks returns the checks of s with the given criterion IDs (a
// criterion judged per case gives several), failing the test for every ID
// that has no check: a test that names a criterion can never pass because
// the criterion went missing or was renamed.
func Checks(t testing.TB, s results.Summary, ids ...string) []results.Check {
	t.Helper()
	if len(ids) == 0 {
		t.Fatal("exptest.Checks: no criterion IDs given")
	}
	var out []results.Check
	for _, id := range ids {
		cs := s.ChecksOf(id)
		if len(cs) == 0 {
			t.Errorf("%s: no check of criterion %q (have %s)", s.Experiment, id, strings.Join(checkIDs(s), ", "))
		}
		out = append(out, cs...)
	}
	return out
}

// MustPass fails the test unless every criterion in ids was judged and
// passed (a criterion that does not apply to the run fails too: the test
// asked for it to hold).
func MustPass(t testing.TB, s results.Summary, ids ...string) {
	t.Helper()
	for _, c := range Checks(t, s, ids...) {
		if !c.Pass {
			t.Errorf("%s: check %s %q: %s, value %v (target %s)", s.Experiment, c.ID, c.Name, c.Verdict(), c.Value, c.Target)
		}
	}
}

func checkIDs(s results.Summary) []string {
	ids := make([]string, len(s.Checks))
	for i, c := range s.Checks {
		ids[i] = c.Key()
	}
	return ids
}

// TargetsVerbatim fails unless every table of tables (the text of a
// document's table, keyed by the line of the targets file where it
// starts) is a verbatim copy of the lines of ../shared/targets/<file>
// there: the thesis's numbers in the repository are those of the targets.
func TargetsVerbatim(t *testing.T, file string, tables map[int]string) {
	t.Helper()
	path := filepath.Join(filepath.Dir(experiments.TestDataDir()), "targets", file)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the targets file: %v", err)
	}
	lines := strings.Split(string(b), "\n")
	for start, md := range tables {
		want := strings.Split(md, "\n")
		if start < 1 || start-1+len(want) > len(lines) {
			t.Errorf("%s: lines %d-%d are past the end", path, start, start+len(want)-1)
			continue
		}
		for i, w := range want {
			if got := lines[start-1+i]; got != w {
				t.Errorf("%s:%d: %q, the table in the code has %q", path, start+i, got, w)
				break
			}
		}
	}
}

// ThesisTable builds the document's table label (declared with
// experiments.AddArtefacts) from the results of the quick run r and fails
// unless it builds, every row has a cell per column, and some cell holds
// a value of ours (a table of the thesis's alone would test nothing).
func ThesisTable(t *testing.T, label string, r QuickRun) results.Comparison {
	t.Helper()
	for _, d := range experiments.Documents() {
		for _, a := range d.Artefacts {
			if a.Label != label || a.Table == nil {
				continue
			}
			files := experiments.ResultFiles{Summary: r.Summary, Read: func(name string) ([]byte, error) {
				return os.ReadFile(filepath.Join(r.Dir, name))
			}}
			c, err := a.Table.Build(files)
			if err != nil {
				t.Fatalf("%s from %s: %v", label, r.Dir, err)
			}
			ours := 0
			for _, row := range c.Rows {
				if len(row.Cells) != len(c.Columns) {
					t.Errorf("%s: row %s has %d cells for %d columns", label, row.Key, len(row.Cells), len(c.Columns))
				}
				for _, cell := range row.Cells {
					if cell.Text != "" || !math.IsNaN(cell.Ours) {
						ours++
					}
				}
			}
			if ours == 0 {
				t.Errorf("%s: no cell holds a value of ours", label)
			}
			return c
		}
	}
	t.Fatalf("no document declares a table %s", label)
	return results.Comparison{}
}
