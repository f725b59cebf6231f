package approx

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

// TestConfigs loads every shipped config with and without [quick] and
// checks that bad values are refused with a one-line error naming the key.
func TestConfigs(t *testing.T) {
	exptest.CheckConfigsLoad(t, configPath(""), 4)
	exptest.CheckConfigEdits(t, configPath(""), []exptest.ConfigEdit{
		{"onedim.toml", "quad_rel_tol  = 1e-10", "quad_rel_tol  = -1.0", "numerics.quad_rel_tol"},
		{"factorised.toml", "ar_steps         = 21", "ar_steps         = 2", "ar_steps"},
		{"factorised.toml", "prml_correlation = 0.9", "prml_correlation = 1.0", "prml_correlation"},
		{"bimodal.toml", "variance_ratios = [1.0, 3.0, 10.0]", "variance_ratios = [0.5, 3.0, 10.0]", "variance_ratios"},
		{"univariate-gaussian.toml", "a0      = 0.1", "a0      = 0.0", "prior.a0"},
	})
}

// TestClaims checks the criteria of every quick run by ID: every claim of
// the texts holds, except T&S's compactness at Δ = 10, ratio 10, which the
// exact computation refutes (see bimodal.go's finding).
func TestClaims(t *testing.T) {
	runs := map[string][]string{
		"onedim.toml": {"fig10.1-vb-mean-nearer", "fig10.1-vb-klqp-below-laplace", "fig10.14-ep-broader", "fig10.14-ep-moments",
			"fig10.14-ep-klpq-below-vb", "fig1.12a-laplace-overestimates-tails", "fig1.12b-laplace-ignores-left", "fig1.13-vb-follows-mass"},
		"factorised.toml": {"fig10.2a-mean-exact", "fig10.2a-precision-matched", "fig10.2a-compact", "fig10.2a-bound-monotone",
			"fig10.2b-marginals", "fig1.9-klqp-compact", "fig1.9-klpq-broad", "fig2.5-compact", "fig2.5-worse-with-correlation",
			"tns1.3-interior-variance", "tns1.3-underestimates", "fig5.6-separated", "fig5.6-narrow", "fig5.6-inside", "fig5.6-mixture-better"},
		"bimodal.toml": {"fig10.3a-broad", "fig10.3a-klpq-best", "fig10.3bc-mode-seeking", "fig10.3bc-two-minima",
			"tns1.2-exact-identical", "tns1.2-broader-mode", "tns1.2-entropy-exceeds"},
		"univariate-gaussian.toml": {"fig10.4-bound-monotone", "fig10.4-gap-is-kl", "fig10.4-kl-quadrature",
			"fig10.4-bound-below-evidence", "eq10.33-unbiased"},
	}
	for cfg, ids := range runs {
		exptest.MustPass(t, exptest.Quick(t, configPath(cfg)).Summary, ids...)
	}
	s := exptest.Quick(t, configPath("bimodal.toml")).Summary
	for _, c := range exptest.Checks(t, s, "tns1.2-compact-separated") {
		if c.Pass || c.Value != 1 {
			t.Errorf("T&S compactness at the largest separation: %v (want the one refuting panel, ratio 10)", c.Value)
		}
	}
	if v, ok := s.Metrics["turner_sahani_fig1_2.sep10-ratio10.entropy_difference"]; !ok || !(v > 0.2 && v < 0.35) {
		t.Errorf("entropy difference at Δ = 10, ratio 10: %v", v)
	}
}

// TestInterfaceMetrics checks the metric that later checks rely on (issue
// 25's interface): vb_kl_exact of the univariate Gaussian.
func TestInterfaceMetrics(t *testing.T) {
	s := exptest.Quick(t, configPath("univariate-gaussian.toml")).Summary
	kl, ok := s.Metrics["vb_kl_exact"]
	gap := s.Metrics["ln_evidence"] - s.Metrics["vb_bound"]
	if !ok || !(kl > 0) || abs(kl-gap) > 1e-9 {
		t.Errorf("vb_kl_exact = %v (present %v), ln p − F = %v", kl, ok, gap)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestPlotFromFiles redraws every figure from a copy of the quick runs'
// CSV files alone and checks that each named figure is written.
func TestPlotFromFiles(t *testing.T) {
	for cfg, figs := range map[string][]string{
		"onedim.toml":              {"prml_fig10_1", "prml_fig10_14", "lawrence_fig1_12", "lawrence_fig1_13"},
		"factorised.toml":          {"prml_fig10_2", "lawrence_fig1_9", "dsouza_fig2_5", "turner_sahani_fig1_3", "lawrence_fig5_6"},
		"bimodal.toml":             {"prml_fig10_3", "turner_sahani_fig1_2"},
		"univariate-gaussian.toml": {"prml_fig10_4"},
	} {
		run := exptest.Quick(t, configPath(cfg))
		dir := t.TempDir()
		csvs, err := filepath.Glob(filepath.Join(run.Dir, "*.csv"))
		if err != nil || len(csvs) == 0 {
			t.Fatalf("%s: no CSV files in %s", cfg, run.Dir)
		}
		for _, f := range csvs {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := results.WriteFileAtomic(filepath.Join(dir, filepath.Base(f)), b); err != nil {
				t.Fatal(err)
			}
		}
		plot := map[string]func(string) error{"onedim.toml": PlotOneDim, "factorised.toml": PlotFactorised,
			"bimodal.toml": PlotBimodal, "univariate-gaussian.toml": PlotUnivariate}[cfg]
		if err := plot(dir); err != nil {
			t.Fatalf("%s: %v", cfg, err)
		}
		for _, f := range figs {
			for _, ext := range []string{".svg", ".png"} {
				if st, err := os.Stat(filepath.Join(dir, f+ext)); err != nil || st.Size() == 0 {
					t.Errorf("%s: %s%s missing: %v", cfg, f, ext, err)
				}
			}
		}
	}
}
