package numeric

// Vector kernels: the dense products of the models' hot loops (the E and M
// steps of the mixture of factor analysers and of the Gaussian mixture, the
// forward-backward recursion of the hidden Markov model), each over a block
// of points held as rows of a row-major []float64 (a point per column), so
// that the work is a few products of small matrices with long rows rather
// than many level-1 calls:
//
//	Dot           Σ_i x_i y_i
//	Axpy          y += αx
//	MulAdd        C += A·B    (A small and strided, B and C long rows: points)
//	MulAddT       C += A·Bᵀ   (a dot product of long rows per element)
//
// # The two paths
//
// On amd64 with AVX2 and FMA (detected at run time: CPUID and the operating
// system's saving of the YMM state, XGETBV) the kernels run hand-written Go
// assembly (vec_amd64.s) on four-wide vectors with fused multiply-adds;
// elsewhere, or when built with the purego tag, the portable Go loops of
// vec_go.go run. The route was chosen by measurement (a prototype on the
// Xeon this project is developed on, one thread, a dot product of 512
// elements and a 100×100 vector-matrix product, GFLOP/s): gonum's
// assembly kernels (v0.16 and v0.17 have the same SSE2 code, without FMA)
// 5.5 and 8.6; OpenBLAS through cgo 6.3 and 11, with about 100 ns of call
// overhead that the small products cannot amortise, and only where the
// library is installed and cgo is on; Go 1.26's experimental simd/archsimd
// 7.4 and 6.2, behind GOEXPERIMENT=simd (not in a default build); the
// hand-written kernels 28 and 14. The assembly is written by hand rather
// than generated (avo) because the set is small and fixed; the generator
// would add a tool module for no fewer lines to review.
//
// # Round-off
//
// Every kernel documents its order of summation, which does not depend on
// the alignment of the slices, on the position of an element in the block
// or on the size of the block (except where stated: the lane sums of Dot
// and MulAddT follow the index mod 16 or 4). The two paths take the same
// order; they differ only in that the assembly fuses each multiply-add
// (one rounding instead of two), so their results agree to a few units of
// round-off and each is reproducible bit for bit on its machine, whatever
// the number of goroutines the callers use.
//
// Shapes are checked and a mismatch panics with a "numeric: " prefix;
// outputs must not overlap inputs. None of the kernels allocates.

import "fmt"

// useVec selects the assembly kernels; it is set once from the CPU's
// features (haveVec) and changed only by this package's tests.
var useVec = haveVec

// Vectorised reports whether the kernels run the AVX2/FMA assembly (true)
// or the portable Go loops (false) on this machine and build.
func Vectorised() bool { return useVec }

// Dot returns Σ_i x_i y_i over len(x) = len(y) elements, with sixteen
// partial sums: p_(i mod 16) accumulates the products of the first
// 16⌊n/16⌋ elements and p_(i mod 4) those up to 4⌊n/4⌋; the partial sums
// are combined as v = (p₀…₃ + p₄…₇) + (p₈…₁₁ + p₁₂…₁₅) four at a time and
// s = (v₀ + v₂) + (v₁ + v₃), and the last n mod 4 products are added to s
// in order. It panics if the lengths differ.
func Dot(x, y []float64) float64 {
	if len(x) != len(y) {
		panic(fmt.Sprintf("numeric: Dot: lengths %d and %d", len(x), len(y)))
	}
	if len(x) == 0 {
		return 0
	}
	if useVec {
		return dotVec(x, y)
	}
	return dotGo(x, y)
}

// Axpy sets y_i += α x_i for i < len(x) = len(y). It panics if the
// lengths differ.
func Axpy(alpha float64, x, y []float64) {
	if len(x) != len(y) {
		panic(fmt.Sprintf("numeric: Axpy: lengths %d and %d", len(x), len(y)))
	}
	if len(x) == 0 {
		return
	}
	if useVec {
		axpyVec(alpha, x, y)
		return
	}
	axpyGo(alpha, x, y)
}

