package approx

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
)

// gradTarget is the split target both types implement.
type gradTarget interface {
	LogPrior(x []float64) float64
	LogLik(x []float64) float64
	GradLogPrior(dst, x []float64)
	GradLogLik(dst, x []float64)
}

// checkGrads compares both gradients with central finite differences.
func checkGrads(t *testing.T, name string, g gradTarget, x []float64) {
	t.Helper()
	for k, f := range []func([]float64) float64{g.LogPrior, g.LogLik} {
		got := make([]float64, len(x))
		if k == 0 {
			g.GradLogPrior(got, x)
		} else {
			g.GradLogLik(got, x)
		}
		for i := range x {
			const h = 1e-5
			xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
			xp[i] += h
			xm[i] -= h
			fd := (f(xp) - f(xm)) / (2 * h)
			if math.Abs(fd-got[i]) > 1e-6*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s: term %d, coordinate %d: gradient %v, finite difference %v", name, k, i, got[i], fd)
			}
		}
	}
}

// TestClutterTarget checks the split target against LogJoint, its
// gradients against finite differences and its prior draws' moments.
func TestClutterTarget(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 1))
	p := ClutterProblem{W: 0.5, A: 10, B: 100}
	for range 15 {
		p.X = append(p.X, []float64{2 + rnd.NormFloat64(), 3 * rnd.NormFloat64()})
	}
	tg, err := p.Target()
	if err != nil {
		t.Fatal(err)
	}
	for _, th := range [][]float64{{0, 0}, {2.1, -0.4}, {-7, 5}} {
		if got, want := tg.LogProb(th), p.LogJoint(th); math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("θ = %v: LogProb %v, LogJoint %v", th, got, want)
		}
		checkGrads(t, "clutter", tg, th)
	}
	var s, s2 float64
	const n = 20000
	for range n {
		x := tg.SamplePrior(nil, rnd)[1]
		s += x
		s2 += x * x
	}
	// E = 0, Var = b = 100: SE of the mean 0.07, of the variance about 1.
	if m, v := s/n, s2/n-(s/n)*(s/n); math.Abs(m) > 0.3 || math.Abs(v-100) > 5 {
		t.Errorf("prior draws: mean %v, variance %v; want 0, 100", m, v)
	}
}

// TestLogisticTarget checks LogProb against LogisticJoint and the
// gradients against finite differences.
func TestLogisticTarget(t *testing.T) {
	rnd := rand.New(rand.NewPCG(6, 1))
	var phi [][]float64
	var tt []int
	for range 30 {
		phi = append(phi, []float64{1, rnd.NormFloat64(), rnd.NormFloat64()})
		tt = append(tt, rnd.IntN(2))
	}
	lt := NewLogisticTarget(phi, tt, 0.7)
	joint := LogisticJoint(phi, tt, 0.7)
	for _, w := range [][]float64{{0, 0, 0}, {0.3, -1.2, 2}} {
		want := joint.LogP(w)
		if got := lt.LogProb(w); math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("w = %v: LogProb %v, LogisticJoint %v", w, got, want)
		}
		checkGrads(t, "logistic", lt, w)
	}
}

// TestExactMoments checks the clutter posterior's variance by quadrature
// against a direct Gauss–Kronrod integral of the normalised density in
// one dimension, and that ln p(D) and the mean agree with Exact.
func TestExactMoments(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 1))
	p := ClutterProblem{W: 0.5, A: 10, B: 100}
	for range 20 {
		p.X = append(p.X, []float64{2 + rnd.NormFloat64()})
	}
	ex, err := p.Exact(numeric.QuadTol{Rel: 1e-10}, 40)
	if err != nil {
		t.Fatal(err)
	}
	em, err := p.ExactMoments(numeric.QuadTol{Rel: 1e-10}, 40)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(em.LnZ-ex.LnZ) > 1e-8 || math.Abs(em.Mean[0]-ex.Mean[0]) > 1e-8 {
		t.Errorf("ExactMoments ln Z %v, mean %v; Exact %v, %v", em.LnZ, em.Mean[0], ex.LnZ, ex.Mean[0])
	}
	// The direct integral: the posterior is concentrated within ±15 of the
	// mean (its sd is about 0.3).
	post := func(th float64) float64 { return math.Exp(p.LogJoint([]float64{th}) - ex.LnZ) }
	lo, hi := ex.Mean[0]-15, ex.Mean[0]+15
	v, err := numeric.IntegrateVec(nil, 2, func(th float64, out []float64) {
		f := post(th)
		out[0], out[1] = f, f*(th-ex.Mean[0])*(th-ex.Mean[0])
	}, lo, hi, numeric.QuadTol{Abs: 1e-13, Rel: 1e-11})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(v[0]-1) > 1e-7 {
		t.Fatalf("the posterior integrates to %v", v[0])
	}
	if math.Abs(em.Var[0]-v[1]) > 1e-7*v[1] {
		t.Errorf("Var %v, direct integral %v", em.Var[0], v[1])
	}
}
