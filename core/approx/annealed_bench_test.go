package approx

import (
	"math/rand/v2"
	"testing"
)

// The samplers' hot loop on the atlas rows' targets: one log density and
// one likelihood gradient (an HMC leapfrog step) per iteration.

func BenchmarkClutterTargetGrad(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 1))
	p := ClutterProblem{W: 0.5, A: 10, B: 100}
	for range 100 {
		p.X = append(p.X, []float64{2 + rnd.NormFloat64()})
	}
	t, _ := p.Target()
	th, g := []float64{1.9}, make([]float64, 1)
	for b.Loop() {
		t.GradLogLik(g, th)
		_ = t.LogLik(th)
	}
}

func BenchmarkLogisticTargetGrad(b *testing.B) {
	rnd := rand.New(rand.NewPCG(2, 1))
	var phi [][]float64
	var tt []int
	for range 200 { // Pima's training set: 200 rows, 8 features
		f := []float64{1}
		for range 7 {
			f = append(f, rnd.NormFloat64())
		}
		phi, tt = append(phi, f), append(tt, rnd.IntN(2))
	}
	l := NewLogisticTarget(phi, tt, 1)
	w, g := make([]float64, 8), make([]float64, 8)
	for b.Loop() {
		l.GradLogLik(g, w)
		_ = l.LogLik(w)
	}
}
