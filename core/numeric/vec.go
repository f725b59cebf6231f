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
//	SqNormsLower  ‖L(x_j − μ)‖² for the columns x_j of a block (squared Mahalanobis distances)
//	ScatterLower  S += Σ_j r_j x̃_j x̃_jᵀ, x̃_j = (x_j − μ, 1), over the columns of a block
//	ExpSubTo      exp(x − y), math.Exp bit for bit
//	MulTo, Scale, AddMul   x∘y, αx, dst += x∘y (elementwise)
//
// # The two paths
//
// On amd64 with AVX2 and FMA (detected at run time: CPUID and the operating
// system's saving of the YMM state, XGETBV) the kernels run hand-written Go
// assembly (vec_amd64.s) on four-wide vectors with fused multiply-adds;
// elsewhere, or when built with the purego tag, the portable Go loops of
// vec_go.go run. The route was chosen by measurement (a prototype on the
// Xeon this project is developed on, one thread, GFLOP per CPU-second,
// median of three rounds): for a dot product of 512 elements and a 100×100
// vector-matrix product, gonum's assembly (v0.16 and v0.17 have the same
// SSE2 kernels, without FMA) 12.7 and 15.1; OpenBLAS through cgo 18.5 and
// 17.3, but 5.1 for a dot product of 100 (the call costs tens of
// nanoseconds, which the small products of the models cannot amortise) and
// only where the library is installed and cgo is on; Go 1.26's experimental
// simd/archsimd 7.2 and 5.7, behind GOEXPERIMENT=simd (not a default
// build); the hand-written kernels 26 and 29. The assembly is written by
// hand rather than generated with avo because the set is small and fixed
// (avo would add a tool module for no fewer lines to review); the one
// family of copies that differ only in a width, MulAdd's single-row
// passes, is written by vecgen.go (go generate) into vec_amd64_wide.s.
//
// # Round-off
//
// Every kernel documents its order of summation, which does not depend on
// the alignment of the slices, on the position of an element in the block
// or on the size of the block (except where stated: the lane sums of Dot
// and MulAddT follow the index mod 16 or 4). The two paths take the same
// order, and on a CPU that fuses multiply-adds both round each one once
// (the portable loops by math.FMA), so they give the same bits: a build
// with the purego tag reproduces the default build's results exactly, and
// so do the goldens. On a CPU without FMA the portable loops round twice
// (math.FMA would be emulated in software), which moves results by
// round-off. Either way results are reproducible bit for bit on a machine,
// whatever the number of goroutines the callers use.
//
// Shapes are checked and a mismatch panics with a "numeric: " prefix;
// outputs must not overlap inputs. None of the kernels allocates.

import (
	"fmt"
	"math"
)

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

// SqNormsLower sets dst_j = ‖L(x_·j − μ)‖² for the columns j < len(dst) of
// the n×len(dst) block x (row b at x[b*ldx:]) and the n×n lower triangular
// L (row-major; its strict upper triangle is not read): with the squared
// Mahalanobis distance (x − μ)ᵀW(x − μ) of a precision W = LᵀL, the term of
// a Gaussian's log-density for a block of points at once. For each column,
// with y_b = x_bj − μ_b,
//
//	z_a = (…(L_a0 y_0 + L_a1 y_1) + …) + L_aa y_a,   dst_j = (…(z_0² + z_1²) + …) + z_(n−1)²,
//
// every sum in increasing index whatever the column's position. work is
// scratch of at least 32(n+1) elements. It panics if n < 0, ldx < len(dst)
// or a slice is too short.
func SqNormsLower(dst, l []float64, n int, x []float64, ldx int, mu, work []float64) {
	cols := len(dst)
	if n < 0 || ldx < cols || len(l) < n*n || len(mu) < n || len(work) < 32*(n+1) {
		panic(fmt.Sprintf("numeric: SqNormsLower: bad shape n=%d ldx=%d cols=%d (len l=%d mu=%d work=%d)", n, ldx, cols, len(l), len(mu), len(work)))
	}
	if cols == 0 {
		return
	}
	if n == 0 {
		clear(dst)
		return
	}
	if (n-1)*ldx+cols > len(x) {
		panic(fmt.Sprintf("numeric: SqNormsLower: short block (len x=%d for n=%d ldx=%d cols=%d)", len(x), n, ldx, cols))
	}
	if useVec {
		sqNormsLowerVec(dst, l, n, x, ldx, mu, work)
		return
	}
	sqNormsLowerGo(dst, l, n, x, ldx, mu, work)
}

