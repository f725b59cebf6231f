package numeric

import (
	"math"
	"testing"
)

// TestInverseSPD: A·A⁻¹ = I and ln|A| for a 3×3 matrix with a known
// determinant, and false (dst untouched) for an indefinite one.
func TestInverseSPD(t *testing.T) {
	a := []float64{4, 2, 0.6, 2, 5, 1, 0.6, 1, 3} // det = 4(15−1) − 2(6−0.6) + 0.6(2−3) = 44.6
	inv := make([]float64, 9)
	ld, ok := InverseSPD(inv, a, 3)
	if !ok || math.Abs(ld-math.Log(44.6)) > 1e-12 {
		t.Fatalf("ln|A| = %v (ok %v), want %v", ld, ok, math.Log(44.6))
	}
	for i := range 3 {
		for j := range 3 {
			var s float64
			for c := range 3 {
				s += a[i*3+c] * inv[c*3+j]
			}
			if want := map[bool]float64{true: 1}[i == j]; math.Abs(s-want) > 1e-12 {
				t.Errorf("(A·A⁻¹)_%d%d = %v", i, j, s)
			}
		}
	}
	dst := []float64{7, 7, 7, 7}
	if _, ok := InverseSPD(dst, []float64{1, 2, 2, 1}, 2); ok || dst[0] != 7 {
		t.Errorf("indefinite matrix: ok %v, dst %v", ok, dst)
	}
}
