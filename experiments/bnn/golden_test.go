package bnn

import (
	"path/filepath"
	"testing"

	"github.com/vbworkbench/vbw/experiments/exptest"
)

func TestMain(m *testing.M) { exptest.Main(m) }

// configPath returns the path of a shipped config of the document.
func configPath(name string) string { return filepath.Join("..", "..", "configs", "bnn", name) }

// TestGolden runs every shipped config of configs/bnn with its [quick]
// settings and compares its numbers with testdata/<config>.golden.json.
func TestGolden(t *testing.T) { exptest.CheckGoldens(t, configPath("")) }
