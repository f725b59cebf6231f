package numeric

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// randomSPD returns a random n×n symmetric positive-definite matrix, row-major:
// GGᵀ/n + 0.1·I with G standard normal, so its condition number stays modest.
func randomSPD(rnd *rand.Rand, n int) []float64 {
	g := make([]float64, n*n)
	for i := range g {
		g[i] = rnd.NormFloat64()
	}
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for c := 0; c < n; c++ {
				s += g[i*n+c] * g[j*n+c]
			}
			a[i*n+j] = s / float64(n)
		}
		a[i*n+i] += 0.1
	}
	return a
}

func closeRel(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// TestCholSmallAgainstGonum checks every kernel against mat.Cholesky on
// random SPD matrices of sizes 1-12.
func TestCholSmallAgainstGonum(t *testing.T) {
	const tol = 1e-10
	rnd := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 12; n++ {
		for rep := 0; rep < 5; rep++ {
			a := randomSPD(rnd, n)
			var ref mat.Cholesky
			if !ref.Factorize(mat.NewSymDense(n, append([]float64(nil), a...))) {
				t.Fatalf("n=%d: gonum could not factorise a test matrix", n)
			}
			l := append([]float64(nil), a...)
			// Poison the strict upper triangle: it must be neither read nor needed.
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					l[i*n+j] = math.NaN()
				}
			}
			if !CholFactor(l, n) {
				t.Fatalf("n=%d: CholFactor failed on an SPD matrix", n)
			}
			var refL mat.TriDense
			ref.LTo(&refL)
			for i := 0; i < n; i++ {
				for j := 0; j <= i; j++ {
					if !closeRel(l[i*n+j], refL.At(i, j), tol) {
						t.Fatalf("n=%d: L[%d,%d] = %v, gonum %v", n, i, j, l[i*n+j], refL.At(i, j))
					}
				}
			}
			if got, want := CholLogDet(l, n), ref.LogDet(); !closeRel(got, want, tol) {
				t.Errorf("n=%d: CholLogDet = %v, gonum LogDet %v", n, got, want)
			}
			// The block log-determinants add up, and the leading one is
			// ln|A₁₁| of the leading block.
			for lo := 0; lo <= n; lo++ {
				sum := CholLogDetBlock(l, n, 0, lo) + CholLogDetBlock(l, n, lo, n)
				if !closeRel(sum, ref.LogDet(), tol) {
					t.Errorf("n=%d lo=%d: block log-dets sum to %v, want %v", n, lo, sum, ref.LogDet())
				}
				if lo == 0 {
					continue
				}
				var lead mat.Cholesky
				sub := mat.NewSymDense(lo, nil)
				for i := 0; i < lo; i++ {
					for j := 0; j < lo; j++ {
						sub.SetSym(i, j, a[i*n+j])
					}
				}
				lead.Factorize(sub)
				if got := CholLogDetBlock(l, n, 0, lo); !closeRel(got, lead.LogDet(), tol) {
					t.Errorf("n=%d lo=%d: leading block log-det %v, want %v", n, lo, got, lead.LogDet())
				}
			}

			var refInv mat.SymDense
			if err := ref.InverseTo(&refInv); err != nil {
				t.Fatalf("n=%d: gonum inverse: %v", n, err)
			}
			inv := make([]float64, n*n)
			CholInverse(inv, l, n, make([]float64, n*n))
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if inv[i*n+j] != inv[j*n+i] {
						t.Fatalf("n=%d: CholInverse not exactly symmetric at (%d,%d)", n, i, j)
					}
					if !closeRel(inv[i*n+j], refInv.At(i, j), 1e-8) {
						t.Fatalf("n=%d: inverse[%d,%d] = %v, gonum %v", n, i, j, inv[i*n+j], refInv.At(i, j))
					}
				}
			}

			// Solves: A⁻¹B = L⁻ᵀL⁻¹B for a random n×m B, and for a vector.
			const m = 3
			b := make([]float64, n*m)
			for i := range b {
				b[i] = rnd.NormFloat64()
			}
			var want mat.Dense
			if err := ref.SolveTo(&want, mat.NewDense(n, m, append([]float64(nil), b...))); err != nil {
				t.Fatalf("n=%d: gonum solve: %v", n, err)
			}
			x := append([]float64(nil), b...)
			CholSolve(l, n, x, m)
			CholSolveT(l, n, x, m)
			for i := 0; i < n; i++ {
				for c := 0; c < m; c++ {
					if !closeRel(x[i*m+c], want.At(i, c), 1e-8) {
						t.Fatalf("n=%d: solve[%d,%d] = %v, gonum %v", n, i, c, x[i*m+c], want.At(i, c))
					}
				}
			}
			v := make([]float64, n)
			for i := range v {
				v[i] = b[i*m+1]
			}
			CholSolveVec(l, n, v)
			CholSolveVecT(l, n, v)
			for i := range v {
				if !closeRel(v[i], want.At(i, 1), 1e-8) {
					t.Fatalf("n=%d: vector solve[%d] = %v, gonum %v", n, i, v[i], want.At(i, 1))
				}
			}
			// The half solve alone: ‖L⁻¹b‖² = bᵀA⁻¹b.
			h := make([]float64, n)
			for i := range h {
				h[i] = b[i*m]
			}
			var quad float64
			for i := range h {
				quad += h[i] * want.At(i, 0)
			}
			CholSolveVec(l, n, h)
			var hh float64
			for _, e := range h {
				hh += e * e
			}
			if !closeRel(hh, quad, 1e-8) {
				t.Errorf("n=%d: ‖L⁻¹b‖² = %v, bᵀA⁻¹b = %v", n, hh, quad)
			}
		}
	}
}

func TestCholFactorRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		a    []float64
	}{
		// [[1,2],[2,1]] has eigenvalues 3 and −1.
		{"indefinite", 2, []float64{1, 0, 2, 1}},
		{"singular", 2, []float64{1, 0, 1, 1}},
		{"negative", 1, []float64{-1}},
		{"zero", 1, []float64{0}},
		{"nan", 2, []float64{1, 0, math.NaN(), 1}},
		{"inf", 2, []float64{math.Inf(1), 0, 0, 1}},
	} {
		if CholFactor(append([]float64(nil), tc.a...), tc.n) {
			t.Errorf("%s: CholFactor(%v) = true, want false", tc.name, tc.a)
		}
	}
	// A zero-size matrix is (vacuously) factorised.
	if !CholFactor(nil, 0) || CholLogDet(nil, 0) != 0 {
		t.Error("0×0: want ok and ln|A| = 0")
	}
}

func TestCholSmallAllocs(t *testing.T) {
	const n, m = 8, 4
	rnd := rand.New(rand.NewPCG(3, 4))
	a := randomSPD(rnd, n)
	l := make([]float64, n*n)
	inv := make([]float64, n*n)
	work := make([]float64, n*n)
	b := make([]float64, n*m)
	v := make([]float64, n)
	var sink float64
	allocs := testing.AllocsPerRun(100, func() {
		copy(l, a)
		if !CholFactor(l, n) {
			t.Fatal("CholFactor failed")
		}
		sink += CholLogDet(l, n) + CholLogDetBlock(l, n, 2, 5)
		CholSolve(l, n, b, m)
		CholSolveT(l, n, b, m)
		CholSolveVec(l, n, v)
		CholSolveVecT(l, n, v)
		CholInverse(inv, l, n, work)
	})
	if allocs != 0 {
		t.Errorf("small Cholesky kernels allocate %v times per run, want 0", allocs)
	}
	_ = sink
}

