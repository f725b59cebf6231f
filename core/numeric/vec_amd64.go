//go:build amd64 && !purego

package numeric

import "math"

//go:generate go run vecgen.go

// haveVec: the kernels of vec_amd64.s need AVX2 and FMA.
var haveVec = haveAVX2FMA

// The assembly kernels (vec_amd64.s) take pointers to the first elements;
// the Go functions below have checked the shapes.

//go:noescape
func dotAVX(x, y *float64, n int) float64

//go:noescape
func axpyAVX(alpha float64, x, y *float64, n int)

// muladd4AVX sets c_r[j] += Σ_l a_r[l*acs] b[l*ldb+j] for the four rows r
// and j < n.
//
//go:noescape
func muladd4AVX(k, n int, a0, a1, a2, a3 *float64, acs int, b *float64, ldb int, c0, c1, c2, c3 *float64)

// muladd6AVX is muladd4AVX for six rows.
//
//go:noescape
func muladd6AVX(k, n int, a0, a1, a2, a3, a4, a5 *float64, acs int, b *float64, ldb int, c0, c1, c2, c3, c4, c5 *float64)

// muladd1AVX is muladd4AVX for one row.
//
//go:noescape
func muladd1AVX(k, n int, a *float64, acs int, b *float64, ldb int, c *float64)

// mulAdd1Vec is mulAddVec for one row: the n/4 vectors of four columns in
// as few passes of at most 15 as there can be, of nearly equal sizes
// (muladd1w, vec_amd64_wide.s), then the last n mod 4 columns.
func mulAdd1Vec(k, n int, a []float64, acs int, b []float64, ldb int, c []float64) {
	j := 0
	if nv := n / 4; nv > 0 {
		passes := (nv + 14) / 15
		for p := 0; p < passes; p++ {
			v := nv / passes
			if p < nv%passes {
				v++
			}
			muladd1w[v](k, &a[0], acs, &b[j], ldb, &c[j])
			j += 4 * v
		}
	}
	if j < n {
		muladd1AVX(k, n-j, &a[0], acs, &b[j], ldb, &c[j])
	}
}

// muladdT42AVX adds the dot products of the four rows a_r with the two
// rows b_0, b_1 (k elements each) to c_r[0] and c_r[coff] (MulAddT's lane
// order).
//
//go:noescape
func muladdT42AVX(k int, a0, a1, a2, a3, b0, b1, c0, c1, c2, c3 *float64, coff int)

func dotVec(x, y []float64) float64 { return dotAVX(&x[0], &y[0], len(x)) }

func axpyVec(alpha float64, x, y []float64) { axpyAVX(alpha, &x[0], &y[0], len(x)) }

// clamp4 returns the rows i, i+1, i+2, i+3 with those at or beyond m
// replaced by m−1: a kernel over four rows then computes the last row more
// than once, with the same result each time.
func clamp4(i, m int) (i0, i1, i2, i3 int) {
	return i, min(i+1, m-1), min(i+2, m-1), min(i+3, m-1)
}

// mulAddVec takes the rows of C six at a time (five with one repeated),
// then four (two or three with repeats), then one.
func mulAddVec(m, n, k int, a []float64, ars, acs int, b []float64, ldb int, c []float64, ldc int) {
	for i := 0; i < m; {
		switch r := m - i; {
		case r >= 5:
			i5 := min(i+5, m-1)
			muladd6AVX(k, n, &a[i*ars], &a[(i+1)*ars], &a[(i+2)*ars], &a[(i+3)*ars], &a[(i+4)*ars], &a[i5*ars], acs, &b[0], ldb,
				&c[i*ldc], &c[(i+1)*ldc], &c[(i+2)*ldc], &c[(i+3)*ldc], &c[(i+4)*ldc], &c[i5*ldc])
			i += min(r, 6)
		case r >= 2:
			i0, i1, i2, i3 := clamp4(i, m)
			muladd4AVX(k, n, &a[i0*ars], &a[i1*ars], &a[i2*ars], &a[i3*ars], acs, &b[0], ldb,
				&c[i0*ldc], &c[i1*ldc], &c[i2*ldc], &c[i3*ldc])
			i += min(r, 4)
		default:
			mulAdd1Vec(k, n, a[i*ars:], acs, b, ldb, c[i*ldc:])
			i++
		}
	}
}

