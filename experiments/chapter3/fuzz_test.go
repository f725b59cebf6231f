package chapter3

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/vbworkbench/vbw/experiments/exptest"
)

// FuzzPlotInputs feeds damaged result files to the figure code of every
// chapter 3 experiment: vbw plot reads only these files, so whatever they
// hold it must return an error, never panic.
func FuzzPlotInputs(f *testing.F) {
	// The seeds are the files of the shared quick runs, by experiment,
	// without the figures.
	srcs := map[string]string{}
	input := func(e os.DirEntry) bool {
		return e.Type().IsRegular() && filepath.Ext(e.Name()) != ".svg" && filepath.Ext(e.Name()) != ".png"
	}
	// Without -fuzz the seeds are run as they are, so each one redraws its
	// experiment's figures from unchanged files: under -short one seed per
	// experiment is that test, and the others repeat it.
	fuzzing := flag.Lookup("test.fuzz") != nil && flag.Lookup("test.fuzz").Value.String() != ""
	onePerExperiment := testing.Short() && !fuzzing
	for _, name := range []string{"synthetic.toml", "alice.toml", "model-order.toml", "tightness.toml"} {
		dir := exptest.Quick(f, configPath(name)).Dir
		srcs[filepath.Base(dir)] = dir
		entries, _ := os.ReadDir(dir)
		added := false
		for _, e := range entries {
			if !input(e) || (onePerExperiment && added) {
				continue
			}
			added = true
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				f.Fatal(err)
			}
			if len(b) < 200000 {
				f.Add(filepath.Base(dir), e.Name(), string(b))
			}
		}
	}
	f.Fuzz(func(t *testing.T, exp, file, text string) {
		src, ok := srcs[exp]
		if !ok || filepath.Base(file) != file || file == "" {
			return
		}
		dir := t.TempDir()
		entries, _ := os.ReadDir(src)
		for _, e := range entries {
			if input(e) {
				b, _ := os.ReadFile(filepath.Join(src, e.Name()))
				os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644)
			}
		}
		os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644)
		plot := map[string]func(string) error{"synthetic": PlotSynthetic, "alice": PlotAlice, "model-order": PlotModelOrder, "tightness": PlotTightness}[exp]
		if plot != nil {
			_ = plot(dir) // an error is fine; a panic fails the fuzz test
		}
	})
}
