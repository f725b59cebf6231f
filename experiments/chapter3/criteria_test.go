package chapter3

import (
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

// TestAliceSanityIsDataIndependent: in every shipped config of Figure 3.4,
// with and without its [quick] table, the sanity checks are the criteria
// that hold on any text (aliceDataIndependent).
func TestAliceSanityIsDataIndependent(t *testing.T) {
	files, err := filepath.Glob(configPath("alice*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatal("no configs", err)
	}
	for _, f := range files {
		for _, quick := range []bool{false, true} {
			_, cfg, err := experiments.Load(f, quick)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := experiments.StatedCriteria(cfg, &experiments.Env{ID: AliceID, DataDir: experiments.TestDataDir(), Log: io.Discard})
			if err != nil {
				t.Fatal(err)
			}
			var sanity []string
			for _, c := range cs {
				if c.Kind == results.KindSanity {
					sanity = append(sanity, c.ID)
				}
			}
			if !slices.Equal(sanity, aliceDataIndependent) {
				t.Errorf("%s (quick %v): sanity checks %v, want those that hold on any text %v", filepath.Base(f), quick, sanity, aliceDataIndependent)
			}
		}
	}
}

// TestAliceKindsPerU0: Figure 3.4's claims C2, C3 and C5 are the thesis's
// at the canonical u0 and claims of ours at the diagnostic u0, in the
// quick run of every shipped config of the figure.
func TestAliceKindsPerU0(t *testing.T) {
	files, err := filepath.Glob(configPath("alice*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatal("no configs", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".toml"), func(t *testing.T) {
			perU0 := 0
			for _, c := range exptest.Quick(t, f).Summary.Checks {
				want := ""
				switch {
				case strings.HasSuffix(c.ID, "[u0=2]"):
					want = "claim"
				case strings.HasSuffix(c.ID, "[u0=8]"):
					want = "extension"
				default:
					continue
				}
				perU0++
				if c.Kind != want {
					t.Errorf("check %s: kind %q, want %q", c.ID, c.Kind, want)
				}
			}
			if perU0 != 8 {
				t.Errorf("%d checks of C2, C3, C5 per u0, want 4 at u0 = 2 and 4 at u0 = 8", perU0)
			}
		})
	}
}
