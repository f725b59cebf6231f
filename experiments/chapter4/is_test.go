package chapter4

import (
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/is"
)

// TestISTightnessQuick runs the Figure 4.12/4.13 config with its [quick]
// settings: the tables, figures and the interface's metrics, KL̂ ≥ 0 (it is
// deterministic) and one row per (snapshot, run).
func TestISTightnessQuick(t *testing.T) {
	q := quickRun(t, "is-tightness.toml", "is_tightness.csv", "snapshots.csv", "moves.csv", "fig4_12.svg", "fig4_12.png", "fig4_13.svg", "fig4_13.png")
	dir, sum := q.Dir, q.Summary
	if kl, ok := sum.Metrics["kl_min"]; !ok || !(kl >= 0) {
		t.Errorf("kl_min = %v (present %v), want ≥ 0", kl, ok)
	}
	if _, ok := sum.Metrics["gap_vs_components_spearman"]; !ok {
		t.Error("no gap_vs_components_spearman metric")
	}
	tab, err := results.ReadCSV(filepath.Join(dir, "is_tightness.csv"))
	if err != nil {
		t.Fatal(err)
	}
	snaps := sum.Metrics["snapshots"]
	if !(snaps >= 1) || float64(len(tab.Rows)) != 2*snaps { // [quick] is.runs = 2
		t.Errorf("%d rows for %v snapshots", len(tab.Rows), snaps)
	}
	lnp, _ := tab.Floats("ln_p_hat")
	fh, _ := tab.Floats("F_hat")
	for i := range lnp {
		if !(lnp[i] >= fh[i]) {
			t.Errorf("row %d: ln p̂ = %v < F̂ = %v", i, lnp[i], fh[i])
		}
	}
	exptest.Checks(t, sum, isTightnessCriteria.IDs()...)
	exptest.MustPass(t, sum, "fig4.13-kl-nonneg", "f-monotone")
}

