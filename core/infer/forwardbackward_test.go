package infer

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomChain draws a chain with positive weights; scale < 1 makes every row
// sub-normalised, as the VB Bayes-point weights are.
func randomChain(rnd *rand.Rand, k, p int, scale float64) *Chain {
	c := &Chain{K: k, P: p, Pi: make([]float64, k), A: make([]float64, k*k), E: make([]float64, p*k)}
	norm := func(x []float64, stride, n int, off int) {
		var s float64
		for i := 0; i < n; i++ {
			s += x[off+i*stride]
		}
		for i := 0; i < n; i++ {
			x[off+i*stride] *= scale / s
		}
	}
	for j := range c.Pi {
		c.Pi[j] = rnd.Float64() + 0.01
	}
	norm(c.Pi, 1, k, 0)
	for j := 0; j < k; j++ {
		for l := 0; l < k; l++ {
			c.A[j*k+l] = rnd.Float64() + 0.01
		}
		norm(c.A, 1, k, j*k)
		for m := 0; m < p; m++ {
			c.E[m*k+j] = rnd.Float64() + 0.01
		}
		norm(c.E, k, p, j) // row j of C is the column j of E
	}
	return c
}

// bruteForce enumerates all k^T state paths and returns ln Σ_s w(s), the
// marginals γ and ξ.
func bruteForce(c *Chain, y []int) (float64, [][]float64, [][][]float64) {
	k, T := c.K, len(y)
	s := make([]int, T)
	gamma := make([][]float64, T)
	xi := make([][][]float64, T)
	for t := range gamma {
		gamma[t] = make([]float64, k)
		xi[t] = make([][]float64, k)
		for j := range xi[t] {
			xi[t][j] = make([]float64, k)
		}
	}
	var total float64
	for {
		w := c.Pi[s[0]] * c.E[y[0]*k+s[0]]
		for t := 1; t < T; t++ {
			w *= c.A[s[t-1]*k+s[t]] * c.E[y[t]*k+s[t]]
		}
		total += w
		for t := 0; t < T; t++ {
			gamma[t][s[t]] += w
			if t > 0 {
				xi[t][s[t-1]][s[t]] += w
			}
		}
		// next path
		t := 0
		for t < T {
			s[t]++
			if s[t] < k {
				break
			}
			s[t] = 0
			t++
		}
		if t == T {
			break
		}
	}
	for t := range gamma {
		for j := range gamma[t] {
			gamma[t][j] /= total
			for l := range xi[t][j] {
				xi[t][j][l] /= total
			}
		}
	}
	return math.Log(total), gamma, xi
}

func TestForwardBackwardMatchesBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for trial := 0; trial < 30; trial++ {
		k := 1 + trial%3
		p := 2 + trial%2
		T := 1 + trial%7
		scale := 1.0
		if trial%2 == 1 {
			scale = 0.7 // sub-normalised weights, as in a VBE step
		}
		c := randomChain(rnd, k, p, scale)
		y := make([]int, T)
		for i := range y {
			y[i] = rnd.IntN(p)
		}
		want, wg, wx := bruteForce(c, y)
		var w ForwardBackward
		if got := w.LogProb(c, y); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("trial %d: LogProb = %v, brute force %v", trial, got, want)
		}
		g, x, lnZ := ChainMarginals(c, y)
		if math.Abs(lnZ-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("trial %d: ChainMarginals lnZ = %v, brute force %v", trial, lnZ, want)
		}
		acc := NewCounts(k, p)
		if got := w.AddExpectedCounts(c, y, acc); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("trial %d: AddExpectedCounts lnZ = %v, brute force %v", trial, got, want)
		}
		wantCounts := NewCounts(k, p)
		for tt := 0; tt < T; tt++ {
			for j := 0; j < k; j++ {
				if math.Abs(g[tt][j]-wg[tt][j]) > 1e-12 {
					t.Fatalf("trial %d: gamma[%d][%d] = %v, brute force %v", trial, tt, j, g[tt][j], wg[tt][j])
				}
				wantCounts.E[y[tt]*k+j] += wg[tt][j]
				if tt == 0 {
					wantCounts.Pi[j] += wg[tt][j]
					continue
				}
				for l := 0; l < k; l++ {
					if math.Abs(x[tt][j][l]-wx[tt][j][l]) > 1e-12 {
						t.Fatalf("trial %d: xi[%d][%d][%d] = %v, brute force %v", trial, tt, j, l, x[tt][j][l], wx[tt][j][l])
					}
					wantCounts.A[j*k+l] += wx[tt][j][l]
				}
			}
		}
		for _, pair := range [][2][]float64{{acc.Pi, wantCounts.Pi}, {acc.A, wantCounts.A}, {acc.E, wantCounts.E}} {
			for i := range pair[0] {
				if math.Abs(pair[0][i]-pair[1][i]) > 1e-11 {
					t.Fatalf("trial %d: AddExpectedCounts count %d = %v, brute force %v", trial, i, pair[0][i], pair[1][i])
				}
			}
		}
	}
}

