package atlas

import (
	"math"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/core/model/sbn"
	"github.com/vbworkbench/vbw/core/rng"
)

// TestSBNEPCell checks a cell's EP estimates: one per rung of ep_sweeps,
// operations (k + 1) × Net.EPSweepOps (k sweeps and the evidence pass),
// and at the last rung (20
// sweeps, past the 8 EP takes to converge at tol 1e-8 on these nets) an error
// within 0.02 nats of the gold standard and below mean field's bound gap
// (core/model/sbn's TestEPRandomNets observes EP errors of at most 0.0044
// nats on such nets, mean-field gaps of 0.038-0.093); the run converged.
func TestSBNEPCell(t *testing.T) {
	c := quickSBN()
	for i := range c.Nets {
		cl, err := c.runSBNCell(i, 1)
		if err != nil {
			t.Fatal(err)
		}
		net, _ := sbn.Random(c.Layers, c.Span, rng.New(c.Seed, SBNID, "net", cl.Dataset))
		gold := float64(cl.Gold)
		var eps, vbs []cellEst
		for _, e := range cl.Est {
			switch e.Method {
			case EP:
				eps = append(eps, e)
			case VB:
				vbs = append(vbs, e)
			}
		}
		if len(eps) != len(c.EPSweeps) {
			t.Fatalf("%s: %d EP estimates for a ladder of %d", cl.Dataset, len(eps), len(c.EPSweeps))
		}
		for j, e := range eps {
			if e.Budget != c.EPSweeps[j] {
				t.Errorf("%s: EP rung %d has budget %d, want %d", cl.Dataset, j, e.Budget, c.EPSweeps[j])
			}
			if want := float64((e.Budget + 1) * net.EPSweepOps()); float64(e.Ops) != want {
				t.Errorf("%s: EP ops %v at %d sweeps, want %v", cl.Dataset, e.Ops, e.Budget, want)
			}
		}
		last, mf := eps[len(eps)-1], vbs[len(vbs)-1]
		epErr, gap := math.Abs(float64(last.LnZ)-gold), gold-float64(mf.LnZ)
		if epErr > 0.02 || epErr >= gap {
			t.Errorf("%s: EP ln P(V) %v after %d sweeps, gold %v (mean field's gap %v)", cl.Dataset, last.LnZ, last.Budget, gold, gap)
		}
		if cl.EPSweeps < 1 || cl.Notes["ep_not_converged"] != 0 || cl.Notes["ep_skipped"] != 0 {
			t.Errorf("%s: EP converged after %d sweeps, notes %v", cl.Dataset, cl.EPSweeps, cl.Notes)
		}
	}
}

// TestSBNEPLadderCap: a rung beyond ep.max_sweeps is refused, naming the key.
func TestSBNEPLadderCap(t *testing.T) {
	c := DefaultSBN()
	c.EP.MaxSweeps = 10
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "ep_sweeps") {
		t.Errorf("ladder %v with max_sweeps 10: %v", c.EPSweeps, err)
	}
}
