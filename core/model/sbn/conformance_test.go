package sbn_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/sbn"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestModelConformance runs core/vbtest's suite on mean field and on
// mixtures of 1 and 3 components. E allocates the Bound's Terms slice.
func TestModelConformance(t *testing.T) {
	net, err := sbn.Random([]int{2, 4, 6}, 2, rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	v := []float64{0, 1, 0, 0, 1, 0}
	t.Run("MeanField", func(t *testing.T) {
		vbtest.CheckModel(t, func() vb.Model {
			m, _ := sbn.NewMeanField(net, v, rand.New(rand.NewPCG(1, 1)))
			return m
		}, vbtest.CheckOptions{EAllocs: 1})
	})
	for _, M := range []int{1, 3} {
		t.Run("Mixture", func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model {
				m, _ := sbn.NewMixture(net, v, M, rand.New(rand.NewPCG(1, 1)))
				return m
			}, vbtest.CheckOptions{EAllocs: 1})
		})
	}
}
