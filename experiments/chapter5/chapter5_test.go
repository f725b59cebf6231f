package chapter5

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

func configPath(name string) string { return filepath.Join("..", "..", "configs", "chapter5", name) }

// checkFiles fails for every file missing from dir.
func checkFiles(t *testing.T, dir string, files ...string) {
	t.Helper()
	for _, f := range files {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: missing or empty (%v)", f, err)
		}
	}
}

// TestQuickDimensionality runs dimensionality.toml with its [quick]
// settings end to end.
func TestQuickDimensionality(t *testing.T) {
	q := exptest.Quick(t, configPath("dimensionality.toml"))
	dir := q.Dir
	checkFiles(t, dir, "alive.csv", "params.csv", "hyper_trace.csv", "trace.csv", ExtendedFile, ExtendedDimsFile, SeedChecksFile,
		"fig5_4.svg", "fig5_4.png", "fig5_5.svg", "fig5_5.png", "fig5_5_extended.svg", "fig5_5_extended.png", "summary.json", "scorecard.md")
	exptest.MustPass(t, q.Summary, "fig5.4-f-monotone", "fig5.5-start")
	exptest.Checks(t, q.Summary, "fig5.4-extended-true-structure[vb]", "fig5.4-extended-true-structure[compare]",
		"fig5.4-extended-local-optimum[vb]", "fig5.4-extended-local-optimum[compare]", "fig5.4-extended-true-higher-f")
	// One seed: the continued run and the comparison run, each with its
	// k = 10 dimensions, and F at their ends in the summary.
	ext, err := results.ReadCSV(filepath.Join(dir, ExtendedFile))
	if err != nil {
		t.Fatal(err)
	}
	dims, err := results.ReadCSV(filepath.Join(dir, ExtendedDimsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(ext.Rows) != 2 || len(dims.Rows) != 2*10 {
		t.Errorf("%s has %d rows, %s %d; want 2 and 20", ExtendedFile, len(ext.Rows), ExtendedDimsFile, len(dims.Rows))
	}
	for _, m := range []string{"extended.vb.s0.F_end", "extended.compare.s0.F_end", "extended.F_gain.s0"} {
		if v, ok := q.Summary.Metrics[m]; !ok || math.IsNaN(v) {
			t.Errorf("metric %s = %v (present %v)", m, v, ok)
		}
	}
	alive, err := results.ReadCSV(filepath.Join(dir, "alive.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// One seed × (t_grid [10, 30] + the other cross_init at T = 30).
	if len(alive.Rows) != 3 {
		t.Errorf("alive.csv has %d rows, want 3", len(alive.Rows))
	}
	ht, err := results.ReadCSV(filepath.Join(dir, "hyper_trace.csv"))
	if err != nil {
		t.Fatal(err)
	}
	phases, _ := ht.Floats("phase")
	var p2 int
	for _, p := range phases {
		if p == 2 {
			p2++
		}
	}
	if p2 == 0 {
		t.Error("hyper_trace.csv holds no continuation (phase 2) of the longest run")
	}
}

// TestQuickInputs runs inputs.toml with its [quick] settings.
func TestQuickInputs(t *testing.T) {
	q := exptest.Quick(t, configPath("inputs.toml"))
	dir := q.Dir
	checkFiles(t, dir, "fig5_6_data.csv", "hyper_trace.csv", "trace.csv", SeedChecksFile, "fig5_6.svg", "fig5_7.svg", "fig5_8.svg", "fig5_8.png", "scorecard.md")
	exptest.MustPass(t, q.Summary, "fig5.7-f-monotone.u01", "fig5.7-f-monotone.u-11")
	d, err := results.ReadCSV(filepath.Join(dir, "fig5_6_data.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// Two noise inputs × 100 steps × (3 inputs + 2 states + 4 outputs).
	if len(d.Rows) != 2*100*9 {
		t.Errorf("fig5_6_data.csv has %d rows, want %d", len(d.Rows), 2*100*9)
	}
}

// TestQuickGenes runs genes.toml (the real data) with its [quick]
// settings and checks that Figure 5.13's arcs are the significant entries
// of interactions.csv.
func TestQuickGenes(t *testing.T) {
	q := exptest.Quick(t, configPath("genes.toml"))
	dir := q.Dir
	checkFiles(t, dir, ExpressionFile, ErrorsFile, InteractionsFile, NetworkFile, "trace.csv", SeedChecksFile,
		"fig5_9.svg", "fig5_11.svg", "fig5_12.svg", "fig5_12.png", "fig5_13.svg", "fig5_13.png", "scorecard.md")
	exptest.MustPass(t, q.Summary, append(tcellCriteria.IDs(), geneMonotone.ID, fig513Arcs.ID)...)
	checkNetwork(t, dir)
	e, err := results.ReadCSV(filepath.Join(dir, ErrorsFile))
	if err != nil {
		t.Fatal(err)
	}
	// k ∈ {1, 2} × {VB, MAP} + the interaction fit, each on train, test
	// and tcell10.
	if len(e.Rows) != 5*3 {
		t.Errorf("%s has %d rows, want 15", ErrorsFile, len(e.Rows))
	}
}

// TestQuickSurrogate runs genes-surrogate.toml with its [quick] settings.
func TestQuickSurrogate(t *testing.T) {
	q := exptest.Quick(t, configPath("genes-surrogate.toml"))
	dir := q.Dir
	checkFiles(t, dir, ExpressionFile, ErrorsFile, InteractionsFile, NetworkFile, "fig5_9.svg", "fig5_11.svg", "fig5_12.svg", "fig5_13.svg", "scorecard.md")
	c := DefaultSurrogateConfig()
	exptest.MustPass(t, q.Summary, append(surrogateDataCriteria(&c).IDs(), geneMonotone.ID, fig513Arcs.ID)...)
	checkNetwork(t, dir)
}

// TestSeedChecksNameCriteria: every row of seed_checks.csv of every
// shipped config's quick run names, in criterion_ids, criteria that the
// summary judged (the per-seed table is described by the criteria table),
// and every criterion judged as a fraction of units has its units there.
func TestSeedChecksNameCriteria(t *testing.T) {
	configs, err := filepath.Glob(configPath("*.toml"))
	if err != nil || len(configs) == 0 {
		t.Fatalf("configs: %v %v", configs, err)
	}
	for _, cfg := range configs {
		q := exptest.Quick(t, cfg)
		tab, err := results.ReadCSV(filepath.Join(q.Dir, SeedChecksFile))
		if err != nil {
			t.Fatal(err)
		}
		idc, err := tab.Col("criterion_ids")
		if err != nil {
			t.Fatal(err)
		}
		labels := map[string]bool{}
		for _, row := range tab.Rows {
			labels[row[0]] = true
			for _, id := range strings.Fields(row[idc]) {
				if len(q.Summary.ChecksOf(results.BaseID(id))) == 0 {
					t.Errorf("%s: %s row %q names %q, which the summary has no check of", filepath.Base(cfg), SeedChecksFile, row[0], id)
				}
			}
		}
		if len(tab.Rows) == 0 {
			t.Errorf("%s: %s is empty", filepath.Base(cfg), SeedChecksFile)
		}
		fractions := 0
		for _, c := range q.Summary.Checks {
			// A fraction of units is named "<criterion text> (fraction of n units)".
			i := strings.LastIndex(c.Name, " (fraction of ")
			if i < 0 || !strings.HasSuffix(c.Name, " units)") {
				continue
			}
			fractions++
			if !labels[c.Name[:i]] {
				t.Errorf("%s: check %s is a fraction of units, none of which is in %s", filepath.Base(cfg), c.ID, SeedChecksFile)
			}
		}
		if fractions == 0 {
			t.Errorf("%s: no check is a fraction of units: the test checked nothing", filepath.Base(cfg))
		}
	}
}

// checkNetwork compares network.csv with the entries of interactions.csv
// whose |z| exceeds 3 (the shipped significance_sds).
func checkNetwork(t *testing.T, dir string) {
	t.Helper()
	it, err := results.ReadCSV(filepath.Join(dir, InteractionsFile))
	if err != nil {
		t.Fatal(err)
	}
	nt, err := results.ReadCSV(filepath.Join(dir, NetworkFile))
	if err != nil {
		t.Fatal(err)
	}
	key := func(tab results.Table, i int, src, tgt string) string {
		s, _ := tab.Col("seed")
		v, _ := tab.Col("variant")
		a, _ := tab.Col(src)
		b, _ := tab.Col(tgt)
		r := tab.Rows[i]
		return r[s] + "/" + r[v] + "/" + r[a] + "->" + r[b]
	}
	want := map[string]bool{}
	zs, err := it.Floats("z")
	if err != nil {
		t.Fatal(err)
	}
	for i, z := range zs {
		if math.Abs(z) > 3 {
			want[key(it, i, "source", "target")] = true
		}
	}
	if len(nt.Rows) != len(want) {
		t.Errorf("%d arcs, %d significant entries", len(nt.Rows), len(want))
	}
	for i := range nt.Rows {
		if k := key(nt, i, "source", "target"); !want[k] {
			t.Errorf("arc %s is not a significant entry", k)
		}
	}
	if len(want) == 0 {
		t.Error("no significant entry: the comparison tested nothing")
	}
}

// TestConfigErrors: bad values in the shipped configs give one-line errors
// naming their keys.
func TestConfigErrors(t *testing.T) {
	exptest.CheckConfigEdits(t, configPath(""), []exptest.ConfigEdit{
		{"dimensionality.toml", "seeds      = 5", "seeds      = 0", "seeds = 0"},
		{"dimensionality.toml", "t_grid     = [10, 20, 30, 50, 100, 150, 200, 250, 300]", "t_grid     = [10, 400]", "t_grid"},
		{"dimensionality.toml", "t_grid     = [10, 20, 30, 50, 100, 150, 200, 250, 300]", "t_grid     = [30, 20]", "t_grid"},
		{"dimensionality.toml", "eigenvalues     = [0.65, 0.70, 0.75, 0.80, 0.85, 0.90]", "eigenvalues     = [0.65, 1.2]", "data.eigenvalues"},
		{"dimensionality.toml", `cross_init         = "identity"`, `cross_init         = "ones"`, "model.cross_init"},
		{"dimensionality.toml", "k                  = 10", "k                  = 0", "model.k = 0"},
		{"dimensionality.toml", "rel_tol              = 0.0", "rel_tol              = -1e-6", "extended.rel_tol"},
		{"dimensionality.toml", "max_total_iterations = 10000", "max_total_iterations = -1", "extended.max_total_iterations = -1"},
		{"dimensionality.toml", "max_total_iterations = 10000", "iterations = 10000", `unknown key "extended.iterations": renamed to "extended.max_total_iterations"`},
		{"dimensionality.toml", "noise = 1\n", "delta = 1\n", `extended.compare_hyper.delta = 1: unknown group`},
		{"dimensionality.toml", "x0    = 1\n", "x0    = -1\n", `extended.compare_hyper.x0 = -1`},
		{"dimensionality.toml", "gamma = 20", "gamma = -1", "vb.hyper.gamma = -1"},
		{"dimensionality.toml", "alpha = 10", "beta = 10", `vb.hyper.beta = 10: unknown group`},
		{"dimensionality.toml", "extinct_threshold = 1e-3", "extinct_threshold = 0.5", "thresholds.extinct_threshold"},
		{"dimensionality.toml", "c_mixture_sd    = 1.0", "c_mixture_sd    = nan", "data.c_mixture_sd"},
		{"inputs.toml", `noise_inputs = ["U01", "U-11"]`, `noise_inputs = ["U02"]`, "noise_inputs"},
		{"inputs.toml", "readout_iteration = 500", "readout_iteration = 900", "readout_iteration"},
		{"inputs.toml", "input_period        = 50.0", "input_period        = 0.0", "data.input_period"},
		{"inputs.toml", "max_iterations = 800", "max_iterations = 1", "vb.max_iterations = 1"},
		{"inputs.toml", "max_iterations = 800", "max_iter = 800", `unknown key "vb.max_iter": renamed to "vb.max_iterations"`},
		{"inputs.toml", "max_iterations = 60", "max_iter = 60", `unknown key "quick.vb.max_iter": renamed to "quick.vb.max_iterations"`},
		{"genes.toml", "kappa          = 1e4", "kappa          = 1e9", "map.kappa"},
		{"genes.toml", `mode           = "boost"`, `mode           = "exact"`, "map.mode"},
		{"genes.toml", "x0 = 30", "noise = 30", "map.hyper.noise = 30: unknown group"},
		{"genes.toml", "test_replicates  = [31, 34]", "test_replicates  = [30, 34]", "data.test_replicates"},
		{"genes.toml", "log_base         = 2.0", "log_base         = 0.5", "data.log_base"},
		{"genes.toml", "significance_sds       = 3.0", "significance_sds       = 0.0", "interactions.significance_sds"},
		{"genes.toml", "k_grid     = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]", "k_grid     = [2, 1]", "model.k_grid"},
		{"genes-surrogate.toml", `observation           = "lognormal"`, `observation           = "log"`, "data.observation"},
		{"genes-surrogate.toml", "n_train               = 30", "n_train               = 34", "data.n_train"},
		{"genes-surrogate.toml", "edge_weight           = [0.4, 0.8]", "edge_weight           = [0.8, 0.4]", "data.edge_weight"},
		{"genes-surrogate.toml", "self_loop_prob        = 0.5", "self_loop_prob        = 1.5", "data.self_loop_prob"},
		{"genes-surrogate.toml", "noisy_obs_noise_sd = 0.15", "noisy_obs_noise_sd = -0.15", "noisy_obs_noise_sd"},
	})
}

// TestShippedConfigsLoad: every shipped config loads, with and without
// -quick.
func TestShippedConfigsLoad(t *testing.T) { exptest.CheckConfigsLoad(t, configPath(""), 6) }

// tcellHeader is the header of a small tcell.csv with two genes.
const tcellHeader = "set,time_h,replicate,G1,G2\n"

// tcellRows returns the rows of one complete series.
func tcellRows(set string, rep int) string {
	var b strings.Builder
	for i, h := range TCellHours {
		b.WriteString(set + "," + strconv.FormatFloat(h, 'g', -1, 64) + "," + strconv.Itoa(rep) + "," +
			strconv.Itoa(15+i%3) + "," + strconv.Itoa(17-i%2) + "\n")
	}
	return b.String()
}

// TestParseTCell: a well-formed file parses and normalises; each defect
// gives a one-line error naming the file and the line.
func TestParseTCell(t *testing.T) {
	good := tcellHeader + tcellRows("a", 1) + tcellRows("a", 2)
	d, err := ParseTCell("x.csv", []byte(good), TCellHours)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Series) != 2 || len(d.Genes) != 2 || d.Replicates("a") != 2 {
		t.Fatalf("parsed %d series of %d genes", len(d.Series), len(d.Genes))
	}
	y, err := Normalise(d.Series[0].Values, 2)
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < 2; j++ {
		var m float64
		for i := range TCellHours {
			m += y.At(i, j)
		}
		if math.Abs(m/10-1) > 1e-12 {
			t.Errorf("gene %d: normalised mean %v", j, m/10)
		}
	}
	// 2^16 / mean of 2^{15,16,17,...}: the first value of gene 1 is 2^15.
	var mean float64
	for i := range TCellHours {
		mean += math.Pow(2, float64(15+i%3)) / 10
	}
	if got, want := y.At(0, 0), math.Pow(2, 15)/mean; math.Abs(got-want) > 1e-12 {
		t.Errorf("normalised value %v, want %v", got, want)
	}
	// A reordered series is sorted by time.
	rows := strings.Split(strings.TrimSpace(tcellRows("a", 1)), "\n")
	rows[0], rows[1] = rows[1], rows[0]
	d2, err := ParseTCell("x.csv", []byte(tcellHeader+strings.Join(rows, "\n")+"\n"), TCellHours)
	if err != nil {
		t.Fatal(err)
	}
	if d2.Series[0].Values.At(0, 0) != 15 || d2.Series[0].Values.At(1, 0) != 16 || d2.Series[0].Line != 2 {
		t.Errorf("rows not sorted by time: %v, %v", d2.Series[0].Values.At(0, 0), d2.Series[0].Values.At(1, 0))
	}
	for _, c := range []struct{ name, text, want string }{
		{"short row", tcellHeader + strings.Replace(tcellRows("a", 1), "a,4,1,17,17\n", "a,4,1,17\n", 1), "x.csv:4: 4 fields, want 5"},
		{"NaN", tcellHeader + strings.Replace(tcellRows("a", 1), "a,6,1,15,16\n", "a,6,1,NaN,16\n", 1), "x.csv:5:7: gene G1"},
		{"NA", tcellHeader + strings.Replace(tcellRows("a", 1), "a,6,1,15,16\n", "a,6,1,15,NA\n", 1), "x.csv:5:10: gene G2"},
		{"missing time", tcellHeader + strings.Replace(tcellRows("a", 1), "a,18,1,17,16\n", "", 1), "x.csv:2: set a replicate 1 has no row for time 18 h"},
		{"unknown time", tcellHeader + strings.Replace(tcellRows("a", 1), "a,18,1", "a,19,1", 1), "x.csv:7: time_h = 19"},
		{"duplicate time", tcellHeader + tcellRows("a", 1) + "a,0,1,1,1\n", "x.csv:12: set a replicate 1 has a second row for time 0 h"},
		{"bad replicate", tcellHeader + strings.Replace(tcellRows("a", 1), "a,2,1,", "a,2,x,", 1), "x.csv:3: replicate"},
		{"bad header", "set,time,replicate,G1\n", "x.csv:1: the header"},
		{"empty", "", "x.csv: the file is empty"},
		{"no rows", tcellHeader, "x.csv: no data rows"},
		{"quote", tcellHeader + "a,0,1,\"15,16\n", "x.csv:2"},
	} {
		_, err := ParseTCell("x.csv", []byte(c.text), TCellHours)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line containing %q", c.name, err, c.want)
		}
	}
	// A missing file: the error names it (and the published source).
	_, err = experiments.ReadData(t.TempDir(), "tcell.csv")
	if err == nil || !strings.Contains(err.Error(), "tcell.csv: no such file") || strings.Contains(err.Error(), "\n") {
		t.Errorf("missing file: %v", err)
	}
}

// TestTCellFile: the published file parses to 34 + 10 series of 58 genes
// at the 10 times, and the normalised values of tcell34 lie in the range
// the targets report (§3.6: [0.045, 2.52]).
func TestTCellFile(t *testing.T) {
	raw, err := experiments.ReadData(experiments.TestDataDir(), "tcell.csv")
	if err != nil {
		t.Fatal(err)
	}
	d, err := ParseTCell("tcell.csv", raw, TCellHours)
	if err != nil {
		t.Fatal(err)
	}
	if d.Replicates("tcell34") != 34 || d.Replicates("tcell10") != 10 || len(d.Genes) != 58 || len(d.Series) != 44 {
		t.Fatalf("%d + %d series of %d genes", d.Replicates("tcell34"), d.Replicates("tcell10"), len(d.Genes))
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range d.Series {
		if s.Set != "tcell34" {
			continue
		}
		y, err := Normalise(s.Values, 2)
		if err != nil {
			t.Fatal(err)
		}
		T, p := y.Dims()
		for i := 0; i < T; i++ {
			for j := 0; j < p; j++ {
				lo, hi = math.Min(lo, y.At(i, j)), math.Max(hi, y.At(i, j))
			}
		}
	}
	if math.Abs(lo-0.045) > 5e-4 || math.Abs(hi-2.52) > 5e-3 {
		t.Errorf("normalised range [%v, %v], the targets report [0.045, 2.52]", lo, hi)
	}
	seq := Feedback(mustNormalise(t, d.Series[0].Values))
	if r, c := seq.Y.Dims(); r != 9 || c != 58 {
		t.Errorf("feedback outputs %d×%d", r, c)
	}
	if r, c := seq.U.Dims(); r != 9 || c != 59 || seq.U.At(0, 0) != 1 || seq.U.At(3, 5) != mustNormalise(t, d.Series[0].Values).At(3, 4) {
		t.Errorf("feedback inputs %d×%d: u_t = [1; y_{t−1}] violated", r, c)
	}
}

func mustNormalise(t *testing.T, x *mat.Dense) *mat.Dense {
	t.Helper()
	y, err := Normalise(x, 2)
	if err != nil {
		t.Fatal(err)
	}
	return y
}

// TestInterfaceMetrics: the metrics issue 10 names are in every quick
// run's summary.
func TestInterfaceMetrics(t *testing.T) {
	for _, c := range []struct {
		config string
		keys   []string
	}{
		{"dimensionality.toml", []string{"alive_state_dims", "true_state_dims"}},
		{"inputs.toml", []string{"F_monotone", "alive_alpha", "alive_beta", "alive_gamma", "alive_delta"}},
		{"genes.toml", []string{"vb_test_error.k1", "map_test_error.k1", "significant_interactions"}},
		{"genes-surrogate.toml", []string{"interaction_precision", "interaction_recall", "significant_interactions"}},
	} {
		sum := exptest.Quick(t, configPath(c.config)).Summary
		for _, k := range c.keys {
			if v, ok := sum.Metrics[k]; !ok || math.IsNaN(v) {
				t.Errorf("%s: metric %s = %v (present %v)", c.config, k, v, ok)
			}
		}
	}
	if sum := exptest.Quick(t, configPath("inputs.toml")).Summary; sum.Metrics["F_monotone"] != 1 {
		t.Errorf("inputs: F_monotone = %v, want 1", sum.Metrics["F_monotone"])
	}
}

// TestMapAdvantageOnset: the onset is the start of the last run of k at
// which MAP's test error is below VB's, reaching the largest k.
func TestMapAdvantageOnset(t *testing.T) {
	ks := []int{1, 2, 20, 32, 48, 64}
	vb := []float64{5, 5, 5, 5, 5, 5}
	for _, c := range []struct {
		mp   []float64
		want int
	}{
		{[]float64{9, 9, 9, 4, 4, 4}, 32},
		{[]float64{4, 9, 9, 9, 4, 4}, 48}, // below at k = 1 too, but not throughout
		{[]float64{4, 4, 4, 4, 4, 6}, 0},  // not below at the largest k
		{[]float64{4, 4, 4, 4, 4, 4}, 1},
		{[]float64{9, 9, 9, 9, 5, 4}, 64}, // a tie is no advantage
	} {
		if got := mapAdvantageOnset(ks, vb, c.mp); got != c.want {
			t.Errorf("MAP %v: onset %d, want %d", c.mp, got, c.want)
		}
	}
}
