package atlas

import (
	"math"
	"testing"
)

// TestClutterCSInvariants runs the row's cells of two small data sets and
// checks the CS cell and its metric against the truth by quadrature: CS
// with VB's q(z) at VB's mean is at least VB's bound F at the last rung
// (it is F + Σ_n KL), and Beal's CS at Laplace's mode with the E step
// there is below ln p(D) (a lower bound, to the quadrature's tolerance)
// and within 1 nat of it.
func TestClutterCSInvariants(t *testing.T) {
	c := DefaultClutter()
	c.VBIterations, c.EPSweeps = []int{1, 50}, []int{1, 20}
	c.IS.Ladder, c.AIS.Ladder, c.IS.Samples, c.AIS.Steps = []int{10}, []int{10}, 10, 10
	for _, n := range []int{5, 20} {
		cl, err := c.runClutterCell(n, 1)
		if err != nil {
			t.Fatal(err)
		}
		g, tol := float64(cl.Gold), float64(cl.GoldSE)+1e-9
		f, cs := math.NaN(), math.NaN()
		for _, e := range cl.Est {
			switch {
			case e.Method == VB && e.Budget == 50:
				f = float64(e.LnZ)
			case e.Method == CS:
				cs = float64(e.LnZ)
			}
		}
		if !(cs >= f-1e-8) {
			t.Errorf("n = %d: CS with VB's q(z) %.10f below F %.10f", n, cs, f)
		}
		if m := float64(cl.CSEM); !(m <= g+tol) || g-m > 1 {
			t.Errorf("n = %d: CS at the MAP point %.10f against ln p(D) %.10f: above it or more than 1 nat below", n, m, g)
		}
	}
}
