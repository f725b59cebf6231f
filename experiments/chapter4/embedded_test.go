package chapter4

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

func configPath(name string) string { return filepath.Join("..", "..", "configs", "chapter4", name) }

// quickRun returns the shared [quick] run of a shipped chapter 4 config
// (exptest.Quick), failing the test for every file missing from its
// results folder: files, summary.json, scorecard.md and manifest.json.
func quickRun(t *testing.T, name string, files ...string) exptest.QuickRun {
	t.Helper()
	q := exptest.Quick(t, configPath(name))
	for _, f := range append(files, "summary.json", "scorecard.md", "manifest.json") {
		if _, err := os.Stat(filepath.Join(q.Dir, f)); err != nil {
			t.Error(err)
		}
	}
	return q
}

// TestEmbeddedQuick: the shipped config's [quick] run end to end: tables,
// moves, the figure, and a summary with the interface's metrics
// (components and the dims list at the largest size).
func TestEmbeddedQuick(t *testing.T) {
	q := quickRun(t, "embedded.toml", "table4_1.csv", "moves.csv", "params.csv", "fig4_4.svg", "fig4_4.png")
	sum := q.Summary
	if c := sum.Metrics["components"]; !(c >= 1) {
		t.Errorf("components = %v", c)
	}
	if d := sum.Lists["dims"]; len(d) == 0 {
		t.Errorf("dims = %v", d)
	}
	tab, err := results.ReadCSV(filepath.Join(q.Dir, "table4_1.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// 2 seeds × (the two table sizes + the figure's size).
	if len(tab.Rows) != 6 {
		t.Errorf("%d rows in table4_1.csv, want 6", len(tab.Rows))
	}
	exptest.MustPass(t, sum, "f-monotone")
	exptest.Checks(t, sum, embeddedCriteria.IDs()...)
}

// TestEmbeddedConfigErrors: bad values name their keys.
func TestEmbeddedConfigErrors(t *testing.T) {
	exptest.CheckConfigEdits(t, configPath(""), []exptest.ConfigEdit{
		{"embedded.toml", "k_max          = 7", "k_max          = -1", "model.k_max = -1"},
		{"embedded.toml", "k_max          = 7", "k_max          = 0", "model.k_max = 0"},
		{"embedded.toml", "b_star = 0.01", "b_star = 0.0", "prior.b_star = 0"},
		{"embedded.toml", "a_star = 1.0", "a_star = -1.0", "prior.a_star = -1"},
		{"embedded.toml", `death                = "immediate"`, `death                = "never"`, `key "search.death": "never" is not allowed: must be "immediate" or "move"`},
		{"lattice.toml", "rotation           = 0.0", "rotation           = 720.0", "data.rotation = 720"},
		{"embedded.toml", `children             = "pca"`, `children             = "clone"`, `key "search.children": "clone" is not allowed: must be "pca" or "inherit"`},
		{"embedded.toml", "restarts   = 10", "restarts   = 0", "restarts = 0"},
		{"embedded.toml", "dims               = [7, 4, 3, 2, 2, 1]", "dims               = [7, 4, 30]", "data.dims"},
		{"embedded.toml", "tau        = 0.1", "tau        = inf", "tau = +Inf"},
		{"embedded.toml", `birth                = "spatial"`, `birth                = "mitosis"`, `key "search.birth": "mitosis" is not allowed: must be "spatial" or "responsibility"`},
		{"embedded.toml", `epoch                = "agitation"`, `epoch                = "never"`, `key "search.epoch": "never" is not allowed: must be "agitation+dF", "agitation" or "dF"`},
		{"embedded.toml", `reference            = "converged"`, `reference            = "best"`, `key "search.reference": "best" is not allowed: must be "converged" or "matched"`},
		{"embedded-relaxed.toml", `reference            = "matched"`, `reference            = "best"`, `key "search.reference": "best" is not allowed: must be "converged" or "matched"`},
		{"embedded.toml", "max_final_iterations = 0", "max_final_iterations = -1", "search.max_final_iterations = -1"},
		{"embedded-relaxed.toml", "max_final_iterations = 2000", "max_final_iterations = -1", "search.max_final_iterations = -1"},
		{"embedded.toml", "agitation_tol        = 0.0024787521766663585", "agitation_tol        = -1.0", "search.agitation_tol"},
		{"embedded.toml", "min_epoch_iterations = 2", "min_epoch_iterations = -3", "search.min_epoch_iterations = -3"},
		{"embedded.toml", "max_total_iterations = 200             # the thesis's", "max_total_iterations = -1 # the thesis's", "search.max_total_iterations = -1"},
		{"embedded-relaxed.toml", "max_total_iterations = 3000", "max_total_iterations = -1", "search.max_total_iterations = -1"},
		{"embedded.toml", "max_iterations = 2000", "max_iterations = 1", "vb.max_iterations = 1"},
		{"embedded.toml", "ab = 0", "ab = -2", "vb.hyper.ab = -2"},
		{"embedded.toml", "mu_nu = 1", "mu_nu = 1, gamma = 1", `vb.hyper.gamma = 1: unknown group (the model's groups are "psi", "mu_nu", "ab" or "alpha")`},
		// The retired experiment ID of the thesis's budget says where it went.
		{"embedded.toml", `experiment = "chapter4/embedded"`, `experiment = "chapter4/embedded-faithful"`, `experiment "chapter4/embedded-faithful" was retired: its budget, the thesis's 200 iterations in total, is now that of chapter4/embedded, configs/chapter4/embedded.toml`},
		// The keys of issue 19's vocabulary: the old names say the new.
		{"embedded.toml", "max_final_iterations = 0", "final_sweeps = 0", `unknown key "search.final_sweeps": renamed to "search.max_final_iterations"`},
		{"embedded.toml", "min_epoch_iterations = 2", "epoch_min_sweeps = 2", `unknown key "search.epoch_min_sweeps": renamed to "search.min_epoch_iterations"`},
		{"embedded-relaxed.toml", "max_total_iterations = 3000", "max_total_sweeps = 3000", `unknown key "search.max_total_sweeps": renamed to "search.max_total_iterations"`},
		{"embedded-relaxed.toml", "max_total_iterations = 600", "max_total_sweeps = 600", `unknown key "quick.search.max_total_sweeps": renamed to "quick.search.max_total_iterations"`},
		{"embedded.toml", "k_max          = 7", "k_max          = 7\noptimise_ab    = true", `unknown key "model.optimise_ab": renamed to "vb.hyper.ab" (= 1 updates a*, b* from the first iteration, 0 never)`},
	})
}

// TestDigitExamples: Figure 4.8 is drawn from the two real files, whose
// class counts are the published ones.
func TestDigitExamples(t *testing.T) {
	q := quickRun(t, "digit-examples.toml", "fig4_8.svg")
	exptest.MustPass(t, q.Summary, "fig4.8-train-counts", "fig4.8-test-counts")
	tab, err := results.ReadCSV(filepath.Join(q.Dir, "params.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// 2 files × 10 digits × 2 examples × 64 pixels.
	if len(tab.Rows) != 2*10*2*64 {
		t.Fatalf("%d pixel rows", len(tab.Rows))
	}
}

// TestSpiralQuick runs the spiral config with its [quick] settings: the
// three figures and the runs table are written and F never decreases
// within a VBEM run.
func TestSpiralQuick(t *testing.T) {
	q := quickRun(t, "spiral.toml", "fig4_5.svg", "fig4_6.svg", "fig4_7.svg", "spiral_runs.csv", "moves.csv", "fig4_7.csv")
	if c := q.Summary.Metrics["components"]; !(c >= 1) {
		t.Errorf("components = %v", c)
	}
	exptest.MustPass(t, q.Summary, "f-monotone")
}

// TestWeightedRange: weighted quantiles of t.
func TestWeightedRange(t *testing.T) {
	tv := []float64{0, 1, 2, 3, 4}
	w := []float64{1, 1, 1, 1, 1}
	if a, b := weightedRange(tv, w, 0.05, 0.95); a != 0 || b != 4 {
		t.Fatalf("uniform weights: %v %v", a, b)
	}
	w = []float64{0, 0, 1, 0, 0}
	if a, b := weightedRange(tv, w, 0.05, 0.95); a != 2 || b != 2 {
		t.Fatalf("point mass: %v %v", a, b)
	}
}

// TestLatticeQuick: the Figure 4.3 config's [quick] run: the figure, the
// runs table, F never decreases within a VBEM run, every criterion is
// judged or explained, and summary.json holds S and F of the found state
// and of the state converged from the true labels for every seed.
func TestLatticeQuick(t *testing.T) {
	q := quickRun(t, "lattice.toml", "fig4_3.svg", "lattice_runs.csv")
	exptest.MustPass(t, q.Summary, "f-monotone")
	c := DefaultLatticeConfig()
	exptest.Checks(t, q.Summary, latticeCriteria(&c).IDs()...)
	for _, name := range []string{"components_per_seed", "components_true_labels_per_seed", "F_per_seed", "F_true_labels_per_seed"} {
		v := q.Summary.Lists[name]
		if len(v) != 2 {
			t.Fatalf("list %s = %v, want one value per seed (2)", name, v)
		}
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) || (strings.HasPrefix(name, "components") && x < 1) {
				t.Errorf("list %s = %v", name, v)
			}
		}
	}
}

// TestFigure44OverSeeds: Figure 4.4's claim is judged over every seed at
// the figure's size, not on the drawn one: with the drawn seed recovering
// the true structure and 5 of 10 seeds missing it by a dimension or an
// analyser, the check fails at 0.5 against 0.7, names the drawn seed, and
// keeps the spread of the distance from the truth; the same runs read out
// on the relaxed settings (embedded-relaxed.toml) are judged the same way,
// and on clusters other than the thesis's not at all; dimsOff is 0 only on
// the true structure.
func TestFigure44OverSeeds(t *testing.T) {
	an := func(dims ...int) []Analyser {
		a := make([]Analyser, len(dims))
		for i, d := range dims {
			a[i] = Analyser{Points: 100, Dim: d}
		}
		return a
	}
	c := DefaultEmbedded()
	truth := []int{7, 4, 3, 2, 2, 1}
	var runs []EmbeddedRun
	for seed := range 10 {
		r := EmbeddedRun{Size: c.Data.PointsPerCluster, Seed: seed, WithFigures: seed == 0, Analysers: an(7, 2, 2, 4, 3, 1)}
		switch {
		case seed%2 == 1 && seed < 9:
			r.Analysers = an(7, 2, 2, 5, 3, 1) // one surplus dimension: off by 1
		case seed == 9:
			r.Analysers = an(7, 2, 2, 4, 3, 1, 1) // an extra analyser: off by 2
		}
		runs = append(runs, r)
	}
	for _, x := range []struct {
		a    []int
		want float64
	}{{[]int{1, 2, 2, 3, 4, 7}, 0}, {[]int{7, 5, 3, 2, 2, 1}, 1}, {[]int{7, 4, 3, 2, 2, 1, 0}, 1}, {[]int{7, 4, 3, 2, 2}, 2}, {nil, 25}} {
		if got := (EmbeddedRun{Analysers: an(x.a...)}).dimsOff(truth); got != x.want {
			t.Errorf("dimsOff(%v) = %v, want %v", x.a, got, x.want)
		}
	}
	s := &results.Summary{Criteria: embeddedCriteria}
	judgeFigure44(s, &c, runs, truth)
	ch, ok := s.CheckByID("fig4.4-dims")
	if !ok || ch.Pass || ch.Value != 0.5 || ch.Spread == nil || ch.Spread.N != 10 || ch.Spread.Held != 5 || ch.Spread.Max != 2 {
		t.Fatalf("fig4.4-dims = %+v (spread %+v), want a failure at 0.5, 5 of 10 held, distances up to 2", ch, ch.Spread)
	}
	if !strings.Contains(ch.Name, "seed 0: dims (7 4 3 2 2 1)") || ch.Kind != "claim" || ch.Theirs == "" || ch.Line == "" {
		t.Errorf("fig4.4-dims: name %q, kind %q, theirs %q, line %q", ch.Name, ch.Kind, ch.Theirs, ch.Line)
	}
	relaxed := DefaultEmbedded()
	relaxed.Search.Reference, relaxed.Search.MaxFinalIterations, relaxed.Search.MaxTotalIterations = config.ReferenceMatched, 2000, 3000
	s = &results.Summary{Criteria: embeddedCriteria}
	judgeFigure44(s, &relaxed, runs, truth)
	if got, _ := s.CheckByID("fig4.4-dims"); got.NotApplicable || got.Pass != ch.Pass || got.Value != ch.Value {
		t.Errorf("relaxed settings: fig4.4-dims = %+v, want judged as on the thesis's (%+v)", got, ch)
	}
	other := DefaultEmbedded()
	other.Data.Dims = []int{7, 4, 3, 2, 2}
	s = &results.Summary{Criteria: embeddedCriteria}
	judgeFigure44(s, &other, runs, truth)
	if got, _ := s.CheckByID("fig4.4-dims"); !got.NotApplicable {
		t.Errorf("clusters (7,4,3,2,2): fig4.4-dims = %+v, want not judged", got)
	}
}

// TestEmbeddedRelaxedQuick: the relaxed variant judges every criterion of
// the thesis's run, each claim of the text a claim of ours (settings =
// "ours"), and its summary differs from the thesis's run's.
func TestEmbeddedRelaxedQuick(t *testing.T) {
	text := quickRun(t, "embedded.toml")
	q := quickRun(t, "embedded-relaxed.toml", "table4_1.csv", "moves.csv", "params.csv")
	exptest.MustPass(t, q.Summary, "f-monotone")
	exptest.Checks(t, q.Summary, embeddedCriteria.IDs()...)
	for _, ch := range q.Summary.Checks {
		want := results.KindExtension.String()
		if ch.ID == "f-monotone" {
			want = results.KindSanity.String()
		}
		if ch.Kind != want {
			t.Errorf("relaxed: %s is a %s, want %s", ch.ID, ch.Kind, want)
		}
		if th, ok := text.Summary.CheckByID(ch.ID); !ok || th.NotApplicable != ch.NotApplicable {
			t.Errorf("%s: judged on one run and not the other (text %+v, relaxed %+v)", ch.ID, th, ch)
		}
	}
	if a, b := text.Summary.Metrics["iterations_per_search_median"], q.Summary.Metrics["iterations_per_search_median"]; a != 200 || b <= a {
		t.Errorf("median iterations per search: text %v (want the budget, 200), relaxed %v", a, b)
	}
}
