package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// TestCriteriaClassified: for every shipped config of every document
// (configs/*/*.toml), with and without its [quick] table, the criteria its
// experiment states (experiments.StatedCriteria, as Prepare checks them)
// are valid, each a claim of the text with the text's number and line, an
// extension or a sanity check; the config declares its settings relative
// to the text (a variant in its own file); a config of settings of ours
// judges no claim of the text, and one of the text's settings (or reduced
// ones) judges some, unless it is a figure of the data (sanity checks
// alone); the experiments declared as a document's extensions are run on
// settings of ours and cover none of its artefacts; and every registered
// experiment has a shipped config.
func TestCriteriaClassified(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "configs", "*", "*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatal("no configs", err)
	}
	extension, artefact := map[string]bool{}, map[string]bool{}
	for _, d := range experiments.Documents() {
		for _, x := range d.Extensions {
			for _, id := range x.Experiments {
				extension[id] = true
			}
		}
		for _, a := range d.Artefacts {
			for _, id := range a.Experiments {
				artefact[id] = true
			}
		}
	}
	for id := range extension {
		if artefact[id] {
			t.Errorf("%s is declared an extension and covers an artefact of its document", id)
		}
	}
	seen := map[string]bool{}
	for _, f := range files {
		name := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		for _, quick := range []bool{false, true} {
			spec, cfg, err := experiments.Load(f, quick)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			seen[spec.ID] = true
			env := &experiments.Env{ID: spec.ID, Quick: quick, DataDir: experiments.TestDataDir(), Log: io.Discard}
			cs, err := experiments.StatedCriteria(cfg, env)
			if err != nil {
				t.Errorf("%s (quick %v): %v", name, quick, err)
				continue
			}
			kinds := map[results.Kind]int{}
			for _, c := range cs {
				kinds[c.Kind]++
			}
			base := cfg.Base()
			switch {
			case base.Settings == "":
				t.Errorf("%s: settings not resolved", name)
			case base.Ours() && kinds[results.KindClaim] > 0:
				t.Errorf("%s (quick %v): settings of ours and %d claims of the text, want none", name, quick, kinds[results.KindClaim])
			case extension[spec.ID] && !base.Ours():
				t.Errorf("%s: %s is declared an extension of its document, but its settings are %q: declare settings = %q", name, spec.ID, base.Settings, config.SettingsOurs)
			case !base.Ours() && kinds[results.KindClaim] == 0 && kinds[results.KindSanity] < len(cs):
				t.Errorf("%s (quick %v): settings %q and no claim of the text (%d extensions): are they settings of ours (settings = %q)?", name, quick, base.Settings, kinds[results.KindExtension], config.SettingsOurs)
			}
		}
	}
	for _, s := range experiments.List() {
		if !seen[s.ID] {
			t.Errorf("%s has no shipped config", s.ID)
		}
	}
}

// TestSettingsDeclared: a config without a base that leaves out settings
// is of the text's settings; a variant must declare its own; "reduced"
// needs its note and "text" takes none; [quick] may not set them; a bad
// value is refused with the allowed ones. Each refusal is one line naming
// the key's line.
func TestSettingsDeclared(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	base := write("base.toml", "experiment = \"chapter3/synthetic\"\n[quick]\nseed = 2\n")
	if _, cfg, err := experiments.Load(base, false); err != nil || cfg.Base().Settings != config.SettingsText {
		t.Errorf("a config without a base or settings: %v, settings %q; want %q", err, cfg.Base().Settings, config.SettingsText)
	}
	ok := write("ok.toml", "base = \"base.toml\"\nsettings = \"reduced\"\nsettings_note = \"fewer seeds\"\n")
	if _, cfg, err := experiments.Load(ok, true); err != nil || cfg.Base().Settings != config.SettingsReduced || cfg.Base().SettingsNote != "fewer seeds" {
		t.Errorf("a variant declaring reduced settings: %v, %+v", err, cfg.Base())
	}
	same := write("same.toml", "base = \"ok.toml\"\nsettings = \"reduced\"\nseed = 4\n")
	text := write("text-variant.toml", "base = \"ok.toml\"\nsettings = \"text\"\nseed = 4\n")
	for p, want := range map[string]string{same: "fewer seeds", text: ""} {
		if _, cfg, err := experiments.Load(p, false); err != nil || cfg.Base().SettingsNote != want {
			t.Errorf("%s: %v, note %q; want %q (a base's note is kept for its settings only)", filepath.Base(p), err, cfg.Base().SettingsNote, want)
		}
	}
	for _, c := range []struct{ name, body, want string }{
		{"variant.toml", "base = \"base.toml\"\nseed = 3\n", `variant.toml:1: settings: a variant (base = "base.toml") declares its own settings`},
		{"reduced.toml", "experiment = \"chapter3/synthetic\"\nsettings = \"reduced\"\n", `reduced.toml:2: settings = "reduced": set settings_note`},
		{"text.toml", "experiment = \"chapter3/synthetic\"\nsettings = \"text\"\nsettings_note = \"x\"\n", `text.toml:2: settings = "text": the text's settings take no settings_note`},
		{"quick.toml", "experiment = \"chapter3/synthetic\"\n[quick]\nsettings = \"reduced\"\n", `quick.toml:3: quick.settings: the [quick] table may not set settings`},
		{"bad.toml", "experiment = \"chapter3/synthetic\"\nsettings = \"mine\"\n", `"mine" is not allowed: must be`},
	} {
		_, _, err := experiments.Load(write(c.name, c.body), false)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", c.name, err, c.want)
		}
	}
}
