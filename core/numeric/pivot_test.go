package numeric

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestCholeskyMinPivot(t *testing.T) {
	for _, tc := range []struct {
		name  string
		a     *mat.SymDense
		index int
		pivot float64
		ok    bool
	}{
		// [[4,2,0],[2,5,1],[0,1,3]]: pivots 4, 5 − 2²/4 = 4, 3 − 1²/4 = 2.75
		// (Schur complements by hand); the smallest is the last.
		{"spd", mat.NewSymDense(3, []float64{4, 2, 0, 2, 5, 1, 0, 1, 3}), 2, 2.75, true},
		// [[1,2],[2,1]]: second pivot 1 − 2²/1 = −3.
		{"indefinite", mat.NewSymDense(2, []float64{1, 2, 2, 1}), 1, -3, false},
		// [[1,1],[1,1]] is singular: second pivot 1 − 1 = 0.
		{"singular", mat.NewSymDense(2, []float64{1, 1, 1, 1}), 1, 0, false},
		// A negative first diagonal element fails at once.
		{"negative diagonal", mat.NewSymDense(2, []float64{-2, 0, 0, 1}), 0, -2, false},
	} {
		index, pivot, ok := CholeskyMinPivot(tc.a)
		if index != tc.index || math.Abs(pivot-tc.pivot) > 1e-15 || ok != tc.ok {
			t.Errorf("%s: CholeskyMinPivot = (%d, %v, %v), want (%d, %v, %v)", tc.name, index, pivot, ok, tc.index, tc.pivot, tc.ok)
		}
		var chol mat.Cholesky
		if got := chol.Factorize(tc.a); got != tc.ok {
			t.Errorf("%s: mat.Cholesky.Factorize ok = %v, CholeskyMinPivot ok = %v", tc.name, got, tc.ok)
		}
	}
	nan := mat.NewSymDense(2, []float64{1, 0, 0, math.NaN()})
	if index, pivot, ok := CholeskyMinPivot(nan); ok || index != 1 || !math.IsNaN(pivot) {
		t.Errorf("NaN diagonal: CholeskyMinPivot = (%d, %v, %v), want (1, NaN, false)", index, pivot, ok)
	}
}
