package vembias

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

// TestEveryExperimentShown: every vembias experiment covers a figure of
// the paper or is declared as one of its extensions, so that its claims
// have a row on the page.
func TestEveryExperimentShown(t *testing.T) {
	shown := map[string]bool{}
	for _, d := range experiments.Documents() {
		if d.ID != experiments.TurnerSahani.ID {
			continue
		}
		for _, a := range d.Artefacts {
			for _, id := range a.Experiments {
				shown[id] = true
			}
		}
		for _, x := range d.Extensions {
			for _, id := range x.Experiments {
				shown[id] = true
			}
		}
	}
	for _, s := range experiments.List() {
		if strings.HasPrefix(s.ID, "vembias/") && !shown[s.ID] {
			t.Errorf("%s covers no figure of %s and is no extension of it", s.ID, experiments.TurnerSahani.ID)
		}
	}
}

// TestClaimsJudgedOverSeeds: in the quick run of every shipped config,
// every claim has a check that is not a sanity check, and the bridge's
// claims are judged over the seeds of each (λ, T).
func TestClaimsJudgedOverSeeds(t *testing.T) {
	files, err := filepath.Glob(configPath("*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatal("no configs", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".toml"), func(t *testing.T) {
			sum := exptest.Quick(t, f).Summary
			for _, cl := range sum.Claims {
				judged := false
				for _, id := range cl.Checks {
					for _, c := range sum.ChecksOf(id) {
						judged = judged || !c.IsSanity()
					}
				}
				if !judged {
					t.Errorf("claim on %s: sanity checks alone, which judge no claim", cl.Artifact)
				}
			}
			for _, c := range sum.Checks {
				if b := results.BaseID(c.ID); slices.Contains([]string{"bridge-bias-toward-zero", "bridge-var-too-small"}, b) && (c.Spread == nil || c.Spread.N < 2) {
					t.Errorf("check %s: not judged over the seeds (spread %+v)", c.ID, c.Spread)
				}
			}
		})
	}
}
