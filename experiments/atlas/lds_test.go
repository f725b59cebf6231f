package atlas

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/model/lds"
	"github.com/vbworkbench/vbw/core/vb"
)

// TestLDSMirror checks the symmetry the row relies on for Laplace's + ln 2
// and the mirrored proposal: on data set 0 of the default config, ln p(θ)
// and ln p(y | θ) are even in C at random θ, and Laplace's approximation
// from VB's means and from their mirror (C ↦ −C) reaches two modes with
// the same ln Z (to 10⁻⁶) and opposite C.
func TestLDSMirror(t *testing.T) {
	c := DefaultLDS()
	data := c.ldsDataSet(0)
	a, err := lds.NewAnnealed(data, 1, c.ldsHyper())
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(36, 7))
	for range 20 {
		th := []float64{rnd.NormFloat64(), 2 * rnd.NormFloat64(), rnd.NormFloat64()}
		mir := []float64{th[0], -th[1], th[2]}
		if d := a.LogPrior(th) - a.LogPrior(mir); math.Abs(d) > 1e-12 {
			t.Errorf("ln p(θ) not even in C: %v", d)
		}
		if d := a.LogLik(th) - a.LogLik(mir); math.Abs(d) > 1e-9 {
			t.Errorf("ln p(y|θ) not even in C: %v", d)
		}
	}
	f := approx.Func{LogP: func(x []float64) float64 { return a.LogPrior(x) + a.LogLik(x) }}
	m, err := lds.NewVB(data, lds.Settings{K: 1, Hyper: c.ldsHyper()}, rand.New(rand.NewPCG(36, 8)))
	if err != nil {
		t.Fatal(err)
	}
	if err := vb.Run(m, vb.Settings{MaxIterations: 100, Converger: vb.FixedIterations{}}).Error(); err != nil {
		t.Fatal(err)
	}
	x0 := []float64{m.A().At(0, 0), m.C().At(0, 0), math.Log(m.Rho()[0])}
	l1, err := approx.Laplace(f, x0)
	if err != nil {
		t.Fatal(err)
	}
	x0[1] = -x0[1]
	l2, err := approx.Laplace(f, x0)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(l1.LnZ-l2.LnZ) > 1e-6 || math.Abs(l1.Q.Mean[1]+l2.Q.Mean[1]) > 1e-5 {
		t.Errorf("mirrored modes: ln Z %v and %v, C %v and %v", l1.LnZ, l2.LnZ, l1.Q.Mean[1], l2.Q.Mean[1])
	}
}

// TestLDSBoundBelowGold checks on the default config's first two data
// sets that VB's F (hyperparameters fixed, 100 iterations) is below the
// quadrature's ln p(y), and that the prior adapter of the defensive
// mixture returns the density of its draw.
func TestLDSBoundBelowGold(t *testing.T) {
	c := DefaultLDS()
	for i := range 2 {
		data := c.ldsDataSet(i)
		q, err := lds.LogEvidenceQuad(data, c.ldsHyper(), lds.QuadSettings{Points: 65})
		if err != nil {
			t.Fatal(err)
		}
		m, err := lds.NewVB(data, lds.Settings{K: 1, Hyper: c.ldsHyper()}, rand.New(rand.NewPCG(36, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		res := vb.Run(m, vb.Settings{MaxIterations: 100, Converger: vb.FixedIterations{}})
		if err := res.Error(); err != nil {
			t.Fatal(err)
		}
		if res.F > q.LnZ+3*q.Err {
			t.Errorf("set %d: F = %v above ln p(y) = %v ± %v", i, res.F, q.LnZ, q.Err)
		}
		a, err := lds.NewAnnealed(data, 1, c.ldsHyper())
		if err != nil {
			t.Fatal(err)
		}
		p := ldsPrior{a}
		th := make([]float64, p.Dim())
		rnd := rand.New(rand.NewPCG(36, 9))
		if lq := p.RandLogProb(th, rnd); math.Abs(lq-p.LogProb(th)) > 1e-12 {
			t.Errorf("prior adapter: %v against %v", lq, p.LogProb(th))
		}
	}
}

// TestLDSValidate checks that unpaired data-set keys are refused, naming
// the key.
func TestLDSValidate(t *testing.T) {
	c := DefaultLDS()
	c.Lengths = c.Lengths[:1]
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "lengths") {
		t.Errorf("unpaired lengths: %v", err)
	}
	c = DefaultLDS()
	c.Quad.Points = 64
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "quad.points") {
		t.Errorf("even quad.points: %v", err)
	}
}
