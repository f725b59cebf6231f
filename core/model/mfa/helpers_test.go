package mfa_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/numeric"
)

// TestMaxFactors checks d(k) and k_max of eqs. (4.5) and (4.10) with the
// values of targets §1.1 (p = 2 → 1, 3 → 1, 10 → 6, 64 → 54), and that k_max
// is the smallest k with d(k) ≥ p(p+1)/2 for every p up to 200.
func TestMaxFactors(t *testing.T) {
	for _, c := range []struct{ p, k int }{{1, 0}, {2, 1}, {3, 1}, {10, 6}, {64, 54}} {
		if got := mfa.MaxFactors(c.p); got != c.k {
			t.Errorf("MaxFactors(%d) = %d, want %d", c.p, got, c.k)
		}
	}
	if got := mfa.FactorDOF(6, 10); got != 6*10+10-15 {
		t.Errorf("FactorDOF(6, 10) = %d", got)
	}
	for p := 1; p <= 200; p++ {
		k, full := mfa.MaxFactors(p), p*(p+1)/2
		if mfa.FactorDOF(k, p) < full || (k > 0 && mfa.FactorDOF(k-1, p) >= full) {
			t.Errorf("p = %d: k_max = %d, d(k) = %d, d(k−1) = %d, p(p+1)/2 = %d", p, k, mfa.FactorDOF(k, p), mfa.FactorDOF(k-1, p), full)
		}
	}
}

// zscore returns y standardised column by column with the training
// statistics of y itself (numeric.Standardise, divisor n), as the
// reference code preprocesses every data set; every column must vary.
func zscore(y mat.Matrix) *mat.Dense {
	z, _, _, err := numeric.Standardise(y, nil, numeric.RefuseConstant)
	if err != nil {
		panic(err)
	}
	return z
}

// TestDefaultMeanPrior checks the defaults μ*_q = mean and ν*_q =
// 1/(sample variance) of eq. (4.19)'s prior (Settings.Hyper), and that a
// constant column has its value as μ* and ν* = 1, though the floating-point
// sum of its values divided by n is not its value. (With the computed mean,
// the variance of such a column is of order (n·ulp)², ν* about 1e32, and F
// changes by tenths of a nat with the rounding of E[μ^s_q] − μ*_q: the
// decreases of F in the searches of chapter4/digits-classify, whose digit
// classes have constant pixels.)
func TestDefaultMeanPrior(t *testing.T) {
	const n = 3
	consts := []float64{0.1, -0.17574058349, 1.0 / 3}
	y := mat.NewDense(n, len(consts)+1, nil)
	for i := 0; i < n; i++ {
		for q, c := range consts {
			y.Set(i, q, c)
		}
		y.Set(i, len(consts), []float64{1, 2, 4}[i])
	}
	r := mat.NewDense(n, 1, []float64{1, 1, 1})
	m, err := mfa.NewVB(y, r, mfa.Settings{K: 1})
	if err != nil {
		t.Fatal(err)
	}
	inexact := 0
	for q, c := range consts {
		if (c+c+c)/n != c {
			inexact++
		}
		if m.Hyper.Mu[q] != c || m.Hyper.Nu[q] != 1 {
			t.Errorf("constant column %d = %v: μ* = %v, ν* = %v; want %v and 1", q, c, m.Hyper.Mu[q], m.Hyper.Nu[q], c)
		}
	}
	if inexact == 0 {
		t.Fatal("no constant of the test has an inexact mean: the test has no power")
	}
	// The column 1, 2, 4: mean 7/3, sample variance 7/3.
	if q := len(consts); math.Abs(m.Hyper.Mu[q]-7.0/3) > 1e-15 || math.Abs(m.Hyper.Nu[q]-3.0/7) > 1e-15 {
		t.Errorf("column 1, 2, 4: μ* = %v, ν* = %v; want 7/3 and 3/7", m.Hyper.Mu[q], m.Hyper.Nu[q])
	}
}

// TestNewErrors checks that NewVB refuses inconsistent input with an error.
func TestNewErrors(t *testing.T) {
	y := mat.NewDense(3, 2, []float64{0, 1, 2, 3, 4, 5})
	r := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 0.5, 0.5})
	bad := func(name string, y, r mat.Matrix, set mfa.Settings) {
		t.Helper()
		if _, err := mfa.NewVB(y, r, set); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	bad("rows differ", y, mat.NewDense(2, 2, []float64{1, 0, 0, 1}), mfa.Settings{})
	bad("k > p", y, r, mfa.Settings{K: 3})
	bad("k < 0", y, r, mfa.Settings{K: -1})
	bad("Ks length", y, r, mfa.Settings{Ks: []int{1}})
	bad("negative responsibility", y, mat.NewDense(3, 2, []float64{1, 0, 0, 1, -0.5, 1.5}), mfa.Settings{})
	bad("zero row", y, mat.NewDense(3, 2, []float64{1, 0, 0, 1, 0, 0}), mfa.Settings{})
	bad("NaN data", mat.NewDense(3, 2, []float64{0, 1, math.NaN(), 3, 4, 5}), r, mfa.Settings{})
	bad("ν* length", y, r, mfa.Settings{Hyper: mfa.Hyper{Nu: []float64{1}}})
	bad("b* negative", y, r, mfa.Settings{Hyper: mfa.Hyper{B: -1}})
	bad("ψ zero", y, r, mfa.Settings{Hyper: mfa.Hyper{Psi: []float64{1, 0}}})
	if _, err := mfa.NewVB(y, r, mfa.Settings{K: 2}); err != nil {
		t.Errorf("valid input: %v", err)
	}
}
