package bnn

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vbworkbench/vbw/experiments/exptest"
)

// TestNRDQuick checks the NRD quick run: finite bounds, fewer hidden
// nodes kept at the smallest N than at the largest, and the figure.
func TestNRDQuick(t *testing.T) {
	r := exptest.Quick(t, configPath("nrd.toml"))
	exptest.MustPass(t, r.Summary, "nrd-bounds-finite", "fig6.17-fewer-at-small-n")
	if _, err := os.Stat(filepath.Join(r.Dir, "lawrence_fig6_17.svg")); err != nil {
		t.Errorf("figure: %v", err)
	}
}
