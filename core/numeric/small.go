package numeric

import "math"

// Small dense Cholesky kernels. A matrix is a flat row-major []float64 with n
// columns; a Cholesky factor L of the symmetric positive-definite n×n matrix
// A = LLᵀ overwrites the lower triangle of A's slice, and its strict upper
// triangle is never read. These are the kernels of the models' inner loops:
// the k×k posterior covariances of the factors (Beal (2003) eq. (4.46)), the
// (k+d)×(k+d) VBM step of the LDS (eqs. (5.37)–(5.44)) and the k×k
// covariances of the Kalman smoother (eqs. (5.80)–(5.104)), with k and d at
// most a few tens. They are plain serial loops with a fixed order of
// summation, so results do not depend on the machine's thread count; none of
// them allocates. For large or one-off matrices use CholeskySPD.
//
// The log-determinant convention is ln|A| = 2 Σ_i ln L_ii (as LogDetChol),
// never ln|L|: callers that want ½ ln|A| halve it, which is exact.

// CholFactor overwrites the lower triangle of the symmetric n×n matrix a
// (only its lower triangle is read) with its Cholesky factor L, a = LLᵀ, by
// the column-oriented (Cholesky–Crout) order:
//
//	L_jj = √(a_jj − Σ_{m<j} L_jm²),  L_ij = (a_ij − Σ_{m<j} L_im L_jm) / L_jj  (i > j),
//
// each sum taken over m in increasing order. It returns false, leaving a
// partly overwritten, if a pivot is not positive and finite (a is not
// positive definite to working precision, or holds a NaN or an infinity).
// It panics if len(a) < n².
func CholFactor(a []float64, n int) bool {
	if len(a) < n*n {
		panic("numeric: CholFactor: short matrix")
	}
	for j := 0; j < n; j++ {
		rj := a[j*n : j*n+j+1]
		d := rj[j]
		for _, v := range rj[:j] {
			d -= v * v
		}
		if !(d > 0) || math.IsInf(d, 1) {
			return false
		}
		d = math.Sqrt(d)
		rj[j] = d
		lj := rj[:j]
		for i := j + 1; i < n; i++ {
			ri := a[i*n : i*n+j+1]
			s := ri[j]
			for m, v := range ri[:len(lj)] {
				s -= v * lj[m]
			}
			ri[j] = s / d
		}
	}
	return true
}

// CholLogDet returns ln|A| = 2 Σ_i ln L_ii for the n×n factor l of A = LLᵀ.
func CholLogDet(l []float64, n int) float64 {
	return CholLogDetBlock(l, n, 0, n)
}

// CholLogDetBlock returns 2 Σ_{lo ≤ i < hi} ln L_ii for the n×n factor l of
// A = LLᵀ. With lo = 0 it is ln|A₁₁| of the leading hi×hi block of A; with
// hi = n it is ln|A/A₁₁|, the log-determinant of the Schur complement of the
// leading lo×lo block A₁₁ (so ln|A| = ln|A₁₁| + ln|A/A₁₁|). It panics unless
// 0 ≤ lo ≤ hi ≤ n.
func CholLogDetBlock(l []float64, n, lo, hi int) float64 {
	if lo < 0 || lo > hi || hi > n {
		panic("numeric: CholLogDetBlock: bad range")
	}
	var s float64
	for i := lo; i < hi; i++ {
		s += math.Log(l[i*n+i])
	}
	return 2 * s
}

// cholVecMin is the smallest order n at which the triangular solves with
// many right-hand sides and CholInverse run their row updates through the
// vector kernels Axpy and Scale: the same operations in the same order,
// each multiply-add rounded once where the CPU has FMA, by the assembly or
// by the portable loops alike, so both builds give the same bits. Below it
// the plain loops are faster (the rows are short), and their results stay
// those of the loops as written.
const cholVecMin = 32

// cholVec reports whether the kernels of order n with rows of m elements
// take the vector path (see cholVecMin).
func cholVec(n, m int) bool { return n >= cholVecMin && m >= 8 }

