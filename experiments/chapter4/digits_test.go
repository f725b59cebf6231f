package chapter4

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

// TestUnsupervisedQuick: Figures 4.9-4.10 end to end on a small subset,
// with the interface's metrics.
func TestUnsupervisedQuick(t *testing.T) {
	q := quickRun(t, "digits-unsupervised.toml", "unsupervised_runs.csv", "analysers.csv", "confusion.csv", "moves.csv", "params.csv",
		"fig4_9.svg", "fig4_9.png", "fig4_10.svg", "fig4_10.png")
	dir, sum := q.Dir, q.Summary
	exptest.MustPass(t, sum, "f-monotone")
	for _, k := range []string{"components", "train_accuracy", "test_accuracy", "kmeans_test_accuracy"} {
		v, ok := sum.Metrics[k]
		if !ok || math.IsNaN(v) {
			t.Errorf("metric %s = %v (present %v)", k, v, ok)
		}
	}
	// A confusion matrix's rows sum to the images of each digit.
	tab, err := results.ReadCSV(filepath.Join(dir, "confusion.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var test float64
	for i, row := range tab.Rows {
		if row[0] == "0" && row[1] == "test" {
			v, _ := tab.Float(i, 4)
			test += v
		}
	}
	if test != 1797 {
		t.Errorf("seed 0's test confusion matrix holds %v images, want 1797", test)
	}
}

// TestClassifyQuick: Table 4.2 and Figure 4.11 end to end, with the
// interface's per-size metrics.
func TestClassifyQuick(t *testing.T) {
	sum := quickRun(t, "digits-classify.toml", "classify_cells.csv", "table4_2.csv", "fig4_11.csv", "fig4_11.svg", "fig4_11.png", "table4_2.svg").Summary
	// Two sizes: the gap between the small and the large sizes needs five.
	for _, c := range exptest.Checks(t, sum, "table4.2-gap-small-sizes", "table4.2-vb-ge-bic", "table4.2-sign-test") {
		if c.NotApplicable != (c.ID == "table4.2-gap-small-sizes") {
			t.Errorf("check %s %q: %s", c.ID, c.Name, c.Verdict())
		}
	}
	for _, k := range []string{"vb_test_accuracy.30", "bic_test_accuracy.30", "vb_test_accuracy.60", "bic_test_accuracy.60"} {
		if v := sum.Metrics[k]; !(v > 0.1 && v <= 1) {
			t.Errorf("metric %s = %v", k, v)
		}
	}
}

// TestDigitsConfigErrors: bad values of the digits configs name their keys
// in one line.
func TestDigitsConfigErrors(t *testing.T) {
	exptest.CheckConfigEdits(t, configPath(""), []exptest.ConfigEdit{
		{"digits-classify.toml", "psi_mins    = [1e-5]", "psi_mins    = [0.0]", "psi_mins"},
		{"digits-classify.toml", "repetitions = 3", "repetitions = 0", "repetitions = 0"},
		{"digits-classify.toml", "k                    = 5", "k                    = -2", "ml.k"},
		{"digits-classify.toml", `reference            = "matched"`, `reference            = "x"`, "search.reference"},
		{"digits-classify.toml", "max_total_iterations = 4000 ", "max_total_iters = 4000 ", `unknown key "ml.max_total_iters": renamed to "ml.max_total_iterations"`},
		{"digits-classify.toml", "max_total_iterations = 4000 ", "max_total_iterations = -4 ", "ml.max_total_iterations = -4"},
		{"digits-classify.toml", "monotone_tol   = 1e-9\n\n[quick]", "monotone_tol   = 1e-9\nhyper = { psi = 1 }\n\n[quick]", "ml.hyper.psi = 1: this run's model has no hyperparameters"},
		{"digits-classify.toml", "max_total_iterations = 4000 ", "max_total_iterations = 4000\n[ml.em]\n#", `unknown key "ml.em": renamed to "ml"`},
		{"digits-unsupervised.toml", "max_kmeans_iterations = 300", "kmeans_max_iter = 300", `unknown key "kmeans_max_iter": renamed to "max_kmeans_iterations"`},
		{"digits-unsupervised.toml", "max_kmeans_iterations = 300", "max_kmeans_iterations = 0", "max_kmeans_iterations = 0"},
		{"digits-unsupervised.toml", "k_max = 6", "k_max = -6", "model.k_max"},
		{"digits-unsupervised.toml", "per_class  = 0", "per_class  = -1", "per_class"},
		{"digits-unsupervised.toml", `train = "optdigits.tra"`, `train = ""`, "data.train"},
	})
}

// A size larger than the smallest class is refused before anything runs,
// naming the key and the file.
func TestClassifySizeTooLarge(t *testing.T) {
	base, err := os.ReadFile(configPath("digits-classify.toml"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(base), "sizes       = [30, 60]", "sizes       = [30, 400]", 1)
	p := filepath.Join(t.TempDir(), "x.toml")
	os.WriteFile(p, []byte(text), 0o644)
	_, err = experiments.RunConfig(t.Context(), p, experiments.RunOptions{Out: t.TempDir(), Quick: true, DataDir: experiments.TestDataDir()})
	if err == nil || !strings.Contains(err.Error(), "sizes") || !strings.Contains(err.Error(), "optdigits.tra") {
		t.Errorf("error %v, want one naming sizes and optdigits.tra", err)
	}
}

// TestMeanSE checks meanSE on a hand-computed case (the sign test it is
// reported beside is results.SignTestP, tested in package results).
func TestMeanSE(t *testing.T) {
	m, se := meanSE([]float64{1, 2, 3, 4})
	if m != 2.5 || math.Abs(se-math.Sqrt(5.0/3/4)) > 1e-12 {
		t.Errorf("meanSE = %v, %v", m, se)
	}
	if d := maxDip([]float64{1, 3, 2.5, 4, 3.9}); d != 0.5 {
		t.Errorf("maxDip = %v, want 0.5", d)
	}
}

// TestDigitsDimensionRefused: a k_max (or an ML k) beyond the pixels that
// are not constant in the training images is refused once the files are
// read, in one line naming the key, before any search.
func TestDigitsDimensionRefused(t *testing.T) {
	dir := experiments.TestDataDir()
	if _, err := os.Stat(filepath.Join(dir, OptdigitsTrain)); err != nil {
		t.Skipf("%s is not in the data directory %s", OptdigitsTrain, dir)
	}
	for _, c := range []struct{ file, from, to, key string }{
		{"digits-classify.toml", "k_max = 5", "k_max = 64", "model.k_max"},
		{"digits-classify.toml", "k                    = 5", "k                    = 63", "ml.k"},
		{"digits-unsupervised.toml", "k_max = 6", "k_max = 64", "model.k_max"},
		{"is-tightness.toml", "k_max = 6 ", "k_max = 64 ", "model.k_max"},
	} {
		base, err := os.ReadFile(configPath(c.file))
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Replace(string(base), c.from, c.to, 1)
		if text == string(base) {
			t.Fatalf("%s: pattern %q not found", c.file, c.from)
		}
		p := exptest.EditedCopy(t, configPath(""), c.file, text)
		_, err = experiments.RunConfig(context.Background(), p, experiments.RunOptions{Quick: true, Workers: 1, DataDir: dir, Out: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), c.key+" = ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s with %s: error %v, want one line naming %s", c.file, c.to, err, c.key)
		}
	}
}
