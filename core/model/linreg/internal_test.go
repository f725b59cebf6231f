package linreg

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
)

// TestGammaLogConst checks Stirling's series against the direct form where
// both are accurate (a ln a and ln Γ(a) below 10³, rounding near 10⁻¹³).
func TestGammaLogConst(t *testing.T) {
	for _, a := range []float64{10, 12.5, 30, 100} {
		want := a*math.Log(a) - a - numeric.LogGamma(a)
		if got := gammaLogConst(a); math.Abs(got-want) > 1e-12 {
			t.Errorf("gammaLogConst(%g) = %.15g, direct %.15g", a, got, want)
		}
	}
}
