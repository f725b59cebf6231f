package chapter3

import (
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
)

// TestSyntheticRandomStart: with vb.init = "random" a cell runs no
// Baum-Welch baseline and its VB run is VBEM from hmm.RandomStart on the
// cell's own stream, with init_ml_iterations iterations; "random-means"
// starts from random means instead, and the two give different runs.
func TestSyntheticRandomStart(t *testing.T) {
	data := loadABC21(t)
	c := DefaultSynthetic()
	c.VB.Init = "random"
	c.VB.InitMLIterations = 7
	r, err := fitMLThenVB(&c, data, 0, 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.MLStatus != mlSkipped {
		t.Errorf("ml_status %q, want %q", r.MLStatus, mlSkipped)
	}
	u := c.VB.prior(c.Model.K, data.P)
	w, err := hmm.RandomStart(data, u, c.Model.K, 7, rng.New(c.Seed, c.Experiment, "init", "0", "1"))
	if err != nil {
		t.Fatal(err)
	}
	want := vb.Run(hmm.NewVB(data, u, w), c.VB.FitSettings.Settings(nil, new(hmm.VB)))
	if float64(r.F) != want.F || r.VBIterations != want.Iterations {
		t.Errorf("cell: F %v after %d iterations; VBEM from hmm.RandomStart: %v after %d", float64(r.F), r.VBIterations, want.F, want.Iterations)
	}
	c.VB.Init = "random-means"
	means, err := fitMLThenVB(&c, data, 0, 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if means.MLStatus != mlSkipped || means.F == r.F {
		t.Errorf("random-means: ml_status %q, F %v (random: %v)", means.MLStatus, float64(means.F), float64(r.F))
	}
}

func TestBadRandomStartConfig(t *testing.T) {
	c := DefaultSynthetic()
	c.VB.Init = "random"
	c.VB.InitMLIterations = -1
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "vb.init_ml_iterations") {
		t.Errorf("negative init_ml_iterations: error %v", err)
	}
}
