package numeric

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// colMeanSD returns the mean and sd (divisor n) of column j of m.
func colMeanSD(m *mat.Dense, j int) (float64, float64) {
	return MeanSD(mat.Col(nil, j, m))
}

func TestStandardise(t *testing.T) {
	// Column 1 is constant; columns 0 and 2 have mean 2 and 10, sd √(2/3)
	// and √(200/3) (divisor n = 3).
	train := mat.NewDense(3, 3, []float64{1, 3, 0, 2, 3, 10, 3, 3, 20})
	test := mat.NewDense(1, 3, []float64{2, 7, 30})
	ztrain, ztest, s, err := Standardise(train, test, DropConstant)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Kept, []int{0, 2}) || !slices.Equal(s.Dropped, []int{1}) {
		t.Errorf("kept %v dropped %v, want [0 2] and [1]", s.Kept, s.Dropped)
	}
	if want := mat.NewDense(1, 2, []float64{0, 20 / math.Sqrt(200.0/3)}); !mat.EqualApprox(ztest, want, 1e-14) {
		t.Errorf("standardised test row %v, want %v", mat.Row(nil, 0, ztest), mat.Row(nil, 0, want))
	}
	for j := range 2 {
		if m, sd := colMeanSD(ztrain, j); math.Abs(m) > 1e-15 || math.Abs(sd-1) > 1e-14 {
			t.Errorf("column %d: mean %g sd %g", j, m, sd)
		}
	}
	if !mat.EqualApprox(s.Invert(ztrain), train, 1e-14) {
		t.Errorf("Invert does not restore the training data: %v", mat.Formatted(s.Invert(ztrain)))
	}
	if want := "dropped 1 of 3 columns that are constant in the training data: column 1 = 3"; s.Note(nil) != want {
		t.Errorf("Note = %q, want %q", s.Note(nil), want)
	}

	for _, c := range []struct {
		name         string
		train, test  *mat.Dense
		constant     Constant
		wantContains string
	}{
		{"all constant", mat.NewDense(2, 2, []float64{1, 2, 1, 2}), nil, DropConstant, "none of the 2 training columns varies"},
		{"one row", mat.NewDense(1, 2, []float64{1, 2}), nil, DropConstant, "none of the 2 training columns varies"},
		{"refused constant", train, nil, RefuseConstant, "column 2 is constant (every value 3)"},
		{"NaN in train", mat.NewDense(2, 2, []float64{1, 2, math.NaN(), 3}), nil, DropConstant, "column 1 is NaN in row 2"},
		{"overflow", mat.NewDense(2, 1, []float64{-math.MaxFloat64, math.MaxFloat64}), nil, DropConstant, "too large to standardise"},
		{"squares overflow", mat.NewDense(3, 1, []float64{1e200, 1, 2}), nil, DropConstant, "too large to standardise"},
		{"test columns", train, mat.NewDense(1, 2, []float64{1, 2}), DropConstant, "the data have 2 columns, the training data 3"},
		{"Inf in test", train, mat.NewDense(1, 3, []float64{1, 2, math.Inf(-1)}), DropConstant, "column 3 is -Inf in row 1"},
		{"test beyond", train, mat.NewDense(1, 3, []float64{math.Inf(1), 2, 1}), DropConstant, "column 1 is +Inf in row 1"},
	} {
		_, _, _, err := Standardise(c.train, c.test, c.constant)
		if err == nil || !strings.Contains(err.Error(), c.wantContains) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line containing %q", c.name, err, c.wantContains)
		}
	}
}
