package numeric

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// benchPaths runs f as sub-benchmarks "go" (the portable loops) and, where
// this machine has them, "vec" (the assembly), and reports flops/op as
// GFLOP/s of wall time and, on Linux, as GFLOP/cpu-s: per second of the
// benchmark thread's CPU time, which a shared machine does not inflate.
func benchPaths(b *testing.B, name string, flops float64, f func()) {
	saved := useVec
	defer func() { useVec = saved }()
	for _, vec := range []bool{false, true} {
		if vec && !haveVec {
			continue
		}
		path := "go"
		if vec {
			path = "vec"
		}
		b.Run(name+"/"+path, func(b *testing.B) {
			useVec = vec
			benchRate(b, flops, f)
		})
	}
}

// benchRate runs f b.N times and reports flops/op as GFLOP/s and
// GFLOP/cpu-s (see benchPaths).
func benchRate(b *testing.B, flops float64, f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, ok := threadCPUSeconds()
	for b.Loop() {
		f()
	}
	c1, _ := threadCPUSeconds()
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	if ok && c1 > c0 {
		b.ReportMetric(flops*float64(b.N)/(c1-c0)/1e9, "GFLOP/cpu-s")
	}
}

func benchVec(n int) []float64 {
	rnd := rand.New(rand.NewPCG(uint64(n), 9))
	s := make([]float64, n)
	for i := range s {
		s[i] = rnd.Float64()
	}
	return s
}

// BenchmarkDot times Dot at the lengths of the models' loops (a chunk of
// 512 points, a row of 100 states).
func BenchmarkDot(b *testing.B) {
	for _, n := range []int{100, 512} {
		x, y := benchVec(n), benchVec(n + 1)[:n]
		benchPaths(b, fmt.Sprintf("n=%d", n), 2*float64(n), func() { benchSink += Dot(x, y) })
	}
}

// BenchmarkAxpy times Axpy at the lengths of BenchmarkDot.
func BenchmarkAxpy(b *testing.B) {
	for _, n := range []int{100, 512} {
		x, y := benchVec(n), benchVec(n + 1)[:n]
		benchPaths(b, fmt.Sprintf("n=%d", n), 2*float64(n), func() { Axpy(1e-9, x, y) })
	}
}

// BenchmarkMulAdd times MulAdd at the shapes of its callers: the forward
// step of an HMM with 100 states (1×100 times 100×100), the transition
// counts of a chunk of 32 steps (100×32 transposed times 32×100), and the
// factor means of an MFA chunk (7×62 times 62×512 points).
func BenchmarkMulAdd(b *testing.B) {
	for _, s := range []struct {
		name    string
		m, n, k int
		trans   bool
	}{{"hmm-forward", 1, 100, 100, false}, {"hmm-counts", 100, 100, 32, true}, {"mfa-means", 7, 512, 62, false}} {
		a, bm, c := benchVec(s.m*s.k), benchVec(s.k*s.n), benchVec(s.m*s.n)
		ars, acs := s.k, 1
		if s.trans {
			ars, acs = 1, s.m
		}
		benchPaths(b, s.name, 2*float64(s.m*s.n*s.k), func() { MulAdd(s.m, s.n, s.k, a, ars, acs, bm, s.n, c, s.n) })
	}
}

// BenchmarkMulAddT times MulAddT at the shape of the MFA's statistics of a
// chunk: 62 rows of data against the 7 rows of weighted factor means over
// 512 points.
func BenchmarkMulAddT(b *testing.B) {
	m, n, k := 62, 7, 512
	a, bm, c := benchVec(m*k), benchVec(n*k), benchVec(m*n)
	benchPaths(b, "mfa-stats", 2*float64(m*n*k), func() { MulAddT(m, n, k, a, k, bm, k, c, n) })
}

// BenchmarkSqNormsLower times the squared Mahalanobis distances of a block
// of 256 points in D = 10 (the Gaussian mixture's E step); the flops
// counted are those of the triangular product and the squares.
func BenchmarkSqNormsLower(b *testing.B) {
	n, cols := 10, 256
	l, x, mu, work, dst := benchVec(n*n), benchVec(n*cols), benchVec(n), make([]float64, 32*(n+1)), make([]float64, cols)
	benchPaths(b, "gmm-e", float64(cols)*float64(n*(n+1)+2*n), func() { SqNormsLower(dst, l, n, x, cols, mu, work) })
}

