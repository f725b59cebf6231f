package ica

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestModelConformance runs core/vbtest's conformance suite on VB: every
// E, M and UpdateHyper step leaves the bound no lower, the terms sum to it,
// the same start gives the same bits, and neither E nor M allocates (E
// reuses its Terms slice, which vb.Run copies).
func TestModelConformance(t *testing.T) {
	bimodal := Sources{Weights: []float64{0.5, 0.5}, Means: []float64{-1, 1}, Variances: []float64{1, 1}}
	for _, c := range []struct {
		n, p, k, model int
		src            Sources
		noise          float64
	}{
		{60, 3, 2, 3, toySources(), 1e-2},
		{40, 3, 2, 2, bimodal, 0.1},
		{30, 2, 1, 2, toySources(), 1},
		{25, 4, 3, 1, bimodal, 0.5},
	} {
		data, _, _ := mixed(rand.New(rand.NewPCG(uint64(c.n), 7)), c.n, c.p, c.k, c.src, c.noise)
		t.Run(fmt.Sprintf("n=%d,p=%d,I=%d", c.n, c.p, c.model), func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model {
				m, err := NewVB(data, c.p, c.src, DefaultPrior(), Settings{Sources: c.model})
				if err != nil {
					t.Fatal(err)
				}
				return m
			}, vbtest.CheckOptions{Iterations: 15})
		})
	}
}
