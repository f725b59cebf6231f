package chapter3

import (
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// update rewrites the golden files (go test ./experiments/chapter3 -run
// Golden -update). Rewrite them only when a change is meant to move the
// numbers (a fix, a new default), and say in the commit which numbers moved
// and why; never to make a failing test pass.
var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenTol is the relative tolerance of the golden comparison.
const goldenTol = 1e-9

// goldenMetrics returns the metrics of a summary that do not depend on the
// machine: everything but timings.
func goldenMetrics(s results.Summary) map[string]float64 {
	m := map[string]float64{}
	for k, v := range s.Metrics {
		if strings.Contains(k, "seconds") || strings.Contains(k, "_ms_") {
			continue
		}
		m[k] = v
	}
	return m
}

// TestGoldenQuickMetrics runs every shipped chapter 3 config with its
// [quick] settings and compares the metrics of summary.json (timings left
// out) with testdata/<config>.golden.json at a relative tolerance of 1e-9.
// On a mismatch it writes testdata/<config>.got.json for diffing.
func TestGoldenQuickMetrics(t *testing.T) {
	configs, err := filepath.Glob(configPath("*.toml"))
	if err != nil || len(configs) == 0 {
		t.Fatalf("no configs: %v", err)
	}
	for _, cfg := range configs {
		name := strings.TrimSuffix(filepath.Base(cfg), ".toml")
		t.Run(name, func(t *testing.T) {
			dir, err := experiments.RunConfig(context.Background(), cfg, experiments.RunOptions{
				Out: t.TempDir(), Quick: true, DataDir: experiments.TestDataDir(), NoPlot: true, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			sum, err := results.ReadSummary(filepath.Join(dir, "summary.json"))
			if err != nil {
				t.Fatal(err)
			}
			got := goldenMetrics(sum)
			golden := filepath.Join("testdata", name+".golden.json")
			if *update {
				writeGolden(t, golden, got)
				return
			}
			var want map[string]*float64
			data, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (create it with: go test ./experiments/chapter3 -run Golden -update)", err)
			}
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatalf("%s: %v", golden, err)
			}
			var bad []string
			for k, w := range want {
				g, ok := got[k]
				switch {
				case !ok:
					bad = append(bad, k+": missing")
				case w == nil:
					if !math.IsNaN(g) && !math.IsInf(g, 0) {
						bad = append(bad, k+": want null (non-finite)")
					}
				case !closeRel(g, *w, goldenTol):
					bad = append(bad, k)
				}
			}
			for k := range got {
				if _, ok := want[k]; !ok {
					bad = append(bad, k+": not in the golden file")
				}
			}
			if len(bad) > 0 {
				sort.Strings(bad)
				writeGolden(t, strings.TrimSuffix(golden, ".golden.json")+".got.json", got)
				t.Errorf("%d metrics differ from %s at relative %g (see %s.got.json): %s", len(bad), golden, goldenTol, name, strings.Join(bad, ", "))
			}
		})
	}
}

func closeRel(a, b, tol float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

// writeGolden writes metrics as sorted JSON with non-finite values as null.
func writeGolden(t *testing.T, path string, m map[string]float64) {
	t.Helper()
	out := map[string]*float64{}
	for k, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			out[k] = nil
			continue
		}
		out[k] = &v
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
