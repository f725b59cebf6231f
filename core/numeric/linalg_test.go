package numeric

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestCholeskySPDKnown(t *testing.T) {
	// det [[4,2,0],[2,5,1],[0,1,3]] = 4·(15−1) − 2·(6−0) = 44 (cofactor expansion).
	a := mat.NewSymDense(3, []float64{4, 2, 0, 2, 5, 1, 0, 1, 3})
	chol, jitter, err := CholeskySPD(a)
	if err != nil {
		t.Fatalf("CholeskySPD: %v", err)
	}
	if jitter != 0 {
		t.Errorf("jitter = %v, want 0", jitter)
	}
	if got, want := LogDetChol(chol), math.Log(44); math.Abs(got-want) > 1e-14 {
		t.Errorf("LogDetChol = %.17g, want ln 44 = %.17g", got, want)
	}
	if got, want := LogDetChol(chol), chol.LogDet(); math.Abs(got-want) > 1e-14 {
		t.Errorf("LogDetChol = %.17g, mat.Cholesky.LogDet = %.17g", got, want)
	}
	var rec mat.SymDense
	chol.ToSym(&rec)
	if !mat.EqualApprox(&rec, a, 1e-14) {
		t.Errorf("LLᵀ = %v, want %v", mat.Formatted(&rec), mat.Formatted(a))
	}
}

func TestCholeskySPDSymmetrises(t *testing.T) {
	// The symmetric part of [[4,1],[3,5]] is [[4,2],[2,5]], det 16.
	a := mat.NewDense(2, 2, []float64{4, 1, 3, 5})
	orig := mat.DenseCopyOf(a)
	chol, jitter, err := CholeskySPD(a)
	if err != nil || jitter != 0 {
		t.Fatalf("CholeskySPD: jitter %v, err %v", jitter, err)
	}
	if got, want := LogDetChol(chol), math.Log(16); math.Abs(got-want) > 1e-14 {
		t.Errorf("LogDetChol = %.17g, want ln 16", got)
	}
	if !mat.Equal(a, orig) {
		t.Error("CholeskySPD modified its input")
	}
}

func TestCholeskySPDJitter(t *testing.T) {
	// Singular positive semi-definite [[1,1],[1,1]]: the plain factorisation
	// has a zero pivot, the first jitter 1e-10·mean(diag) = 1e-10 fixes it.
	a := mat.NewSymDense(2, []float64{1, 1, 1, 1})
	chol, jitter, err := CholeskySPD(a)
	if err != nil {
		t.Fatalf("CholeskySPD of a PSD singular matrix: %v", err)
	}
	if jitter != 1e-10 {
		t.Errorf("jitter = %v, want 1e-10", jitter)
	}
	// det(A + εI) = 2ε + ε².
	if got, want := LogDetChol(chol), math.Log(2e-10+1e-20); math.Abs(got-want) > 1e-5 {
		t.Errorf("LogDetChol = %v, want ≈ %v", got, want)
	}

	// Slightly indefinite: eigenvalues 2 and −1e-9 (a rounding-level
	// negative eigenvalue); jitter 1e-10·1 is not enough, 1e-9·1 gives a zero
	// eigenvalue, 1e-8 succeeds.
	const neg = 1e-9
	b := mat.NewSymDense(2, []float64{1 - neg/2, 1 + neg/2, 1 + neg/2, 1 - neg/2})
	_, jitter, err = CholeskySPD(b)
	if err != nil {
		t.Fatalf("CholeskySPD of a nearly PSD matrix: %v", err)
	}
	if !(jitter > neg && jitter <= 1e-7) {
		t.Errorf("jitter = %v, want in (1e-9, 1e-7]", jitter)
	}
}

func TestCholeskySPDErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		a    mat.Matrix
		err  error
	}{
		{"indefinite", mat.NewSymDense(2, []float64{1, 2, 2, 1}), ErrNotPositiveDefinite},
		{"negative definite", mat.NewSymDense(2, []float64{-1, 0, 0, -2}), ErrNotPositiveDefinite},
		{"zero", mat.NewSymDense(2, nil), ErrNotPositiveDefinite},
		{"NaN", mat.NewSymDense(2, []float64{1, math.NaN(), math.NaN(), 1}), ErrNotFinite},
		{"Inf", mat.NewDense(2, 2, []float64{math.Inf(1), 0, 0, 1}), ErrNotFinite},
	} {
		chol, _, err := CholeskySPD(c.a)
		if !errors.Is(err, c.err) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.err)
		}
		if chol != nil {
			t.Errorf("%s: non-nil factor returned with an error", c.name)
		}
	}
	if !panics(func() { CholeskySPD(mat.NewDense(2, 3, nil)) }) {
		t.Error("CholeskySPD of a non-square matrix did not panic")
	}
}

func TestSymmetrize(t *testing.T) {
	var s mat.SymDense
	Symmetrize(&s, mat.NewDense(2, 2, []float64{1, 2, 4, 3}))
	if want := mat.NewSymDense(2, []float64{1, 3, 3, 3}); !mat.Equal(&s, want) {
		t.Errorf("Symmetrize = %v", mat.Formatted(&s))
	}
	if !panics(func() { Symmetrize(&s, mat.NewDense(3, 3, nil)) }) {
		t.Error("Symmetrize into a wrong-size receiver did not panic")
	}
}
