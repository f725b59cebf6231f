package atlas

import (
	"math"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/core/model/boltzmann"
)

// quickBM is the default config at a size a test runs in well under a
// second.
func quickBM() BMConfig {
	c := DefaultBM()
	c.Machines, c.Seeds = 2, 1
	c.VBIterations = []int{1, 3, 10, 50}
	c.IS.Samples, c.IS.Ladder = 400, []int{4, 400}
	c.AIS.Steps, c.AIS.Ladder = 100, []int{3, 100}
	return c
}

// TestBMGoldIndependent checks the gold standard of a cell against an
// independent sum of exp(Σ_{i<j} w_ij s_i s_j + Σ_i b_i s_i)/T over the 2^N
// states (eq. 4.3), computed here from the machine's weights with
// math.Exp alone, at T = 0.8 so that the temperature enters.
func TestBMGoldIndependent(t *testing.T) {
	c := quickBM()
	c.T = 0.8
	cl, err := c.runBMCell(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := c.bmMachine(1)
	n := m.N
	var z float64
	for k := range 1 << n {
		s := func(i int) float64 { return float64(2*((k>>i)&1) - 1) }
		var e float64
		for i := range n {
			e += m.B[i] * s(i)
			for j := i + 1; j < n; j++ {
				e += m.W[i*n+j] * s(i) * s(j)
			}
		}
		z += math.Exp(e / 0.8)
	}
	if got, want := float64(cl.Gold), math.Log(z); math.Abs(got-want) > 1e-10 {
		t.Errorf("gold ln Z = %.12f, independent sum %.12f", got, want)
	}
}

// TestBMCellInvariants checks a cell's estimates: mean field's bound is at
// most the gold standard and never falls along its ladder, its operations
// are the ladder's iterations × N²; EP has one estimate per rung with
// operations (k + 1) × 4 × pairs; the mixture's bound is at most the gold
// standard; IS and AIS at their largest budget are within 5 of their
// (positive) standard errors of the gold standard (fixed streams; AIS's
// N ln 2 included, so a wrong constant fails by 6.9 nats); every
// posterior error is in [0, 2].
func TestBMCellInvariants(t *testing.T) {
	c := quickBM()
	for i := range c.Machines {
		cl, err := c.runBMCell(i, 1)
		if err != nil {
			t.Fatal(err)
		}
		n := c.Units
		gold := float64(cl.Gold)
		prev := math.Inf(-1)
		last := map[string]cellEst{}
		var eps int
		for _, e := range cl.Est {
			last[e.Method] = e
			if me := float64(e.MeanErr); !(me >= 0 && me <= 2) {
				t.Errorf("%s: %s mean error %v at %d", cl.Dataset, e.Method, me, e.Budget)
			}
			switch e.Method {
			case EP:
				if want := float64((e.Budget + 1) * 4 * n * (n - 1) / 2); float64(e.Ops) != want {
					t.Errorf("%s: EP ops %v at %d sweeps, want %v", cl.Dataset, e.Ops, e.Budget, want)
				}
				eps++
			case VB:
				f := float64(e.LnZ)
				if f > gold+1e-9 {
					t.Errorf("%s: L after %d iterations %v above gold %v", cl.Dataset, e.Budget, f, gold)
				}
				if f < prev-1e-9 {
					t.Errorf("%s: L fell to %v at %d iterations", cl.Dataset, f, e.Budget)
				}
				prev = f
				if want := float64(e.Budget * n * n); float64(e.Ops) != want {
					t.Errorf("%s: VB ops %v at %d iterations, want %v", cl.Dataset, e.Ops, e.Budget, want)
				}
			}
		}
		if eps != len(c.EPSweeps) {
			t.Errorf("%s: %d EP estimates for a ladder of %d", cl.Dataset, eps, len(c.EPSweeps))
		}
		if cl.Failed != 0 || !(float64(cl.Mix) <= gold+1e-9) {
			t.Errorf("%s: mixture %v, gold %v, failed %d", cl.Dataset, cl.Mix, gold, cl.Failed)
		}
		for _, m := range []string{IS, AIS} {
			e := last[m]
			se := float64(e.SE)
			if !(se > 0) || math.Abs(float64(e.LnZ)-gold) > 5*se {
				t.Errorf("%s: %s ln Z = %v ± %v, gold %v", cl.Dataset, m, e.LnZ, se, gold)
			}
		}
	}
}

// TestBMEPTree: on a machine whose weights form a chain the row's EP cell
// is exact (belief propagation on a tree): at its last rung (100 sweeps,
// damping 0.5, past convergence at tol 1e-8) |ln Z_EP − ln Z| ≤ 1e-7 and
// the mean |⟨s_i⟩ error| ≤ 1e-7 (the sites converged to 1e-8 in log-odds;
// core/model/boltzmann's TestEPTrees checks 1e-9 at tol 1e-12).
func TestBMEPTree(t *testing.T) {
	c := quickBM()
	m, _ := c.bmMachine(0)
	n := m.N
	for i := range n {
		for j := i + 2; j < n; j++ {
			m.SetWeight(i, j, 0)
		}
	}
	ex, err := m.Exact(nil)
	if err != nil {
		t.Fatal(err)
	}
	ep, err := boltzmann.NewEP(m, c.EP.settings())
	if err != nil {
		t.Fatal(err)
	}
	var cl rowCell
	conv, err := c.EP.ladder(&cl, c.EPSweeps, ep, ep.LogZ, float64(ep.EPSweepOps()), ex.Mean)
	if err != nil || conv == 0 {
		t.Fatalf("EP on a chain: converged after %d sweeps, %v", conv, err)
	}
	e := cl.Est[len(cl.Est)-1]
	if d := math.Abs(float64(e.LnZ) - ex.LogZ); d > 1e-7 || float64(e.MeanErr) > 1e-7 {
		t.Errorf("EP on a chain: ln Z %v, exact %v; mean error %v", e.LnZ, ex.LogZ, e.MeanErr)
	}
}

// TestBMLadderCaps: a rung beyond its cap is refused, naming the key.
func TestBMLadderCaps(t *testing.T) {
	for key, set := range map[string]func(*BMConfig){
		"ep_sweeps":  func(c *BMConfig) { c.EP.MaxSweeps = 10 },
		"is.ladder":  func(c *BMConfig) { c.IS.Samples = 100 },
		"ais.ladder": func(c *BMConfig) { c.AIS.Steps = 100 },
	} {
		c := DefaultBM()
		set(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s beyond its cap: %v", key, err)
		}
	}
}
