package numeric

import "math"

// The portable kernels: Go loops in the order of summation that vec.go
// documents, used when the assembly is not (purego builds, other
// architectures, CPUs without AVX2). The arguments are checked by the
// exported functions.
//
// Where the CPU fuses multiply-adds (haveFMA) each one is math.FMA, one
// rounding as in the assembly, so that the two paths give the same bits;
// elsewhere it is x*y + z, rounded twice unless the compiler fuses it,
// because there math.FMA is a software emulation many times slower.

// fusedMA selects math.FMA in the portable kernels; it is set from the
// CPU's features and changed only by this package's tests.
var fusedMA = haveFMA

// ma returns x·y + z, rounded once when fusedMA.
func ma(x, y, z float64) float64 {
	if fusedMA {
		return math.FMA(x, y, z)
	}
	return x*y + z
}

func dotGo(x, y []float64) float64 {
	n := len(x)
	y = y[:n]
	var p [16]float64
	i := 0
	for ; i+16 <= n; i += 16 {
		x, y := x[i:i+16], y[i:i+16]
		for l := range p {
			p[l] = ma(x[l], y[l], p[l])
		}
	}
	for ; i+4 <= n; i += 4 {
		x, y := x[i:i+4], y[i:i+4]
		p[0] = ma(x[0], y[0], p[0])
		p[1] = ma(x[1], y[1], p[1])
		p[2] = ma(x[2], y[2], p[2])
		p[3] = ma(x[3], y[3], p[3])
	}
	v0 := (p[0] + p[4]) + (p[8] + p[12])
	v1 := (p[1] + p[5]) + (p[9] + p[13])
	v2 := (p[2] + p[6]) + (p[10] + p[14])
	v3 := (p[3] + p[7]) + (p[11] + p[15])
	s := (v0 + v2) + (v1 + v3)
	for ; i < n; i++ {
		s = ma(x[i], y[i], s)
	}
	return s
}

func axpyGo(alpha float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] = ma(alpha, v, y[i])
	}
}

func mulAddGo(m, n, k int, a []float64, ars, acs int, b []float64, ldb int, c []float64, ldc int) {
	for i := 0; i < m; i++ {
		ci := c[i*ldc : i*ldc+n]
		for l := 0; l < k; l++ {
			ail := a[i*ars+l*acs]
			bl := b[l*ldb : l*ldb+len(ci)]
			for j, v := range bl {
				ci[j] = ma(ail, v, ci[j])
			}
		}
	}
}

func mulAddTGo(m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	k4 := k &^ 3
	for i := 0; i < m; i++ {
		ai := a[i*lda : i*lda+k]
		for j := 0; j < n; j++ {
			bj := b[j*ldb : j*ldb+len(ai)]
			l0, l1, l2, l3 := c[i*ldc+j], 0.0, 0.0, 0.0
			for l := 0; l < k4; l += 4 {
				l0 = ma(ai[l], bj[l], l0)
				l1 = ma(ai[l+1], bj[l+1], l1)
				l2 = ma(ai[l+2], bj[l+2], l2)
				l3 = ma(ai[l+3], bj[l+3], l3)
			}
			s := (l0 + l2) + (l1 + l3)
			for l := k4; l < k; l++ {
				s = ma(ai[l], bj[l], s)
			}
			c[i*ldc+j] = s
		}
	}
}

// sqNormsLowerGo is SqNormsLower one point at a time, with y = x_j − μ in
// work[:n].
func sqNormsLowerGo(dst, l []float64, n int, x []float64, ldx int, mu, work []float64) {
	y := work[:n]
	for j := range dst {
		for b := range y {
			y[b] = x[b*ldx+j] - mu[b]
		}
		var q float64
		for a := 0; a < n; a++ {
			la := l[a*n : a*n+a+1]
			var z float64
			for b, v := range la {
				z = ma(v, y[b], z)
			}
			q = ma(z, z, q)
		}
		dst[j] = q
	}
}

// centerWeightGo sets y = x − μ and yr = r ∘ y over len(r) elements.
func centerWeightGo(y, yr, x, r []float64, mu float64) {
	y, yr, x = y[:len(r)], yr[:len(r)], x[:len(r)]
	for j, w := range r {
		v := x[j] - mu
		y[j] = v
		yr[j] = w * v
	}
}

func gatherProdSum4Go(dst, tab, h []float64, off []int32, m int) {
	h = h[:4]
	for q := range dst {
		z0, z1, z2, z3 := h[0], h[1], h[2], h[3]
		for _, o := range off[q*m : (q+1)*m] {
			if o < 0 || int(o) > len(tab)-4 {
				badGatherOffset(tab, off)
			}
			t := tab[o : o+4 : o+4]
			z0 *= t[0]
			z1 *= t[1]
			z2 *= t[2]
			z3 *= t[3]
		}
		dst[q] = z0 + z1 + z2 + z3
	}
}

func mulToGo(dst, x, y []float64) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] * y[i]
	}
}

func scaleGo(alpha float64, x []float64) {
	for i := range x {
		x[i] *= alpha
	}
}

func addMulGo(dst, x, y []float64) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = ma(x[i], y[i], dst[i])
	}
}
