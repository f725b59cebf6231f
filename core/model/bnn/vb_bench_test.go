package bnn

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkBound times one evaluation of the bound and its gradient (the
// objective of the L-BFGS steps) of the diagonal posterior on the toy's
// 30 points and 5 hidden units; ns/op over N·H is the per-point, per-unit
// cost the experiments' estimates use (toyNetOps in experiments/bnn).
func BenchmarkBound(b *testing.B) {
	for _, m := range []int{1, 5} {
		b.Run(map[int]string{1: "diagonal", 5: "mixture5"}[m], func(b *testing.B) {
			p := toyProblem(b, 30, 5, 1)
			r := rand.New(rand.NewPCG(1, 1))
			v, err := NewVB(p, Grouped, VBSettings{FixHyper: true}, r)
			if err != nil {
				b.Fatal(err)
			}
			if m > 1 {
				v = v.spread(VBSettings{Components: m, FixHyper: true}.withDefaults(), r)
			}
			randomState(v, r)
			x := make([]float64, v.numParams())
			g := make([]float64, len(x))
			v.pack(x, false)
			b.ResetTimer()
			for range b.N {
				v.objective(x, g, false)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(30*5*m), "ns/point/unit/component")
		})
	}
}