// CholSolve overwrites the n×m matrix b with L⁻¹b (forward substitution, one
// row of b at a time; each row is scaled by the reciprocal 1/L_ii).
func CholSolve(l []float64, n int, b []float64, m int) {
	if cholVec(n, m) {
		for i := 0; i < n; i++ {
			bi := b[i*m : (i+1)*m]
			for r, lir := range l[i*n : i*n+i] {
				Axpy(-lir, b[r*m:(r+1)*m], bi)
			}
			Scale(1/l[i*n+i], bi)
		}
		return
	}
	for i := 0; i < n; i++ {
		bi := b[i*m : (i+1)*m]
		for r, lir := range l[i*n : i*n+i] {
			br := b[r*m : (r+1)*m]
			br = br[:len(bi)]
			for c := range bi {
				bi[c] -= lir * br[c]
			}
		}
		inv := 1 / l[i*n+i]
		for c := range bi {
			bi[c] *= inv
		}
	}
}

// CholSolveT overwrites the n×m matrix b with L⁻ᵀb (back substitution; each
// row is scaled by the reciprocal 1/L_ii).
func CholSolveT(l []float64, n int, b []float64, m int) {
	if cholVec(n, m) {
		for i := n - 1; i >= 0; i-- {
			bi := b[i*m : (i+1)*m]
			Scale(1/l[i*n+i], bi)
			for r, lir := range l[i*n : i*n+i] {
				Axpy(-lir, bi, b[r*m:(r+1)*m])
			}
		}
		return
	}
	for i := n - 1; i >= 0; i-- {
		bi := b[i*m : (i+1)*m]
		inv := 1 / l[i*n+i]
		for c := range bi {
			bi[c] *= inv
		}
		// Row i of the solution feeds every earlier row r < i through L_ir.
		for r, lir := range l[i*n : i*n+i] {
			br := b[r*m : (r+1)*m]
			br = br[:len(bi)]
			for c := range br {
				br[c] -= lir * bi[c]
			}
		}
	}
}

// CholSolveVec overwrites the n-vector v with L⁻¹v (forward substitution,
// dividing by L_ii).
func CholSolveVec(l []float64, n int, v []float64) {
	v = v[:n]
	for i := range v {
		li := l[i*n : i*n+i+1]
		vi := v[:len(li)-1]
		s := v[i]
		for r, lir := range li[:len(vi)] {
			s -= lir * vi[r]
		}
		v[i] = s / li[i]
	}
}

// CholSolveVecT overwrites the n-vector v with L⁻ᵀv (back substitution,
// dividing by L_ii).
func CholSolveVecT(l []float64, n int, v []float64) {
	v = v[:n]
	for i := n - 1; i >= 0; i-- {
		vi := v[i] / l[i*n+i]
		v[i] = vi
		vr := v[:i]
		for r, lir := range l[i*n : i*n+len(vr)] {
			vr[r] -= lir * vi
		}
	}
}

// CholInverse writes A⁻¹ = (LLᵀ)⁻¹ = L⁻ᵀL⁻¹ into the n×n matrix dst, exactly
// symmetric, using the n×n scratch work for L⁻¹; dst, l and work must not
// overlap. L⁻¹ is lower triangular, found column by column,
//
//	(L⁻¹)_jj = 1/L_jj,  (L⁻¹)_ij = −(Σ_{j≤c<i} L_ic (L⁻¹)_cj) / L_ii  (i > j),
//
// and A⁻¹_ab = Σ_{c ≥ max(a,b)} (L⁻¹)_ca (L⁻¹)_cb, each sum in increasing c.
// It costs about 2n³/3 multiply-adds. From order cholVecMin on, L⁻¹ is
// formed a row at a time, row i of L⁻¹ less
// L_ic times each earlier row c in increasing c (an Axpy over the first
// c+1 elements), and the lower triangle of A⁻¹ by adding (L⁻¹)_ca times
// the first a+1 elements of row c of L⁻¹ to row a for c = 0, …, n−1:
// every element the same sum in the same order.
func CholInverse(dst, l []float64, n int, work []float64) {
	w := work[:n*n]
	clear(w)
	if cholVec(n, n) {
		cholInverseRows(dst[:n*n], l, n, w)
		return
	}
	for j := 0; j < n; j++ {
		w[j*n+j] = 1 / l[j*n+j]
		for i := j + 1; i < n; i++ {
			li := l[i*n+j : i*n+i]
			var s float64
			for c, v := range li {
				s += v * w[(j+c)*n+j]
			}
			w[i*n+j] = -s / l[i*n+i]
		}
	}
	dst = dst[:n*n]
	for a := 0; a < n; a++ {
		for b := a; b < n; b++ {
			var s float64
			for c := b; c < n; c++ {
				s += w[c*n+a] * w[c*n+b]
			}
			dst[a*n+b] = s
			dst[b*n+a] = s
		}
	}
}

