package chapter6

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
// cfg (a table, or the function of the config that builds it).
func criteriaOf(cfg experiments.Config) (results.Criteria, bool) {
	switch c := cfg.(type) {
	case *SingleConfig:
		return newSingleCriteria(c).all(), true
	case *PriorConfig:
		return newPriorCriteria(c).all(), true
	case *GranularityConfig:
		return granularityCriteria(c), true
	case *SchedulesConfig:
		fig613, hyst := schedulesCriteria(c)
		return slices.Concat(fig613, hyst), true
	case *DimsConfig:
		return dimsCriteria, true
	}
	return nil, false
}

// TestCriteriaClassified: for every shipped config, with and without its
// [quick] section, every criterion of its experiment is a claim of the
// thesis (with its statement and line), an extension or a sanity check;
// the configs of the declared extensions (a setting of ours) judge no claim
// of the thesis, every other config some; the extensions' experiments are
// declared as extensions of the thesis and cover none of its artefacts;
// every chapter 6 experiment has a shipped config.
func TestCriteriaClassified(t *testing.T) {
	files, err := filepath.Glob(configPath("*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatal("no configs", err)
	}
	extensions, artefacts := map[string]bool{}, map[string]bool{}
	for _, d := range experiments.Documents() {
		if d.ID != experiments.Thesis.ID {
			continue
		}
		for _, x := range d.Extensions {
			for _, id := range x.Experiments {
				extensions[id] = true
			}
		}
		for _, a := range d.Artefacts {
			for _, id := range a.Experiments {
				artefacts[id] = true
			}
		}
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
			ext := extensions[spec.ID]
			switch {
			case ext && claims > 0:
				t.Errorf("%s (quick %v): an extension of the thesis with %d claims of it, want none", name, quick, claims)
			case !ext && claims == 0:
				t.Errorf("%s (quick %v): no claim of the thesis", name, quick)
			}
			if ext && artefacts[spec.ID] {
				t.Errorf("%s: %s is an extension and covers an artefact of the thesis", name, spec.ID)
			}
		}
	}
	for _, s := range experiments.List() {
		if strings.HasPrefix(s.ID, "chapter6/") && !seen[s.ID] {
			t.Errorf("%s has no shipped config", s.ID)
		}
	}
	for id := range extensions {
		if strings.HasPrefix(id, "chapter6/") && !seen[id] {
			t.Errorf("extension %s has no shipped config", id)
		}
	}
}

// TestOursMakesExtensions: a key the thesis fixes, set otherwise in a
// config of the thesis's experiment, turns its claims into claims of ours;
// the keys [quick] reduces (restarts, AIS steps) do not.
func TestOursMakesExtensions(t *testing.T) {
	kinds := func(c *SingleConfig) (claims, exts int) {
		for _, cr := range newSingleCriteria(c).all() {
			switch cr.Kind {
			case results.KindClaim:
				claims++
			case results.KindExtension:
				exts++
			}
		}
		return claims, exts
	}
	c := DefaultSingle()
	thesisClaims, _ := kinds(&c)
	c.Scores.Restarts, c.AIS.Steps = 1, 64
	if n, _ := kinds(&c); n != thesisClaims {
		t.Errorf("fewer restarts and steps: %d claims, want the thesis's %d", n, thesisClaims)
	}
	for name, edit := range map[string]func(*SingleConfig){
		"alias_rule": func(c *SingleConfig) { c.Scores.AliasRule = "strict" },
		"em_stop":    func(c *SingleConfig) { c.Scores.EMStop = "converged" },
		"lambda":     func(c *SingleConfig) { c.Prior.Lambda = 2 },
		"true_code":  func(c *SingleConfig) { c.Model.TrueCode = "1331" },
		"e_tau":      func(c *SingleConfig) { c.AIS.ETau = 1 },
	} {
		c := DefaultSingle()
		edit(&c)
		if n, x := kinds(&c); n != 0 || x < thesisClaims {
			t.Errorf("%s set otherwise: %d claims and %d extensions, want 0 and at least %d", name, n, x, thesisClaims)
		}
	}
}

// TestQuickChecksClassified: every check of every shipped config's [quick]
// run (the runs TestGolden makes) carries its criterion's kind, and a claim
// of the thesis its statement and line.
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
				if c.Kind == results.KindClaim.String() && (c.Theirs == "" || c.Line == "") {
					t.Errorf("check %s: a claim without the thesis's statement (%q) or line (%q)", c.Key(), c.Theirs, c.Line)
				}
			}
		})
	}
}
