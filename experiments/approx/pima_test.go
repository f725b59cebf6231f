package approx

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/datasets"
	"github.com/vbworkbench/vbw/experiments/exptest"
)

// TestStratifiedSplit: every stratum gives its share of the training
// rows (largest remainders when the shares are not whole), the two sets
// partition the rows in the file's order, and the draw is a function of
// its stream alone.
func TestStratifiedSplit(t *testing.T) {
	var strata []string
	for _, s := range []struct {
		key string
		n   int
	}{{"B/M", 50}, {"B/F", 50}, {"O/M", 50}, {"O/F", 50}} {
		for range s.n {
			strata = append(strata, s.key)
		}
	}
	for _, c := range []struct {
		strata []string
		train  int
		want   map[string]int
	}{
		{strata, 80, map[string]int{"B/M": 20, "B/F": 20, "O/M": 20, "O/F": 20}},
		{strata, 82, map[string]int{"B/M": 21, "B/F": 21, "O/M": 20, "O/F": 20}},
		{append(slices.Repeat([]string{"a"}, 30), slices.Repeat([]string{"b"}, 70)...), 10, map[string]int{"a": 3, "b": 7}},
	} {
		tr, te := datasets.StratifiedSplit(c.strata, c.train, rng.New(1, "split"))
		got := map[string]int{}
		for _, i := range tr {
			got[c.strata[i]]++
		}
		if len(tr) != c.train || len(tr)+len(te) != len(c.strata) || !maps(got, c.want) {
			t.Errorf("train %d of %d: %d and %d rows, per stratum %v, want %v", c.train, len(c.strata), len(tr), len(te), got, c.want)
		}
		all := append(slices.Clone(tr), te...)
		slices.Sort(all)
		for i, v := range all {
			if v != i {
				t.Fatalf("row %d is in both sets or neither", i)
			}
		}
		if !slices.IsSorted(tr) || !slices.IsSorted(te) {
			t.Error("the sets are not in the file's order")
		}
		again, _ := datasets.StratifiedSplit(c.strata, c.train, rng.New(1, "split"))
		other, _ := datasets.StratifiedSplit(c.strata, c.train, rng.New(2, "split"))
		if !slices.Equal(tr, again) || slices.Equal(tr, other) {
			t.Error("the split is not a function of its stream")
		}
	}
}

func maps(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestReadLabelled: the crabs' layout (two label columns, an index and
// five inputs) by column names, and the errors that name the file.
func TestReadLabelled(t *testing.T) {
	head := "sp,sex,index,FL,RW,CL,CW,BD\n"
	good := head + "B,M,1,8.1,6.7,16.1,19,7\nO,F,2,8.8,7.7,18.1,20.8,7.4\n"
	d, err := datasets.ReadLabelled("crabs.csv", []byte(good), "sex", "M", crabsInputs, []string{"sp", "sex"})
	if err != nil || len(d.X) != 2 || !slices.Equal(d.X[1], []float64{8.8, 7.7, 18.1, 20.8, 7.4}) || !slices.Equal(d.T, []int{1, 0}) ||
		!slices.Equal(d.Stratum, []string{"B/M", "O/F"}) {
		t.Fatalf("readLabelled: %+v, %v", d, err)
	}
	all, err := datasets.ReadLabelled("crabs.csv", []byte(good), "sex", "M", nil, []string{"sp"})
	if err != nil || !slices.Equal(all.Inputs, []string{"index", "FL", "RW", "CL", "CW", "BD"}) {
		t.Errorf("every column but the class and the strata: %v, %v", all.Inputs, err)
	}
	for _, c := range []struct {
		text, class string
		inputs      []string
		want        string
	}{
		{good + "B,X,3,1,2,3,4,5\n", "sex", crabsInputs, `crabs.csv:4:3: sex "X": a third value of the class`},
		{good, "colour", crabsInputs, `crabs.csv: class: no column "colour"`},
		{good, "sex", []string{"FL", "sp"}, `crabs.csv: inputs: column "sp" is the class or a stratum`},
		{good + "B,M,3,1,2,NaN,4,5\n", "sex", crabsInputs, `crabs.csv:4:`},
		{head + "B,F,1,1,2,3,4,5\n", "sex", crabsInputs, `crabs.csv: sex: no row has the positive value "M"`},
		{good + "B,M,3,1,2\n", "sex", crabsInputs, `crabs.csv:4: 5 fields, want 8`},
	} {
		if _, err := datasets.ReadLabelled("crabs.csv", []byte(c.text), c.class, "M", c.inputs, []string{"sp", "sex"}); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.want, err, c.want)
		}
	}
}

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
