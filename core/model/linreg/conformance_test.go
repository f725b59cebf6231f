package linreg_test

import (
	"fmt"
	"testing"

	"github.com/vbworkbench/vbw/core/model/linreg"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestModelConformance runs the conformance suite of core/vbtest on VB,
// ML-EM and MAP-EM, for a cubic, the order-8 polynomial of Fig. 10.9 on 10
// points and an order-8 polynomial on 5 points (M > N: ΦᵀΦ singular). None
// of the E steps allocates: each reuses its Terms slice (vb.Run copies it).
func TestModelConformance(t *testing.T) {
	prior := linreg.Prior{A0: 1e-3, B0: 1e-3}
	for _, c := range []struct{ n, order int }{{10, 3}, {10, 8}, {5, 8}} {
		p, _, _ := problem(t, c.n, c.order, 7)
		name := fmt.Sprintf("n=%d,order=%d", c.n, c.order)
		t.Run("VB/"+name, func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model {
				m, err := linreg.NewVB(p, prior, linreg.Settings{InitAlpha: 100})
				if err != nil {
					t.Fatal(err)
				}
				return m
			}, vbtest.CheckOptions{})
		})
		t.Run("ML/"+name, func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model {
				m, err := linreg.NewEM(p, 100, nil)
				if err != nil {
					t.Fatal(err)
				}
				return m
			}, vbtest.CheckOptions{})
		})
		t.Run("MAP/"+name, func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model {
				m, err := linreg.NewEM(p, 100, &linreg.Prior{A0: 2, B0: 0.5})
				if err != nil {
					t.Fatal(err)
				}
				return m
			}, vbtest.CheckOptions{})
		})
	}
}
