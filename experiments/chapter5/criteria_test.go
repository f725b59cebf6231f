package chapter5

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

// TestCaseKinds: in the quick run of every shipped config of the
// thesis's settings, the cases of ours are extensions (the toolbox's
// U(−1, 1) noise input and the zero cross_init) while those of the
// thesis's settings are claims.
func TestCaseKinds(t *testing.T) {
	files, err := filepath.Glob(configPath("*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatal("no configs", err)
	}
	cases := map[string]string{
		"fig5.4-diagonal-dominance[identity]": "claim", "fig5.4-diagonal-dominance[zero]": "extension",
		"fig5.7-activation-jumps.u01": "claim", "fig5.7-activation-jumps.u-11": "extension",
		"fig5.8-whole-structure.u01": "claim", "fig5.8-whole-structure.u-11": "extension",
	}
	judged := 0
	for _, f := range files {
		_, cfg, err := experiments.Load(f, true)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Base().Ours() {
			continue
		}
		t.Run(strings.TrimSuffix(filepath.Base(f), ".toml"), func(t *testing.T) {
			for _, c := range exptest.Quick(t, f).Summary.Checks {
				if want := cases[c.ID]; want != "" {
					judged++
					if c.Kind != want {
						t.Errorf("check %s is a %s, want a %s", c.ID, c.Kind, want)
					}
				}
			}
		})
	}
	if judged == 0 {
		t.Error("no check of the cases: the test checked nothing")
	}
}

// TestTCellOwnData: on a data file of the user's (no published checksum
// verifies it) the published shape and checksum of tcell.csv are not
// judged, so that the run is not made invalid by sanity checks of another
// file, while the normalisation still is; on the published file all are.
func TestTCellOwnData(t *testing.T) {
	c := DefaultGenes()
	c.Data.File = "mine.csv"
	pr := &tcellPrepared{raw: &TCell{Genes: []string{"a", "b"}, Hours: TCellHours, Series: make([]TCellSeries, 3)}, worst: 1e-15}
	for _, verified := range []bool{false, true} {
		s := &results.Summary{}
		book := newCheckBook(s, tcellCriteria)
		judgeTCell(book, &c, pr, verified)
		if err := s.CheckComplete(tcellCriteria); err != nil {
			t.Fatal(err)
		}
		for _, ch := range s.Checks {
			switch {
			case ch.ID == "fig5.9-means" && (ch.NotApplicable || !ch.Pass):
				t.Errorf("verified %v: %s not judged or failed: %+v", verified, ch.ID, ch)
			case ch.ID != "fig5.9-means" && ch.NotApplicable == verified:
				t.Errorf("verified %v: %s not applicable %v (%s)", verified, ch.ID, ch.NotApplicable, ch.Why)
			case ch.ID == "fig5.9-genes" && verified && ch.Pass:
				t.Errorf("2 genes pass the published 58: %+v", ch)
			}
		}
	}
}

// TestFractionsKeepTheirSpread: every check that is a fraction of units
// (seeds) in every shipped config's quick run keeps the spread of the
// units' values, over as many units, with as many held as the fraction
// says, so that the report shows it beside the thesis's statement.
func TestFractionsKeepTheirSpread(t *testing.T) {
	files, err := filepath.Glob(configPath("*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatal("no configs", err)
	}
	n := 0
	for _, f := range files {
		for _, c := range exptest.Quick(t, f).Summary.Checks {
			var units int
			i := strings.LastIndex(c.Name, " (fraction of ")
			if i < 0 || !strings.HasSuffix(c.Name, " units)") {
				continue
			}
			if _, err := fmt.Sscanf(c.Name[i:], " (fraction of %d units)", &units); err != nil {
				t.Fatalf("%s: %q: %v", filepath.Base(f), c.Name, err)
			}
			n++
			if sp := c.Spread; sp == nil || sp.N != units || math.Abs(float64(sp.Held)-c.Value*float64(units)) > 1e-9 {
				t.Errorf("%s: check %s (value %v of %d units): spread %+v", filepath.Base(f), c.ID, c.Value, units, sp)
			}
		}
	}
	if n == 0 {
		t.Error("no check is a fraction of units: the test checked nothing")
	}
}

// TestOverSeeds: a criterion the targets judge on the median over seeds is
// judged over the seeds: the fraction of seeds whose measure meets its
// per-seed threshold (seedTargets), against more than half, with the
// spread of the measure, a NaN (a seed without the measure) counting as
// one on which it does not hold; every per-seed threshold belongs to a
// criterion of a shipped experiment, whose text states it.
func TestOverSeeds(t *testing.T) {
	cs := fig512Criteria(false)
	s := &results.Summary{}
	book := newCheckBook(s, cs)
	book.interactionOverSeeds([]interScore{
		{Fraction: 0.01, Corr: 0.9, RankRatio: 1e-16, AUCVB: 0.99, AUCMAP: 0.97, Precision: 0.9, Recall: 0.8, SignAgree: 1, FPRate: 0.001},
		{Fraction: 0.09, Corr: 0.4, RankRatio: 1e-16, AUCVB: 0.9, AUCMAP: 0.97, Precision: math.NaN(), Recall: 0.8, SignAgree: 1, FPRate: 0.001},
		{Fraction: 0.02, Corr: 0.3, RankRatio: 1e-16, AUCVB: 0.99, AUCMAP: 0.97, Precision: 0.8, Recall: 0.8, SignAgree: 1, FPRate: 0.001},
	}, true)
	for _, w := range []struct {
		id     string
		pass   bool
		held   int
		median float64
	}{
		{"fig5.12-sparse", true, 2, 0.02},
		{"fig5.12-map-vb-corr", false, 1, 0.4},
		{"fig5.12-auroc", true, 2, 0.99},
		{"fig5.12-precision", false, 1, 0.85}, // 0.9, NaN, 0.8
	} {
		c, ok := s.CheckByID(w.id)
		if !ok {
			t.Fatalf("no check %s", w.id)
		}
		if sp := c.Spread; c.Pass != w.pass || sp == nil || sp.N != 3 || sp.Held != w.held || math.Abs(c.Value-float64(w.held)/3) > 1e-15 ||
			math.Abs(sp.Median-w.median) > 1e-12 || c.Target != majority.String() {
			t.Errorf("%s: pass %v value %v target %s spread %+v; want pass %v, %d of 3, median %v, target %s", w.id, c.Pass, c.Value, c.Target, sp, w.pass, w.held, w.median, majority)
		}
	}
	// The per-seed thresholds and the criteria agree.
	used := map[string]bool{}
	dim, inp, gen, sur := DefaultDimensionality(), DefaultInputs(), DefaultGenes(), DefaultSurrogateConfig()
	for _, cs := range []results.Criteria{dimensionalityCriteria(&dim), inputsCriteria(&inp), genesCriteria(&gen), surrogateCriteria(&sur)} {
		for _, c := range cs {
			th, ok := seedTargets[c.ID]
			if !ok {
				continue
			}
			used[c.ID] = true
			if c.Target != majority || !strings.HasSuffix(c.Text, " "+th.String()+seedsSuffix) {
				t.Errorf("%s: target %s, text %q; want %s and the text ending %q", c.ID, c.Target, c.Text, majority, " "+th.String()+seedsSuffix)
			}
		}
	}
	for id := range seedTargets {
		if !used[id] {
			t.Errorf("seedTargets[%q] belongs to no criterion", id)
		}
	}
}
