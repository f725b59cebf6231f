package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
)

// FuzzLoadConfig feeds arbitrary text to the strict loader of the
// registered experiments, seeded with chapter 3's configs (and chapter
// 4's embedded and digit-examples, its first seeds): see fuzzLoad.
func FuzzLoadConfig(f *testing.F) {
	seedConfigs(f, "chapter3/*.toml", "chapter4/embedded.toml", "chapter4/digit-examples.toml")
	f.Add("experiment = \"chapter3/synthetic\"\nseed = -1\n", false)
	f.Add("experiment = \"chapter3/synthetic\"\nRestarts = 5\n[quick]\nrestarts = 0\n", true)
	f.Add("experiment = \"chapter3/alice\"\n[vb]\ninit_strength = inf\n", false)
	f.Fuzz(fuzzLoad)
}

// FuzzLoadConfigChapter4, 5 and 6 are FuzzLoadConfig seeded with every
// shipped config of the chapter (and a few hostile sizes), so that the
// mutations explore the loaders, validations and estimates of its
// experiments.
func FuzzLoadConfigChapter4(f *testing.F) {
	seedConfigs(f, "chapter4/*.toml")
	f.Add("experiment = \"chapter4/lattice\"\nrestarts = 1000000000000\n", true)
	f.Add("experiment = \"chapter4/is-hazard\"\nmc_samples = 9223372036854775807\n", false)
	f.Fuzz(fuzzLoad)
}

func FuzzLoadConfigChapter5(f *testing.F) {
	seedConfigs(f, "chapter5/*.toml")
	f.Add("experiment = \"chapter5/genes\"\n[model]\nk_grid = [1000000]\n", true)
	f.Add("experiment = \"chapter5/inputs\"\n[vb]\nmax_iterations = -1\n", false)
	f.Fuzz(fuzzLoad)
}

func FuzzLoadConfigChapter6(f *testing.F) {
	seedConfigs(f, "chapter6/*.toml")
	f.Add("experiment = \"chapter6/schedules\"\n[hysteresis]\nk_values = [1000000000000]\n", false)
	f.Add("experiment = \"chapter6/prior-average\"\ninstances = 1000000000000\n", true)
	f.Fuzz(fuzzLoad)
}

// seedConfigs adds the shipped configs matching the patterns (relative to
// configs/) as seeds, each with and without -quick.
func seedConfigs(f *testing.F, patterns ...string) {
	n := 0
	for _, p := range patterns {
		files, err := filepath.Glob(filepath.Join("..", "..", "..", "configs", filepath.FromSlash(p)))
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(string(b), false)
			f.Add(string(b), true)
			n++
		}
	}
	if n == 0 {
		f.Fatalf("no config matches %q", patterns)
	}
}

// fuzzLoad checks one text: the loader never panics, its errors are one
// line, and a config it accepts encodes to a config.toml that loads again
// to the same config (the same hash), so a run's written config always
// reruns it; the accepted config's estimate is a number (never NaN or
// negative), and Prepare, which checks it against the limits, either
// accepts it or refuses it with one line.
func fuzzLoad(t *testing.T, text string, quick bool) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, cfg, err := experiments.Load(path, quick)
	if err != nil {
		if strings.Contains(err.Error(), "\n") {
			t.Fatalf("error of more than one line: %q", err)
		}
		return
	}
	data, hash, err := config.Encode(cfg)
	if err != nil {
		t.Fatalf("accepted config does not encode: %v", err)
	}
	again := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(again, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg2 := spec.NewConfig()
	if err := config.Load(again, false, cfg2); err != nil {
		t.Fatalf("the written config does not load: %v\n%s", err, data)
	}
	if _, hash2, _ := config.Encode(cfg2); hash2 != hash {
		t.Fatalf("the written config loads to another config (hash %s, was %s)\n%s", hash2, hash, data)
	}
	e := cfg.Estimate().Eval(2)
	for _, v := range []float64{e.Cells, e.Bytes, e.Work} {
		if math.IsNaN(v) || v < 0 {
			t.Fatalf("estimate %+v of an accepted config", e)
		}
	}
	if _, err := experiments.Prepare(path, experiments.RunOptions{Out: filepath.Join(dir, "out"), Quick: quick, Workers: 2}); err != nil &&
		strings.Contains(err.Error(), "\n") {
		t.Fatalf("refusal of more than one line: %q", err)
	}
}
