package mcmc

import (
	"math/rand/v2"
	"testing"
)

// One random-walk MH step on a 10-dimensional tempered Gaussian.
func BenchmarkMHStepRandomWalk10(b *testing.B) {
	g := gauss{lambda: 2}
	m := &MH[[]float64]{Target: g, Proposal: RandomWalk{Sigma: 0.3}}
	rnd := rand.New(rand.NewPCG(1, 2))
	p := NewPoint(g, make([]float64, 10))
	m.Step(&p, 0.5, rnd)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Step(&p, 0.5, rnd)
	}
}

// One MH step on the five-state target with a non-symmetric proposal.
func BenchmarkMHStepDiscrete5(b *testing.B) {
	target := newRing5()
	m := &MH[int]{Target: target, Proposal: driftRing{Up: 0.7}}
	rnd := rand.New(rand.NewPCG(1, 2))
	p := NewPoint[int](target, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Step(&p, 0.7, rnd)
	}
}
