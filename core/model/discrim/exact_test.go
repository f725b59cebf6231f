package discrim_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/discrim"
	"github.com/vbworkbench/vbw/core/vb"
)

// logGauss is ln N(x | μ, Σ) by gonum's LU inverse and determinant.
func logGauss(x, mu []float64, cov []float64) float64 {
	d := len(x)
	s := mat.NewDense(d, d, append([]float64(nil), cov...))
	var inv mat.Dense
	if err := inv.Inverse(s); err != nil {
		panic(err)
	}
	diff := mat.NewVecDense(d, nil)
	for a := range d {
		diff.SetVec(a, x[a]-mu[a])
	}
	q := mat.Inner(diff, &inv, diff)
	return -0.5*float64(d)*math.Log(2*math.Pi) - 0.5*math.Log(mat.Det(s)) - 0.5*q
}

// TestLDAClosedForm: the pooled covariance is the within-class scatter
// over n − K, and the posterior is Bayes' rule with Gaussian densities
// by another route (gonum's inverse and determinant).
func TestLDAClosedForm(t *testing.T) {
	x, class := twoClasses(30, 3, 1.5, 11)
	l, err := discrim.NewLDA(x, class, 2)
	if err != nil {
		t.Fatal(err)
	}
	d, n := 3, len(x)
	scatter := make([]float64, d*d)
	for i, r := range x {
		m := l.Means[class[i]]
		for a := range d {
			for b := range d {
				scatter[a*d+b] += (r[a] - m[a]) * (r[b] - m[b])
			}
		}
	}
	for i := range scatter {
		if got, want := l.Cov[i], scatter[i]/float64(n-2); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("Cov[%d] = %v, want %v", i, got, want)
		}
	}
	for _, r := range x[:10] {
		lp := []float64{math.Log(0.5) + logGauss(r, l.Means[0], l.Cov), math.Log(0.5) + logGauss(r, l.Means[1], l.Cov)}
		z := math.Log(math.Exp(lp[0]) + math.Exp(lp[1]))
		got := l.LogPosterior(nil, r)
		for c := range 2 {
			if math.Abs(got[c]-(lp[c]-z)) > 1e-10 {
				t.Errorf("ln p(%d | x) = %v, want %v", c, got[c], lp[c]-z)
			}
		}
	}
}

