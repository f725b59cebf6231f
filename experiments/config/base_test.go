package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeFiles writes name → text into one new folder and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const baseText = `experiment = "x"
runs = 3
[model]
k_max = 4
sizes = [1, 2]
[quick]
runs = 1
[quick.model]
k_max = 2
`

// TestVariantByDifference: a variant lists what differs from its base,
// and resolves to the base with those keys replaced; its [quick] applies
// after the base's.
func TestVariantByDifference(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"base.toml":    baseText,
		"variant.toml": "base = \"base.toml\"\nruns = 10\n[model]\nsizes = [5]\n",
		"quick.toml":   "base = \"base.toml\"\n[quick]\nruns = 2\n",
		"deep.toml":    "base = \"variant.toml\"\n[model]\nk_max = 9\n",
		"whole.toml":   "experiment = \"x\"\nruns = 10\n[model]\nk_max = 4\nsizes = [5]\n[quick]\nruns = 1\n[quick.model]\nk_max = 2\n",
	})
	load := func(name string, quick bool) *testConfig {
		t.Helper()
		cfg := defaultTestConfig()
		if err := Load(filepath.Join(dir, name), quick, cfg); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return cfg
	}
	for _, quick := range []bool{false, true} {
		if v, w := load("variant.toml", quick), load("whole.toml", quick); !reflect.DeepEqual(v, w) {
			t.Errorf("quick=%v: variant %+v, want the whole file's %+v", quick, v, w)
		}
	}
	if c := load("quick.toml", true); c.Runs != 2 || c.Model.KMax != 2 {
		t.Errorf("variant's [quick] after the base's: runs %d k_max %d, want 2 and 2", c.Runs, c.Model.KMax)
	}
	if c := load("deep.toml", false); c.Runs != 10 || c.Model.KMax != 9 || len(c.Model.Sizes) != 1 {
		t.Errorf("two bases deep: %+v", c)
	}
	if id, err := TopString(filepath.Join(dir, "deep.toml"), "experiment"); err != nil || id != "x" {
		t.Errorf("TopString through two bases: %q, %v", id, err)
	}
	// The resolved config has no base.
	data, _, err := Encode(load("variant.toml", false))
	if err != nil || strings.Contains(string(data), "base") {
		t.Errorf("resolved config %q, %v", data, err)
	}
}

// TestVariantErrors: every error names the file and line it is about,
// the base's for what the base sets.
func TestVariantErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"base.toml":     baseText,
		"badbase.toml":  "experiment = \"x\"\nruns = 3\nrnus = 4\n",
		"unknown.toml":  "base = \"base.toml\"\nrnus = 4\n",
		"inbase.toml":   "base = \"badbase.toml\"\n",
		"range.toml":    "base = \"base.toml\"\n\nruns = 0\n",
		"quickrng.toml": "base = \"base.toml\"\n[quick]\nruns = 0\n",
		"missing.toml":  "runs = 1\nbase = \"nope.toml\"\n",
		"cycle1.toml":   "base = \"cycle2.toml\"\n",
		"cycle2.toml":   "base = \"cycle1.toml\"\n",
		"notstr.toml":   "base = 3\n",
		"empty.toml":    "base = \"\"\n",
		"valbase.toml":  "base = \"neg.toml\"\nruns = 2\n",
		"neg.toml":      "experiment = \"x\"\n[vb]\nprior_strength = { pi = -1.0, A = 1.0, C = 1.0 }\n",
	})
	for _, c := range []struct {
		file  string
		quick bool
		want  string // the error ends so (after the folder)
	}{
		{"unknown.toml", false, `unknown.toml:2: unknown key "rnus" (did you mean "runs"?)`},
		{"inbase.toml", false, `badbase.toml:3: unknown key "rnus" (did you mean "runs"?)`},
		{"range.toml", false, "range.toml:3: runs = 0: must be at least 1"},
		{"quickrng.toml", false, "quickrng.toml:3: runs = 0: must be at least 1"},
		{"quickrng.toml", true, "quickrng.toml:3: runs = 0: must be at least 1"},
		{"missing.toml", false, `missing.toml:2: base = "nope.toml": no such file or directory`},
		{"cycle1.toml", false, `cycle2.toml:1: base = "cycle1.toml": a base cycle`},
		{"notstr.toml", false, `notstr.toml:1: base = 3: must name a config file`},
		{"empty.toml", false, `empty.toml:1: base = "": must name a config file`},
		{"valbase.toml", false, "neg.toml:3: vb.prior_strength.pi = -1: must be > 0"},
	} {
		err := Load(filepath.Join(dir, c.file), c.quick, defaultTestConfig())
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s (quick=%v): got %v, want …%s", c.file, c.quick, err, c.want)
		}
	}
}
