package lds_test

import (
	"fmt"
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
	step := vbemStep(b, m)
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

// BenchmarkGenes times the E step and one whole VBEM iteration at the shape
// of the gene experiments (chapter5/genes-surrogate): N = 30 sequences of
// T = 10 steps, p = 88 outputs, d = 89 inputs, for k = 2, 10 and 20 hidden
// dimensions, after 20 warm-up iterations. The 30 sequences share one
// length, so the smoother's precision pass runs once per E step. Run it
// with
//
//	go test ./core/model/lds -run '^$' -bench Genes
func BenchmarkGenes(b *testing.B) {
	const p, d, T, n = 88, 89, 10, 30
	lens := make([]int, n)
	for i := range lens {
		lens[i] = T
	}
	data, _ := sequences(rand.New(rand.NewPCG(93, 0)), p, d, lens...)
	for _, k := range []int{2, 10, 20} {
		m, err := lds.NewVB(data, lds.Settings{K: k}, rand.New(rand.NewPCG(94, uint64(k))))
		if err != nil {
			b.Fatal(err)
		}
		step := vbemStep(b, m)
		for range 20 {
			step()
		}
		b.Run(fmt.Sprintf("k=%d/E", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := m.E(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("k=%d/EMHyper", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				step()
			}
		})
	}
}

// vbemStep returns one VBEM iteration of m: the E step, the M step and
// every hyperparameter group's update.
func vbemStep(b *testing.B, m *lds.VB) func() {
	groups := m.HyperGroups()
	return func() {
		if _, err := m.E(); err != nil {
			b.Fatal(err)
		}
		m.M()
		for _, g := range groups {
			m.UpdateHyper(g)
		}
	}
}
