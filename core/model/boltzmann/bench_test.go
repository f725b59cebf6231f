package boltzmann

import (
	"testing"

	"github.com/vbworkbench/vbw/core/rng"
)

// BenchmarkMachine10 is one machine of Fig. 4.2 at M = 1 and M = 5:
// exact enumeration plus the annealed mixture (machines per second is
// 1/(ns/op) · 1e9).
func BenchmarkMachine10(b *testing.B) {
	r := rng.New(1, "bench")
	sched := GeometricSchedule(60, 1, 8)
	for _, k := range []int{1, 5} {
		b.Run("M="+string(rune('0'+k)), func(b *testing.B) {
			for b.Loop() {
				m := NewRandom(10, 1, r)
				if _, err := m.Exact(nil); err != nil {
					b.Fatal(err)
				}
				mix, _ := NewMixture(m, nil, RandomMeans(k, 10, 0.5, r))
				if _, err := mix.Anneal(sched, Settings{StepIterations: 1, MaxIterations: 300, RelTol: 1e-8}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
