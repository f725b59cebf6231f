package chapter6

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

func configPath(name string) string { return filepath.Join("..", "..", "configs", "chapter6", name) }

// runQuick runs a shipped config with its [quick] settings into a folder
// of its own (a test that compares worker counts); tests that only read
// the results use the package's cached run, exptest.Quick.
func runQuick(t *testing.T, name string, workers int) string {
	t.Helper()
	dir, err := experiments.RunConfig(context.Background(), configPath(name), experiments.RunOptions{
		Out: t.TempDir(), Quick: true, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func mustExist(t *testing.T, dir string, files ...string) {
	t.Helper()
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

// The single-instance quick run writes every table and figure; the checks
// that hold by theorem or by construction pass: monotone EM/VBEM
// objectives, VB* and CS* below the exact ln p(y|m) (Theorem 2.3,
// Corollary 2.5 on top), VB from the CS point above CS, and alias
// corrections that never worsen a rank. The ranks in ranks.csv are those
// of the scores in scores.csv.
func TestSingleQuick(t *testing.T) {
	q := exptest.Quick(t, configPath("single-instance.toml"))
	dir, s := q.Dir, q.Summary
	mustExist(t, dir, "scores.csv", "ais.csv", "ranks.csv", "table6_1.csv", "table6_3.csv", "table6_4.csv", "acceptance.csv",
		"exact.csv", "timing.csv", "fig6_1.svg", "fig6_2.svg", "fig6_3.svg", "fig6_4.svg", "fig6_11.svg", "fig6_12.svg", "fig_exact.svg", "scorecard.md")
	exptest.MustPass(t, s, "objectives-monotone", "exact-vb-over", "exact-cs-over", "sec6.6-vb-from-cs-below-cs", "table6.1-alias-never-worsens",
		"fig6.1-true-edges", "fig6.1-true-d", "fig6.1-candidates")
	for _, k := range []string{"seconds_per_score.em", "seconds_per_score.vb", "seconds_per_score.ais_run", "seconds_per_score.exact"} {
		if v, ok := s.Metrics[k]; !ok || !(v > 0) {
			t.Errorf("metric %s = %v", k, v)
		}
	}
	sc, err := results.ReadCSV(filepath.Join(dir, "scores.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rk, err := results.ReadCSV(filepath.Join(dir, "ranks.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// 2 seeds × 3 sizes × 136 structures.
	if len(sc.Rows) != 2*3*dag.NumCandidates {
		t.Fatalf("%d rows in scores.csv", len(sc.Rows))
	}
	seed, _ := sc.Floats("seed")
	n, _ := sc.Floats("n")
	vb, _ := sc.Floats("vb")
	var v []float64
	for i := range vb {
		if seed[i] == 1 && n[i] == 160 {
			v = append(v, vb[i])
		}
	}
	want := rankOf(v, dag.TrueIndex)
	rs, _ := rk.Floats("seed")
	rn, _ := rk.Floats("n")
	rr, _ := rk.Floats("rank")
	meth, _ := rk.Strings("method")
	found := false
	for i := range rr {
		if rs[i] == 1 && rn[i] == 160 && meth[i] == "VB" {
			found = true
			if rr[i] != want {
				t.Errorf("VB rank at n = 160 is %v in ranks.csv, %v from scores.csv", rr[i], want)
			}
		}
	}
	if !found {
		t.Error("no VB rank at n = 160")
	}
}

// Results depend on the streams, not on the number of workers.
func TestSingleIndependentOfWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("one more quick run")
	}
	a, b := runQuick(t, "single-instance.toml", 1), exptest.Quick(t, configPath("single-instance.toml")).Dir
	if exptest.QuickWorkers == 1 {
		t.Fatal("the cached quick run uses one worker: nothing to compare")
	}
	for _, f := range []string{"ranks.csv", "table6_1.csv", "table6_4.csv", "ais_pooled.csv"} {
		x, err1 := os.ReadFile(filepath.Join(a, f))
		y, err2 := os.ReadFile(filepath.Join(b, f))
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between 1 and 2 workers (%v, %v)", f, err1, err2)
		}
	}
}

// The prior-averaged quick run writes its tables and figures; Table 6.2's
// columns are percentages summing to 100.
func TestPriorQuick(t *testing.T) {
	q := exptest.Quick(t, configPath("prior-average-full.toml"))
	dir, s := q.Dir, q.Summary
	mustExist(t, dir, "prior_ranks.csv", "prior_summary.csv", "table6_2.csv", "table6_5.csv", "timing.csv",
		"fig6_5.svg", "fig6_6.svg", "fig6_7.svg", "fig6_8.svg", "fig6_9.svg", "scorecard.md")
	exptest.MustPass(t, s, "objectives-monotone")
	tab, err := results.ReadCSV(filepath.Join(dir, "table6_2.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, col := range colNames(table62Columns) {
		v, err := tab.Floats(col)
		if err != nil {
			t.Fatal(err)
		}
		if tot := v[0] + v[1] + v[2]; math.Abs(tot-100) > 1e-9 {
			t.Errorf("column %s sums to %v", col, tot)
		}
	}
	if v := s.Metrics["seconds_per_score.vb"]; !(v > 0) {
		t.Errorf("seconds_per_score.vb = %v", v)
	}
}

// The AIS analyses and Algorithm 6.2 run end to end; Algorithm 6.2's
// known answer (d = 4, d′ = 9, line 4959) and d ≤ d′ hold, and so do the
// schedule identities of test T11.
func TestAnalysesQuick(t *testing.T) {
	g := exptest.Quick(t, configPath("ais-granularity.toml"))
	mustExist(t, g.Dir, "fig6_10.csv", "reference.csv", "fig6_10.svg")
	exptest.MustPass(t, g.Summary, "fig6.10-short-runs-below-vb")
	sc := exptest.Quick(t, configPath("schedules.toml"))
	mustExist(t, sc.Dir, "fig6_13.csv", "hysteresis.csv", "fig6_13.svg")
	exptest.MustPass(t, sc.Summary, "fig6.13-schedules-valid", "fig6.13-tau-half", "fig6.13-linear-large-etau")
	d := exptest.Quick(t, configPath("dimensionality.toml"))
	mustExist(t, d.Dir, "dimensions.csv", "alg6_2.svg")
	exptest.MustPass(t, d.Summary, "alg6.2-known-d", "alg6.2-known-dprime", "alg6.2-d-le-dprime")
}

// Bad values name their keys, on one line.
func TestConfigErrors(t *testing.T) {
	exptest.CheckConfigEdits(t, configPath(""), []exptest.ConfigEdit{
		{"single-instance.toml", "sizes      = [10, 20,", "sizes      = [20, 10,", "sizes"},
		{"single-instance.toml", "data_seeds = [1, 2, 3, 4, 5]", "data_seeds = [1, 1]", "data_seeds"},
		{"single-instance.toml", "fig62_rows = [10, 160,", "fig62_rows = [11, 160,", "fig62_rows = 11"},
		{"single-instance.toml", "exact_n    = 10", "exact_n    = 20", "exact_n = 20"},
		{"single-instance.toml", "steps    = 16384", "steps    = 0", "ais.steps = 0"},
		{"single-instance.toml", "steps    = 16384", "k        = 16384", `unknown key "ais.k": renamed to "ais.steps"`},
		{"single-instance.toml", "alpha    = 2500.0", "alpha    = -1.0", "ais.alpha = -1"},
		{"single-instance.toml", `schedule = "nonlinear"`, `schedule = "cosine"`, "ais.schedule"},
		{"single-instance.toml", "runs     = 5", "runs     = 0", "ais.runs = 0"},
		{"single-instance.toml", "e_tau    = 0.2", "e_tau    = inf", "ais.e_tau = +Inf"},
		{"single-instance.toml", "lambda = 1.0", "lambda = 0.0", "prior.lambda = 0"},
		{"single-instance.toml", `true_code    = "1332"`, `true_code    = "1432"`, "model.true_code"},
		{"single-instance.toml", `true_code    = "1332"`, `true_code    = "3333"`, "model.true_code"},
		{"single-instance.toml", `alias_rule    = "thesis"`, `alias_rule    = "loose"`, "scores.alias_rule"},
		{"single-instance.toml", `vb_init       = "same_theta"`, `vb_init       = "ml"`, "scores.vb_init"},
		{"single-instance.toml", "restarts      = 3", "restarts      = 0", "scores.restarts = 0"},
		{"single-instance.toml", `em_stop       = "thesis"`, `em_stop       = "never"`, "scores.em_stop"},
		{"single-instance.toml", "tol_per_datum = 1e-6", "tol_per_datum = -1e-6", "scores.tol_per_datum"},
		{"prior-average-full.toml", "instances  = 106", "instances  = 0", "instances = 0"},
		{"prior-average-12.toml", "max_iterations = 1000", "max_iterations = 0", "scores.max_iterations = 0"},
		{"prior-average-12.toml", "max_iterations = 1000", "max_iter = 1000", `unknown key "scores.max_iter": renamed to "scores.max_iterations"`},
		{"prior-average-full.toml", "instances  = 106", "instances  = 106\n[scores]\nmax_iterations = 0", "scores.max_iterations = 0"},
		{"ais-granularity.toml", "steps_grid    = [32,", "steps_grid    = [0,", "steps_grid"},
		{"ais-granularity.toml", "random_traces = 8", "random_traces = 0", "random_traces = 0"},
		{"ais-granularity.toml", "alpha    = 2500.0", "alpha    = 0.0", "ais.alpha = 0"},
		{"schedules.toml", "e_tau_values = [0.01,", "e_tau_values = [-0.01,", "e_tau_values = [-0.01, 0.05"},
		{"schedules.toml", "passes    = 5", "passes    = 0", "hysteresis.passes = 0"},
		{"schedules.toml", "steps_grid = [1024, 4096, 16384]", "steps_grid = [2, 4096]", "hysteresis.steps_grid = [2, 4096]"},
		{"dimensionality.toml", `data         = ["sampled", "all625"]`, `data         = ["random"]`, "data"},
		{"dimensionality.toml", "R            = 100", "R            = 0", "R = 0"},
		{"dimensionality.toml", "epsilon      = 1e-5", "epsilon      = 0.0", "epsilon = 0"},
	})
}

// Every shipped config loads, with and without [quick].
func TestShippedConfigsLoad(t *testing.T) { exptest.CheckConfigsLoad(t, configPath(""), 6) }

// Ranks count strictly better scores, with no tolerance (targets §1.7 item
// 10); Δ is the true score minus the best.
func TestRankAndDelta(t *testing.T) {
	s := []float64{-5, -3, -3, -7, math.NaN()}
	for _, c := range []struct {
		t          int
		rank, diff float64
	}{{0, 3, -2}, {1, 1, 0}, {2, 1, 0}, {3, 4, -4}} {
		if r := rankOf(s, c.t); r != c.rank {
			t.Errorf("rank of %d = %v, want %v", c.t, r, c.rank)
		}
		if d := deltaOf(s, c.t); d != c.diff {
			t.Errorf("Δ of %d = %v, want %v", c.t, d, c.diff)
		}
	}
	if r := rankOf(s, 4); !math.IsNaN(r) {
		t.Errorf("rank of a NaN score = %v", r)
	}
}

// Target T14: the expected best rank of 106 uniformly random guesses among
// 136 structures is 1.8353 (the thesis's "roughly 1.8", line 4835).
func TestRandomBaseline(t *testing.T) {
	if v := expectedBestRandomRank(136, 106); math.Abs(v-1.8353) > 5e-5 {
		t.Errorf("expected best rank = %.6f, want 1.8353", v)
	}
	if v := expectedBestRandomRank(136, 1); math.Abs(v-68.5) > 1e-12 {
		t.Errorf("one guess: %v, want (136+1)/2", v)
	}
}

// The thesis's true parameters, the methods' columns and the scaled size
// counts.
func TestHelpers(t *testing.T) {
	for m, c := range map[string]string{"MAP": "map", "BIC*": "bic_star", "CSdagger": "csdagger", "VB*": "vb_star", "AIS5": "ais5"} {
		if got := column(m); got != c {
			t.Errorf("column(%q) = %q, want %q", m, got, c)
		}
	}
	if need(17, 20) != 17 || need(17, 5) != 5 || need(10, 3) != 2 {
		t.Errorf("need: %d %d %d", need(17, 20), need(17, 5), need(10, 3))
	}
	m := defaultModel()
	if _, err := thesisParams(m); err != nil {
		t.Error(err)
	}
	m.TrueCode = "1331"
	if _, err := thesisParams(m); err != nil {
		t.Errorf("1331 has the row counts of 1332: %v", err)
	}
	m.TrueCode = "3333"
	if _, err := thesisParams(m); err == nil {
		t.Error("3333 accepted for the thesis's parameters")
	}
	code, idx := defaultModel().trueCode()
	if code != dag.TrueCode || idx != dag.TrueIndex {
		t.Errorf("true code %v at %d", code, idx)
	}
	// Table 6.5's column totals (targets §3.12).
	want := []int{219, 299, 407, 433, 484}
	for k := range want {
		tot := 0
		for _, row := range thesisTable65 {
			tot += row[k]
		}
		if tot != want[k] {
			t.Errorf("Table 6.5 total of %s = %d, want %d", table65Methods[k], tot, want[k])
		}
	}
	for k := 0; k < 8; k++ {
		if s := thesisTable62[0][k] + thesisTable62[1][k] + thesisTable62[2][k]; math.Abs(s-100) > 0.11 {
			t.Errorf("Table 6.2 column %d sums to %v", k, s)
		}
	}
}

// TestInterfaceMetrics: the metrics issue 11 names are in the quick runs'
// summaries.
func TestInterfaceMetrics(t *testing.T) {
	single := exptest.Quick(t, configPath("single-instance.toml")).Summary
	sizes := single.Lists["sizes"]
	if len(sizes) == 0 {
		t.Fatal("single-instance: no sizes list")
	}
	for _, m := range []string{"map", "bic", "bicp", "cs", "vb", "ais"} {
		for _, n := range sizes {
			k := fmt.Sprintf("true_rank_%s.n%g", m, n)
			if v, ok := single.Metrics[k]; !ok || !(v >= 1 && v <= 136) {
				t.Errorf("single-instance: %s = %v (present %v)", k, v, ok)
			}
		}
	}
	if v, ok := single.Metrics["ais_below_vb_rate"]; !ok || !(v >= 0 && v <= 1) {
		t.Errorf("single-instance: ais_below_vb_rate = %v (present %v)", v, ok)
	}
	prior := exptest.Quick(t, configPath("prior-average-12.toml")).Summary
	for _, m := range []string{"map", "bic", "bicp", "cs", "vb"} {
		k := m + "_success_rate"
		if v, ok := prior.Metrics[k]; !ok || !(v >= 0 && v <= 1) {
			t.Errorf("prior-average: %s = %v (present %v)", k, v, ok)
		}
	}
}
