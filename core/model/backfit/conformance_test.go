package backfit_test

import (
	"fmt"
	"testing"

	"github.com/vbworkbench/vbw/core/model/backfit"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestModelConformance runs the conformance suite of core/vbtest on
// probabilistic backfitting (EM) and on Bayesian backfitting with a shared
// α and with ARD, noise fitted and fixed, on a few shapes (more inputs than
// points included). No E or M step allocates.
func TestModelConformance(t *testing.T) {
	prior := backfit.Prior{A: 1e-3, B: 1e-3}
	for _, c := range []struct{ n, d, rel int }{{30, 3, 2}, {50, 12, 3}, {8, 15, 2}} {
		p := synth(t, c.n, c.d, c.rel, 0.3, uint64(c.n+c.d))
		name := fmt.Sprintf("n=%d,d=%d", c.n, c.d)
		t.Run("EM/"+name, func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model {
				m, err := backfit.NewEM(p, backfit.Noise{})
				if err != nil {
					t.Fatal(err)
				}
				return m
			}, vbtest.CheckOptions{Iterations: 30})
		})
		for _, s := range []backfit.Settings{{}, {ARD: true}, {FixNoise: true}, {ARD: true, FixNoise: true, InitAlpha: 10}, {ARD: true, InitAlpha: 1e-3, AlphaFrom: 5}} {
			t.Run(fmt.Sprintf("VB/ard=%v,fix=%v,from=%d/%s", s.ARD, s.FixNoise, s.AlphaFrom, name), func(t *testing.T) {
				vbtest.CheckModel(t, func() vb.Model {
					m, err := backfit.NewVB(p, prior, s)
					if err != nil {
						t.Fatal(err)
					}
					return m
				}, vbtest.CheckOptions{Iterations: 30})
			})
		}
	}
}
