package ltu

import (
	"testing"

	"github.com/vbworkbench/vbw/core/rng"
)

// BenchmarkTrainSVM: one unit's problem at Pima's size (200 points, 7
// inputs) on overlapping classes, C = 10, KKT accuracy 1e-4.
func BenchmarkTrainSVM(b *testing.B) {
	x, y := overlapping(200, 7, 1)
	g := Gram(x)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := TrainSVM(x, y, 10, g, SMOSettings{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInfer: one pattern's annealed inference, 7 inputs, 20 hidden units.
func BenchmarkInfer(b *testing.B) {
	n := NewNet(7, 20, rng.New(1, "ltu", "bench"))
	x, s, tg := randomPattern(n, 1)
	r := rng.New(2, "ltu", "bench")
	st := make([]float64, n.H)
	b.ReportAllocs()
	for b.Loop() {
		copy(st, s)
		n.Infer(x, st, tg, nil, r, InferSettings{})
	}
}
