package infer

// Small dense kernels for the Kalman smoother. Every matrix is a row-major
// []float64 with n columns; a Cholesky factor L (A = LLᵀ) is stored in the
// lower triangle of its n×n slice and its strict upper triangle is never
// read. The factorisation, the triangular solves, the inverse and the
// log-determinant are numeric's small-matrix kernels (numeric.CholFactor and
// its companions); the rest are here. The state dimension k of chapter 5 is small (at most a few tens), so
// the kernels are plain loops over contiguous rows: serial, allocation-free
// and with a fixed order of summation. Each is named for the smoother
// (package comment, Naming).

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
