package moe_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/moe"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestConformance runs the conformance suite on VB at K = 1, 2 and 4 for
// inputs of dimension 1 and 3 (the move checked is the split Propose finds
// on the two-regime data). E reuses its Terms slice and M its buffers, so
// neither allocates (EAllocs = 0).
func TestConformance(t *testing.T) {
	for _, d := range []int{1, 3} {
		x, y := piecewise(rand.New(rand.NewPCG(1, uint64(d))), 300, d, 0.05)
		for _, k := range []int{1, 2, 4} {
			vbtest.CheckModel(t, func() vb.Model {
				m, err := moe.NewVB(x, y, d, k, moe.DefaultPrior(d), moe.Settings{}, rand.New(rand.NewPCG(7, uint64(k))))
				if err != nil {
					t.Fatal(err)
				}
				return m
			}, vbtest.CheckOptions{})
		}
	}
}
