package mfa

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLogPdfFourRows checks that logPdf, which takes four rows of W in one
// pass, gives the plain loops' log-density and z bit for bit for k = 0 … 9
// factors and p = 1 … 70.
func TestLogPdfFourRows(t *testing.T) {
	rnd := rand.New(rand.NewPCG(41, 42))
	for k := 0; k <= 9; k++ {
		for _, p := range []int{1, 2, 5, 62, 70} {
			c := mlComp{k: k, mu: make([]float64, p), w: make([]float64, k*p), lnNorm: rnd.NormFloat64()}
			y, ipsi := make([]float64, p), make([]float64, p)
			for q := 0; q < p; q++ {
				c.mu[q], y[q], ipsi[q] = rnd.NormFloat64(), rnd.NormFloat64(), 1/(0.1+rnd.Float64())
			}
			for i := range c.w {
				c.w[i] = rnd.NormFloat64()
			}
			z, zp := make([]float64, k), make([]float64, k)
			got, want := c.logPdf(y, ipsi, z), c.logPdfPlain(y, ipsi, zp)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("k=%d p=%d: logPdf %v, plain loops %v", k, p, got, want)
			}
			for a := range z {
				if math.Float64bits(z[a]) != math.Float64bits(zp[a]) {
					t.Errorf("k=%d p=%d: z[%d] = %v, plain loops %v", k, p, a, z[a], zp[a])
				}
			}
			if got2 := c.logPdf(y, ipsi, nil); math.Float64bits(got2) != math.Float64bits(want) {
				t.Errorf("k=%d p=%d: logPdf without z %v, want %v", k, p, got2, want)
			}
		}
	}
}
