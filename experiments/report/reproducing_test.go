package report

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// TestReproducing: an artefact is judged on the runs of the text's
// settings, else on those of reduced settings (saying so, with the note);
// runs of settings of ours are left out and named, as are reduced runs
// beside a run of the text's and, of several of one rank, the configs not
// named after the experiment; an experiment whose runs are all of ours
// keeps none; a manifest without settings (an older run) counts as the
// text's, so that the config's name decides as it did.
func TestReproducing(t *testing.T) {
	run := func(id, name, config, settings, note string) Experiment {
		return Experiment{ID: id, Name: name, Manifest: &results.Manifest{Config: config, Settings: settings, SettingsNote: note}}
	}
	for _, c := range []struct {
		name       string
		runs       []Experiment
		kept, left []string
		reasons    []string
	}{
		{"the text's beside reduced and ours", []Experiment{
			run("chapter4/digits-classify", "digits-classify", "configs/chapter4/digits-classify.toml", "reduced", "3 repetitions"),
			run("chapter4/digits-classify", "digits-classify-full", "configs/chapter4/digits-classify-full.toml", "text", ""),
			run("chapter4/digits-classify", "digits-classify-refpenalty", "configs/chapter4/digits-classify-refpenalty.toml", "ours", "an ablation"),
		}, []string{"digits-classify-full"}, []string{"digits-classify", "digits-classify-refpenalty"}, nil},
		{"reduced alone", []Experiment{
			run("chapter6/prior-average", "prior-average-12", "configs/chapter6/prior-average-12.toml", "reduced", "12 true models"),
		}, []string{"prior-average-12"}, nil, []string{"on reduced settings: 12 true models"}},
		{"ours alone", []Experiment{
			run("chapter4/lattice", "lattice-rotated", "configs/chapter4/lattice-rotated.toml", "ours", "rotated"),
		}, nil, []string{"lattice-rotated"}, nil},
		{"older manifests: the config's name", []Experiment{
			run("chapter4/lattice", "lattice", "configs/chapter4/lattice.toml", "", ""),
			run("chapter4/lattice", "lattice-axis", "configs/chapter4/lattice-axis.toml", "", ""),
			run("chapter6/single-instance", "single-instance-k8192", "configs/chapter6/single-instance-k8192-full.toml", "", ""),
			run("chapter6/single-instance", "single-instance-em-converged", "configs/chapter6/single-instance-em-converged-full.toml", "", ""),
			{ID: "chapter5/genes", Name: "genes"}, // no readable manifest
		}, []string{"lattice", "single-instance-k8192", "single-instance-em-converged", "genes"}, []string{"lattice-axis"}, nil},
		{"two of the text's, one named after the experiment", []Experiment{
			run("chapter4/lattice", "mine", "mine.toml", "text", ""),
			run("chapter4/lattice", "lattice", "configs/chapter4/lattice.toml", "text", ""),
		}, []string{"lattice"}, []string{"mine"}, nil},
	} {
		kept, left, reasons := reproducing(c.runs)
		var names []string
		for _, e := range kept {
			names = append(names, e.Name)
		}
		if !slices.Equal(names, c.kept) || !slices.Equal(left, c.left) || !slices.Equal(reasons, c.reasons) {
			t.Errorf("%s: kept %v, left %v, reasons %q; want %v, %v, %q", c.name, names, left, reasons, c.kept, c.left, c.reasons)
		}
	}
}

// TestShippedChoice: with a run of every shipped config, the report judges
// each experiment's artefacts on the runs its configs declare of the
// text's settings (else the reduced ones), never on settings of ours, and
// a config of the text's settings beside a reduced one of its experiment
// (digits-classify-full.toml beside digits-classify.toml) is the one
// judged.
func TestShippedChoice(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "configs", "*", "*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatal("no configs", err)
	}
	var runs []Experiment
	declared := map[string]string{}
	for _, f := range files {
		id, err := experiments.ExperimentOf(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := config.TopString(f, config.SettingsKey)
		if err != nil {
			t.Fatal(err)
		}
		if s == "" {
			s = string(config.SettingsText)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".toml")
		declared[name] = s
		runs = append(runs, Experiment{ID: id, Name: name, Manifest: &results.Manifest{Config: f, Settings: s}})
	}
	kept, _, _ := reproducing(runs)
	best := map[string]int{}
	for _, e := range runs {
		if r := settingsRank(declared[e.Name]); r < 2 {
			if b, ok := best[e.ID]; !ok || r < b {
				best[e.ID] = r
			}
		}
	}
	judged := map[string]bool{}
	for _, e := range kept {
		judged[e.Name] = true
		if r := settingsRank(declared[e.Name]); r != best[e.ID] {
			t.Errorf("%s (%s) is judged beside a run of closer settings of %s", e.Name, declared[e.Name], e.ID)
		}
	}
	for _, e := range runs {
		if judged[e.Name] && declared[e.Name] == string(config.SettingsOurs) {
			t.Errorf("%s, of settings of ours, is judged", e.Name)
		}
	}
	for _, name := range []string{"digits-classify-full", "prior-average-full", "genes-full", "digits-unsupervised-full"} {
		if !judged[name] {
			t.Errorf("%s, of the text's settings, is not judged", name)
		}
	}
}
