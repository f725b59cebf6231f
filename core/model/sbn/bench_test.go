package sbn

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/vb"
)

// BenchmarkFit fits the 2-4-6 random nets of L1127 (span 1, visible units
// at 0): mean field and the 5-component mixture with FitPattern's default
// stop rule; nets/s is reported.
func BenchmarkFit(b *testing.B) {
	for _, c := range []struct {
		name string
		M    int
	}{{"MF", 0}, {"M=5", 5}} {
		b.Run(c.name, func(b *testing.B) {
			nets := make([]*Net, 64)
			for i := range nets {
				nets[i] = randomNet(b, 1, uint64(i))
			}
			its := 0
			b.ResetTimer()
			for i := range b.N {
				f, err := FitPattern(nets[i%len(nets)], zeros, Settings{Components: c.M}, rand.New(rand.NewPCG(uint64(i), 1)))
				if err != nil {
					b.Fatal(err)
				}
				its += f.Iterations
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "nets/s")
			b.ReportMetric(float64(its)/float64(b.N), "iterations/net")
		})
	}
}

// BenchmarkNet is one cell of mixq/sbn-random at the text's settings: a
// random 2-4-6 net of span 1, its exact ln P(V), mean field and the
// mixtures of 1-5 components with the config's stop rule (relative change
// 1e-7, at most 500 iterations); nets/s is reported.
func BenchmarkNet(b *testing.B) {
	nets := make([]*Net, 64)
	for i := range nets {
		nets[i] = randomNet(b, 1, uint64(i))
	}
	b.ResetTimer()
	for i := range b.N {
		n := nets[i%len(nets)]
		if _, err := n.ExactLogLik(zeros); err != nil {
			b.Fatal(err)
		}
		for M := range 6 {
			s := Settings{Components: M, VB: vb.Settings{MaxIterations: 500, Converger: &vb.BoundConverge{Relative: 1e-7}}}
			if _, err := FitPattern(n, zeros, s, rand.New(rand.NewPCG(uint64(i), 1))); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "nets/s")
}