// TestEMOneComponent: with one component the first M step is the sample
// mean and the ML covariance (divisor n), E is Σ ln N(x_n | μ, Σ), and EM
// has converged at once; tied across two groups of one component each,
// the covariance is the LDA's pooled one times (n − 2)/n.
func TestEMOneComponent(t *testing.T) {
	x, class := twoClasses(25, 3, 2, 4)
	var rows [][]float64
	for i, r := range x {
		if class[i] == 1 {
			rows = append(rows, r)
		}
	}
	e, err := discrim.NewEM(flat(rows), 3, nil, 1, false, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.E()
	if err != nil {
		t.Fatal(err)
	}
	var want float64
	for _, r := range rows {
		want += logGauss(r, e.Means, e.Covs)
	}
	if math.Abs(b.F-want) > 1e-9*math.Abs(want) {
		t.Errorf("ln p(X) = %v, want %v", b.F, want)
	}
	for a := range 3 {
		var mean float64
		for _, r := range rows {
			mean += r[a] / float64(len(rows))
		}
		if math.Abs(e.Means[a]-mean) > 1e-12 {
			t.Errorf("mean[%d] = %v, want %v", a, e.Means[a], mean)
		}
	}
	e.M()
	b2, _ := e.E()
	if math.Abs(b2.F-b.F) > 1e-9*math.Abs(b.F) {
		t.Errorf("a second iteration moved ln p(X) from %v to %v", b.F, b2.F)
	}

	tied, err := discrim.NewEM(flat(x), 3, class, 1, true, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	l, err := discrim.NewLDA(x, class, 2)
	if err != nil {
		t.Fatal(err)
	}
	n := float64(len(x))
	for i := range l.Cov {
		for j := range 2 {
			if got, want := tied.Covs[j*9+i], l.Cov[i]*(n-2)/n; math.Abs(got-want) > 1e-12 {
				t.Errorf("tied Σ (component %d)[%d] = %v, want %v", j, i, got, want)
			}
		}
	}
	for c := range 2 {
		for a := range 3 {
			if math.Abs(tied.Means[c*3+a]-l.Means[c][a]) > 1e-12 {
				t.Errorf("tied μ_%d[%d] = %v, LDA %v", c, a, tied.Means[c*3+a], l.Means[c][a])
			}
		}
	}
}

// TestMixturesFit: FitMixtures keeps the best start, EM never lowered
// the likelihood (vb.Run's check), the posteriors sum to one, and two
// components per class beat one on the training likelihood.
func TestMixturesFit(t *testing.T) {
	x, class := twoClasses(60, 2, 1, 8)
	stream := func(c, r int) *rand.Rand { return rand.New(rand.NewPCG(uint64(c), uint64(r))) }
	for _, tied := range []bool{false, true} {
		one, err := discrim.FitMixtures(x, class, 2, 1, tied, 1, vb.Settings{AbsTol: 1e-10}, stream)
		if err != nil {
			t.Fatal(err)
		}
		two, err := discrim.FitMixtures(x, class, 2, 2, tied, 8, vb.Settings{AbsTol: 1e-10}, stream)
		if err != nil {
			t.Fatal(err)
		}
		if !(two.LogLik > one.LogLik) {
			t.Errorf("tied %v: ln p(X) with two components %v, not above one's %v", tied, two.LogLik, one.LogLik)
		}
		for _, r := range x[:5] {
			p := two.LogPosterior(nil, r)
			if s := math.Exp(p[0]) + math.Exp(p[1]); math.Abs(s-1) > 1e-12 {
				t.Errorf("posteriors sum to %v", s)
			}
		}
	}
}

// TestSingularAndBadInput: a component on fewer than D + 1 points is
// ErrSingular, in E and for FitMixtures when every start fails; bad
// shapes are errors.
func TestSingularAndBadInput(t *testing.T) {
	x := [][]float64{{0, 0, 0}, {1, 2, 3}, {5, 5, 5}, {6, 1, 2}}
	class := []int{0, 0, 1, 1}
	e, err := discrim.NewEM(flat(x[:2]), 3, nil, 1, false, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.E(); !errors.Is(err, discrim.ErrSingular) {
		t.Errorf("two points in 3-D: %v, want ErrSingular", err)
	}
	if _, err := discrim.FitMixtures(x, class, 2, 1, false, 3, vb.Settings{}, func(c, r int) *rand.Rand { return rand.New(rand.NewPCG(1, 1)) }); !errors.Is(err, discrim.ErrSingular) {
		t.Errorf("FitMixtures: %v, want ErrSingular", err)
	}
	if _, err := discrim.NewLDA(x, class, 2); !errors.Is(err, discrim.ErrSingular) {
		t.Errorf("NewLDA on 4 points in 3-D: %v, want ErrSingular", err)
	}
	for name, f := range map[string]func() error{
		"a class out of range": func() error { _, err := discrim.NewLDA(x, []int{0, 0, 1, 2}, 2); return err },
		"ragged rows":          func() error { _, err := discrim.NewLDA([][]float64{{1}, {1, 2}}, []int{0, 1}, 2); return err },
		"an empty class":       func() error { _, err := discrim.NewLDA(x, []int{0, 0, 0, 0}, 2); return err },
		"rows not of d":        func() error { _, err := discrim.NewEM([]float64{1, 2, 3}, 2, nil, 1, false, nil); return err },
		"more components":      func() error { _, err := discrim.NewEM([]float64{1, 2}, 1, nil, 3, false, nil); return err },
		"a NaN":                func() error { _, err := discrim.NewEM([]float64{1, math.NaN()}, 1, nil, 1, false, nil); return err },
	} {
		if f() == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