// ScatterLower adds to the lower triangle of the (n+1)×(n+1) matrix s
// (row-major; its strict upper triangle is left unchanged) the weighted
// scatter of the augmented columns x̃_j = (x_·j − μ, 1) of the n×len(r)
// block x (row b at x[b*ldx:]),
//
//	S += Σ_j r_j x̃_j x̃_jᵀ:   S_ab += Σ_j r_j (x_aj − μ_a)(x_bj − μ_b),
//	S_nb += Σ_j r_j (x_bj − μ_b),   S_nn += Σ_j r_j,
//
// the statistics of a weighted mean and covariance about the centre μ in
// one pass. Each element is summed over the columns in MulAddT's lane
// order, of the products (r_j y_aj) y_bj with y_aj = x_aj − μ_a (and y_nj
// = 1), so a call's result depends on which columns it is given: callers
// fix their blocks. A column of zero weight adds exactly nothing. work is
// scratch of at least 2(n+1)len(r)+16 elements. It panics if n < 0,
// ldx < len(r) or a slice is too short.
func ScatterLower(s []float64, n int, x []float64, ldx int, mu, r, work []float64) {
	cols, n1 := len(r), n+1
	if n < 0 || ldx < cols || len(s) < n1*n1 || len(mu) < n || len(work) < 2*n1*cols+16 {
		panic(fmt.Sprintf("numeric: ScatterLower: bad shape n=%d ldx=%d cols=%d (len s=%d mu=%d work=%d)", n, ldx, cols, len(s), len(mu), len(work)))
	}
	if cols == 0 {
		return
	}
	if n > 0 && (n-1)*ldx+cols > len(x) {
		panic(fmt.Sprintf("numeric: ScatterLower: short block (len x=%d for n=%d ldx=%d cols=%d)", len(x), n, ldx, cols))
	}
	y, yr, d := work[:n1*cols], work[n1*cols:2*n1*cols], work[2*n1*cols:2*n1*cols+16]
	for a := 0; a < n; a++ {
		if useVec {
			centerWeightVec(y[a*cols:(a+1)*cols], yr[a*cols:(a+1)*cols], x[a*ldx:a*ldx+cols], r, mu[a])
		} else {
			centerWeightGo(y[a*cols:(a+1)*cols], yr[a*cols:(a+1)*cols], x[a*ldx:a*ldx+cols], r, mu[a])
		}
	}
	ones := y[n*cols : n1*cols]
	for j := range ones {
		ones[j] = 1
	}
	copy(yr[n*cols:n1*cols], r)
	for i0 := 0; i0 < n1; i0 += 4 {
		h := min(4, n1-i0)
		// The rows i0 ≤ a < i0+h left of the diagonal block, in place.
		MulAddT(h, i0, cols, yr[i0*cols:], cols, y, cols, s[i0*n1:], n1)
		// The diagonal block through the 4×4 scratch d, of which the
		// lower triangle is s's and is copied back.
		clear(d)
		for a := 0; a < h; a++ {
			for b := 0; b <= a; b++ {
				d[a*4+b] = s[(i0+a)*n1+i0+b]
			}
		}
		MulAddT(h, h, cols, yr[i0*cols:], cols, y[i0*cols:], cols, d, 4)
		for a := 0; a < h; a++ {
			for b := 0; b <= a; b++ {
				s[(i0+a)*n1+i0+b] = d[a*4+b]
			}
		}
	}
}

// ExpSubTo sets dst_i = exp(x_i − y_i) = math.Exp(x_i − y_i) for i <
// len(dst) = len(x) = len(y); dst may be x or y. Where the assembly runs
// it computes math.Exp's own sequence of operations on amd64 with FMA
// (math/exp_amd64.s: Shibata's reduction to v/16, a degree-8 Taylor
// polynomial by Horner's rule and four squarings), four elements at a
// time, so that the result is math.Exp's bit for bit; an element whose
// result is not normal (x − y < −708, except below −746 where it is 0),
// infinite or NaN goes through math.Exp itself. It is the exponential of
// the normalisation of log-weights (x − max). It panics if the lengths
// differ.
func ExpSubTo(dst, x, y []float64) {
	if len(x) != len(dst) || len(y) != len(dst) {
		panic(fmt.Sprintf("numeric: ExpSubTo: lengths %d, %d and %d", len(dst), len(x), len(y)))
	}
	i := 0
	if useVec {
		i = expSubVec(dst, x, y)
	}
	for ; i < len(dst); i++ {
		dst[i] = math.Exp(x[i] - y[i])
	}
}

