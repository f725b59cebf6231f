package mixq

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

// TestLTUTolerances: the claims' tolerances are the binomial standard
// deviations of the text's counts, ½ of one on Pima's 332 test points and
// one on the crabs' 120, rounded up.
func TestLTUTolerances(t *testing.T) {
	for _, c := range []struct {
		count float64
		n     int
		k     float64
		want  float64
	}{{ltuPimaAverage, ltuPimaTest, 0.5, 4}, {ltuPimaBest, ltuPimaTest, 0.5, 4}, {ltuCrabsAverage, ltuCrabsTest, 1, 3}, {ltuCrabsBest, ltuCrabsTest, 1, 2}, {66, 332, 0.5, 4}} {
		if got := ltuTol(c.count, c.n, c.k); got != c.want {
			t.Errorf("ltuTol(%g of %d, %g sd) = %g, want %g", c.count, c.n, c.k, got, c.want)
		}
	}
}

// TestLTUQuick: the quick runs judge the text's LTU rows on both data
// sets, pass the sanity checks, and write the rows approx's Table 3.1
// joins, the average being the mean of the networks' test errors.
func TestLTUQuick(t *testing.T) {
	for _, c := range []struct{ config, prefix, average string }{
		{"ltu-pima.toml", "pima", "table3.1-ltu-average-73.97"},
		{"ltu-crabs.toml", "crabs", "table3.1-ltu-crabs-average-6.08"},
	} {
		run := exptest.Quick(t, configPath(c.config))
		exptest.Checks(t, run.Summary, c.average)
		exptest.MustPass(t, run.Summary, c.prefix+"-ltu-zero-t-ascent", c.prefix+"-ltu-best-kept", c.prefix+"-ltu-beats-chance")
		f := experiments.ResultFiles{Summary: run.Summary, Read: func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(run.Dir, name)) }}
		nets, err := f.Table(c.prefix + "_ltu_networks.csv")
		if err != nil {
			t.Fatal(err)
		}
		col, err := nets.Col("test_errors")
		if err != nil {
			t.Fatal(err)
		}
		var errs []float64
		for i := range nets.Rows {
			v, err := nets.Float(i, col)
			if err != nil {
				t.Fatal(err)
			}
			errs = append(errs, v)
		}
		if got, want := run.Summary.Metrics["ltu_test_errors_"+c.prefix], results.Mean(errs); got != want || len(errs) != 2 {
			t.Errorf("%s: average %g, mean of the %d networks' %g", c.config, got, len(errs), want)
		}
		if got := run.Summary.Metrics["ltu_best_test_errors_"+c.prefix]; got != slices.Min(errs) {
			t.Errorf("%s: best %g, fewest of the networks' %g", c.config, got, slices.Min(errs))
		}
		if _, err := f.Table(c.prefix + "_ltu_table.csv"); err != nil {
			t.Error(err)
		}
	}
}
