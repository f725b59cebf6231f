package supersmooth_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/supersmooth"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// wiggly returns n noisy points of D'Souza's test function
// y = x − sin³(2πx³)cos(2πx³)exp(x⁴) (L1203-1205) on (lo, hi), noise sd 0.1.
func wiggly(seed uint64, n int, lo, hi float64) (x, y []float64) {
	rnd := rand.New(rand.NewPCG(seed, 3))
	x, y = make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = lo + (hi-lo)*rnd.Float64()
		a := 2 * math.Pi * x[i] * x[i] * x[i]
		y[i] = x[i] - math.Pow(math.Sin(a), 3)*math.Cos(a)*math.Exp(math.Pow(x[i], 4)) + 0.1*rnd.NormFloat64()
	}
	return x, y
}

// TestModelConformance runs the conformance suite of core/vbtest on VB at
// queries in the smooth and the oscillating part of the test function, at
// a data point (d_i = 0 for it) and outside the data, with the text's
// prior and with a narrow start. E reuses its Terms slice: no allocation.
func TestModelConformance(t *testing.T) {
	x, y := wiggly(1, 60, 0, 1)
	cases := []struct {
		xq, h0 float64
	}{{0.2, 0}, {0.9, 0}, {x[7], 0}, {1.3, 0}, {0.5, 1e6}}
	for _, c := range cases {
		t.Run(fmt.Sprintf("xq=%.3f,h0=%g", c.xq, c.h0), func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model {
				m, err := supersmooth.NewVB(x, y, c.xq, supersmooth.TextPrior(), supersmooth.Settings{InitH: c.h0})
				if err != nil {
					t.Fatal(err)
				}
				return m
			}, vbtest.CheckOptions{Iterations: 30})
		})
	}
}