// TestCholUpperKernels checks the upper-triangular kernels on random SPD
// matrices of orders 1-12 with a row stride larger than the order:
// CholFactorUpper gives lapack64.Potrf's factor bit for bit (and the same
// failing pivot on an indefinite matrix); CholInverseUpper and
// CholSolveUpperVec agree with mat.Cholesky's inverse and solve to
// round-off, and CholInverseUpper reports a non-finite inverse.
func TestCholUpperKernels(t *testing.T) {
	const tol = 1e-10
	rnd := rand.New(rand.NewPCG(3, 4))
	for n := 1; n <= 12; n++ {
		for trial := range 20 {
			ld := n + trial%3
			a := randomSPD(rnd, n)
			if trial%5 == 4 && n > 1 {
				// Indefinite: a pivot other than the first fails.
				a[(n-1)*n+(n-1)] = -1
			}
			mine := make([]float64, (n-1)*ld+n)
			ref := make([]float64, n*ld)
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					mine[i*ld+j] = a[i*n+j]
					ref[i*ld+j] = a[i*n+j]
				}
			}
			_, okRef := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: ld, Data: ref})
			ok := CholFactorUpper(mine, n, ld)
			if ok != okRef {
				t.Fatalf("n=%d trial %d: CholFactorUpper ok=%v, Potrf %v", n, trial, ok, okRef)
			}
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					if math.Float64bits(mine[i*ld+j]) != math.Float64bits(ref[i*ld+j]) {
						t.Fatalf("n=%d trial %d: U[%d,%d] = %v, Potrf's %v", n, trial, i, j, mine[i*ld+j], ref[i*ld+j])
					}
				}
			}
			if !ok {
				continue
			}
			var chol mat.Cholesky
			if !chol.Factorize(mat.NewSymDense(n, append([]float64(nil), a...))) {
				t.Fatalf("n=%d: mat.Cholesky fails", n)
			}
			var inv mat.SymDense
			if err := chol.InverseTo(&inv); err != nil {
				t.Fatal(err)
			}
			ls := n + 1
			s := make([]float64, (n-1)*ls+n)
			if !CholInverseUpper(s, ls, mine, n, ld, make([]float64, n*n)) {
				t.Fatalf("n=%d: CholInverseUpper reports a non-finite inverse", n)
			}
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					if !closeRel(s[i*ls+j], inv.At(i, j), tol) {
						t.Fatalf("n=%d: A⁻¹[%d,%d] = %v, want %v", n, i, j, s[i*ls+j], inv.At(i, j))
					}
				}
			}
			b := make([]float64, n)
			for i := range b {
				b[i] = rnd.NormFloat64()
			}
			var want mat.VecDense
			if err := chol.SolveVecTo(&want, mat.NewVecDense(n, append([]float64(nil), b...))); err != nil {
				t.Fatal(err)
			}
			CholSolveUpperVec(mine, n, ld, b)
			for i := range b {
				if !closeRel(b[i], want.AtVec(i), tol) {
					t.Fatalf("n=%d: (A⁻¹b)[%d] = %v, want %v", n, i, b[i], want.AtVec(i))
				}
			}
		}
	}
	// A factor whose inverse overflows.
	u := []float64{1e-300, 1, 0, 1e-300}
	if CholInverseUpper(make([]float64, 4), 2, u, 2, 2, make([]float64, 4)) {
		t.Error("CholInverseUpper reports an infinite inverse as finite")
	}
}

