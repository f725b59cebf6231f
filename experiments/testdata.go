package experiments

import (
	"os"
	"path/filepath"
)

// TestDataDir returns the data directory for tests: $VBW_DATA if set, else
// ../shared/data relative to the module root (found by walking up from the
// working directory to go.mod). Tests that need the data fail, rather than
// skip, when it is missing: CI always has it.
func TestDataDir() string {
	if d := os.Getenv(DataEnv); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return DefaultDataDir
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, DefaultDataDir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return DefaultDataDir
		}
		dir = parent
	}
}
