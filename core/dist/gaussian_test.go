package dist

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmv"

	"github.com/vbworkbench/vbw/core/numeric"
)

func TestGaussianGoldenKL(t *testing.T) {
	// Target spec golden (mpmath): KL(N(0, I₂) ‖ N((1,0), 2I₂)) =
	// ½[1 + ½ − 2 + 2 ln 2] = ln 2 − ¼.
	q := mustGaussian([]float64{0, 0}, sym(2, 1, 0, 0, 1))
	p := mustGaussian([]float64{1, 0}, sym(2, 2, 0, 0, 2))
	const want = 0.4431471805599453
	if got := KLGaussian(q, p); !(relErr(got, want) <= 1e-12) {
		t.Errorf("KLGaussian = %.17g, want %.17g", got, want)
	}
	if got := math.Ln2 - 0.25; relErr(got, want) > 1e-15 {
		t.Errorf("ln 2 − ¼ = %.17g disagrees with the golden value", got)
	}
}

func toGonum(g *Gaussian) *distmv.Normal {
	var s mat.SymDense
	g.Covariance(&s)
	n, ok := distmv.NewNormal(g.Mean(nil), &s, nil)
	if !ok {
		panic("test: gonum rejected covariance")
	}
	return n
}

func TestGaussianGonum(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 12))
	for i := 0; i < 300; i++ {
		d := 1 + rnd.IntN(5)
		q := mustGaussian(randVec(rnd, d, 2), randSPD(rnd, d, 0.2))
		p := mustGaussian(randVec(rnd, d, 2), randSPD(rnd, d, 0.2))
		gq, gp := toGonum(q), toGonum(p)
		if got, want := KLGaussian(q, p), (distmv.KullbackLeibler{}).DistNormal(gq, gp); relErr(got, want) > 1e-10 {
			t.Errorf("KLGaussian = %.15g, distmv.KullbackLeibler.DistNormal = %.15g", got, want)
		}
		if got, want := q.Entropy(), gq.Entropy(); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("Entropy = %.15g, distmv = %.15g", got, want)
		}
		x := q.Rand(nil, rnd)
		if got, want := q.LogProb(x), gq.LogProb(x); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("LogProb = %.15g, distmv = %.15g", got, want)
		}
	}
}

func TestGaussianConstructors(t *testing.T) {
	mu := []float64{1, -2}
	sigma := sym(2, 2, 0.5, 0.5, 1)
	g := mustGaussian(mu, sigma)
	var prec mat.SymDense
	g.Precision(&prec)
	gp, ok := NewGaussianPrecision(mu, &prec)
	if !ok {
		t.Fatal("NewGaussianPrecision failed")
	}
	var s2 mat.SymDense
	gp.Covariance(&s2)
	if !mat.EqualApprox(&s2, sigma, 1e-14) {
		t.Errorf("covariance from precision = %v", mat.Formatted(&s2))
	}
	if math.Abs(gp.LogDetCov()-math.Log(1.75)) > 1e-14 {
		t.Errorf("LogDetCov = %v, want ln 1.75", gp.LogDetCov())
	}
	chol, jitter, err := numeric.CholeskySPD(sigma)
	if err != nil || jitter != 0 {
		t.Fatal(err)
	}
	gc := NewGaussianChol(mu, chol)
	x := []float64{0.3, 0.1}
	if a, b := gc.LogProb(x), g.LogProb(x); math.Abs(a-b) > 1e-14 {
		t.Errorf("NewGaussianChol LogProb %v, NewGaussian %v", a, b)
	}
	var mo mat.SymDense
	g.MeanOuter(&mo)
	if want := sym(2, 3, -1.5, -1.5, 5); !mat.EqualApprox(&mo, want, 1e-15) {
		t.Errorf("MeanOuter = %v", mat.Formatted(&mo))
	}
	if _, ok := NewGaussian(mu, sym(2, 1, 2, 2, 1)); ok {
		t.Error("NewGaussian accepted an indefinite covariance")
	}
	if !panics(func() { NewGaussian([]float64{1}, sigma) }) {
		t.Error("NewGaussian with mismatched sizes did not panic")
	}
	if !panics(func() { g.LogProb([]float64{1}) }) {
		t.Error("LogProb with a wrong-length x did not panic")
	}
	if !panics(func() { KLGaussian(g, mustGaussian([]float64{1}, sym(1, 1))) }) {
		t.Error("KLGaussian across dimensions did not panic")
	}
}

func TestGaussianExpectedQuadForm(t *testing.T) {
	// Σ = diag(1, 2), μ = (1, 0), A = I, m = 0: tr Σ + |μ|² = 3 + 1 = 4.
	g := mustGaussian([]float64{1, 0}, sym(2, 1, 0, 0, 2))
	if got := g.ExpectedQuadForm(sym(2, 1, 0, 0, 1), nil); got != 4 {
		t.Errorf("E[xᵀx] = %v, want 4", got)
	}
	// Monte Carlo check of E[(x−m)ᵀA(x−m)] for a general A and m.
	q := mustGaussian([]float64{0.5, 1.2, -0.8}, sym(3, 1.5, 0.3, -0.2, 0.3, 1, 0.4, -0.2, 0.4, 2))
	a := sym(3, 2, -0.5, 0.1, -0.5, 1, 0.3, 0.1, 0.3, 0.7)
	m := []float64{1, 0, -1}
	want := q.ExpectedQuadForm(a, m)
	rnd := rand.New(rand.NewPCG(1, 1))
	n := mcSamples()
	vals := make([]float64, n)
	x := make([]float64, 3)
	for i := range vals {
		q.Rand(x, rnd)
		vals[i] = quadForm(a, x, m)
	}
	if mean, se := meanSE(vals); !(math.Abs(mean-want) <= 4*se) {
		t.Errorf("MC E[(x−m)ᵀA(x−m)] = %.6g ± %.2g, ExpectedQuadForm = %.6g", mean, se, want)
	}
	if !panics(func() { q.ExpectedQuadForm(a, []float64{1}) }) {
		t.Error("ExpectedQuadForm with a wrong-length m did not panic")
	}
}
