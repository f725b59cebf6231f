package chapter3

import (
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

// criteriaOf returns the criteria table of the experiment whose config is
// cfg (a table, or the function of the config and its data that builds it).
func criteriaOf(t *testing.T, cfg experiments.Config) (results.Criteria, bool) {
	t.Helper()
	switch c := cfg.(type) {
	case *SyntheticConfig:
		return syntheticCriteria, true
	case *AliceConfig:
		env := &experiments.Env{ID: c.Experiment, DataDir: experiments.TestDataDir(), Log: io.Discard}
		d, err := loadAlice(env, c)
		if err != nil {
			t.Fatal(err)
		}
		return aliceCriteria(c, d), true
	case *ModelOrderConfig:
		return modelOrderCriteria, true
	case *TightnessConfig:
		return tightnessCriteria, true
	}
	return nil, false
}

// noClaims are the shipped configs that judge no claim of the thesis: the
// studies of ours beside it (declared as extensions in artefacts.go).
var noClaims = map[string]string{
	"model-order.toml": "extension E3-X1",
	"tightness.toml":   "extension E3-X2",
}

// TestCriteriaClassified: for every shipped config, with and without its
// [quick] section, every criterion of its experiment is a claim of the
// thesis (with its number and line), an extension or a sanity check; the
// configs of noClaims judge no claim of the thesis and every other config
// some; Figure 3.4's sanity checks are the criteria that hold on any text
// (aliceDataIndependent); every chapter 3 experiment has a shipped config.
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
			cs, ok := criteriaOf(t, cfg)
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
			var sanity []string
			for _, c := range cs {
				switch c.Kind {
				case results.KindClaim:
					claims++
				case results.KindSanity:
					sanity = append(sanity, c.ID)
				}
			}
			why, none := noClaims[name]
			switch {
			case none && claims > 0:
				t.Errorf("%s (%s): %d claims of the thesis, want none", name, why, claims)
			case !none && claims == 0:
				t.Errorf("%s: no claim of the thesis", name)
			}
			if _, ok := cfg.(*AliceConfig); ok && !slices.Equal(sanity, aliceDataIndependent) {
				t.Errorf("%s: sanity checks %v, want those that hold on any text %v", name, sanity, aliceDataIndependent)
			}
		}
	}
	for _, s := range experiments.List() {
		if strings.HasPrefix(s.ID, "chapter3/") && !seen[s.ID] {
			t.Errorf("%s has no shipped config", s.ID)
		}
	}
}

// TestQuickChecksClassified: every check of every shipped config's [quick]
// run (the runs TestGolden makes) carries its criterion's kind, and Figure
// 3.4's claims C2, C3 and C5 are the thesis's at the canonical u0 and
// claims of ours at the diagnostic u0.
func TestQuickChecksClassified(t *testing.T) {
	files, err := filepath.Glob(configPath("*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatal("no configs", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".toml"), func(t *testing.T) {
			perU0 := 0
			for _, c := range exptest.Quick(t, f).Summary.Checks {
				if _, err := results.ParseKind(c.Kind); err != nil || c.Kind == "" {
					t.Errorf("check %s: kind %q", c.Key(), c.Kind)
				}
				want := ""
				switch {
				case strings.HasSuffix(c.ID, "[u0=2]"):
					want = "claim"
				case strings.HasSuffix(c.ID, "[u0=8]"):
					want = "extension"
				default:
					continue
				}
				perU0++
				if c.Kind != want {
					t.Errorf("check %s: kind %q, want %q", c.ID, c.Kind, want)
				}
			}
			if strings.HasPrefix(filepath.Base(f), "alice") && perU0 != 8 {
				t.Errorf("%d checks of C2, C3, C5 per u0, want 4 at u0 = 2 and 4 at u0 = 8", perU0)
			}
		})
	}
}
