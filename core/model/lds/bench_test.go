package lds_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/lds"
)

// BenchmarkIteration times one VBEM iteration (E, M and every
// hyperparameter update) at the anchor shape of the issue: p = 30 outputs,
// T = 400 steps, k = 10 hidden dimensions, no inputs (data from a
// four-state LDS), after 50 warm-up iterations. Run it with
//
//	go test ./core/model/lds -run '^$' -bench Iteration -benchtime 1000x
//
// The sub-benchmarks E and M time the two steps alone, and MLEM one
// iteration of maximum-likelihood EM at the same shape (started from the
// VB posterior means), the baseline that targets §5 item 1 compares with.
func BenchmarkIteration(b *testing.B) {
	const k, p, T = 10, 30, 400
	rnd := rand.New(rand.NewPCG(91, 0))
	data, _ := sequences(rnd, p, 0, T)
	m, err := lds.NewVB(data, lds.Settings{K: k}, rand.New(rand.NewPCG(92, 0)))
	if err != nil {
		b.Fatal(err)
	}
	groups := m.HyperGroups()
	step := func() {
		if _, err := m.E(); err != nil {
			b.Fatal(err)
		}
		m.M()
		for _, g := range groups {
			m.UpdateHyper(g)
		}
	}
	for range 50 {
		step()
	}
	b.Run("EMHyper", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			step()
		}
	})
	b.Run("E", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := m.E(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("M", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.M()
		}
	})
	em, err := lds.NewEM(data, m.MeanParams(), lds.EMSettings{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("MLEM", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := em.E(); err != nil {
				b.Fatal(err)
			}
			em.M()
		}
	})
}
