package boltzmann_test

import (
	"testing"

	"github.com/vbworkbench/vbw/core/model/boltzmann"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestModelConformance runs core/vbtest's suite on mean field (the joint
// and a conditional with two units clamped) and on mixtures of 1 and 3
// components, at T = 1 and T = 3. E allocates the Bound's Terms slice.
func TestModelConformance(t *testing.T) {
	m := boltzmann.NewRandom(8, 1.5, rng.New(3, "conformance"))
	clamp := boltzmann.Clamp{1, -1, 0, 0, 0, 0, 0, 0}
	for _, temp := range []float64{1, 3} {
		for _, c := range []boltzmann.Clamp{nil, clamp} {
			t.Run("MeanField", func(t *testing.T) {
				vbtest.CheckModel(t, func() vb.Model {
					q, err := boltzmann.NewMeanField(m, c, boltzmann.RandomMeans(1, 8, 0.5, rng.New(1, "start"))[0])
					if err != nil {
						t.Fatal(err)
					}
					q.SetTemperature(temp)
					return q
				}, vbtest.CheckOptions{EAllocs: 1})
			})
			for _, k := range []int{1, 3} {
				t.Run("Mixture", func(t *testing.T) {
					vbtest.CheckModel(t, func() vb.Model {
						q, err := boltzmann.NewMixture(m, c, boltzmann.RandomMeans(k, 8, 0.5, rng.New(1, "start")))
						if err != nil {
							t.Fatal(err)
						}
						q.SetTemperature(temp)
						return q
					}, vbtest.CheckOptions{EAllocs: 1})
				})
			}
		}
	}
}
