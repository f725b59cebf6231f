package infer

import "math"

// Small dense kernels for the Kalman smoother. Every matrix is a row-major
// []float64 with n columns; a Cholesky factor L (A = LLᵀ) is stored in the
// lower triangle of its n×n slice and its strict upper triangle is never
// read. The state dimension k of chapter 5 is small (at most a few tens), so
// the kernels are plain loops over contiguous rows: serial, allocation-free
// and with a fixed order of summation. Each is named for the smoother
// (package comment, Naming).

// kalmanCholesky overwrites the lower triangle of the symmetric n×n matrix a
// (only its lower triangle is read) with its Cholesky factor L, a = LLᵀ, by
// the row-oriented Cholesky–Banachiewicz order. It returns false, leaving a
// partly overwritten, if a pivot is not positive (a is not positive definite
// to working precision, or holds a NaN).
func kalmanCholesky(a []float64, n int) bool {
	for i := 0; i < n; i++ {
		ri := a[i*n : i*n+i+1]
		for j := 0; j < i; j++ {
			rj := a[j*n : j*n+j+1]
			rij := ri[:j]
			s := ri[j]
			for m, v := range rj[:len(rij)] {
				s -= rij[m] * v
			}
			ri[j] = s / rj[j]
		}
		s := ri[i]
		for _, v := range ri[:i] {
			s -= v * v
		}
		if !(s > 0) {
			return false
		}
		ri[i] = math.Sqrt(s)
	}
	return true
}

// kalmanLogDiag returns Σ_i ln L_ii = ½ ln|LLᵀ| for the n×n factor l.
func kalmanLogDiag(l []float64, n int) float64 {
	var s float64
	for i := 0; i < n; i++ {
		s += math.Log(l[i*n+i])
	}
	return s
}

// kalmanSolveLower overwrites the n×m matrix b with L⁻¹b (forward
// substitution, one row of b at a time).
func kalmanSolveLower(l []float64, n int, b []float64, m int) {
	for i := 0; i < n; i++ {
		bi := b[i*m : (i+1)*m]
		li := l[i*n : i*n+i]
		for r, lir := range li {
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

// kalmanSolveLowerT overwrites the n×m matrix b with L⁻ᵀb (back
// substitution).
func kalmanSolveLowerT(l []float64, n int, b []float64, m int) {
	for i := n - 1; i >= 0; i-- {
		bi := b[i*m : (i+1)*m]
		inv := 1 / l[i*n+i]
		for c := range bi {
			bi[c] *= inv
		}
		// Row i of Lᵀ's solution feeds every earlier row r < i through L_ir.
		li := l[i*n : i*n+i]
		for r, lir := range li {
			br := b[r*m : (r+1)*m]
			br = br[:len(bi)]
			for c := range br {
				br[c] -= lir * bi[c]
			}
		}
	}
}

// kalmanSolveVec overwrites the n-vector v with L⁻¹v.
func kalmanSolveVec(l []float64, n int, v []float64) {
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

// kalmanSolveVecT overwrites the n-vector v with L⁻ᵀv.
func kalmanSolveVecT(l []float64, n int, v []float64) {
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

// kalmanSubGram subtracts xᵀx from the lower triangle of the n×n matrix c,
// where x is m×n: c_ij −= Σ_r x_ri x_rj for j ≤ i (one rank-one update per
// row of x).
func kalmanSubGram(c []float64, n int, x []float64, m int) {
	for r := 0; r < m; r++ {
		xr := x[r*n : (r+1)*n]
		for i, xi := range xr {
			ci := c[i*n : i*n+i+1]
			xj := xr[:len(ci)]
			for j := range ci {
				ci[j] -= xi * xj[j]
			}
		}
	}
}

// kalmanMirror copies the lower triangle of the n×n matrix a to its upper
// triangle, so that a is exactly symmetric.
func kalmanMirror(a []float64, n int) {
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			a[j*n+i] = a[i*n+j]
		}
	}
}

// kalmanInverse writes (LLᵀ)⁻¹ = L⁻ᵀL⁻¹ into the n×n matrix dst, exactly
// symmetric, using the n×n scratch z for L⁻¹. L⁻¹ is lower triangular; its
// row r is zero beyond column r, so dst = Σ_r z_r z_rᵀ needs only the
// leading (r+1)×(r+1) block of each rank-one term.
func kalmanInverse(dst []float64, l []float64, n int, z []float64) {
	// z = L⁻¹ by forward substitution on the identity, row by row.
	for i := 0; i < n; i++ {
		zi := z[i*n : (i+1)*n]
		clear(zi)
		zi[i] = 1
		for r, lir := range l[i*n : i*n+i] {
			zr := z[r*n : r*n+r+1]
			zir := zi[:len(zr)]
			for c := range zr {
				zir[c] -= lir * zr[c]
			}
		}
		inv := 1 / l[i*n+i]
		zi = zi[:i+1]
		for c := range zi {
			zi[c] *= inv
		}
	}
	clear(dst[:n*n])
	for r := 0; r < n; r++ {
		zr := z[r*n : r*n+r+1]
		for i, zi := range zr {
			di := dst[i*n : i*n+i+1]
			zj := zr[:len(di)]
			for j := range di {
				di[j] += zi * zj[j]
			}
		}
	}
	kalmanMirror(dst, n)
}

// kalmanMul sets the n×m matrix dst to a·b, where a is n×q and b is q×m;
// dst must not share memory with a or b.
func kalmanMul(dst []float64, a []float64, n, q int, b []float64, m int) {
	for i := 0; i < n; i++ {
		di := dst[i*m : (i+1)*m]
		clear(di)
		for r, air := range a[i*q : (i+1)*q] {
			br := b[r*m : (r+1)*m]
			br = br[:len(di)]
			for c := range di {
				di[c] += air * br[c]
			}
		}
	}
}

// kalmanMulVec adds a·v to dst, where a is n×q.
func kalmanMulVec(dst []float64, a []float64, n, q int, v []float64) {
	v = v[:q]
	for i := 0; i < n; i++ {
		ai := a[i*q : (i+1)*q]
		ai = ai[:len(v)]
		s := dst[i]
		for r, vr := range v {
			s += ai[r] * vr
		}
		dst[i] = s
	}
}

// kalmanMulTVec adds aᵀ·v to dst, where a is q×n and v a q-vector.
func kalmanMulTVec(dst []float64, a []float64, q, n int, v []float64) {
	dst = dst[:n]
	for r := 0; r < q; r++ {
		vr := v[r]
		ar := a[r*n : (r+1)*n]
		ar = ar[:len(dst)]
		for c := range dst {
			dst[c] += vr * ar[c]
		}
	}
}
