package approx

import (
	"path/filepath"
	"testing"

	"github.com/vbworkbench/vbw/experiments/exptest"
)

func TestMain(m *testing.M) { exptest.Main(m) }

// configPath returns the path of a shipped config of the gallery.
func configPath(name string) string { return filepath.Join("..", "..", "configs", "approx", name) }

// TestGolden runs every shipped gallery config with its [quick] settings
// and compares its numbers with testdata/<config>.golden.json (make golden
// rewrites them).
func TestGolden(t *testing.T) { exptest.CheckGoldens(t, configPath("")) }
