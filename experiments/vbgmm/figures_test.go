package vbgmm

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

// TestCrossWindow: the zoom of dsouza_fig3_2 runs from a grid step before
// the first crossover to one after the last (the crossovers of the full
// run: F 2.08, F + ln 2 2.03, AIS 1.76, IS 1.86 on a grid of step 0.25),
// and is the whole grid when nothing crosses.
func TestCrossWindow(t *testing.T) {
	var sep []float64
	for i := range 25 {
		sep = append(sep, 0.25*float64(i))
	}
	nan := math.NaN()
	lo, hi := crossWindow(sep, []float64{nan, 2.08, 2.03, 1.76, 1.86})
	if sep[lo] != 1.5 || sep[hi] != 2.5 {
		t.Errorf("window [%v, %v], want [1.5, 2.5]", sep[lo], sep[hi])
	}
	if lo, hi := crossWindow(sep, []float64{nan, 0.1}); lo != 0 || hi != 2 {
		t.Errorf("crossing in the first step: window [%d, %d], want [0, 2]", lo, hi)
	}
	if lo, hi := crossWindow(sep, []float64{nan, nan}); lo != 0 || hi != len(sep)-1 {
		t.Errorf("no crossover: window [%d, %d], want the grid", lo, hi)
	}
}

// TestOwnDataFigureLabels: a mixture run on a renamed copy of Old Faithful
// whose header renames the columns titles its figures with the file's name
// and labels the axes with its columns, never Old Faithful's; the shipped
// file keeps PRML's title and axes.
func TestOwnDataFigureLabels(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(experiments.TestDataDir(), "faithful.csv"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(raw), "\n")
	if !ok {
		t.Fatal("faithful.csv has one line")
	}
	file := filepath.Join(t.TempDir(), "geyser.csv")
	if err := os.WriteFile(file, []byte("duration,interval\n"+rest), 0o644); err != nil {
		t.Fatal(err)
	}
	base, err := os.ReadFile(configPath("fig10_6.toml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := strings.Replace(string(base), `data = "faithful.csv"`, fmt.Sprintf("data = %q", file), 1)
	if cfg == string(base) {
		t.Fatal(`fig10_6.toml has no line data = "faithful.csv"`)
	}
	own := exptest.Quick(t, exptest.EditedCopy(t, configPath(""), "geyser.toml", cfg))
	shipped := exptest.Quick(t, configPath("fig10_6.toml"))
	for _, c := range []struct {
		run            exptest.QuickRun
		title106       string
		title107       string
		xlabel, ylabel string
	}{
		{own, "PRML Fig. 10.6's experiment on geyser.csv: VB mixture of 6 Gaussians",
			"PRML Fig. 10.7's experiment on geyser.csv: choosing K by F + ln K!, beside the sampled evidence",
			"duration (standardised)", "interval (standardised)"},
		{shipped, "PRML Fig. 10.6: VB mixture of 6 Gaussians on Old Faithful",
			"PRML Fig. 10.7: choosing K on Old Faithful by F + ln K!, beside the sampled evidence",
			"eruptions (standardised)", "waiting (standardised)"},
	} {
		snap := results.ReadColumns(filepath.Join(c.run.Dir, "fig10_6_snapshots.csv"))
		it := snap.Floats("iteration")
		if err := snap.Err(); err != nil {
			t.Fatal(err)
		}
		if got, err := fig106Title(c.run.Dir, it); err != nil || got != c.title106 {
			t.Errorf("fig10_6 title %q, %v; want %q", got, err, c.title106)
		}
		if got, err := fig107Title(c.run.Dir); err != nil || got != c.title107 {
			t.Errorf("fig10_7 title %q, %v; want %q", got, err, c.title107)
		}
		xs, _, labels, err := dataColumns(c.run.Dir)
		if err != nil || labels != [2]string{c.xlabel, c.ylabel} || len(xs) != 272 {
			t.Errorf("axes %q (%d points), %v; want %q, %q (272 points)", labels, len(xs), err, c.xlabel, c.ylabel)
		}
	}
}
