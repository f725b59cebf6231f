package atlas

import (
	"io"
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/model/gmm"
	"github.com/vbworkbench/vbw/experiments"
)

// TestGMMCellInvariants runs the row's cells of one small data set (8
// points) at K = 1, 2 and checks the invariants of the CS and Laplace
// cells against the gold standard (the closed form at K = 1, enumeration at
// K = 2): at K = 1 CS, with either completion, is ln p(X) exactly (the
// completed data are the data) and Laplace is within 0.5 nats; at K = 2 CS
// with VB's q(Z) is at least VB's F at the largest budget plus ln 2! (it
// is F + Σ KL, then + ln K!), Beal's CS at the MAP point minus ln 2! is
// below ln p(X) (a lower bound), and every seed has a Laplace estimate;
// EP at K = 1 is ln p(X) (its sites are conjugate: 1e-8) at every budget,
// and every seed has an EP estimate at every budget.
func TestGMMCellInvariants(t *testing.T) {
	c := DefaultGMM()
	c.N, c.Seeds, c.Restarts = 8, 2, 2
	c.VB.MaxIterations, c.VBBudgets = 100, []int{1, 100}
	c.ISSamples, c.AISSteps, c.AIS.Runs = []int{10}, []int{10}, 2
	c.EPSweeps, c.EP.MaxSweeps = []int{1, 20}, 20
	env := &experiments.Env{ID: GMMID, DataDir: experiments.TestDataDir(), Log: io.Discard}
	sets, err := c.gmmSets(env)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 2} {
		cl, err := c.runCell(env, sets[0], k, "set")
		if err != nil {
			t.Fatal(err)
		}
		g := float64(cl.Gold.LnZ)
		lnKf := gmm.LogFactorial(k)
		f := map[uint64]float64{}
		laplace, ep := 0, 0
		for _, e := range cl.Est {
			if e.Method == VB && e.Budget == 100 {
				f[e.Seed] = float64(e.LnZ)
			}
		}
		for _, e := range cl.Est {
			v := float64(e.LnZ)
			switch {
			case e.Method == CS && k == 1 && math.Abs(v-g) > 1e-9*math.Abs(g):
				t.Errorf("K = 1, seed %d: CS %.12f, ln p(X) %.12f", e.Seed, v, g)
			case e.Method == CS && k == 2 && v-lnKf < f[e.Seed]-1e-8:
				t.Errorf("K = 2, seed %d: CS − ln 2 = %.10f below F %.10f", e.Seed, v-lnKf, f[e.Seed])
			case e.Method == EP:
				ep++
				if k == 1 && math.Abs(v-g) > 1e-8 {
					t.Errorf("K = 1, seed %d, %d sweeps: EP %.12f, ln p(X) %.12f", e.Seed, e.Budget, v, g)
				}
			case e.Method == Laplace:
				laplace++
				if k == 1 && math.Abs(v-g) > 0.5 {
					t.Errorf("K = 1, seed %d: Laplace %.6f, ln p(X) %.6f", e.Seed, v, g)
				}
			}
		}
		if ep != c.Seeds*len(c.EPSweeps) {
			t.Errorf("K = %d: %d EP estimates for %d seeds × %d budgets (notes %v)", k, ep, c.Seeds, len(c.EPSweeps), cl.Notes)
		}
		if laplace != c.Seeds {
			t.Errorf("K = %d: %d Laplace estimates for %d seeds (notes %v)", k, laplace, c.Seeds, cl.Notes)
		}
		for i, v := range cl.CSEM {
			if k == 1 && math.Abs(float64(v)-g) > 1e-9*math.Abs(g) {
				t.Errorf("K = 1, seed %d: CS at the MAP point %.12f, ln p(X) %.12f", i+1, v, g)
			}
			if float64(v)-lnKf > g+1e-9 {
				t.Errorf("K = %d, seed %d: CS at the MAP point − ln K! = %.10f above ln p(X) %.10f", k, i+1, float64(v)-lnKf, g)
			}
		}
		if len(cl.CSEM) != c.Seeds {
			t.Errorf("K = %d: %d MAP-point CS values for %d seeds", k, len(cl.CSEM), c.Seeds)
		}
	}
}
