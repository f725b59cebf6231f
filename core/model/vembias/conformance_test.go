package vembias

import (
	"testing"

	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestConformance runs the engine's conformance suite (vbtest.CheckModel:
// F never decreases across E and M steps, the named terms sum to F, two
// runs from one start agree, and the steady-state E step's allocations)
// on the package's vb.Models: exact EM and vEM on the factor model of
// Fig 1.1, and vEM on the state-space model of §1.4 for every
// approximation and every single free parameter.
func TestConformance(t *testing.T) {
	// Both E steps return a freshly allocated Bound.Terms slice (a
	// Recorder may keep it): one allocation.
	opts := vbtest.CheckOptions{Iterations: 20, EAllocs: 1}
	for _, qVar := range []float64{0, 0.4} {
		vbtest.CheckModel(t, func() vb.Model {
			f, err := NewFactor(1.7, 0.3, qVar)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}, opts)
	}
	for _, q := range Approxes {
		for _, p := range []Param{Lambda, SigmaY2, Phi2, Norm2} {
			pr := &Problem{Obs: 2, Truth: fig15, Approx: q, Free: []Param{p}}
			vbtest.CheckModel(t, func() vb.Model {
				v, err := NewVEM(pr, []float64{fig15[p] * 0.7})
				if err != nil {
					t.Fatal(err)
				}
				return v
			}, opts)
		}
	}
}
