package gmm_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/gmm"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestConformance runs the conformance suite on VB at K = 1, 3 and 6 with
// α₀ = 10⁻³ and 1, from either start. E reuses its Terms slice and M its buffers, so neither
// allocates (EAllocs = 0).
func TestConformance(t *testing.T) {
	x := clusters(rand.New(rand.NewPCG(1, 2)), 150, 0.6, [2]float64{-2, 0}, [2]float64{2, 1}, [2]float64{0, 3})
	for _, k := range []int{1, 3, 6} {
		for _, a0 := range []float64{1e-3, 1} {
			for _, s := range []gmm.Start{gmm.NearestPoints, gmm.RandomMixture} {
				vbtest.CheckModel(t, func() vb.Model {
					m, err := gmm.NewVBStart(x, 2, k, gmm.DefaultPrior(2, a0), s, rand.New(rand.NewPCG(7, uint64(k))))
					if err != nil {
						t.Fatal(err)
					}
					return m
				}, vbtest.CheckOptions{})
			}
		}
	}
}
