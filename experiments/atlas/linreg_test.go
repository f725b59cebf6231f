package atlas

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/model/linreg"
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

// The proposal's LogProb at its own draw is the value RandLogProb
// returns, and its density integrates to one along u = ln α (a check of
// the Jacobian): ∫ q(u) du by the trapezoid rule.
func TestLinregProposal(t *testing.T) {
	d := testLinreg(t)
	q, err := linreg.NewVB(d.p, linreg.Prior{A0: 1, B0: 1}, linreg.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		q.E()
		q.M()
	}
	p, err := newLinregProposal(q)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for u := -30.0; u <= 30; u += 1e-3 {
		sum += math.Exp(p.qa.LogProb(math.Exp(u))+u) * 1e-3
	}
	if math.Abs(sum-1) > 1e-6 {
		t.Errorf("∫ q(u) du = %.9g, want 1", sum)
	}
}
