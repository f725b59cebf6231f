package backfit

import (
	"math"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

// TestRVMQuick: the quick run judges every criterion, leaves the CPU-time
// claims unjudged (times are never a test's assertion), keeps the speed-up
// and the seconds out of the golden numbers, and fills Table 4.2 beside
// the text's.
func TestRVMQuick(t *testing.T) {
	r := exptest.Quick(t, configPath("rvm.toml"))
	s := r.Summary
	exptest.MustPass(t, s, "brvm-runs-ok", "rvm-runs-ok")
	for _, c := range exptest.Checks(t, s, "table4.2-speedup-boston", "table4.2-speedup-boston-frac", "table4.2-speedup-sinc") {
		if !c.NotApplicable {
			t.Errorf("%s judged on a quick run (value %v): CPU times must not decide a test", c.ID, c.Value)
		}
	}
	exptest.Checks(t, s, "fig4.11-nmse-boston", "fig4.11-nmse-boston-frac", "fig4.9-nmse-sinc", "fig4.13-vectors-boston", "fig4.13-rvm-sparse",
		"rvm-mackay-monotone", "brvm-fixed-noise-nmse-boston")
	for _, m := range []string{"brvm_nmse", "rvm_nmse", "brvm_speedup", "brvm_vectors", "rvm_vectors"} {
		if _, ok := s.Metrics[m]; !ok {
			t.Errorf("summary has no metric %s", m)
		}
	}
	if !results.IsTiming("brvm_speedup") || !results.IsTiming("sinc_brvm_speedup") {
		t.Error("the speed-up metrics are not timings: they would enter the golden file")
	}
	g, err := exptest.GoldenOfRun(r)
	if err != nil {
		t.Fatal(err)
	}
	for k := range g.Metrics {
		if strings.Contains(k, "speedup") || strings.Contains(k, "seconds") {
			t.Errorf("golden metric %s is a time", k)
		}
	}
	for name, fp := range g.Tables {
		for col := range fp.Columns {
			if strings.Contains(col, "seconds") || strings.HasPrefix(col, "time_ratio") {
				t.Errorf("golden table %s fingerprints the time column %s", name, col)
			}
		}
	}
	c := exptest.ThesisTable(t, "Table 4.2", r)
	for _, row := range c.Rows {
		if row.Key == "Boston" && (math.IsNaN(row.Cells[0].Ours) || row.Cells[3].Ours != 405 || row.Cells[4].Ours != 13) {
			t.Errorf("Table 4.2 Boston row: %+v, want our seconds, N = 405 and d = 13", row.Cells)
		}
	}
}

// TestRVMFolds: the folds deal every point to one of the folds, their sizes
// differing by at most one, the same for the same seed.
func TestRVMFolds(t *testing.T) {
	c := DefaultRVM()
	f := c.cvFolds(23, "x")
	count := make([]int, c.Folds)
	for _, k := range f {
		count[k]++
	}
	for _, k := range count {
		if k < 23/c.Folds || k > 23/c.Folds+1 {
			t.Errorf("fold sizes %v", count)
		}
	}
	g := c.cvFolds(23, "x")
	for i := range f {
		if f[i] != g[i] {
			t.Fatal("folds differ between two calls")
		}
	}
}
