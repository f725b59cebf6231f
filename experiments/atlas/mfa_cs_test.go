package atlas

import (
	"math"
	"testing"
)

// The row's CS cell less its ln 2 is a lower bound on the gold standard
// (VB's bound at q(x) = p(x | y, θ̂), Beal 2003 Theorem 2.3) on four data
// sets (two sizes × two loadings), the slack the quadrature's error
// estimate.
func TestMFACSBound(t *testing.T) {
	c := DefaultMFA()
	c.N, c.Lambda = []int{20, 50}, []float64{1, 0.8, 0.4, -0.3}
	for i := range c.mfaSets() {
		a, q, _, _ := testMFA(t, c, i)
		lam, mu, _, err := a.MaxLikelihood()
		if err != nil {
			t.Fatal(err)
		}
		cs, ops, err := mfaCS(a, lam, mu)
		if err != nil {
			t.Fatal(err)
		}
		if cs-math.Ln2 > q.LnZ+3*q.ErrEst+1e-8 || !(ops > 0) {
			t.Errorf("%s: CS − ln 2 = %.6f above ln p(y) = %.6f, or %g operations", c.mfaName(i), cs-math.Ln2, q.LnZ, ops)
		}
	}
}
