package approx

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

// criteriaOf returns the criteria table of the experiment whose config is
// cfg (a table, or the function of the config that builds it).
func criteriaOf(cfg experiments.Config) (results.Criteria, bool) {
	switch c := cfg.(type) {
	case *OneDimConfig:
		return oneDimCriteria, true
	case *FactorisedConfig:
		return factorisedCriteria, true
	case *BimodalConfig:
		return bimodalCriteria, true
	case *UnivariateConfig:
		return univariateCriteria, true
	case *ClutterConfig:
		return clutterCriteria(c), true
	case *PimaConfig:
		return pimaCriteria(c), true
	case *SeparableConfig:
		return separableCriteria, true
	}
	return nil, false
}

// noClaims are the shipped configs that judge no claim of the texts: the
// variants of ours.
var noClaims = map[string]string{
	"clutter-2d.toml": "the clutter problem in two dimensions, a variant of ours",
}

// TestCriteriaClassified: for every shipped config, with and without its
// [quick] section, every criterion of its experiment is a claim of its
// text (with the text's words and line), an extension or a sanity check;
// the configs of noClaims judge no claim of the texts and every other
// config some; every approx experiment has a shipped config.
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
		if strings.HasPrefix(s.ID, "approx/") && !seen[s.ID] {
			t.Errorf("%s has no shipped config", s.ID)
		}
	}
}

// TestQuickChecksClassified: every check of every shipped config's [quick]
// run (the runs TestGolden makes) carries its criterion's kind.
func TestQuickChecksClassified(t *testing.T) {
	files, err := filepath.Glob(configPath("*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatal("no configs", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".toml"), func(t *testing.T) {
			for _, c := range exptest.Quick(t, f).Summary.Checks {
				if _, err := results.ParseKind(c.Kind); err != nil || c.Kind == "" {
					t.Errorf("check %s: kind %q", c.Key(), c.Kind)
				}
			}
		})
	}
}
