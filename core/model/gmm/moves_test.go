package gmm_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/vb"
)

// TestSearchFindsClusters: vb.Search with births and deaths, started from
// K = 1 and from K = 8, ends at the three clusters of the data, with F
// never lower than the first converged run's.
func TestSearchFindsClusters(t *testing.T) {
	x := clusters(rand.New(rand.NewPCG(31, 2)), 300, 0.5, [2]float64{-3, 0}, [2]float64{3, 0}, [2]float64{0, 4})
	for _, k0 := range []int{1, 8} {
		m := newVB(t, x, k0, defaultPrior(1), 5)
		res := vb.Search(m, vb.SearchSettings{Run: vb.Settings{MaxIterations: 500}})
		if res.Err != nil {
			t.Fatalf("K0 = %d: %v", k0, res.Err)
		}
		if m.K() != 3 {
			t.Errorf("K0 = %d: search ended at K = %d, want 3 (moves %d)", k0, m.K(), len(res.Moves))
		}
		if res.F < res.Runs[0].F {
			t.Errorf("K0 = %d: F %v below the first run's %v", k0, res.F, res.Runs[0].F)
		}
		acc, _ := res.MoveCounts()
		if acc == 0 {
			t.Errorf("K0 = %d: no move accepted", k0)
		}
	}
}
