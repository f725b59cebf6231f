package chapter3

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/datasets"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

func loadABC21(t testing.TB) hmm.Data {
	t.Helper()
	raw, err := experiments.ReadData(experiments.TestDataDir(), "abc21.txt")
	if err != nil {
		t.Fatal(err)
	}
	d, err := datasets.ParseSequences("abc21.txt", raw, "abc")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestABC21Shape(t *testing.T) {
	// ../shared/data/README.md: 21 strings, 550 symbols, longest 39.
	d := loadABC21(t)
	longest := 0
	for _, s := range d.Seqs {
		longest = max(longest, len(s))
	}
	if len(d.Seqs) != 21 || d.Symbols() != 550 || longest != 39 {
		t.Fatalf("abc21: %d sequences, %d symbols, longest %d; want 21, 550, 39", len(d.Seqs), d.Symbols(), longest)
	}
}

func TestABC21ReferenceValues(t *testing.T) {
	// targets §E3.1: with symmetric priors of total strength 1 per row,
	// F at k = 1 is -600.936 (the closed-form evidence) and the best
	// restart at k = 2 reaches -569.306 (independent implementations agree
	// on both). Which restarts reach the k = 2 optimum depends on the random
	// initialisation scheme; with ML-initialised restarts (the thesis's
	// procedure) about a fifth do, so 20 restarts are used, and none may
	// exceed it.
	d := loadABC21(t)
	run := func(k int, seed uint64) float64 {
		u := hmm.SymmetricPrior(k, 3, 1, 1, 1)
		ml := hmm.NewEM(d, hmm.RandomParams(k, 3, rand.New(rand.NewPCG(seed, 1))), nil)
		if r := vb.Run(ml, vb.Settings{MaxIterations: 5000}); r.Error() != nil {
			t.Fatal(r.Error())
		}
		r := vb.Run(hmm.NewVB(d, u, hmm.PosteriorFromParams(ml.Params, 10, 1e-10)), vb.Settings{MaxIterations: 5000, RelTol: 1e-10})
		if err := r.Error(); err != nil {
			t.Fatal(err)
		}
		return r.F
	}
	if f := run(1, 1); math.Abs(f-(-600.936)) > 5e-4 {
		t.Errorf("k=1: F = %.4f, want -600.936", f)
	}
	best := math.Inf(-1)
	for s := uint64(1); s <= 20; s++ {
		best = math.Max(best, run(2, s))
	}
	if math.Abs(best-(-569.306)) > 5e-4 {
		t.Errorf("k=2: best F of 20 restarts = %.4f, want -569.306", best)
	}
}

func TestGrammarGenerator(t *testing.T) {
	g := GrammarSpec{PerGrammar: 7, MinLength: 10, MaxLength: 39, ABProb: 0.5, RandomPhase: true}
	d := g.Generate(rand.New(rand.NewPCG(1, 1)))
	if len(d.Seqs) != 21 || d.Validate() != nil {
		t.Fatalf("%d sequences, %v", len(d.Seqs), d.Validate())
	}
	next := [][3]int{{1, 2, 0}, {2, 0, 1}} // successor of a, b, c in (abc)* and (acb)*
	for i, s := range d.Seqs {
		if len(s) < 10 || len(s) > 39 {
			t.Fatalf("sequence %d has length %d", i, len(s))
		}
		for tt := 1; tt < len(s); tt++ {
			switch {
			case i < 14 && s[tt] != next[i/7][s[tt-1]]:
				t.Fatalf("sequence %d breaks its cycle at %d: %v", i, tt, s)
			case i >= 14 && s[tt] == 2:
				t.Fatalf("(a*b*)* sequence %d contains c", i)
			}
		}
	}
}

// sevenState builds mean parameters of the postulated 7-state model with 5
// unused states.
func sevenState() (hmm.Params, []float64) {
	k, p := 12, 3
	θ := hmm.NewParams(k, p)
	occ := make([]float64, k)
	for j := 0; j < k; j++ {
		θ.Pi[j] = 1.0 / 12
		for l := 0; l < k; l++ {
			θ.A[j*k+l] = 1.0 / 12
		}
		for m := 0; m < p; m++ {
			θ.C[j*p+m] = 1.0 / 3
		}
	}
	set := func(j, to int, emit int) {
		for l := 0; l < k; l++ {
			θ.A[j*k+l] = 0.01 / 11
		}
		θ.A[j*k+to] = 0.99
		for m := 0; m < p; m++ {
			θ.C[j*p+m] = 0.01
		}
		θ.C[j*p+emit] = 0.98
		occ[j] = 70
	}
	set(2, 11, 0) // a -> b -> c (states 2, 11, 1)
	set(11, 1, 1)
	set(1, 2, 2)
	set(8, 9, 0) // a -> c -> b (states 8, 9, 7)
	set(9, 7, 2)
	set(7, 8, 1)
	for l := 0; l < k; l++ {
		θ.A[3*k+l] = 0.1 / 11
	}
	θ.A[3*k+3] = 0.9
	θ.C[3*p], θ.C[3*p+1], θ.C[3*p+2] = 0.5, 0.49, 0.01
	occ[3] = 130
	return θ, occ
}

func TestCheckStructure(t *testing.T) {
	θ, occ := sevenState()
	s := CheckStructure(θ, occ, 0.01)
	if !s.Recovered || s.ABState != 3 || len(s.Active) != 7 {
		t.Fatalf("postulated model not recognised: %+v", s)
	}
	// An eighth active state breaks "exactly 7".
	occ8 := append([]float64(nil), occ...)
	occ8[0] = 50
	if CheckStructure(θ, occ8, 0.01).Recovered {
		t.Fatal("8 active states accepted")
	}
	// Two abc cycles instead of abc + acb.
	θ2 := θ.Clone()
	θ2.C[9*3+2], θ2.C[9*3+1] = 0.01, 0.98 // state 9 emits b: a -> b -> b
	if CheckStructure(θ2, occ, 0.01).Recovered {
		t.Fatal("broken acb cycle accepted")
	}
	// The a/b state must self-transition.
	θ3 := θ.Clone()
	θ3.A[3*12+3], θ3.A[3*12+4] = 0.5, 0.4+0.1/11
	if CheckStructure(θ3, occ, 0.01).Recovered {
		t.Fatal("a/b state without self-loop accepted")
	}
}

func quickEnv(t *testing.T) string {
	t.Helper()
	return t.TempDir()
}

func runQuick(t *testing.T, out, config string, workers int) string {
	t.Helper()
	dir, err := experiments.RunConfig(context.Background(), config, experiments.RunOptions{
		Out: out, Quick: true, Workers: workers, DataDir: experiments.TestDataDir()})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func configPath(name string) string { return filepath.Join("..", "..", "configs", "chapter3", name) }

// TestSyntheticQuickRun: the shared quick run writes every file, has the
// interface's metrics and passes the data-independent check; a run with
// one worker gives the same numbers, resuming it gives the same tables,
// and vbw plot redraws from the files alone.
func TestSyntheticQuickRun(t *testing.T) {
	q := exptest.Quick(t, configPath("synthetic.toml"))
	for _, f := range []string{"summary.json", "manifest.json", "config.toml", "runs.csv", "trace.csv", "params.csv",
		"fig3_2.svg", "fig3_2.png", "fig3_3.svg", "fig3_3.png"} {
		st, err := os.Stat(filepath.Join(q.Dir, f))
		if err != nil || st.Size() == 0 {
			t.Fatalf("%s missing or empty: %v", f, err)
		}
	}
	sum := q.Summary
	for _, m := range []string{"F_best", "ml_loglik", "ml_iterations", "vb_iterations", "ml_active_states", "vb_active_states", "structure_recovered"} {
		if _, ok := sum.Metrics[m]; !ok {
			t.Errorf("summary metric %s missing", m)
		}
	}
	exptest.Checks(t, sum, syntheticCriteria.IDs()...)
	exptest.MustPass(t, sum, "fig3.2-monotone")
	// F is a bound on ln p(y) and, with the same data, far above the k=1 evidence.
	if f := sum.Metrics["F_best"]; !(f > -600.936 && f < 0) {
		t.Errorf("F_best = %v", f)
	}
	// One worker gives the same numbers as two (the shared run); re-running
	// resumes from the stored cells and gives identical tables (runs.csv,
	// with the cells' timings).
	out := quickEnv(t)
	dir := runQuick(t, out, configPath("synthetic.toml"), 1)
	if dir != filepath.Join(out, "chapter3", "synthetic") {
		t.Fatalf("results in %s", dir)
	}
	if read(t, filepath.Join(dir, "trace.csv")) != read(t, filepath.Join(q.Dir, "trace.csv")) {
		t.Fatal("trace.csv depends on the number of workers")
	}
	before := read(t, filepath.Join(dir, "runs.csv"))
	runQuick(t, out, configPath("synthetic.toml"), 2)
	if read(t, filepath.Join(dir, "runs.csv")) != before {
		t.Fatal("runs.csv changed on a resumed run")
	}
	// vbw plot redraws from the files alone.
	os.Remove(filepath.Join(dir, "fig3_3.png"))
	if err := experiments.PlotDir(dir, SyntheticID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "fig3_3.png")); err != nil {
		t.Fatal("fig3_3.png not redrawn")
	}
}

// TestSyntheticGrammarQuickRun: the generated-data study's quick run has
// its three data sets and judges every criterion.
func TestSyntheticGrammarQuickRun(t *testing.T) {
	sum := exptest.Quick(t, configPath("synthetic-grammar.toml")).Summary
	if sum.Metrics["datasets"] != 3 {
		t.Fatalf("quick grammar study ran %v data sets, want 3", sum.Metrics["datasets"])
	}
	exptest.MustPass(t, sum, "fig3.2-monotone", "fig3.3-inactive-at-prior")
}

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBadConfigs(t *testing.T) {
	base, err := os.ReadFile(configPath("synthetic.toml"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, from, to, want string
	}{
		{"unknown key", "restarts   = 10", "restarts   = 10\nrestrats = 3", `"restrats"`},
		{"negative prior strength", "pi = 4.0", "pi = -4.0", "prior.pi = -4"},
		{"missing data file", `file     = "abc21.txt"`, `file     = "nope.txt"`, "nope.txt"},
		{"bad init", `init           = "from-ml"`, `init           = "sideways"`, "vb.init"},
	}
	for _, c := range cases {
		text := strings.Replace(string(base), c.from, c.to, 1)
		if text == string(base) {
			t.Fatalf("%s: pattern %q not found in synthetic.toml", c.name, c.from)
		}
		_, err := experiments.RunConfig(context.Background(), writeConfig(t, text), experiments.RunOptions{
			Out: t.TempDir(), DataDir: experiments.TestDataDir()})
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want a one-line error mentioning %s", c.name, err, c.want)
		}
	}
}

func BenchmarkForwardBackwardABC21K12(b *testing.B) {
	d := loadABC21(b)
	θ := hmm.RandomParams(12, 3, rand.New(rand.NewPCG(1, 1)))
	m := hmm.NewEM(d, θ, nil)
	b.ReportAllocs()
	for b.Loop() {
		m.E()
	}
}

func BenchmarkVBIterationABC21K12(b *testing.B) {
	d := loadABC21(b)
	u := hmm.SymmetricPrior(12, 3, 4, 4, 4)
	w := hmm.PosteriorFromParams(hmm.RandomParams(12, 3, rand.New(rand.NewPCG(1, 1))), 10, 1e-10)
	m := hmm.NewVB(d, u, w)
	b.ReportAllocs()
	for b.Loop() {
		m.E()
		m.M()
	}
}

func TestModelOrderQuickRun(t *testing.T) {
	q := exptest.Quick(t, configPath("model-order.toml"))
	dir := q.Dir
	exptest.MustPass(t, q.Summary, "order-monotone", "order-cs-le-f", "order-best-cs-le-f")
	for _, f := range []string{"order.csv", "order_best.csv", "model_order.svg", "model_order.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// At k = 1 the ML solution is the unigram model, the E step is trivial,
	// and CS equals F equals the exact Dirichlet-multinomial evidence.
	tab, err := results.ReadCSV(filepath.Join(dir, "order_best.csv"))
	if err != nil {
		t.Fatal(err)
	}
	f, _ := tab.Floats("F")
	cs, _ := tab.Floats("CS")
	ks, _ := tab.Floats("k")
	if ks[0] != 1 || math.Abs(f[0]-cs[0]) > 1e-9*math.Abs(f[0]) {
		t.Fatalf("k=%v: F = %v, CS = %v, want equal", ks[0], f[0], cs[0])
	}
}
