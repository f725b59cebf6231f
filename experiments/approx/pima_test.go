package approx

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
)

// TestTable31Verbatim: mdTable31 is the seed file's Table 3.1, its
// tab-separated rows cell by cell.
func TestTable31Verbatim(t *testing.T) {
	path := filepath.Join(filepath.Dir(experiments.TestDataDir()), "seeds", filepath.Base(experiments.Lawrence.Source))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skip(err)
	}
	lines := strings.Split(string(b), "\n")
	md := strings.Split(mdTable31, "\n")
	md = append(md[:1], md[2:]...) // the separator row
	for i, row := range md {
		want := strings.Split(lines[table31Line-1+i], "\t")
		cells := strings.Split(strings.Trim(row, "| "), " | ")
		if !slices.Equal(cells, want) {
			t.Errorf("%s:%d: %q, the table in the code has %q", path, table31Line+i, want, cells)
		}
	}
}

// TestTable31FromResults: the Pima run fills the Pima column of Table 3.1
// (Ripley's logistic regression 66 beside our ML's, the linear
// discriminant 67 beside ours) and the crabs run the crabs column, the
// rows not attempted left empty.
func TestTable31FromResults(t *testing.T) {
	for _, c := range []struct {
		config string
		col    int
	}{{"pima.toml", 0}, {"crabs.toml", 1}} {
		run := exptest.Quick(t, configPath(c.config))
		tab := exptest.ThesisTable(t, "Table 3.1", run)
		for _, row := range tab.Rows {
			cell, other := row.Cells[c.col], row.Cells[1-c.col]
			filled := !math.IsNaN(cell.Ours)
			switch row.Key {
			case "Logistic Regression", "Linear Discriminant":
				if !filled || math.IsNaN(cell.Diff()) || cell.Ours != run.Summary.Metrics[map[string]string{"Logistic Regression": "test_errors_ml", "Linear Discriminant": "test_errors_lda"}[row.Key]] {
					t.Errorf("%s: %s: %+v", c.config, row.Key, cell)
				}
			case "Neural Network", "MARS (degree = 1)", "PP (4 ridge functions)", "Gaussian Process Classifier", "Average Linear Threshold Unit", "Best Linear Threshold Unit":
				if filled {
					t.Errorf("%s: %s, not attempted, has %v", c.config, row.Key, cell.Ours)
				}
			}
			if !math.IsNaN(other.Ours) {
				t.Errorf("%s: %s fills the other data set's column: %v", c.config, row.Key, other.Ours)
			}
		}
		if len(tab.Rows) != 9+4 {
			t.Errorf("%s: %d rows, want the text's 9 and our 4 Bayesian fits", c.config, len(tab.Rows))
		}
	}
}

// TestTable31BothColumns: with a crabs run beside the Pima run
// (ResultFiles.Also), one Table 3.1 holds both columns, each from its own
// run, and the crabs note.
func TestTable31BothColumns(t *testing.T) {
	files := func(r exptest.QuickRun) experiments.ResultFiles {
		return experiments.ResultFiles{Summary: r.Summary, Read: func(name string) ([]byte, error) {
			return os.ReadFile(filepath.Join(r.Dir, name))
		}}
	}
	pima, crabs := exptest.Quick(t, configPath("pima.toml")), exptest.Quick(t, configPath("crabs.toml"))
	f := files(pima)
	f.Also = map[string]experiments.ResultFiles{CrabsID: files(crabs)}
	tab, err := buildTable31(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tab.Rows {
		if row.Key != "Logistic Regression" {
			continue
		}
		if got, want := row.Cells[0].Ours, pima.Summary.Metrics["test_errors_ml"]; got != want {
			t.Errorf("Pima column %v, the Pima run's %v", got, want)
		}
		if got, want := row.Cells[1].Ours, crabs.Summary.Metrics["test_errors_ml"]; got != want {
			t.Errorf("crabs column %v, the crabs run's %v", got, want)
		}
	}
	if !slices.ContainsFunc(tab.Notes, func(n string) bool { return strings.HasPrefix(n, "The crabs column") }) {
		t.Errorf("no crabs note in %q", tab.Notes)
	}
}
