package vembias

import (
	"path/filepath"
	"testing"

	"github.com/vbworkbench/vbw/experiments/exptest"
)

func TestMain(m *testing.M) { exptest.Main(m) }

// TestGolden runs every shipped vembias config with its [quick] settings
// and compares its numbers with testdata/<config>.golden.json (make golden
// rewrites them).
func TestGolden(t *testing.T) { exptest.CheckGoldens(t, configPath("")) }

// configPath returns the path of a shipped config of configs/vembias.
func configPath(name string) string { return filepath.Join("..", "..", "configs", "vembias", name) }