// TestISSamplersQuick runs the Table 4.3/Figure 4.14 config with its
// [quick] settings: per data set F, F′ and every sampler's mean ln p̂ with
// its standard error.
func TestISSamplersQuick(t *testing.T) {
	q := quickRun(t, "is-samplers.toml", "table4_3.csv", "is_runs.csv", "vb_runs.csv", "data.csv", "analysers.csv", "fig4_14.svg", "fig4_14.png")
	dir, sum := q.Dir, q.Summary
	for _, d := range []string{"delta4", "delta2", "delta1"} {
		f, fp := sum.Metrics[d+".F"], sum.Metrics[d+".F_prime"]
		if !(fp >= f) {
			t.Errorf("%s: F = %v, F' = %v", d, f, fp)
		}
		for k := 1; k <= 6; k++ {
			pre := d + ".sampler" + strconv.Itoa(k) + "."
			if m, se := sum.Metrics[pre+"ln_p_mean"], sum.Metrics[pre+"ln_p_se"]; math.IsNaN(m) || !(se >= 0) {
				t.Errorf("%s: ln p̂ = %v ± %v", pre, m, se)
			}
		}
	}
	tab, err := results.ReadCSV(filepath.Join(dir, "table4_3.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 3*6 {
		t.Errorf("%d rows in table4_3.csv, want 18", len(tab.Rows))
	}
}

// TestISHazardQuick runs the extra figure's config with its [quick]
// settings; at these sample sizes the agreement checks must hold too.
func TestISHazardQuick(t *testing.T) {
	q := quickRun(t, "is-hazard.toml", "is_hazard.csv", "is_hazard_runs.csv", "is_hazard.svg", "is_hazard.png")
	exptest.MustPass(t, q.Summary, "eq4.121-mc-rel-error", "eq4.121-mc-z")
}

// TestISConfigErrors: bad values of the three configs name their keys.
func TestISConfigErrors(t *testing.T) {
	exptest.CheckConfigEdits(t, configPath(""), []exptest.ConfigEdit{
		{"is-tightness.toml", "samples        = 100", "samples        = 0", "is.samples"},
		{"is-tightness.toml", "runs           = 6", "runs           = 1", "is.runs"},
		{"is-tightness.toml", "snapshot_every = 1", "snapshot_every = 0", "is.snapshot_every"},
		{"is-tightness.toml", "classes    = [0, 1, 2]", "classes    = [0, 1, 1]", "classes"},
		{"is-tightness.toml", "k_max = 6", "k_max = -2", "model.k_max"},
		{"is-tightness.toml", `reference            = "matched"`, `reference            = "best"`, "search.reference"},
		{"is-samplers.toml", "deltas             = [4.0, 2.0, 1.0]", "deltas             = [4.0, -2.0]", "data.deltas"},
		{"is-samplers.toml", "count           = 10", "count           = 0", "vb_runs.count"},
		{"is-samplers.toml", `init            = "data_points"`, `init            = "kmeans"`, "vb_runs.init"},
		{"is-samplers.toml", "init_sharpness  = 0.9", "init_sharpness  = 0.1", "vb_runs.init_sharpness"},
		{"is-samplers.toml", "max_attempts    = 200", "max_attempts    = 5", "vb_runs.max_attempts"},
		{"is-samplers.toml", "require_S       = 4 ", "require_S       = 5 ", "vb_runs.require_S"},
		{"is-samplers.toml", "k_max = 1 ", "k_max = 3 ", "model.k_max"},
		{"is-samplers.toml", `kind = "mixture"`, `kind = "blend"`, "is.samplers.kind"},
		{"is-samplers.toml", "dof  = 3.0                             # relative variance 3", "dof  = -3.0", "is.samplers.dof"},
		{"is-samplers.toml", "key  = 2", "key  = 1", "is.samplers.key"},
		{"is-samplers.toml", "samples = 4000", "samples = 0", "is.samples"},
		{"is-hazard.toml", "steps      = 30", "steps      = 1", "grid.steps"},
		{"is-hazard.toml", "ratio_from = 0.1", "ratio_from = -0.1", "grid.ratio_from"},
		{"is-hazard.toml", "ratio_from = 0.1", "ratio_from = 3.0", "grid.ratio_to"},
		{"is-hazard.toml", "steps      = 30", "steps      = 100000", "grid.steps"},
		{"is-hazard.toml", "growth_samples = 10000 ", "growth_samples = 1000000 ", "growth_samples"},
		{"is-hazard.toml", "check_max_ratio = 1.25", "check_max_ratio = 1.5", "check_max_ratio"},
		{"is-hazard.toml", "diverge_from    = 2.5 ", "diverge_from    = 1.5 ", "diverge_from"},
		{"is-hazard.toml", "mc_samples     = 1000000", "mc_samples     = 1", "mc_samples"},
		{"is-hazard.toml", "check_max_ratio = 1.25", "check_max_ratio = 0.0", "check_max_ratio"},
	})
}

// TestMFAProposalExact (targets §1.13 item 3) runs the whole pipeline,
// mfaProposal, mfa.ISTarget and is.Sample, where q is exact: one analyser
// without factors and frozen hyperparameters after one E step. Every log
// weight is then ln p(y) = F, so ln p̂ = F̂ = F, KL̂ = 0 and ESS = M.
func TestMFAProposalExact(t *testing.T) {
	rnd := rng.New(1, "chapter4", "proposal-exact")
	const n, p = 30, 2
	y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		y.Set(i, 0, 1+rnd.NormFloat64())
		y.Set(i, 1, -2+0.5*rnd.NormFloat64())
	}
	h := mfa.Hyper{Alpha: 1, A: 1, B: 0.01, Mu: []float64{0, 0}, Nu: []float64{0.5, 2}, Psi: []float64{0.9, 0.3}}
	m, err := mfa.NewVBRandom(y, 1, mfa.Settings{K: 0, Hyper: h}, rnd)
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.E()
	if err != nil {
		t.Fatal(err)
	}
	m.M()
	post := m.ISPosterior()
	q, err := mfaProposal(post, 0)
	if err != nil {
		t.Fatal(err)
	}
	target, err := mfa.NewISTarget(y, post.Layout(), post.Hyper)
	if err != nil {
		t.Fatal(err)
	}
	if q.Dim() != target.Dim() {
		t.Fatalf("proposal dimension %d, target %d", q.Dim(), target.Dim())
	}
	const M = 200
	r := is.Sample(M, q, target, rng.New(2, "chapter4", "proposal-exact"))
	for i, lw := range r.LogW {
		if math.Abs(lw-b.F) > 1e-9*math.Abs(b.F) {
			t.Fatalf("sample %d: ln w = %.15g, F = %.15g", i, lw, b.F)
		}
	}
	if math.Abs(r.LogZ-b.F) > 1e-9*math.Abs(b.F) || math.Abs(r.KL()) > 1e-9 || math.Abs(r.ESS-M) > 1e-6 {
		t.Errorf("ln p̂ = %v, KL̂ = %v, ESS = %v; want F = %v, 0, %d", r.LogZ, r.KL(), r.ESS, b.F, M)
	}
	// The Student-t rows have the same location: the weights vary, and
	// ln p̂ is still consistent for ln p(y).
	qt, err := mfaProposal(post, 3)
	if err != nil {
		t.Fatal(err)
	}
	rt := is.Sample(20000, qt, target, rng.New(3, "chapter4", "proposal-exact"))
	if math.Abs(rt.LogZ-b.F) > 0.05 {
		t.Errorf("t rows: ln p̂ = %v, ln p(y) = %v", rt.LogZ, b.F)
	}
}

// TestLSSlope checks the least-squares slope on a line.
func TestLSSlope(t *testing.T) {
	if s := lsSlope([]float64{0, 1, 2}, []float64{1, 3, 5}); math.Abs(s-2) > 1e-15 {
		t.Errorf("slope %v", s)
	}
}

// BenchmarkISSampleDigits times one importance sample at the shape of
// §4.7.2 on the digits (S = 25 analysers, n = 1145 points, p = 62, k = 6):
// θ ~ q(π)q(Λ̃) with mfaProposal and ln p(θ, y) over all points.
func BenchmarkISSampleDigits(b *testing.B) {
	const n, p, k, S = 1145, 62, 6, 25
	rnd := rng.New(5, "chapter4", "bench")
	centres := make([][]float64, S)
	for s := range centres {
		centres[s] = make([]float64, p)
		for q := range centres[s] {
			centres[s][q] = 2 * rnd.NormFloat64()
		}
	}
	y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for q := 0; q < p; q++ {
			y.Set(i, q, centres[i%S][q]+rnd.NormFloat64())
		}
	}
	m, err := mfa.NewVBRandom(y, S, mfa.Settings{K: k}, rnd)
	if err != nil {
		b.Fatal(err)
	}
	for range 3 {
		if _, err := m.E(); err != nil {
			b.Fatal(err)
		}
		m.M()
		m.UpdateHyper(mfa.HyperPsi)
	}
	post := m.ISPosterior()
	q, err := mfaProposal(post, 0)
	if err != nil {
		b.Fatal(err)
	}
	target, err := mfa.NewISTarget(y, post.Layout(), post.Hyper)
	if err != nil {
		b.Fatal(err)
	}
	theta := make([]float64, q.Dim())
	draws := rng.New(6, "chapter4", "bench")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		is.LogWeight(theta, q, target, draws)
	}
}
