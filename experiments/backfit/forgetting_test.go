package backfit

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
)

// TestForgettingQuick runs the quick forgetting study and requires its
// sanity checks to pass, every claim to be judged, and the figures and
// tables to be written.
func TestForgettingQuick(t *testing.T) {
	r := exptest.Quick(t, configPath("forgetting.toml"))
	exptest.MustPass(t, r.Summary, "fig3.17-ratio-one-at-end", "vks-runs-capped", "fig3.17-window-covers-horizon")
	exptest.Checks(t, r.Summary, "fig3.14-vks-vs-vkf", "fig3.14-vks-vs-rls", "fig3.14-sign-vkf", "fig3.14-sign-rls",
		"fig3.13-vkf-lambda-under", "fig3.16-window-helps", "fig3.16-saturates", "fig3.17-horizon-psi", "fig3.17-horizon-lambda")
	for _, psi := range []string{"100", "1000", "10000"} {
		for _, m := range []string{"vks", "vkf", "rls"} {
			v, ok := r.Summary.Metrics[m+"_mse_psi"+psi]
			if !ok || !(v > 0) || math.IsInf(v, 0) {
				t.Errorf("metric %s_mse_psi%s = %v (present %v)", m, psi, v, ok)
			}
		}
	}
	for _, f := range []string{"dsouza_fig3_13.svg", "dsouza_fig3_14.svg", "dsouza_fig3_16.svg", "dsouza_fig3_17.svg", "forgetting_mse.csv"} {
		if _, err := os.Stat(filepath.Join(r.Dir, f)); err != nil {
			t.Error(err)
		}
	}
}

// TestForgettingPath: the stated path is the curve plus a random walk of
// the stated precision (the increments of the walk part have that
// precision within four standard errors of the sample variance).
func TestForgettingPath(t *testing.T) {
	c := DefaultForgetting()
	c.Steps = 20000
	c.Drift.Period = 1e9 // the curve nearly flat: increments are the walk's
	w := forgettingPath(&c)
	var s float64
	prev := 0.0
	for _, v := range w {
		s += (v - prev) * (v - prev)
		prev = v
	}
	v := s / float64(len(w))
	want := 1 / c.Drift.WalkPrecision
	if se := want * math.Sqrt(2/float64(len(w))); math.Abs(v-want) > 4*se {
		t.Errorf("increment variance %.4g, want %.4g ± %.2g", v, want, se)
	}
}

// TestForgettingHorizonOf checks the horizon on hand-made ratios.
func TestForgettingHorizonOf(t *testing.T) {
	// Settled at 2 (median of the first half); from the end 1, 1.5, 1.95.
	r := []float64{2, 2, 2, 2, 2, 2, 1.95, 1.5, 1}
	if h := forgetHorizonOf(r, 0.1); h != 2 {
		t.Errorf("horizon %d, want 2", h)
	}
	if h := forgetHorizonOf([]float64{2, 2, 1, 1}, 0.1); h != 2 {
		t.Errorf("horizon %d, want 2", h)
	}
}

// TestForgettingArtefactCaptions: each D'Souza figure this experiment
// declares sits at the line of its caption in the seed (skipped when
// ../shared is not beside the checkout).
func TestForgettingArtefactCaptions(t *testing.T) {
	root, _ := filepath.Abs("../..")
	var lines []string
	for dir := root; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if b, err := os.ReadFile(filepath.Join(dir, experiments.DSouza.Source)); err == nil {
			lines = strings.Split(string(b), "\n")
			break
		}
	}
	if lines == nil {
		t.Skipf("%s not found above %s", experiments.DSouza.Source, root)
	}
	checked := 0
	for _, doc := range experiments.Documents() {
		if doc.ID != experiments.DSouza.ID {
			continue
		}
		for _, a := range doc.Artefacts {
			if !strings.HasPrefix(a.Label, "Figure 3.1") || a.Line < 990 || a.Line > 1050 {
				continue
			}
			checked++
			if !strings.Contains(lines[a.Line-1], a.Label+":") {
				t.Errorf("%s: line %d does not hold its caption", a.Label, a.Line)
			}
		}
	}
	if checked != 5 {
		t.Errorf("%d forgetting artefacts checked, want 5 (Figures 3.13-3.17)", checked)
	}
}
