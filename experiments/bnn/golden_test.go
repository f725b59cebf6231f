package bnn

import (
	"testing"

	"github.com/vbworkbench/vbw/experiments/exptest"
)

func TestMain(m *testing.M) { exptest.Main(m) }

// TestGolden runs every shipped bnn config with its [quick] settings and
// compares its numbers with testdata/<config>.golden.json (make golden
// rewrites them).
func TestGolden(t *testing.T) { exptest.CheckGoldens(t, configPath("")) }
