package main

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
)

// resolvedLeaves returns the resolved config of path (quick or not) as
// dotted key → value.
func resolvedLeaves(t *testing.T, path string, quick bool) map[string]any {
	t.Helper()
	_, cfg, err := experiments.Load(path, quick)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	data, _, err := config.Encode(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if _, err := toml.Decode(string(data), &m); err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if sub, ok := v.(map[string]any); ok {
			for k, x := range sub {
				walk(strings.TrimPrefix(prefix+"."+k, "."), x)
			}
			return
		}
		out[prefix] = v
	}
	walk("", m)
	return out
}

// TestVariantsByDifference: a shipped config that shares its experiment
// with another of its folder is written as a difference from one base
// (exactly one config of each experiment has no base, and every long
// variant, *-full.toml, has one), and a variant sets no key to the value
// its base already gives it, so that it lists only what differs (but its
// settings, which a variant declares).
func TestVariantsByDifference(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "..", "configs", "*", "*.toml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no configs: %v", err)
	}
	roots := map[string][]string{} // experiment → configs without a base
	for _, p := range paths {
		base, err := config.TopString(p, config.BaseKey)
		if err != nil {
			t.Fatal(err)
		}
		var own map[string]any
		if _, err := toml.DecodeFile(p, &own); err != nil {
			t.Fatal(err)
		}
		_, hasBase := own[config.BaseKey]
		id, err := experiments.ExperimentOf(p)
		if err != nil {
			t.Fatal(err)
		}
		if !hasBase {
			roots[id] = append(roots[id], filepath.Base(p))
			if strings.HasSuffix(p, "-full.toml") {
				t.Errorf("%s: a long variant without base = \"...\": write it as the difference from its base", p)
			}
			continue
		}
		bp := filepath.Join(filepath.Dir(p), base)
		for _, quick := range []bool{false, true} {
			mine, theirs := resolvedLeaves(t, p, quick), resolvedLeaves(t, bp, quick)
			for k, v := range ownLeaves(own, quick) {
				if k == config.SettingsKey {
					continue // a variant declares its settings even when they are its base's (config.Resolve)
				}
				if w, ok := theirs[k]; ok && reflect.DeepEqual(mine[k], w) && reflect.DeepEqual(v, w) {
					t.Errorf("%s: %s = %v (quick=%v) is its base's value already: a variant lists only what differs", p, k, v, quick)
				}
			}
		}
	}
	for id, rs := range roots {
		if len(rs) > 1 {
			t.Errorf("%s: %d shipped configs without a base (%s): all but one should be variants of it", id, len(rs), strings.Join(rs, ", "))
		}
	}
}

// ownLeaves returns the keys a file sets itself as they resolve: its main
// part, or (quick) its [quick] table's keys.
func ownLeaves(own map[string]any, quick bool) map[string]any {
	out := map[string]any{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if sub, ok := v.(map[string]any); ok {
			for k, x := range sub {
				walk(strings.TrimPrefix(prefix+"."+k, "."), x)
			}
			return
		}
		out[prefix] = v
	}
	for k, v := range own {
		switch {
		case k == config.BaseKey:
		case k == "quick" && quick:
			walk("", v)
		case k != "quick" && !quick:
			walk(k, v)
		}
	}
	return out
}
