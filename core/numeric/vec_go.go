package numeric

// The portable kernels: plain Go loops in the order of summation that
// vec.go documents, used when the assembly is not (purego builds, other
// architectures, CPUs without AVX2 and FMA). The arguments are checked by
// the exported functions.

func dotGo(x, y []float64) float64 {
	n := len(x)
	y = y[:n]
	var p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15 float64
	i := 0
	for ; i+16 <= n; i += 16 {
		x, y := x[i:i+16], y[i:i+16]
		p0 += x[0] * y[0]
		p1 += x[1] * y[1]
		p2 += x[2] * y[2]
		p3 += x[3] * y[3]
		p4 += x[4] * y[4]
		p5 += x[5] * y[5]
		p6 += x[6] * y[6]
		p7 += x[7] * y[7]
		p8 += x[8] * y[8]
		p9 += x[9] * y[9]
		p10 += x[10] * y[10]
		p11 += x[11] * y[11]
		p12 += x[12] * y[12]
		p13 += x[13] * y[13]
		p14 += x[14] * y[14]
		p15 += x[15] * y[15]
	}
	for ; i+4 <= n; i += 4 {
		x, y := x[i:i+4], y[i:i+4]
		p0 += x[0] * y[0]
		p1 += x[1] * y[1]
		p2 += x[2] * y[2]
		p3 += x[3] * y[3]
	}
	v0 := (p0 + p4) + (p8 + p12)
	v1 := (p1 + p5) + (p9 + p13)
	v2 := (p2 + p6) + (p10 + p14)
	v3 := (p3 + p7) + (p11 + p15)
	s := (v0 + v2) + (v1 + v3)
	for ; i < n; i++ {
		s += x[i] * y[i]
	}
	return s
}

func axpyGo(alpha float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

func mulAddGo(m, n, k int, a []float64, ars, acs int, b []float64, ldb int, c []float64, ldc int) {
	for i := 0; i < m; i++ {
		ci := c[i*ldc : i*ldc+n]
		for l := 0; l < k; l++ {
			ail := a[i*ars+l*acs]
			bl := b[l*ldb : l*ldb+len(ci)]
			for j, v := range bl {
				ci[j] += ail * v
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
				l0 += ai[l] * bj[l]
				l1 += ai[l+1] * bj[l+1]
				l2 += ai[l+2] * bj[l+2]
				l3 += ai[l+3] * bj[l+3]
			}
			s := (l0 + l2) + (l1 + l3)
			for l := k4; l < k; l++ {
				s += ai[l] * bj[l]
			}
			c[i*ldc+j] = s
		}
	}
}
