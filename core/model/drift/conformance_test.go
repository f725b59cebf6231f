package drift

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestModelConformance runs the conformance suite of core/vbtest on vkS (VB)
// with one and with three drifting weights, and with ψ_y known. E reuses its
// Terms slice and the smoother's buffers, so it does not allocate.
func TestModelConformance(t *testing.T) {
	for _, c := range []struct {
		T, d  int
		known float64
	}{{60, 1, 0}, {25, 3, 0}, {40, 1, 100}} {
		data, _ := simulate(rand.New(rand.NewPCG(5, uint64(c.T))), c.T, c.d, 400, 100)
		t.Run(fmt.Sprintf("T=%d,d=%d,psi=%g", c.T, c.d, c.known), func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model {
				m, err := NewVB(data, testPrior, Settings{KnownPsi: c.known})
				if err != nil {
					t.Fatal(err)
				}
				return m
			}, vbtest.CheckOptions{Iterations: 15})
		})
	}
}
