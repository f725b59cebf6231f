package hmm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/vb"
)

// sampleData draws n sequences of T symbols from θ.
func sampleData(rnd *rand.Rand, θ Params, n, T int) Data { return θ.Sample(rnd, n, T) }

// withBlockSymbols runs f with blockSymbols set to n.
func withBlockSymbols(n int, f func()) {
	old := blockSymbols
	blockSymbols = n
	defer func() { blockSymbols = old }()
	f()
}

func sameBits(a, b []float64) int {
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	return -1
}

func TestPartitionBlocks(t *testing.T) {
	d := Data{P: 2, Seqs: [][]int{make([]int, 30), make([]int, 80), make([]int, 10), make([]int, 100), make([]int, 5), make([]int, 1)}}
	var e estep
	withBlockSymbols(100, func() { e.partition(d.Seqs) })
	want := []int{0, 2, 4, 6} // 110, 110, 6 symbols
	if len(e.blocks) != len(want) {
		t.Fatalf("blocks %v, want %v", e.blocks, want)
	}
	for i := range want {
		if e.blocks[i] != want[i] {
			t.Fatalf("blocks %v, want %v", e.blocks, want)
		}
	}
	withBlockSymbols(10000, func() { e.partition(d.Seqs) })
	if len(e.blocks) != 2 || e.blocks[1] != len(d.Seqs) {
		t.Fatalf("small data: blocks %v, want one", e.blocks)
	}
}

// TestEStepWorkersBitIdentical: on data spanning many blocks (of uneven
// sizes), VB and EM give bit-identical bounds, counts and per-sequence ln Z
// over several iterations whatever the number of workers, and the pooled
// counts equal the sum of per-sequence AddExpectedCounts calls to 1e-12 relative.
func TestEStepWorkersBitIdentical(t *testing.T) {
	rnd := rand.New(rand.NewPCG(21, 1))
	k, p := 6, 5
	d := randomData(rnd, 60, p, 5, 120)
	u := SymmetricPrior(k, p, 4, 4, 4)
	init := RandomParams(k, p, rnd)
	w0 := PosteriorFromParams(init, 10, 1e-10)
	const iters = 4
	type run struct {
		F, counts, lnZ []float64
	}
	collect := func(m vb.Model, counts func() *infer.Counts, seqLnZ func() []float64) run {
		var r run
		for it := 0; it < iters; it++ {
			b, err := m.E()
			if err != nil {
				t.Fatal(err)
			}
			r.F = append(r.F, b.F)
			for _, term := range b.Terms {
				r.F = append(r.F, term.Value)
			}
			c := counts()
			r.counts = append(append(append(r.counts, c.Pi...), c.A...), c.E...)
			if seqLnZ != nil {
				r.lnZ = append(r.lnZ, seqLnZ()...)
			}
			m.M()
		}
		return r
	}
	withBlockSymbols(400, func() {
		var e estep
		e.partition(d.Seqs)
		if nb := len(e.blocks) - 1; nb < 8 {
			t.Fatalf("only %d blocks", nb)
		}
		var refVB, refEM run
		for _, workers := range []int{0, 1, 2, 3, 4, 7, 100} {
			mv := NewVB(d, u, w0)
			mv.Workers = workers
			gotVB := collect(mv, mv.Counts, mv.SeqLnZ)
			me := NewEM(d, init, nil)
			me.Workers = workers
			gotEM := collect(me, me.Counts, nil)
			if workers == 0 {
				refVB, refEM = gotVB, gotEM
				continue
			}
			for _, c := range []struct {
				name      string
				got, want []float64
			}{
				{"VB F and terms", gotVB.F, refVB.F}, {"VB counts", gotVB.counts, refVB.counts},
				{"VB per-sequence lnZ", gotVB.lnZ, refVB.lnZ},
				{"EM objective", gotEM.F, refEM.F}, {"EM counts", gotEM.counts, refEM.counts},
			} {
				if i := sameBits(c.got, c.want); i >= 0 {
					t.Fatalf("Workers=%d: %s differ at %d (lengths %d, %d)", workers, c.name, i, len(c.got), len(c.want))
				}
			}
		}

		// The pooled counts and ln Z against per-sequence AddExpectedCounts calls.
		m := NewVB(d, u, w0)
		m.Workers = 3
		b, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		chain := m.W.BayesPoint().Chain()
		sum := infer.NewCounts(k, p)
		var ws infer.ForwardBackward
		var lnZ float64
		for i, y := range d.Seqs {
			acc := infer.NewCounts(k, p)
			z := ws.AddExpectedCounts(chain, y, acc)
			if math.Float64bits(z) != math.Float64bits(m.SeqLnZ()[i]) {
				t.Fatalf("sequence %d: ln Z %v, per-sequence AddExpectedCounts %v", i, m.SeqLnZ()[i], z)
			}
			lnZ += z
			sum.Add(acc)
		}
		if got := b.Terms[0].Value; math.Abs(got-lnZ) > 1e-12*math.Abs(lnZ) {
			t.Fatalf("Σ ln Z = %v, per-sequence sum %v", got, lnZ)
		}
		c := m.Counts()
		for _, pair := range [][2][]float64{{c.Pi, sum.Pi}, {c.A, sum.A}, {c.E, sum.E}} {
			for i := range pair[0] {
				if math.Abs(pair[0][i]-pair[1][i]) > 1e-12*math.Abs(pair[1][i]) {
					t.Fatalf("count %d = %v, per-sequence sum %v", i, pair[0][i], pair[1][i])
				}
			}
		}
	})
}

