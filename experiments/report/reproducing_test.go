package report

import (
	"slices"
	"testing"

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