// cholInverseRows is CholInverse by rows (see CholInverse); w is zero.
func cholInverseRows(dst, l []float64, n int, w []float64) {
	for i := 0; i < n; i++ {
		wi := w[i*n : (i+1)*n]
		for c, lic := range l[i*n : i*n+i] {
			Axpy(-lic, w[c*n:c*n+c+1], wi[:c+1])
		}
		d := l[i*n+i]
		for j := range wi[:i] {
			wi[j] /= d
		}
		wi[i] = 1 / d
	}
	clear(dst)
	for c := 0; c < n; c++ {
		wc := w[c*n : (c+1)*n]
		for a, wca := range wc[:c+1] {
			Axpy(wca, wc[:a+1], dst[a*n:a*n+a+1])
		}
	}
	for a := 0; a < n; a++ {
		for b := 0; b < a; b++ {
			dst[b*n+a] = dst[a*n+b]
		}
	}
}

// InverseSPD writes a⁻¹ into the n×n matrix dst for the symmetric
// positive-definite n×n matrix a (only its lower triangle is read; a is not
// modified) and returns ln|a|, or false, leaving dst unchanged, if a is not
// positive definite. It allocates its scratch, so it is for one-off
// conversions (a prior's covariance from its precision, a Laplace
// covariance), not for the iterations, which keep their factors.
func InverseSPD(dst, a []float64, n int) (logDet float64, ok bool) {
	l := append([]float64(nil), a[:n*n]...)
	if !CholFactor(l, n) {
		return 0, false
	}
	CholInverse(dst, l, n, make([]float64, n*n))
	return CholLogDet(l, n), true
}

// Upper-triangular Cholesky kernels: a factor U of A = UᵀU in the upper
// triangle of a row-major n×n slice of row stride ld (its strict lower
// triangle is never read), in LAPACK's convention (dist.GaussianRows keeps
// its factors so). Each product is rounded before it is added (an explicit
// conversion, so that no build fuses them), in the order stated.

// CholFactorUpper overwrites the upper triangle of the symmetric n×n matrix
// a (row stride ld; only its upper triangle is read) with U, a = UᵀU, by
// the operations of LAPACK's unblocked dpotf2 in the order gonum's
// lapack64.Potrf takes them (for n ≤ 64, and so mat.Cholesky.Factorize),
// so that it gives their factor bit for bit, without their call overhead:
// column j at a time,
//
//	U_jj = √(a_jj − (e + o)),  e = Σ_{m<j, m even} U_mj²,  o = Σ_{m<j, m odd} U_mj² (+ U_{j−1,j}² for odd j),
//	U_jl = (a_jl − U_0j U_0l − U_1j U_1l − … − U_{j−1,j} U_{j−1,l}) · (1/U_jj)   (l > j),
//
// e and o each summed in increasing m (the two lanes of gonum's strided
// dot product; for odd j the last square goes to o, after the others), the
// row of U_jl by running differences in increasing i. It returns false,
// with a_jj the first pivot a_jj − (e + o) that is not positive or is NaN,
// as Potrf does; it does not check for infinities. It panics if ld < n or
// a is too short.
func CholFactorUpper(a []float64, n, ld int) bool {
	if n == 0 {
		return true
	}
	if ld < n || len(a) < (n-1)*ld+n {
		panic("numeric: CholFactorUpper: bad shape")
	}
	for j := 0; j < n; j++ {
		ajj := a[j*ld+j]
		if j > 0 {
			var e, o float64
			m := 0
			for ; m+2 <= j; m += 2 {
				x0, x1 := a[m*ld+j], a[(m+1)*ld+j]
				e += float64(x0 * x0)
				o += float64(x1 * x1)
			}
			if m < j {
				x := a[m*ld+j]
				o += float64(x * x)
			}
			ajj -= e + o
		}
		if ajj <= 0 || math.IsNaN(ajj) {
			a[j*ld+j] = ajj
			return false
		}
		ajj = math.Sqrt(ajj)
		a[j*ld+j] = ajj
		if j == n-1 {
			break
		}
		row := a[j*ld+j+1 : j*ld+n]
		for i := 0; i < j; i++ {
			uij := a[i*ld+j]
			ri := a[i*ld+j+1 : i*ld+n]
			ri = ri[:len(row)]
			for l, v := range ri {
				row[l] -= float64(uij * v)
			}
		}
		r := 1 / ajj
		for l := range row {
			row[l] *= r
		}
	}
	return true
}