// TestEStepOneBlockIsPlainLoop: data within one block are summed exactly as
// a plain loop of AddExpectedCounts calls into one Counts (the order of summation of
// the serial code before the E step was split into blocks), whatever the
// number of workers.
func TestEStepOneBlockIsPlainLoop(t *testing.T) {
	rnd := rand.New(rand.NewPCG(22, 1))
	k, p := 5, 4
	d := randomData(rnd, 30, p, 10, 60)
	if d.Symbols() >= blockSymbols {
		t.Fatalf("%d symbols do not fit one block", d.Symbols())
	}
	θ := RandomParams(k, p, rnd)
	chain := θ.Chain()
	want := infer.NewCounts(k, p)
	var ws infer.ForwardBackward
	var wantLnp float64
	for _, y := range d.Seqs {
		wantLnp += ws.AddExpectedCounts(chain, y, want)
	}
	for _, workers := range []int{1, 2} {
		m := NewEM(d, θ, nil)
		m.Workers = workers
		b, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		if math.Float64bits(b.F) != math.Float64bits(wantLnp) {
			t.Fatalf("Workers=%d: ln p = %v, plain loop %v", workers, b.F, wantLnp)
		}
		c := m.Counts()
		for _, pair := range [][2][]float64{{c.Pi, want.Pi}, {c.A, want.A}, {c.E, want.E}} {
			if i := sameBits(pair[0], pair[1]); i >= 0 {
				t.Fatalf("Workers=%d: count %d = %v, plain loop %v", workers, i, pair[0][i], pair[1][i])
			}
		}
	}
}

// TestEStepWorkerPanicReachesCaller: a symbol outside the alphabet panics in
// the calling goroutine with several workers, as it does serially.
func TestEStepWorkerPanicReachesCaller(t *testing.T) {
	rnd := rand.New(rand.NewPCG(24, 1))
	d := randomData(rnd, 40, 4, 50, 100)
	d.Seqs[25][10] = 4 // outside [0, 4)
	withBlockSymbols(300, func() {
		for _, workers := range []int{1, 3} {
			m := NewEM(d, RandomParams(3, 4, rnd), nil)
			m.Workers = workers
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("Workers=%d: no panic", workers)
					}
				}()
				m.E()
			}()
		}
	})
}