// TestAddExpectedCountsMatchesMarginalsOverManyChunks checks the counts of
// AddExpectedCounts, which it accumulates in chunks of fbChunkSteps steps
// inside the backward pass, against the plain recursion of ChainMarginals on
// sequences spanning several chunks
// (including lengths at and around the chunk boundaries), for dense weights
// and for weights with exact zeros (as maximum likelihood leaves them).
func TestAddExpectedCountsMatchesMarginalsOverManyChunks(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 1))
	var w ForwardBackward
	for _, sparse := range []bool{false, true} {
		for _, T := range []int{fbChunkSteps - 1, fbChunkSteps, fbChunkSteps + 1, fbChunkSteps + 2, 3*fbChunkSteps + 7, 200} {
			k, p := 5, 4
			c := randomChain(rnd, k, p, 0.8)
			if sparse {
				// Each state emits only two of the four symbols and has two
				// forbidden successors, so many α_t(j) are exactly zero.
				for j := 0; j < k; j++ {
					c.E[((j+2)%p)*k+j] = 0
					c.E[((j+3)%p)*k+j] = 0
					c.A[j*k+(j+1)%k] = 0
					c.A[j*k+(j+3)%k] = 0
				}
			}
			y := sampleChain(rnd, c, T)
			g, x, want := ChainMarginals(c, y)
			if math.IsInf(want, -1) {
				t.Fatalf("sparse=%v T=%d: sampled sequence impossible", sparse, T)
			}
			wantCounts := NewCounts(k, p)
			for tt := range y {
				for j := 0; j < k; j++ {
					wantCounts.E[y[tt]*k+j] += g[tt][j]
					if tt == 0 {
						wantCounts.Pi[j] += g[tt][j]
						continue
					}
					for l := 0; l < k; l++ {
						wantCounts.A[j*k+l] += x[tt][j][l]
					}
				}
			}
			acc := NewCounts(k, p)
			if got := w.AddExpectedCounts(c, y, acc); math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Errorf("sparse=%v T=%d: AddExpectedCounts lnZ = %v, ChainMarginals %v", sparse, T, got, want)
			}
			for _, pair := range [][2][]float64{{acc.Pi, wantCounts.Pi}, {acc.A, wantCounts.A}, {acc.E, wantCounts.E}} {
				for i := range pair[0] {
					if math.Abs(pair[0][i]-pair[1][i]) > 1e-10 {
						t.Fatalf("sparse=%v T=%d: count %d = %v, ChainMarginals %v", sparse, T, i, pair[0][i], pair[1][i])
					}
				}
			}
		}
	}
}

// sampleChain draws T symbols from the chain's weights (normalised on the
// fly), so that the sequence is possible even when some weights are zero.
func sampleChain(rnd *rand.Rand, c *Chain, T int) []int {
	k, p := c.K, c.P
	draw := func(n int, w func(i int) float64) int {
		var s float64
		for i := 0; i < n; i++ {
			s += w(i)
		}
		u := rnd.Float64() * s
		for i := 0; i < n; i++ {
			if u -= w(i); u < 0 && w(i) > 0 {
				return i
			}
		}
		for i := n - 1; ; i-- {
			if w(i) > 0 {
				return i
			}
		}
	}
	y := make([]int, T)
	s := draw(k, func(j int) float64 { return c.Pi[j] })
	for t := range y {
		if t > 0 {
			prev := s
			s = draw(k, func(l int) float64 { return c.A[prev*k+l] })
		}
		st := s
		y[t] = draw(p, func(m int) float64 { return c.E[m*k+st] })
	}
	return y
}

// TestLogProbSumsLogsExactly checks that ln Z accumulated from partial
// products of the scale factors equals the plain sum of their logs to
// rounding, on a long sequence where the products must be restarted many
// times, and with scale factors far outside the product range.
func TestLogProbSumsLogsExactly(t *testing.T) {
	rnd := rand.New(rand.NewPCG(6, 1))
	for _, scale := range []float64{1, 1e-200, 1e200} {
		c := randomChain(rnd, 6, 27, 1)
		for i := range c.E {
			c.E[i] *= scale
		}
		y := make([]int, 20000)
		for i := range y {
			y[i] = rnd.IntN(27)
		}
		var w ForwardBackward
		got := w.LogProb(c, y)
		var want float64
		for _, inv := range w.inv {
			want -= math.Log(inv)
		}
		if math.Abs(got-want) > 1e-13*math.Abs(want) {
			t.Fatalf("scale %v: ln Z = %v, Σ ln ζ_t = %v", scale, got, want)
		}
	}
}