// CholInverseUpper sets the upper triangle of the n×n matrix s (row stride
// ls) to A⁻¹ = (UᵀU)⁻¹ = VVᵀ for the factor u of A = UᵀU (row stride lu),
// with V = U⁻¹ (upper triangular) computed into the n×n scratch work by
// back substitution,
//
//	V_jj = 1/U_jj,  V_ij = −(Σ_{i<l≤j} U_il V_lj) / U_ii   (i = j−1, …, 0),
//	A⁻¹_ab = Σ_{l ≥ b} V_al V_bl   (a ≤ b),
//
// each sum a running one in increasing l. It reports whether every entry
// of A⁻¹ is finite. s, u and work must not overlap; it costs about 2n³/3
// multiply-adds.
func CholInverseUpper(s []float64, ls int, u []float64, n, lu int, work []float64) bool {
	if n == 0 {
		return true
	}
	if lu < n || ls < n || len(u) < (n-1)*lu+n || len(s) < (n-1)*ls+n || len(work) < n*n {
		panic("numeric: CholInverseUpper: bad shape")
	}
	w := work[:n*n]
	for j := 0; j < n; j++ {
		w[j*n+j] = 1 / u[j*lu+j]
		for i := j - 1; i >= 0; i-- {
			ui := u[i*lu+i+1 : i*lu+j+1]
			var t float64
			for l, v := range ui {
				t += float64(v * w[(i+1+l)*n+j])
			}
			w[i*n+j] = -t / u[i*lu+i]
		}
	}
	fin := 0.0
	for a := 0; a < n; a++ {
		va := w[a*n+a : a*n+n]
		sa := s[a*ls+a : a*ls+n]
		for b := a; b < n; b++ {
			vb := w[b*n+b : b*n+n]
			vab := va[b-a:]
			vab = vab[:len(vb)]
			var t float64
			for l, v := range vb {
				t += float64(vab[l] * v)
			}
			sa[b-a] = t
			fin += t - t
		}
	}
	// t − t is 0 for a finite t and NaN otherwise, so fin is 0 iff all are.
	return fin == 0
}

// CholSolveUpperVec overwrites the n-vector x with A⁻¹x = (UᵀU)⁻¹x for the
// factor u of A (row stride lu): Uᵀy = x by forward substitution, then
// Uz = y by back substitution, each element a running difference in
// increasing l, divided by U_ii.
func CholSolveUpperVec(u []float64, n, lu int, x []float64) {
	if n == 0 {
		return
	}
	if lu < n || len(u) < (n-1)*lu+n || len(x) < n {
		panic("numeric: CholSolveUpperVec: bad shape")
	}
	x = x[:n]
	for i := range x {
		t := x[i]
		for l, v := range x[:i] {
			t -= float64(u[l*lu+i] * v)
		}
		x[i] = t / u[i*lu+i]
	}
	for i := n - 1; i >= 0; i-- {
		t := x[i]
		ui := u[i*lu+i+1 : i*lu+n]
		xi := x[i+1:]
		xi = xi[:len(ui)]
		for l, v := range ui {
			t -= float64(v * xi[l])
		}
		x[i] = t / u[i*lu+i]
	}
}
