package numeric

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Standardisation is vbw's one z-scoring of the columns of a data set by
// the statistics of its training data (MeanSD, divisor n): column q
// becomes (y_q − Mean[q])/SD[q], so the standardised training data have
// mean 0 and mean square 1 in every kept column. The thesis normalised its
// digits "by first subtracting the mean image from every example, and then
// rescaling each individual pixel to have variance 1 across all the
// examples" (Beal (2003) line 2826); the targets fit the statistics on the
// training data only (targets ch4-mfa.md §3.4, §3 "Global conventions",
// other-seeds.md §2.2 for PRML's "rescaled" Old Faithful).
type Standardisation struct {
	// Mean and SD are the training mean and standard deviation of every
	// original column.
	Mean, SD []float64
	// Kept lists the original columns that are kept, in order: column j of
	// the standardised data is original column Kept[j].
	Kept []int
	// Dropped lists the original columns whose training values are all
	// equal (their value is Mean[q], their SD 0).
	Dropped []int
}

// Constant says what FitStandardisation does with a column whose training
// values are all equal.
type Constant int

const (
	// DropConstant leaves it out of the standardised data (the digits'
	// constant pixels, targets ch4-mfa.md §3.4).
	DropConstant Constant = iota
	// RefuseConstant makes it an error: a model of every column cannot
	// take it (Old Faithful, Pima).
	RefuseConstant
)

// ColumnError is an error of one column of the training data (0-based
// Column; a reader names it in its file's terms).
type ColumnError struct {
	Column int
	Why    string
}

func (e *ColumnError) Error() string { return fmt.Sprintf("column %d %s", e.Column+1, e.Why) }

// FitStandardisation computes the statistics of train's columns. It is an
// error (a *ColumnError) if a value is NaN or ±Inf, if a column's
// statistics are not finite (values too large to square: |y| beyond about
// 1.3e154), if a column varies by so little that its standardised values
// are not distinct (a column made constant by the standardisation), and,
// under RefuseConstant, if a column is constant; an error too if train is
// empty or no column varies.
func FitStandardisation(train mat.Matrix, constant Constant) (Standardisation, error) {
	n, p := train.Dims()
	if n == 0 || p == 0 {
		return Standardisation{}, errors.New("standardise: no training data")
	}
	s := Standardisation{Mean: make([]float64, p), SD: make([]float64, p)}
	col := make([]float64, n)
	for q := 0; q < p; q++ {
		mat.Col(col, q, train)
		lo, hi := col[0], col[0]
		for i, v := range col {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return Standardisation{}, &ColumnError{q, fmt.Sprintf("is %v in row %d: every value must be finite", v, i+1)}
			}
			lo, hi = min(lo, v), max(hi, v)
		}
		mean, sd := MeanSD(col)
		if math.IsInf(mean, 0) || math.IsNaN(mean) || math.IsInf(sd, 0) || math.IsNaN(sd) {
			return Standardisation{}, &ColumnError{q, fmt.Sprintf("is too large to standardise (values %g to %g: their squares overflow)", lo, hi)}
		}
		s.Mean[q], s.SD[q] = mean, sd
		if lo == hi || sd == 0 {
			if constant == RefuseConstant {
				return Standardisation{}, &ColumnError{q, fmt.Sprintf("is constant (every value %g): it cannot be standardised", lo)}
			}
			s.SD[q] = 0
			s.Dropped = append(s.Dropped, q)
			continue
		}
		if zlo, zhi := (lo-mean)/sd, (hi-mean)/sd; !(zhi > zlo) || math.IsInf(zlo, 0) || math.IsInf(zhi, 0) {
			return Standardisation{}, &ColumnError{q, fmt.Sprintf("standardises to a constant (values %g to %g, sd %g)", lo, hi, sd)}
		}
		s.Kept = append(s.Kept, q)
	}
	if len(s.Kept) == 0 {
		return Standardisation{}, fmt.Errorf("standardise: none of the %d training columns varies (%d rows)", p, n)
	}
	return s, nil
}

// Apply returns X (with the training data's columns) standardised: the
// kept columns, each centred and scaled. It is an error if X has another
// number of columns, no rows, or a value that is not finite or standardises
// to ±Inf.
func (s Standardisation) Apply(X mat.Matrix) (*mat.Dense, error) {
	n, p := X.Dims()
	if p != len(s.Mean) {
		return nil, fmt.Errorf("standardise: the data have %d columns, the training data %d", p, len(s.Mean))
	}
	if n == 0 {
		return nil, errors.New("standardise: no data")
	}
	Z := mat.NewDense(n, len(s.Kept), nil)
	for i := 0; i < n; i++ {
		for j, q := range s.Kept {
			v := X.At(i, q)
			z := (v - s.Mean[q]) / s.SD[q]
			if math.IsNaN(z) || math.IsInf(z, 0) {
				return nil, &ColumnError{q, fmt.Sprintf("is %v in row %d, which standardises to %v", v, i+1, z)}
			}
			Z.Set(i, j, z)
		}
	}
	return Z, nil
}

// Invert maps standardised rows back to the original units and columns,
// filling each dropped column with its constant training value. It panics
// if Z does not have len(Kept) columns.
func (s Standardisation) Invert(Z mat.Matrix) *mat.Dense {
	n, k := Z.Dims()
	if k != len(s.Kept) {
		panic(fmt.Sprintf("numeric: Standardisation.Invert: %d columns, want %d", k, len(s.Kept)))
	}
	Y := mat.NewDense(n, len(s.Mean), nil)
	for i := 0; i < n; i++ {
		for _, q := range s.Dropped {
			Y.Set(i, q, s.Mean[q])
		}
		for j, q := range s.Kept {
			Y.Set(i, q, s.Mean[q]+s.SD[q]*Z.At(i, j))
		}
	}
	return Y
}

// Note describes the dropped columns for a log or a warning, naming each
// with name (nil: "column q", 0-based), or returns "" if none was dropped.
func (s Standardisation) Note(name func(q int) string) string {
	if len(s.Dropped) == 0 {
		return ""
	}
	if name == nil {
		name = func(q int) string { return fmt.Sprintf("column %d", q) }
	}
	parts := make([]string, len(s.Dropped))
	for i, q := range s.Dropped {
		parts[i] = fmt.Sprintf("%s = %g", name(q), s.Mean[q])
	}
	return fmt.Sprintf("dropped %d of %d columns that are constant in the training data: %s",
		len(s.Dropped), len(s.Mean), strings.Join(parts, ", "))
}

// Standardise fits a Standardisation on train and applies it to train and
// to test (which may be nil, giving a nil ztest).
func Standardise(train, test mat.Matrix, constant Constant) (ztrain, ztest *mat.Dense, s Standardisation, err error) {
	if s, err = FitStandardisation(train, constant); err != nil {
		return nil, nil, Standardisation{}, err
	}
	if ztrain, err = s.Apply(train); err != nil {
		return nil, nil, Standardisation{}, err
	}
	if test != nil {
		if ztest, err = s.Apply(test); err != nil {
			return nil, nil, Standardisation{}, fmt.Errorf("%w (test data)", err)
		}
	}
	return ztrain, ztest, s, nil
}