func TestChainMarginalsAreConsistent(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 1))
	c := randomChain(rnd, 4, 3, 0.8)
	y := make([]int, 50)
	for i := range y {
		y[i] = rnd.IntN(3)
	}
	g, x, _ := ChainMarginals(c, y)
	for tt := range g {
		var s float64
		for _, v := range g[tt] {
			s += v
		}
		if math.Abs(s-1) > 1e-12 {
			t.Fatalf("Σ_j γ_%d(j) = %v", tt, s)
		}
		if tt == 0 {
			continue
		}
		var sx float64
		for j := range x[tt] {
			var row float64
			for l := range x[tt][j] {
				row += x[tt][j][l]
				sx += x[tt][j][l]
			}
			if math.Abs(row-g[tt-1][j]) > 1e-12 {
				t.Fatalf("Σ_l ξ_%d(%d,l) = %v, γ_%d(%d) = %v", tt, j, row, tt-1, j, g[tt-1][j])
			}
		}
		if math.Abs(sx-1) > 1e-12 {
			t.Fatalf("Σ ξ_%d = %v", tt, sx)
		}
		for l := range g[tt] {
			var col float64
			for j := range x[tt] {
				col += x[tt][j][l]
			}
			if math.Abs(col-g[tt][l]) > 1e-12 {
				t.Fatalf("Σ_j ξ_%d(j,%d) = %v, γ = %v", tt, l, col, g[tt][l])
			}
		}
	}
}

func TestLongSequenceDoesNotUnderflow(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 1))
	c := randomChain(rnd, 5, 27, 1)
	y := make([]int, 5000)
	for i := range y {
		y[i] = rnd.IntN(27)
	}
	var w ForwardBackward
	acc := NewCounts(5, 27)
	lnZ := w.AddExpectedCounts(c, y, acc)
	if math.IsInf(lnZ, 0) || math.IsNaN(lnZ) || lnZ > -5000 {
		t.Fatalf("lnZ = %v for 5000 symbols of 27", lnZ)
	}
	var n float64
	for _, v := range acc.E {
		n += v
	}
	if math.Abs(n-5000) > 1e-8 {
		t.Fatalf("expected emission counts sum to %v, want 5000", n)
	}
}

func TestImpossibleSequenceGivesMinusInf(t *testing.T) {
	c := &Chain{K: 2, P: 2, Pi: []float64{1, 0}, A: []float64{1, 0, 0, 1}, E: []float64{1, 1, 0, 0}}
	var w ForwardBackward
	y := []int{0, 1}
	if got := w.LogProb(c, y); !math.IsInf(got, -1) {
		t.Fatalf("LogProb = %v, want -Inf", got)
	}
	acc := NewCounts(2, 2)
	if got := w.AddExpectedCounts(c, y, acc); !math.IsInf(got, -1) {
		t.Fatalf("AddExpectedCounts = %v, want -Inf", got)
	}
	for _, v := range acc.E {
		if v != 0 {
			t.Fatal("counts changed for an impossible sequence")
		}
	}
}

func TestChainEntropyOfIndependentStates(t *testing.T) {
	// With A rows all equal to π and uniform emissions, q(s) is a product of
	// T independent copies of π, whose entropy is T·H(π).
	pi := []float64{0.2, 0.3, 0.5}
	c := &Chain{K: 3, P: 1, Pi: pi, A: append(append(append([]float64{}, pi...), pi...), pi...), E: []float64{1, 1, 1}}
	y := []int{0, 0, 0, 0}
	g, x, _ := ChainMarginals(c, y)
	var h float64
	for _, p := range pi {
		h -= p * math.Log(p)
	}
	if got := ChainEntropy(g, x); math.Abs(got-4*h) > 1e-12 {
		t.Fatalf("ChainEntropy = %v, want %v", got, 4*h)
	}
}

func BenchmarkForwardBackwardK12(b *testing.B) {
	rnd := rand.New(rand.NewPCG(4, 1))
	c := randomChain(rnd, 12, 3, 0.9)
	y := make([]int, 550)
	for i := range y {
		y[i] = rnd.IntN(3)
	}
	var w ForwardBackward
	acc := NewCounts(12, 3)
	b.ReportAllocs()
	for b.Loop() {
		w.AddExpectedCounts(c, y, acc)
	}
}

func benchmarkForwardBackward(b *testing.B, k, p, T int) {
	rnd := rand.New(rand.NewPCG(4, 1))
	c := randomChain(rnd, k, p, 0.9)
	y := make([]int, T)
	for i := range y {
		y[i] = rnd.IntN(p)
	}
	var w ForwardBackward
	acc := NewCounts(k, p)
	b.ReportAllocs()
	for b.Loop() {
		w.AddExpectedCounts(c, y, acc)
	}
}

// BenchmarkForwardBackwardK40Alice is the size of the largest chapter-3 Alice fits
// (k = 40, 27 symbols, 1404 training symbols at n = 32).
func BenchmarkForwardBackwardK40Alice(b *testing.B) { benchmarkForwardBackward(b, 40, 27, 1404) }

// BenchmarkForwardBackwardK60Alice is k = 60 on the same data.
func BenchmarkForwardBackwardK60Alice(b *testing.B) { benchmarkForwardBackward(b, 60, 27, 1404) }

// BenchmarkForwardBackwardT100000K100 is one sequence of 100,000 symbols over 27
// letters with k = 100 states.
func BenchmarkForwardBackwardT100000K100(b *testing.B) { benchmarkForwardBackward(b, 100, 27, 100000) }
