package bnn

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vbworkbench/vbw/experiments/exptest"
)

// TestToyQuick checks the toy's quick run: the mutual-information bound
// below its minimum-overlap value on every seed and the mixture's bound at
// least the diagonal posterior's it starts from (sanity), HMC moving, and
// the three figures drawn.
func TestToyQuick(t *testing.T) {
	r := exptest.Quick(t, configPath("toy.toml"))
	exptest.MustPass(t, r.Summary, "toy-mi-below-min-overlap", "toy-hmc-moves", "toy-mixture-above-diagonal")
	for _, f := range []string{"lawrence_fig5_3", "lawrence_fig5_4", "lawrence_fig5_5"} {
		if _, err := os.Stat(filepath.Join(r.Dir, f+".svg")); err != nil {
			t.Errorf("figure %s: %v", f, err)
		}
	}
}
