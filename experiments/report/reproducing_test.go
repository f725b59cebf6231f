package report

import (
	"slices"
	"testing"

	"github.com/vbworkbench/vbw/results"
)

// TestReproducing: an artefact is judged on the run of the config named
// after its experiment; named variants of that experiment (a finding, an
// ablation) are left out and named, and an experiment without such a run
// keeps every run.
func TestReproducing(t *testing.T) {
	run := func(id, name, config string) Experiment {
		return Experiment{ID: id, Name: name, Manifest: &results.Manifest{Config: config}}
	}
	runs := []Experiment{
		run("chapter4/lattice", "lattice", "configs/chapter4/lattice.toml"),
		run("chapter4/lattice", "lattice-axis", "configs/chapter4/lattice-axis.toml"),
		run("chapter6/single-instance", "single-instance-k8192", "configs/chapter6/single-instance-k8192-full.toml"),
		run("chapter6/single-instance", "single-instance-em-converged", "configs/chapter6/single-instance-em-converged-full.toml"),
		{ID: "chapter5/genes", Name: "genes"}, // no readable manifest
	}
	kept, variants := reproducing(runs)
	var names []string
	for _, e := range kept {
		names = append(names, e.Name)
	}
	want := []string{"lattice", "single-instance-k8192", "single-instance-em-converged", "genes"}
	if !slices.Equal(names, want) {
		t.Errorf("kept %v, want %v", names, want)
	}
	if !slices.Equal(variants, []string{"lattice-axis"}) {
		t.Errorf("variants %v, want [lattice-axis]", variants)
	}
}
