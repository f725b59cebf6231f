package gmm_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/gmm"
	"github.com/vbworkbench/vbw/core/vb"
)

// BenchmarkIteration times one VB iteration (E step and M step) at
// N = 10⁵ points, D = 10, K = 20 (the size for the closing note);
// it reports the allocations per iteration, which must be 0.
func BenchmarkIteration(b *testing.B) { benchIteration(b, 100000, 10, 20) }

// BenchmarkIterationFaithful times one iteration at the size of PRML Fig.
// 10.6: N = 272, D = 2, K = 6.
func BenchmarkIterationFaithful(b *testing.B) { benchIteration(b, 272, 2, 6) }

// BenchmarkFit times a fit to convergence (vb.Run's defaults) from a
// random start at N = 272, D = 2, K = 6: Fig. 10.7 makes 600 of them.
func BenchmarkFit(b *testing.B) {
	x := benchData(272, 2)
	for i := range b.N {
		m, err := gmm.NewVB(x, 2, 6, gmm.DefaultPrior(2, 1), rand.New(rand.NewPCG(uint64(i), 2)))
		if err != nil {
			b.Fatal(err)
		}
		vb.Run(m, vb.Settings{})
	}
}

// benchData returns n points in d dimensions around four centres.
func benchData(n, d int) []float64 {
	rnd := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, n*d)
	for i := range x {
		x[i] = rnd.NormFloat64() + float64((i/d)%4)
	}
	return x
}

func benchIteration(b *testing.B, n, d, k int) {
	m, err := gmm.NewVB(benchData(n, d), d, k, gmm.DefaultPrior(d, 1e-3), rand.New(rand.NewPCG(2, 2)))
	if err != nil {
		b.Fatal(err)
	}
	for range 3 {
		if _, err := m.E(); err != nil {
			b.Fatal(err)
		}
		m.M()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := m.E(); err != nil {
			b.Fatal(err)
		}
		m.M()
	}
}

// TestIterationDoesNotAllocate checks at a smaller size that an E step
// followed by an M step makes no heap allocation.
func TestIterationDoesNotAllocate(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, 2000*3)
	for i := range x {
		x[i] = rnd.NormFloat64()
	}
	m, err := gmm.NewVB(x, 3, 5, gmm.DefaultPrior(3, 1), rand.New(rand.NewPCG(2, 2)))
	if err != nil {
		t.Fatal(err)
	}
	m.E()
	m.M()
	if a := testing.AllocsPerRun(10, func() { m.E(); m.M() }); a != 0 {
		t.Errorf("one iteration allocates %v times", a)
	}
}

// BenchmarkCollapsedSweep times one sweep of the collapsed Gibbs sampler
// (N assignments redrawn, one split-merge and one reallocation move) at
// Old Faithful's size, N = 272, D = 2, K = 4, at τ = 0.6: an AIS run of
// Fig. 10.7 makes 3000 of them.
func BenchmarkCollapsedSweep(b *testing.B) {
	m, err := gmm.NewCollapsed(benchData(272, 2), 2, 4, gmm.DefaultPrior(2, 1))
	if err != nil {
		b.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(3, 3))
	g := m.NewGibbs()
	s := m.SamplePrior(nil, rnd)
	for range 20 {
		g.Sweep(s, 0.6, rnd)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		g.Sweep(s, 0.6, rnd)
	}
}
