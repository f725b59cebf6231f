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

// criteriaOf returns the criteria table of the experiment whose config is
// cfg.
func criteriaOf(cfg experiments.Config) (results.Criteria, bool) {
	switch cfg.(type) {
	case *MotivatingConfig:
		return motivatingCriteria, true
	case *CompactnessConfig:
		return compactnessCriteria, true
	case *SingleConfig:
		return singleCriteria, true
	case *MapsConfig:
		return mapsCriteria, true
	case *BridgeConfig:
		return bridgeCriteria, true
	}
	return nil, false
}

// noClaims are the shipped configs that judge no claim of the text: the
// bridge to Beal's chapter 5, an extension of ours (its criteria are
// extensions and sanity checks).
var noClaims = map[string]string{
	"bridge.toml":            "the bridge, an extension",
	"bridge-full.toml":       "the bridge, an extension",
	"bridge-fixed.toml":      "the bridge, an extension",
	"bridge-fixed-full.toml": "the bridge, an extension",
}

// TestCriteriaClassified: for every shipped config, with and without its
// [quick] section, every criterion of its experiment is a claim of the
// text (with its number and line), an extension or a sanity check; the
// configs of noClaims judge no claim of the text and every other config
// some; every vembias experiment has a shipped config.
func TestCriteriaClassified(t *testing.T) {
	files, err := filepath.Glob(configPath("*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatal("no configs", err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		name := filepath.Base(f)
		for _, quick := range []bool{false, true} {
			spec, cfg, err := experiments.Load(f, quick)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			seen[spec.ID] = true
			cs, ok := criteriaOf(cfg)
			if !ok {
				t.Errorf("%s: no criteria table for a %T (criteriaOf)", name, cfg)
				continue
			}
			if err := cs.Validate(); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			if u := cs.Unclassified(); len(u) > 0 {
				t.Errorf("%s (quick %v): criteria without a kind: %s", name, quick, strings.Join(u, ", "))
			}
			claims := 0
			for _, c := range cs {
				if c.Kind == results.KindClaim {
					claims++
				}
			}
			why, none := noClaims[name]
			switch {
			case none && claims > 0:
				t.Errorf("%s (%s): %d claims of the text, want none", name, why, claims)
			case !none && claims == 0:
				t.Errorf("%s: no claim of the text", name)
			}
		}
	}
	for _, s := range experiments.List() {
		if strings.HasPrefix(s.ID, "vembias/") && !seen[s.ID] {
			t.Errorf("%s has no shipped config", s.ID)
		}
	}
}

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

// TestQuickChecksClassified: every check of every shipped config's [quick]
// run (the runs TestGolden makes) carries its criterion's kind, every claim
// of a run has a check that is not a sanity check, and the bridge's claims
// are judged over the seeds of each (λ, T).
func TestQuickChecksClassified(t *testing.T) {
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
				if _, err := results.ParseKind(c.Kind); err != nil || c.Kind == "" {
					t.Errorf("check %s: kind %q", c.Key(), c.Kind)
				}
				if b := results.BaseID(c.ID); slices.Contains([]string{"bridge-bias-toward-zero", "bridge-var-too-small"}, b) && (c.Spread == nil || c.Spread.N < 2) {
					t.Errorf("check %s: not judged over the seeds (spread %+v)", c.ID, c.Spread)
				}
			}
		})
	}
}
