package parallel

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneWorkerPool: no package of the module but this one starts a pool
// of goroutines over a WaitGroup; the others use For, ForErr, With or
// Ordered, so that the hand-out order, the error and panic handling and
// the resolution of the number of workers have one home.
func TestOneWorkerPool(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "output" || name == "benchmarks" || path == filepath.Join(root, "core", "parallel")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), "sync.WaitGroup") {
			t.Errorf("%s: a worker pool of its own (sync.WaitGroup); use core/parallel", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
