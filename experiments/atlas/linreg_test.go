package atlas

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/model/linreg"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/samplers/is"
)

func testLinreg(t *testing.T) *linregData {
	t.Helper()
	c := DefaultLinreg()
	d, err := c.linregDataSet(0)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The grid's ln p(t) is the quadrature's, and at a prior that fixes α the
// posterior of w is the Gaussian at that α (PRML eqs. 3.53–3.54).
func TestLinregPosterior(t *testing.T) {
	d := testLinreg(t)
	prior := linreg.Prior{A0: 1, B0: 1}
	want, _, err := d.p.LogEvidence(prior, linreg.QuadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, got, err := d.Posterior(prior, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-want) > 1e-8 {
		t.Errorf("grid ln p(t) = %.12g, quadrature %.12g", got, want)
	}
	fixed := linreg.Prior{A0: 1e8, B0: 1e8 / 2} // α = 2 to 10⁻⁴
	mean, variance, _, err := d.Posterior(fixed, 1e-4)
	if err != nil {
		t.Fatal(err)
	}
	l, mu := make([]float64, d.m*d.m), make([]float64, d.m)
	d.conditional(2, 1, l, mu)
	for j := range mu {
		e := make([]float64, d.m)
		e[j] = 1
		solveL(l, d.m, e)
		s := 0.0
		for _, v := range e {
			s += v * v
		}
		if math.Abs(mean[j]-mu[j]) > 1e-4*(1+math.Abs(mu[j])) || math.Abs(variance[j]-s) > 1e-3*s {
			t.Errorf("w_%d: mean %g var %g, want %g and %g at α = 2", j, mean[j], variance[j], mu[j], s)
		}
	}
}

// solveL overwrites v with L⁻¹v.
func solveL(l []float64, m int, v []float64) {
	for i := range m {
		s := v[i]
		for r := range i {
			s -= l[i*m+r] * v[r]
		}
		v[i] = s / l[i*m+i]
	}
}

// Laplace is exact for the Gaussian w given α, and its ln α part tends to
// exact as a₀ grows (a gamma prior of shape a₀ is Gaussian in ln α to
// O(1/a₀)): at a₀ = 10⁶ it matches the quadrature to 10⁻⁴ nats; at the
// row's vague prior it does not (the check can fail).
func TestLinregLaplaceKnownAnswer(t *testing.T) {
	d := testLinreg(t)
	for _, tc := range []struct {
		prior linreg.Prior
		tol   float64
		close bool
	}{{linreg.Prior{A0: 1e6, B0: 1e6 / 3}, 1e-4, true}, {linreg.Prior{A0: 1, B0: 1}, 1e-3, false}} {
		want, _, err := d.p.LogEvidence(tc.prior, linreg.QuadSettings{})
		if err != nil {
			t.Fatal(err)
		}
		got, _, _, _, err := d.Laplace(tc.prior)
		if err != nil {
			t.Fatal(err)
		}
		if (math.Abs(got-want) <= tc.tol) != tc.close {
			t.Errorf("prior %+v: Laplace %.9g, quadrature %.9g (want within %g: %v)", tc.prior, got, want, tc.tol, tc.close)
		}
	}
}

// The proposal's LogProb at its own draw is the value RandLogProb returns,
// and IS with it agrees with the quadrature within 4 standard errors on a
// data set of the row (a check of the Jacobian of u = ln α and of the
// prior component).
func TestLinregProposal(t *testing.T) {
	d := testLinreg(t)
	prior := linreg.Prior{A0: 1, B0: 1}
	q, err := linreg.NewVB(d.p, prior, linreg.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for range 30 {
		q.E()
		q.M()
	}
	a := &linregAnnealed{d: d, prior: prior}
	p, err := newLinregProposal(q, a, 10, 1.2, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	rnd := rng.New(1, "test", "linreg-proposal")
	th := make([]float64, p.Dim())
	for i := range 200 {
		lp := p.RandLogProb(th, rnd)
		if got := p.LogProb(th); math.Abs(got-lp) > 1e-9*(1+math.Abs(lp)) {
			t.Fatalf("draw %d: LogProb %.12g, RandLogProb %.12g", i, got, lp)
		}
	}
	want, _, err := d.p.LogEvidence(prior, linreg.QuadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	_, sum := is.SampleRuns(8, 20000, 1, is.RunStreams(1, "test", "linreg-is"), func() (is.Proposal, is.Target) {
		p, _ := newLinregProposal(q, a, 10, 1.2, 0.05)
		return p, linregTarget{a}
	})
	if z := (sum.Pooled - want) / sum.SE; math.Abs(z) > 4 {
		t.Errorf("IS ln p(t) = %.6f ± %.2g, quadrature %.6f (z = %.2f)", sum.Pooled, sum.SE, want, z)
	}
}
