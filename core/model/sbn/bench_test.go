package sbn

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkFit fits the 2-4-6 random nets of L1127 (span 1, visible units
// at 0): mean field and the 5-component mixture; nets/s is reported.
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
