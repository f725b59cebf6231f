package gmm_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vbworkbench/vbw/core/model/gmm"
)

// TestStartNames: String and ParseStart are inverse, and an unknown name
// or value is refused.
func TestStartNames(t *testing.T) {
	for _, s := range []gmm.Start{gmm.NearestPoints, gmm.RandomMixture} {
		if got, err := gmm.ParseStart(s.String()); err != nil || got != s {
			t.Errorf("ParseStart(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := gmm.ParseStart("kmeans"); err == nil {
		t.Error("ParseStart(kmeans): no error")
	}
	if _, err := gmm.NewVBStart(tiny(), 2, 2, defaultPrior(1), gmm.Start(7), rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("NewVBStart with Start(7): no error")
	}
}

// TestRandomMixtureShares: on three equal clusters of 100 points, K = 6
// components, the nearest-point start gives a component fewer than 1% of
// the points (3) only when its centre is crowded out by another's (5 of
// 200 starts here), while the random mixture's weights, uniform on the
// simplex, leave some component nearly empty in most starts (198 of 200
// here); both starts are hard partitions, and most differ from one
// another.
func TestRandomMixtureShares(t *testing.T) {
	x := clusters(rand.New(rand.NewPCG(1, 2)), 300, 0.6, [2]float64{-2, 0}, [2]float64{2, 1}, [2]float64{0, 3})
	const k, starts = 6, 200
	small := map[gmm.Start]int{}
	for _, s := range []gmm.Start{gmm.NearestPoints, gmm.RandomMixture} {
		var seen [][]float64
		for r := 0; r < starts; r++ {
			m, err := gmm.NewVBStart(x, 2, k, defaultPrior(1), s, rand.New(rand.NewPCG(uint64(r), 9)))
			if err != nil {
				t.Fatal(err)
			}
			resp := m.Responsibilities()
			for _, v := range resp {
				if v != 0 && v != 1 {
					t.Fatalf("%v: responsibility %v, want a hard partition", s, v)
				}
			}
			counts := m.Counts(nil)
			if slices.Min(counts) < 0.01*float64(m.N()) {
				small[s]++
			}
			if !slices.ContainsFunc(seen, func(o []float64) bool { return slices.Equal(o, resp) }) {
				seen = append(seen, slices.Clone(resp))
			}
		}
		if len(seen) < starts/2 {
			t.Errorf("%v: %d distinct partitions of %d starts", s, len(seen), starts)
		}
	}
	if small[gmm.NearestPoints] > starts/10 || small[gmm.RandomMixture] < starts/2 {
		t.Errorf("starts with a component under 1%% of the points: nearest-points %d, random-mixture %d of %d",
			small[gmm.NearestPoints], small[gmm.RandomMixture], starts)
	}
}
