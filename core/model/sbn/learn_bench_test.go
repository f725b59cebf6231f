package sbn

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkLearnStep presents bars-like patterns to a 1-8-16 net (the net
// of Fig. 2.7): a fit of at most 20 iterations and a gradient step.
func BenchmarkLearnStep(b *testing.B) {
	for _, c := range []struct {
		name string
		M    int
	}{{"MF", 0}, {"M=3", 3}} {
		b.Run(c.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			net, err := Random([]int{1, 8, 16}, 0.5, r)
			if err != nil {
				b.Fatal(err)
			}
			v := make([]float64, 16)
			for i := range 4 {
				v[4+i] = 1
			}
			s := Settings{Components: c.M}
			s.VB.MaxIterations = 20
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, _, err := LearnStep(net, v, s, 0.1, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSweep is one Gibbs sweep of the latent units of a 2-4-6 net.
func BenchmarkSweep(b *testing.B) {
	n := randomNet(b, 1, 3)
	p, _ := NewPosterior(n, zeros)
	r := rand.New(rand.NewPCG(2, 2))
	s := p.SamplePrior(nil, r)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		s = p.Sweep(s, 1, r)
	}
}