// TestCholLargeVectorPath checks the triangular solves and CholInverse at
// orders from cholVecMin on, where Axpy and Scale take the row updates: on
// every path (paths) A·A⁻¹ = I and L·(L⁻¹B) = B, Lᵀ(L⁻ᵀB) = B to
// round-off, A⁻¹ exactly symmetric, the results within round-off of the
// portable path rounding twice, and the same bits on every path that
// rounds once (the assembly and math.FMA).
func TestCholLargeVectorPath(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{cholVecMin - 1, cholVecMin, 57, 109} {
		a := randomSPD(rnd, n)
		l := append([]float64(nil), a...)
		if !CholFactor(l, n) {
			t.Fatalf("n=%d: CholFactor failed", n)
		}
		const m = 88
		b := make([]float64, n*m)
		for i := range b {
			b[i] = rnd.NormFloat64()
		}
		// The portable path rounding twice, the reference for round-off.
		savedVec, savedFMA := useVec, fusedMA
		useVec, fusedMA = false, false
		refInv := make([]float64, n*n)
		CholInverse(refInv, l, n, make([]float64, n*n))
		refS, refT := append([]float64(nil), b...), append([]float64(nil), b...)
		CholSolve(l, n, refS, m)
		CholSolveT(l, n, refT, m)
		useVec, fusedMA = savedVec, savedFMA
		var fused []float64 // the first once-rounding path's results
		paths(t, func(t *testing.T) {
			inv := make([]float64, n*n)
			CholInverse(inv, l, n, make([]float64, n*n))
			defer func() {
				if !fusedNow() {
					return
				}
				s, tt := append([]float64(nil), b...), append([]float64(nil), b...)
				CholSolve(l, n, s, m)
				CholSolveT(l, n, tt, m)
				got := append(append(inv, s...), tt...)
				if fused == nil {
					fused = got
				} else if !slices.Equal(got, fused) {
					t.Errorf("n=%d: the once-rounding paths differ", n)
				}
			}()
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					var s float64
					for c := 0; c < n; c++ {
						s += a[i*n+c] * inv[c*n+j]
					}
					want := 0.0
					if i == j {
						want = 1
					}
					if math.Abs(s-want) > 1e-9 {
						t.Fatalf("n=%d: (A·A⁻¹)[%d,%d] = %v", n, i, j, s)
					}
					if inv[i*n+j] != inv[j*n+i] {
						t.Fatalf("n=%d: A⁻¹ not exactly symmetric at [%d,%d]", n, i, j)
					}
					if !closeRel(inv[i*n+j], refInv[i*n+j], 1e-11) {
						t.Fatalf("n=%d: A⁻¹[%d,%d] = %v, plain loops %v", n, i, j, inv[i*n+j], refInv[i*n+j])
					}
				}
			}
			s, tt := append([]float64(nil), b...), append([]float64(nil), b...)
			CholSolve(l, n, s, m)
			CholSolveT(l, n, tt, m)
			for i := 0; i < n; i++ {
				for c := 0; c < m; c++ {
					// (L·s)_ic and (Lᵀ·tt)_ic against b.
					var ls, lt float64
					for r := 0; r <= i; r++ {
						ls += l[i*n+r] * s[r*m+c]
					}
					for r := i; r < n; r++ {
						lt += l[r*n+i] * tt[r*m+c]
					}
					if !closeRel(ls, b[i*m+c], 1e-10) || !closeRel(lt, b[i*m+c], 1e-10) {
						t.Fatalf("n=%d: (L·L⁻¹B)[%d,%d] = %v, (Lᵀ·L⁻ᵀB) = %v, B = %v", n, i, c, ls, lt, b[i*m+c])
					}
					if !closeRel(s[i*m+c], refS[i*m+c], 1e-11) || !closeRel(tt[i*m+c], refT[i*m+c], 1e-11) {
						t.Fatalf("n=%d: solves at [%d,%d] %v, %v; plain loops %v, %v", n, i, c, s[i*m+c], tt[i*m+c], refS[i*m+c], refT[i*m+c])
					}
				}
			}
		})
	}
}

// BenchmarkCholLarge times CholInverse and the solves with 88 right-hand
// sides at n = 109, the (k+d)×(k+d) VBM precision of the gene LDS (k = 20,
// d = 89), on the plain loops ("go") and the vector path ("vec").
func BenchmarkCholLarge(b *testing.B) {
	const n, m = 109, 88
	rnd := rand.New(rand.NewPCG(5, 6))
	l := randomSPD(rnd, n)
	if !CholFactor(l, n) {
		b.Fatal("not SPD")
	}
	inv, work := make([]float64, n*n), make([]float64, n*n)
	benchPaths(b, "CholInverse", 2*float64(n*n*n)/3*2, func() { CholInverse(inv, l, n, work) })
	rhs := benchVec(n * m)
	benchPaths(b, "CholSolve", float64(n*n*m), func() { CholSolve(l, n, rhs, m) })
	benchPaths(b, "CholSolveT", float64(n*n*m), func() { CholSolveT(l, n, rhs, m) })
}
