package exptest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// Main is the TestMain of a package that uses Quick: it runs the package's
// tests and then removes the folder that holds the cached quick runs.
//
//	func TestMain(m *testing.M) { exptest.Main(m) }
func Main(m *testing.M) {
	code := m.Run()
	quickMu.Lock()
	root := quickRoot
	quickMu.Unlock()
	if root != "" {
		os.RemoveAll(root)
	}
	os.Exit(code)
}

// QuickRun is one cached [quick] run of a shipped config.
type QuickRun struct {
	Config  string          // the config file
	Dir     string          // its results folder (read only: tests share it)
	Summary results.Summary // summary.json, as read back
}

type quickEntry struct {
	once sync.Once
	run  QuickRun
	err  error
}

var (
	quickMu    sync.Mutex
	quickRoot  string
	quickCache = map[string]*quickEntry{}
)

// QuickWorkers is the number of workers of every cached quick run. The
// results do not depend on it (a property each chapter tests separately).
const QuickWorkers = 2

// Quick returns the [quick] run of the config file path, computing it the
// first time any test of the package asks for it: the golden comparison and
// an experiment's own test share one run. Two config files whose resolved
// [quick] configs are identical (a *-full variant and its base) share one
// run too. The results folder must not be written to; a test that needs to
// change it (resume, redraw) runs its own copy.
//
// The run uses the data directory of experiments.TestDataDir and draws the
// figures. A package that calls Quick must have exptest.Main as its
// TestMain, which removes the runs at the end.
func Quick(t testing.TB, path string) QuickRun {
	t.Helper()
	r, err := quick(path)
	if err != nil {
		t.Fatalf("quick run of %s: %v", path, err)
	}
	r.Config = path
	return r
}

func quick(path string) (QuickRun, error) {
	opts := experiments.RunOptions{Quick: true, Workers: QuickWorkers, DataDir: experiments.TestDataDir()}
	job, err := experiments.Prepare(path, opts)
	if err != nil {
		return QuickRun{}, err
	}
	quickMu.Lock()
	if quickRoot == "" {
		if quickRoot, err = os.MkdirTemp("", "vbw-quick-"); err != nil {
			quickMu.Unlock()
			return QuickRun{}, err
		}
	}
	key := job.Hash()
	e, ok := quickCache[key]
	if !ok {
		e = &quickEntry{}
		quickCache[key] = e
	}
	root := quickRoot
	quickMu.Unlock()
	e.once.Do(func() {
		opts.Out = filepath.Join(root, key)
		var dir string
		dir, e.err = experiments.RunConfig(context.Background(), path, opts)
		if e.err != nil {
			return
		}
		var s results.Summary
		if s, e.err = results.ReadSummary(filepath.Join(dir, "summary.json")); e.err != nil {
			return
		}
		e.run = QuickRun{Dir: dir, Summary: s}
	})
	if e.err != nil {
		return QuickRun{}, fmt.Errorf("%w", e.err)
	}
	return e.run, nil
}