func mulAddTVec(m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	for i := 0; i < m; i += 4 {
		i0, i1, i2, i3 := clamp4(i, m)
		a0, a1, a2, a3 := &a[i0*lda], &a[i1*lda], &a[i2*lda], &a[i3*lda]
		for j := 0; j < n; j += 2 {
			j1, coff := j+1, 1
			if j1 == n {
				j1, coff = j, 0
			}
			muladdT42AVX(k, a0, a1, a2, a3, &b[j*ldb], &b[j1*ldb],
				&c[i0*ldc+j], &c[i1*ldc+j], &c[i2*ldc+j], &c[i3*ldc+j], coff)
		}
	}
}

// sqNormsLowerAVX is SqNormsLower over cols columns.
//
//go:noescape
func sqNormsLowerAVX(dst *float64, cols int, l *float64, n int, x *float64, ldx int, mu, work *float64)

// centerWeightAVX sets y_j = x_j − μ and yr_j = r_j y_j for j < n.
//
//go:noescape
func centerWeightAVX(y, yr, x, r *float64, mu float64, n int)

func sqNormsLowerVec(dst, l []float64, n int, x []float64, ldx int, mu, work []float64) {
	sqNormsLowerAVX(&dst[0], len(dst), &l[0], n, &x[0], ldx, &mu[0], &work[0])
}

func centerWeightVec(y, yr, x, r []float64, mu float64) {
	if len(r) > 0 {
		centerWeightAVX(&y[0], &yr[0], &x[0], &r[0], mu, len(r))
	}
}

// expSubAVX sets dst_i = exp(x_i − y_i) for i < n (a multiple of 4) while
// each quad is in the range its vector path takes, and returns the
// number of elements done.
//
//go:noescape
func expSubAVX(dst, x, y *float64, n int) int

// logAVX sets dst_i = ln x_i for i < n (a multiple of 4) while each quad
// is normal, positive and finite, and returns the number of elements done.
//
//go:noescape
func logAVX(dst, x *float64, n int) int

func logVec(dst, x []float64) int {
	q, i := len(dst)&^3, 0
	for i < q {
		i += logAVX(&dst[i], &x[i], q-i)
		if i < q {
			// A quad with an element outside the vector path's range.
			for j := i; j < i+4; j++ {
				dst[j] = math.Log(x[j])
			}
			i += 4
		}
	}
	return q
}

// gatherProdSum4AVX is GatherProdSum4 for n groups of m offsets each; it
// returns 1 if an offset is outside [0, lim].
//
//go:noescape
func gatherProdSum4AVX(dst, tab, h *float64, off *int32, m, n, lim int) int

func gatherProdSum4Vec(dst, tab, h []float64, off []int32, m int) {
	if len(off) == 0 { // no factors; tab may be empty
		gatherProdSum4Go(dst, tab, h, off, m)
		return
	}
	if len(tab) < 4 || gatherProdSum4AVX(&dst[0], &tab[0], &h[0], &off[0], m, len(dst), len(tab)-4) != 0 {
		badGatherOffset(tab, off)
	}
}

func expSubVec(dst, x, y []float64) int {
	q, i := len(dst)&^3, 0
	for i < q {
		i += expSubAVX(&dst[i], &x[i], &y[i], q-i)
		if i < q {
			// A quad with an element outside the vector path's range.
			for j := i; j < i+4; j++ {
				dst[j] = math.Exp(x[j] - y[j])
			}
			i += 4
		}
	}
	return i
}

//go:noescape
func mulToAVX(dst, x, y *float64, n int)

//go:noescape
func scaleAVX(alpha float64, x *float64, n int)

//go:noescape
func addMulAVX(dst, x, y *float64, n int)

func mulToVec(dst, x, y []float64)        { mulToAVX(&dst[0], &x[0], &y[0], len(dst)) }
func scaleVec(alpha float64, x []float64) { scaleAVX(alpha, &x[0], len(x)) }
func addMulVec(dst, x, y []float64)       { addMulAVX(&dst[0], &x[0], &y[0], len(dst)) }
