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

// BenchmarkExpectEDSunspots times ⟨E_D⟩ and its gradient (the data part
// of every bound evaluation, most of the variational rows' time) on the
// shape of Table 5.1: 12 inputs, 8 hidden units, 209 patterns, weights
// and standard deviations of the scale of a fitted posterior. It reports
// ns per point and hidden unit, and the exponentials (owenNodes + 2 a
// unit) per second; "pointwise" is the computation one input at a time
// with scalar math.Exp (expectEDPointwise, the code before the blocks).
func BenchmarkExpectEDSunspots(b *testing.B) {
	const n, in, hid = 209, 12, 8
	r := rand.New(rand.NewPCG(12, 8))
	a := Arch{In: in, Hidden: hid}
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = make([]float64, in)
		for j := range x[i] {
			x[i][j] = r.NormFloat64()
		}
		y[i] = r.NormFloat64()
	}
	k := a.NumWeights()
	mean, logs := make([]float64, k), make([]float64, k)
	for j := range mean {
		mean[j] = 0.5 * r.NormFloat64()
		logs[j] = -2 + 0.5*r.NormFloat64()
	}
	gm, gs := make([]float64, k), make([]float64, k)
	for _, mode := range []string{"blocks", "pointwise"} {
		b.Run(mode, func(b *testing.B) {
			sc := newVBScratch(hid)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if mode == "blocks" {
					a.expectED(mean, logs, x, y, sc, gm, gs)
				} else {
					expectEDPointwise(a, mean, logs, x, y, gm, gs)
				}
			}
			ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(ns/float64(n*hid), "ns/point/unit")
			b.ReportMetric(float64(n*hid*(owenNodes+2))/ns*1e3, "Mexp/s")
		})
	}
}
