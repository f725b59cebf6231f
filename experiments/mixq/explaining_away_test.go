package mixq

import (
	"math"
	"testing"
)

// TestExplainingAwayBayes checks the DAG enumeration against Bayes's rule
// written out by hand (eqs. 1.4, 1.7) for the text's numbers.
func TestExplainingAwayBayes(t *testing.T) {
	c := DefaultExplainingAway()
	got, err := c.eaNumbersOf()
	if err != nil {
		t.Fatal(err)
	}
	pb, pc := c.PriorB, c.PriorC
	two := func(notB float64) float64 { return c.AGivenB * pb / (c.AGivenB*pb + notB*(1-pb)) }
	// joint[b][c] = P(A = yes, B = b, C = c); Table 1.1's order is
	// (no, no), (yes, no), (no, yes), (yes, yes).
	a := c.AGivenBC
	j := [2][2]float64{{a[0] * (1 - pb) * (1 - pc), a[2] * (1 - pb) * pc}, {a[1] * pb * (1 - pc), a[3] * pb * pc}}
	pa := j[0][0] + j[0][1] + j[1][0] + j[1][1]
	want := []float64{two(1e-6), 1 - two(1e-6), two(1e-5), 1 - two(1e-5),
		(j[1][0] + j[1][1]) / pa, (j[0][1] + j[1][1]) / pa, j[1][1] / (j[0][1] + j[1][1])}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-14 {
			t.Errorf("%s: enumeration %v, Bayes's rule %v", eaNumbers[i].key, got[i], want[i])
		}
	}
	// the targets' four digits of P(B|A, C) (§3.2: 0.2878 %)
	if math.Abs(got[6]-0.002878) > 5e-7 {
		t.Errorf("P(B|A, C) = %v, targets 0.2878%%", got[6])
	}
}
