package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
)

// FuzzLoadConfig feeds arbitrary text to the strict loader of the
// registered experiments: it never panics, its errors are one line, and a
// config it accepts encodes to a config.toml that loads again to the same
// config (the same hash), so a run's written config always reruns it.
func FuzzLoadConfig(f *testing.F) {
	for _, name := range []string{"chapter3/synthetic.toml", "chapter3/alice.toml", "chapter3/model-order.toml",
		"chapter3/synthetic-grammar.toml", "chapter4/embedded.toml", "chapter4/digit-examples.toml"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "configs", filepath.FromSlash(name)))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), false)
	}
	f.Add("experiment = \"chapter3/synthetic\"\nseed = -1\n", false)
	f.Add("experiment = \"chapter3/synthetic\"\nRestarts = 5\n[quick]\nrestarts = 0\n", true)
	f.Add("experiment = \"chapter3/alice\"\n[vb]\ninit_strength = inf\n", false)
	f.Fuzz(func(t *testing.T, text string, quick bool) {
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
		data, hash, err := experiments.EncodeConfig(cfg)
		if err != nil {
			t.Fatalf("accepted config does not encode: %v", err)
		}
		again := filepath.Join(dir, "config.toml")
		if err := os.WriteFile(again, data, 0o644); err != nil {
			t.Fatal(err)
		}
		cfg2 := spec.NewConfig()
		if err := experiments.LoadConfig(again, false, cfg2); err != nil {
			t.Fatalf("the written config does not load: %v\n%s", err, data)
		}
		if _, hash2, _ := experiments.EncodeConfig(cfg2); hash2 != hash {
			t.Fatalf("the written config loads to another config (hash %s, was %s)\n%s", hash2, hash, data)
		}
	})
}