// BenchmarkScatterLower times the weighted scatter of a block of 256
// points in D = 10 (the Gaussian mixture's M step) and of 128 points in
// p = 62 (the MFA's data scatter); the flops counted are those of the
// lower triangle with the augmented row.
func BenchmarkScatterLower(b *testing.B) {
	for _, s := range []struct {
		name    string
		n, cols int
	}{{"gmm-m", 10, 256}, {"mfa-scatter", 62, 128}} {
		n1 := s.n + 1
		x, mu, r := benchVec(s.n*s.cols), benchVec(s.n), benchVec(s.cols)
		sm, work := make([]float64, n1*n1), make([]float64, 2*n1*s.cols+16)
		benchPaths(b, s.name, float64(s.cols)*float64(n1*(n1+1)), func() { ScatterLower(sm, s.n, x, s.cols, mu, r, work) })
	}
}

// BenchmarkExpSubTo times exp(x − m) over 512 log-weights in [−40, 0] (a
// chunk of mixture.NormalizeLog), against math.Exp in a loop; a flop here
// is one exponential.
func BenchmarkExpSubTo(b *testing.B) {
	n := 512
	x, m, dst := benchVec(n), make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] *= -40
	}
	benchPaths(b, "n=512", float64(n), func() { ExpSubTo(dst, x, m) })
	b.Run("n=512/math.Exp", func(b *testing.B) {
		benchRate(b, float64(n), func() {
			for i, v := range x {
				dst[i] = math.Exp(v - m[i])
			}
		})
	})
}

// BenchmarkLogTo times ln x over 512 values in (0, 1] and over 48 (the
// parameter vector of a chapter-6 DAG), against math.Log in a loop; a flop
// here is one logarithm.
func BenchmarkLogTo(b *testing.B) {
	for _, n := range []int{512, 48} {
		x, dst := benchVec(n), make([]float64, n)
		for i := range x {
			x[i] = math.Abs(x[i]) + 1e-3
		}
		name := fmt.Sprintf("n=%d", n)
		benchPaths(b, name, float64(n), func() { LogTo(dst, x) })
		b.Run(name+"/math.Log", func(b *testing.B) {
			benchRate(b, float64(n), func() {
				for i, v := range x {
					dst[i] = math.Log(v)
				}
			})
		})
	}
}

// BenchmarkGatherProdSum4 times the sums over four hidden configurations
// of 128 groups of m = 4 table rows from a table of 100 entries (the
// grouped likelihood of a chapter-6 DAG at n = 480 has about 114 groups
// of 3-4 rows); a flop is one multiplication or addition, 4m + 3 per group.
func BenchmarkGatherProdSum4(b *testing.B) {
	const n, m = 128, 4
	tab, h, dst := benchVec(100), benchVec(4), make([]float64, n)
	off := make([]int32, n*m)
	for i := range off {
		off[i] = int32((i * 37) % 97)
	}
	benchPaths(b, "n=128,m=4", float64(n*(4*m+3)), func() { GatherProdSum4(dst, tab, h, off, m) })
}

// BenchmarkElementwise times MulTo, Scale and AddMul on a row of 100 states
// (the forward-backward's steps at K = 100).
func BenchmarkElementwise(b *testing.B) {
	n := 100
	x, y, d := benchVec(n), benchVec(n + 1)[:n], benchVec(n + 2)[:n]
	benchPaths(b, "MulTo/n=100", float64(n), func() { MulTo(d, x, y) })
	benchPaths(b, "Scale/n=100", float64(n), func() { Scale(1, d) })
	benchPaths(b, "AddMul/n=100", 2*float64(n), func() { AddMul(d, x, y) })
}

// BenchmarkSubnormal times MulAdd and MulAddT at the shapes of the MFA's
// products over a digit class (5×64 loadings times 64×250 points; 64 rows
// of data against 7 rows of factor means over 250 points) with clean
// operands, and with the subnormal operands that FlushSubnormals removes:
// every 50th element of A, or one row of B (a pruned factor's means).
func BenchmarkSubnormal(b *testing.B) {
	m, n, k := 5, 250, 64
	sub := 1e-310
	a, bm, c := benchVec(m*k), benchVec(k*n), benchVec(m*n)
	benchPaths(b, "MulAdd/clean", 2*float64(m*n*k), func() { MulAdd(m, n, k, a, k, 1, bm, n, c, n) })
	as := append([]float64(nil), a...)
	for i := 0; i < len(as); i += 50 {
		as[i] = sub
	}
	benchPaths(b, "MulAdd/A-subnormal-2%", 2*float64(m*n*k), func() { MulAdd(m, n, k, as, k, 1, bm, n, c, n) })
	yd, xd, g := benchVec(k*n), benchVec(7*n), make([]float64, k*7)
	benchPaths(b, "MulAddT/clean", 2*float64(k*7*n), func() { MulAddT(k, 7, n, yd, n, xd, n, g, 7) })
	for i := 0; i < n; i++ {
		xd[5*n+i] = sub
	}
	benchPaths(b, "MulAddT/B-subnormal-row", 2*float64(k*7*n), func() { MulAddT(k, 7, n, yd, n, xd, n, g, 7) })
}