// LogTo sets dst_i = math.Log(x_i) for i < len(dst) = len(x); dst may be
// x. Where the assembly runs it computes math.Log's own sequence of
// operations on amd64 (math/log_amd64.s: FreeBSD's reduction to
// f = f1·2^k − 1 with f1 in (√2/2, √2], s = f/(2 + f) and two polynomials
// in s⁴, no fused multiply-adds), four elements at a time, so that the
// result is math.Log's bit for bit; an element that is not normal,
// positive and finite (zero, subnormal, negative, infinite or NaN) goes
// through math.Log itself, with its quad. It panics if the lengths differ.
func LogTo(dst, x []float64) {
	if len(x) != len(dst) {
		panic(fmt.Sprintf("numeric: LogTo: lengths %d and %d", len(dst), len(x)))
	}
	i := 0
	if useVec {
		i = logVec(dst, x)
	}
	for ; i < len(dst); i++ {
		dst[i] = math.Log(x[i])
	}
}

// GatherProdSum4 sets, for every q < len(dst),
//
//	dst_q = Σ_{c<4} h_c · Π_{t<m} tab[off[q·m+t] + c],
//
// the products taken left to right from h_c and summed as
// ((z_0 + z_1) + z_2) + z_3, on every path (the four products are one
// vector where the assembly runs), so the result does not depend on the
// path. It is the sum over four joint hidden configurations of a product
// of table rows (the grouped likelihood of package dag). It panics unless
// len(h) = 4, len(off) = m·len(dst) and every offset o has 0 ≤ o ≤
// len(tab) − 4.
func GatherProdSum4(dst, tab, h []float64, off []int32, m int) {
	if len(h) != 4 || m < 0 || len(off) != m*len(dst) {
		panic(fmt.Sprintf("numeric: GatherProdSum4: %d groups, %d offsets of %d each, h of %d", len(dst), len(off), m, len(h)))
	}
	if len(dst) == 0 {
		return
	}
	if useVec {
		gatherProdSum4Vec(dst, tab, h, off, m)
		return
	}
	gatherProdSum4Go(dst, tab, h, off, m)
}

// badGatherOffset panics with the first offset of off outside tab.
func badGatherOffset(tab []float64, off []int32) {
	for _, o := range off {
		if o < 0 || int(o) > len(tab)-4 {
			panic(fmt.Sprintf("numeric: GatherProdSum4: offset %d outside a table of %d", o, len(tab)))
		}
	}
	panic("numeric: GatherProdSum4: offset outside the table")
}

// MulTo sets dst_i = x_i y_i for i < len(dst) = len(x) = len(y); dst may
// be x or y. It panics if the lengths differ.
func MulTo(dst, x, y []float64) {
	if len(x) != len(dst) || len(y) != len(dst) {
		panic(fmt.Sprintf("numeric: MulTo: lengths %d, %d and %d", len(dst), len(x), len(y)))
	}
	if len(dst) == 0 {
		return
	}
	if useVec {
		mulToVec(dst, x, y)
		return
	}
	mulToGo(dst, x, y)
}

// Scale sets x_i = α x_i for every i.
func Scale(alpha float64, x []float64) {
	if len(x) == 0 {
		return
	}
	if useVec {
		scaleVec(alpha, x)
		return
	}
	scaleGo(alpha, x)
}

// AddMul sets dst_i += x_i y_i (one rounding, as the other kernels' multiply-
// adds) for i < len(dst) = len(x) = len(y). It panics if the lengths differ.
func AddMul(dst, x, y []float64) {
	if len(x) != len(dst) || len(y) != len(dst) {
		panic(fmt.Sprintf("numeric: AddMul: lengths %d, %d and %d", len(dst), len(x), len(y)))
	}
	if len(dst) == 0 {
		return
	}
	if useVec {
		addMulVec(dst, x, y)
		return
	}
	addMulGo(dst, x, y)
}
