package atlas

import (
	"path/filepath"
	"testing"

	"github.com/vbworkbench/vbw/experiments/exptest"
)

func TestMain(m *testing.M) { exptest.Main(m) }

// configPath returns the path of a shipped config of this package.
func configPath(name string) string { return filepath.Join("..", "..", "configs", "atlas", name) }

// TestGolden runs every shipped atlas config with its [quick] settings and
// compares its numbers with testdata/<config>.golden.json (make golden
// rewrites them).
func TestGolden(t *testing.T) { exptest.CheckGoldens(t, configPath("")) }