// TestEStepSerialDoesNotAllocate: after the first E step, a serial VB
// iteration allocates only the Terms slice of the returned bound.
func TestEStepSerialDoesNotAllocate(t *testing.T) {
	rnd := rand.New(rand.NewPCG(23, 1))
	d := randomData(rnd, 40, 4, 50, 100)
	withBlockSymbols(500, func() {
		m := NewVB(d, SymmetricPrior(5, 4, 4, 4, 4), PosteriorFromParams(RandomParams(5, 4, rnd), 10, 1e-10))
		m.E()
		m.M()
		if n := testing.AllocsPerRun(5, func() { m.E(); m.M() }); n > 1 {
			t.Fatalf("%v allocations per serial VB iteration, want at most 1 (the bound's terms)", n)
		}
	})
}

func benchVBIteration(b *testing.B, n, T, k, p, workers int) {
	rnd := rand.New(rand.NewPCG(5, 1))
	d := sampleData(rnd, RandomParams(10, p, rnd), n, T)
	u := SymmetricPrior(k, p, 4, 4, 4)
	m := NewVB(d, u, PosteriorFromParams(RandomParams(k, p, rnd), 10, 1e-10))
	m.Workers = workers
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.E(); err != nil {
			b.Fatal(err)
		}
		m.M()
	}
}

// BenchmarkVBIterationLongSeqK100 is one VB iteration (E and M) on one
// sequence of 100,000 symbols over 27 letters with k = 100 states.
func BenchmarkVBIterationLongSeqK100(b *testing.B) { benchVBIteration(b, 1, 100000, 100, 27, 1) }

// BenchmarkVBIteration100x1000K100Workers1 is one VB iteration on 100
// sequences of 1,000 symbols over 27 letters with k = 100, serially.
func BenchmarkVBIteration100x1000K100Workers1(b *testing.B) {
	benchVBIteration(b, 100, 1000, 100, 27, 1)
}

// BenchmarkVBIteration100x1000K100Workers2 is the same with two workers.
func BenchmarkVBIteration100x1000K100Workers2(b *testing.B) {
	benchVBIteration(b, 100, 1000, 100, 27, 2)
}

// TestEStepLogFallbackWorkersBitIdentical: from an initial q(θ) of strength
// 0.001, under whose Bayes-point weights every sequence is impossible, the
// sequences run again in the log domain (smoothBlock) give VB bit-identical
// bounds, counts and per-sequence ln Z̃ over several iterations, whatever
// the number of workers, on data spanning many blocks.
func TestEStepLogFallbackWorkersBitIdentical(t *testing.T) {
	rnd := rand.New(rand.NewPCG(23, 1))
	k, p := 5, 4
	d := randomData(rnd, 40, p, 5, 80)
	u := SymmetricPrior(k, p, 4, 4, 4)
	w0 := PosteriorFromParams(RandomParams(k, p, rnd), 1e-3, 1e-10)
	if l := w0.BayesPoint().LogLik(d); !math.IsInf(l, -1) {
		t.Fatalf("the Bayes-point weights keep ln Z̃ = %v: the test needs weights that underflow", l)
	}
	withBlockSymbols(300, func() {
		var ref []float64
		for _, workers := range []int{0, 1, 2, 3, 7} {
			m := NewVB(d, u, w0)
			m.Workers = workers
			var got []float64
			for it := 0; it < 3; it++ {
				b, err := m.E()
				if err != nil {
					t.Fatalf("Workers=%d, iteration %d: %v", workers, it, err)
				}
				c := m.Counts()
				got = append(append(append(append(append(got, b.F), c.Pi...), c.A...), c.E...), m.SeqLnZ()...)
				m.M()
			}
			if workers == 0 {
				ref = got
				continue
			}
			if i := sameBits(got, ref); i >= 0 {
				t.Fatalf("Workers=%d: bounds, counts or ln Z̃ differ at %d", workers, i)
			}
		}
	})
}
