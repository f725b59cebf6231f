package approx

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

// TestTable31LTURows: runs of mixq/ltu-pima and mixq/ltu-crabs beside the
// Pima run (ResultFiles.Also; their files as those experiments write them)
// fill the Average and Best Linear Threshold Unit rows of their columns,
// and alone each fills its own cells.
func TestTable31LTURows(t *testing.T) {
	ltuRun := func(prefix, avg, best string) experiments.ResultFiles {
		file := prefix + "_ltu_table.csv"
		body := "method,test_errors\nltu_average," + avg + "\nltu_best," + best + "\n"
		return experiments.ResultFiles{Summary: results.Summary{Metrics: map[string]float64{"ltu_networks_" + prefix: 90}},
			Read: func(name string) ([]byte, error) {
				if name == file {
					return []byte(body), nil
				}
				return nil, errors.New("no " + name)
			}}
	}
	pima := exptest.Quick(t, configPath("pima.toml"))
	f := experiments.ResultFiles{Summary: pima.Summary, Read: func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(pima.Dir, name)) }}
	f.Also = map[string]experiments.ResultFiles{ltuPimaID: ltuRun("pima", "85.5", "65"), ltuCrabsID: ltuRun("crabs", "15.25", "3")}
	want := map[string][2]float64{"Average Linear Threshold Unit": {85.5, 15.25}, "Best Linear Threshold Unit": {65, 3}}
	check := func(tab results.Comparison, cols []int) {
		t.Helper()
		seen := 0
		for _, row := range tab.Rows {
			w, ok := want[row.Key]
			if !ok {
				continue
			}
			seen++
			for _, c := range cols {
				if row.Cells[c].Ours != w[c] {
					t.Errorf("%s column %d: %v, want %v", row.Key, c, row.Cells[c].Ours, w[c])
				}
			}
		}
		if seen != 2 {
			t.Errorf("%d LTU rows, want 2", seen)
		}
	}
	tab, err := buildTable31(f)
	if err != nil {
		t.Fatal(err)
	}
	check(tab, []int{0, 1})
	if !slices.ContainsFunc(tab.Notes, func(n string) bool { return strings.HasPrefix(n, "Linear Threshold Units:") }) {
		t.Errorf("no LTU note in %q", tab.Notes)
	}
	alone, err := buildTable31(ltuRun("crabs", "15.25", "3"))
	if err != nil {
		t.Fatal(err)
	}
	check(alone, []int{1})
}
