package chapter3

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
)

func TestTieAndCredit(t *testing.T) {
	inf := math.Inf(-1)
	cases := []struct {
		a, b float64
		tie  bool
		c    float64
	}{
		{-10, -10, true, 0.5},
		{-10, -10 - 1e-12, true, 0.5}, // within 1e-12 relative
		{-10, -10.001, false, 1},
		{-10.001, -10, false, 0},
		{inf, inf, true, 0.5},
		{-5, inf, false, 1},
		{inf, -5, false, 0},
	}
	for _, c := range cases {
		if got := Tie(c.a, c.b, 1e-12); got != c.tie {
			t.Errorf("Tie(%v, %v) = %v", c.a, c.b, got)
		}
		if got := credit(c.a, c.b, 1e-12); got != c.c {
			t.Errorf("credit(%v, %v) = %v, want %v", c.a, c.b, got, c.c)
		}
	}
	// Forward sentences are credited when the forward model wins, reversed
	// ones when the backward model wins.
	cr, rate := discriminate([]float64{-1, -5}, []float64{-2, -4}, []float64{-3}, []float64{-1}, 1e-12)
	if rate != 2.0/3 || cr[0] != 1 || cr[1] != 0 || cr[2] != 1 {
		t.Fatalf("discriminate = %v, %v", cr, rate)
	}
}

func TestAlicePoints(t *testing.T) {
	c := DefaultAlice()
	ps := c.Points()
	// n slice (9) + k slice (7) + u0 slice (4) share the canonical point
	// (−2), plus the n and k slices at u0 = 8 (9 + 7, sharing one point, and
	// one point shared with the u0 slice): 18 + 15 − 1 = 32.
	if len(ps) != 32 {
		t.Fatalf("%d slice points, want 32", len(ps))
	}
	if cells := c.cells(); len(cells) != 15*10 {
		t.Fatalf("%d cells, want 15 (n,k) pairs × 10 repeats", len(cells))
	}
	c.Mode = "grid"
	if len(c.Points()) != 252 || len(c.cells()) != 630 {
		t.Fatalf("grid: %d points, %d cells", len(c.Points()), len(c.cells()))
	}
}

func runAlice(t *testing.T, out string, o experiments.RunOptions) string {
	t.Helper()
	o.Out, o.Quick, o.DataDir = out, true, experiments.TestDataDir()
	dir, err := experiments.RunConfig(context.Background(), configPath("alice.toml"), o)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAliceQuickDeterministicAndShardable: the shared quick run has the
// interface's metrics and passes the tier A checks that hold at any grid
// size; a run with one worker, and two shards merged, give the same rows.
func TestAliceQuickDeterministicAndShardable(t *testing.T) {
	q := exptest.Quick(t, configPath("alice.toml"))
	single, sum := q.Dir, q.Summary
	want := read(t, filepath.Join(single, "cells.csv"))
	for _, f := range []string{"summary.json", "points.csv", "fig3_4.svg", "fig3_4.png", "fig3_4_vbbound.png", "fig3_4_u0_8.png", "scorecard.md"} {
		if _, err := os.Stat(filepath.Join(single, f)); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range []string{"disc_vb_canonical", "disc_map_canonical", "disc_ml_canonical", "lp_vb_canonical", "lp_map_canonical", "disc_vb_u0_8", "disc_map_u0_8",
		"disc_vbbound_canonical", "lp_vbbound_canonical"} {
		if _, ok := sum.Metrics[m]; !ok {
			t.Errorf("metric %s missing", m)
		}
	}
	// Tier A checks that hold at any grid size must pass under -quick too.
	exptest.MustPass(t, sum, aliceDataIndependent...)
	// Another run into another directory, with one worker: identical rows.
	other := runAlice(t, t.TempDir(), experiments.RunOptions{Workers: 1})
	if got := read(t, filepath.Join(other, "cells.csv")); got != want {
		t.Fatal("cells.csv differs between two runs of the same config")
	}
	// Two shards into one directory, then merge: identical rows.
	out := t.TempDir()
	for _, s := range []experiments.Shard{{I: 1, N: 2}, {I: 2, N: 2}} {
		dir := runAlice(t, out, experiments.RunOptions{Shard: s})
		if _, err := os.Stat(filepath.Join(dir, "cells.csv")); err == nil {
			t.Fatal("a shard wrote cells.csv")
		}
	}
	merged := runAlice(t, out, experiments.RunOptions{MergeOnly: true})
	if got := read(t, filepath.Join(merged, "cells.csv")); got != want {
		t.Fatal("merged shards differ from a single run")
	}
	// Merging with a shard missing is an error naming the missing cells.
	out2 := t.TempDir()
	runAlice(t, out2, experiments.RunOptions{Shard: experiments.Shard{I: 1, N: 2}})
	_, err := experiments.RunConfig(context.Background(), configPath("alice.toml"), experiments.RunOptions{
		Out: out2, Quick: true, DataDir: experiments.TestDataDir(), MergeOnly: true})
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("merge with a missing shard: %v", err)
	}
}

func TestAliceGridContainsSlices(t *testing.T) {
	// The same setting gives the same numbers under the slices and the grid
	// configs (seeds are named by the setting, not by the config): the
	// shared quick runs of alice.toml and alice-grid-full.toml, which differ in
	// the experiment's name and the mode.
	rows := func(dir string) map[string]string {
		m := map[string]string{}
		lines := strings.Split(strings.TrimSpace(read(t, filepath.Join(dir, "cells.csv"))), "\n")
		for _, l := range lines[1:] {
			i := strings.LastIndexByte(l, ',')
			m[l[:i]] = l[i+1:]
		}
		return m
	}
	slices, full := rows(exptest.Quick(t, configPath("alice.toml")).Dir), rows(exptest.Quick(t, configPath("alice-grid-full.toml")).Dir)
	if len(full) <= len(slices) {
		t.Fatalf("grid has %d rows, slices %d", len(full), len(slices))
	}
	for k, v := range slices {
		if full[k] != v {
			t.Fatalf("row %s: slices %s, grid %s", k, v, full[k])
		}
	}
}