// MulAdd sets C += A·B for the m×k matrix A, the k×n matrix B and the m×n
// matrix C, where element (i, l) of A is a[i*ars+l*acs] (ars = lda, acs = 1
// for a row-major A; ars = 1, acs = lda for the transpose of a row-major
// k×m matrix), element (l, j) of B is b[l*ldb+j] and element (i, j) of C is
// c[i*ldc+j]. Each element is one running sum in the order of l,
//
//	C_ij ← (…((C_ij + A_i0 B_0j) + A_i1 B_1j) + …) + A_i,k−1 B_k−1,j,
//
// the order of the plain triple loop, so a block of columns of C (points)
// gets the same result whatever block it is computed in. A row of B is the
// vector that is loaded, an element of A is broadcast: the kernel is fast
// for long rows of B and C (n ≳ 8) whatever the strides of A. It panics if
// a dimension or stride is negative, ldb < n, ldc < n, or a slice is
// shorter than its last element.
func MulAdd(m, n, k int, a []float64, ars, acs int, b []float64, ldb int, c []float64, ldc int) {
	if m < 0 || n < 0 || k < 0 || ars < 0 || acs < 0 || ldb < n || ldc < n {
		panic(fmt.Sprintf("numeric: MulAdd: bad shape m=%d n=%d k=%d ars=%d acs=%d ldb=%d ldc=%d", m, n, k, ars, acs, ldb, ldc))
	}
	if m == 0 || n == 0 || k == 0 {
		return
	}
	if (m-1)*ars+(k-1)*acs >= len(a) || (k-1)*ldb+n > len(b) || (m-1)*ldc+n > len(c) {
		panic(fmt.Sprintf("numeric: MulAdd: short slice (len a=%d b=%d c=%d for m=%d n=%d k=%d)", len(a), len(b), len(c), m, n, k))
	}
	if useVec {
		mulAddVec(m, n, k, a, ars, acs, b, ldb, c, ldc)
		return
	}
	mulAddGo(m, n, k, a, ars, acs, b, ldb, c, ldc)
}

// MulAddT sets C += A·Bᵀ for the m×k matrix A (row i at a[i*lda:]), the
// n×k matrix B (row j at b[j*ldb:]) and the m×n matrix C (row i at
// c[i*ldc:]): each element is the dot product of a row of A and a row of
// B, for long rows (k points). Each is summed in four lanes,
//
//	ℓ₀ = C_ij, ℓ₁ = ℓ₂ = ℓ₃ = 0;  ℓ_(l mod 4) += A_il B_jl for l < 4⌊k/4⌋;
//	C_ij ← ((ℓ₀ + ℓ₂) + (ℓ₁ + ℓ₃)) + A_il B_jl for the last k mod 4 l in order,
//
// whatever the position of the element in C. It panics if a dimension is
// negative, lda < k, ldb < k, ldc < n, or a slice is shorter than its last
// element.
func MulAddT(m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	if m < 0 || n < 0 || k < 0 || lda < k || ldb < k || ldc < n {
		panic(fmt.Sprintf("numeric: MulAddT: bad shape m=%d n=%d k=%d lda=%d ldb=%d ldc=%d", m, n, k, lda, ldb, ldc))
	}
	if m == 0 || n == 0 || k == 0 {
		return
	}
	if (m-1)*lda+k > len(a) || (n-1)*ldb+k > len(b) || (m-1)*ldc+n > len(c) {
		panic(fmt.Sprintf("numeric: MulAddT: short slice (len a=%d b=%d c=%d for m=%d n=%d k=%d)", len(a), len(b), len(c), m, n, k))
	}
	if useVec {
		mulAddTVec(m, n, k, a, lda, b, ldb, c, ldc)
		return
	}
	mulAddTGo(m, n, k, a, lda, b, ldb, c, ldc)
}
