package numeric

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// paths runs f with the portable kernels rounding twice ("go"), with them
// rounding once by math.FMA where the CPU has FMA ("go-fma"), and with the
// assembly where it runs here ("vec"), restoring the selection afterwards.
func paths(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	savedVec, savedFMA := useVec, fusedMA
	defer func() { useVec, fusedMA = savedVec, savedFMA }()
	useVec, fusedMA = false, false
	t.Run("go", f)
	if haveFMA {
		fusedMA = true
		t.Run("go-fma", f)
	}
	if haveVec {
		useVec = true
		t.Run("vec", f)
	}
}

// fusedNow reports whether the selected kernels round each multiply-add
// once: the assembly, math.FMA, or a compiler that fuses x*y + z itself
// (GOAMD64=v3, arm64).
func fusedNow() bool {
	if useVec || fusedMA {
		return true
	}
	x, y, z := fuseProbe[0], fuseProbe[1], fuseProbe[2]
	return ma(x, y, z) == math.FMA(x, y, z)
}

// fuseProbe holds x, y, z with x·y + z = −2⁻⁶⁰ fused and 0 rounded twice,
// in a variable so that the compiler cannot fold them.
var fuseProbe = []float64{1 + 0x1p-30, 1 - 0x1p-30, -1}

// refMA is the multiply-add of the documented order that the selected
// kernels must reproduce bit for bit.
func refMA() fmaFunc {
	if fusedNow() {
		return math.FMA
	}
	return plainMA
}

// randSlice returns n random values in [−1, 1) at an offset of off
// elements into a larger slice (so that it is not 32-byte aligned), with
// three NaNs after them in its capacity (a kernel that reads past the end
// returns a NaN).
func randSlice(rnd *rand.Rand, n, off int) []float64 {
	s := make([]float64, off+n+3)
	for i := range s {
		s[i] = math.NaN()
	}
	for i := off; i < off+n; i++ {
		s[i] = 2*rnd.Float64() - 1
	}
	return s[off : off+n]
}

// sentinel fills the elements of s that lie outside the rows×cols region
// with stride ld with NaN, so that a kernel writing there is caught (and a
// kernel reading there, through a NaN in the result).
func sentinel(s []float64, rows, cols, ld int) {
	for i := range s {
		if i/ld >= rows || i%ld >= cols {
			s[i] = math.NaN()
		}
	}
}

// roundoffTol is the bound γ Σ|terms| (γ = 2(k+2)ε) on the difference
// between two sums of the same k+1 terms taken in different orders, each
// with fused or unfused multiply-adds.
func roundoffTol(k int, absSum float64) float64 {
	return 2 * float64(k+2) * 0x1p-52 * absSum
}

// Sizes of the tests: the empty and one-element cases, every length up to
// past two of the widest blocks, and a few long ones.
var vecSizes = func() []int {
	s := []int{}
	for n := 0; n <= 70; n++ {
		s = append(s, n)
	}
	return append(s, 127, 128, 129, 255, 513)
}()

func TestDot(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(1, 1))
		for _, n := range vecSizes {
			for off := 0; off < 4; off++ {
				x, y := randSlice(rnd, n, off), randSlice(rnd, n, 3-off)
				var want, abs float64
				for i := range x {
					want += x[i] * y[i]
					abs += math.Abs(x[i] * y[i])
				}
				got := Dot(x, y)
				if math.Abs(got-want) > roundoffTol(n, abs) {
					t.Errorf("n=%d off=%d: Dot = %v, the plain loop %v", n, off, got, want)
				}
				if n > 0 {
					if ref := dotRef(x, y, refMA()); got != ref {
						t.Errorf("n=%d off=%d: Dot = %v, its documented order %v", n, off, got, ref)
					}
				}
			}
		}
	})
}

// fmaFunc is a multiply-add, fused (math.FMA) or not (plainMA).
type fmaFunc func(x, y, z float64) float64

func plainMA(x, y, z float64) float64 { return float64(x*y) + z }

// dotRef is Dot in its documented order with the multiply-add ma.
func dotRef(x, y []float64, ma fmaFunc) float64 {
	var p [16]float64
	n, i := len(x), 0
	for ; i+16 <= n; i += 16 {
		for l := range 16 {
			p[l] = ma(x[i+l], y[i+l], p[l])
		}
	}
	for ; i+4 <= n; i += 4 {
		for l := range 4 {
			p[l] = ma(x[i+l], y[i+l], p[l])
		}
	}
	var v [4]float64
	for l := range 4 {
		v[l] = (p[l] + p[4+l]) + (p[8+l] + p[12+l])
	}
	s := (v[0] + v[2]) + (v[1] + v[3])
	for ; i < n; i++ {
		s = ma(x[i], y[i], s)
	}
	return s
}

func TestAxpy(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(3, 1))
		for _, n := range vecSizes {
			for off := 0; off < 4; off++ {
				x, y := randSlice(rnd, n, off), randSlice(rnd, n, 3-off)
				full := y[:n+3]
				alpha := 2*rnd.Float64() - 1
				want := make([]float64, n)
				for i := range want {
					want[i] = refMA()(alpha, x[i], y[i])
				}
				Axpy(alpha, x, y)
				for i := range y {
					if y[i] != want[i] {
						t.Fatalf("n=%d off=%d: y[%d] = %v, want %v", n, off, i, y[i], want[i])
					}
				}
				for _, v := range full[n:] {
					if !math.IsNaN(v) {
						t.Fatalf("n=%d off=%d: wrote past the end", n, off)
					}
				}
			}
		}
	})
}

func TestLengthMismatchPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"Dot":      func() { Dot(make([]float64, 3), make([]float64, 4)) },
		"Axpy":     func() { Axpy(1, make([]float64, 3), make([]float64, 2)) },
		"MulAdd":   func() { MulAdd(2, 3, 4, make([]float64, 7), 4, 1, make([]float64, 12), 3, make([]float64, 6), 3) },
		"MulAddT":  func() { MulAddT(2, 3, 4, make([]float64, 8), 4, make([]float64, 11), 4, make([]float64, 6), 3) },
		"ExpSubTo": func() { ExpSubTo(make([]float64, 3), make([]float64, 3), make([]float64, 2)) },
		"LogTo":    func() { LogTo(make([]float64, 3), make([]float64, 2)) },
		"ldc<n":    func() { MulAdd(1, 3, 1, make([]float64, 1), 1, 1, make([]float64, 3), 3, make([]float64, 3), 2) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// mulAddRef is MulAdd in its documented order with the multiply-add ma.
func mulAddRef(m, n, k int, a []float64, ars, acs int, b []float64, ldb int, c []float64, ldc int, ma fmaFunc) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			s := c[i*ldc+j]
			for l := 0; l < k; l++ {
				s = ma(a[i*ars+l*acs], b[l*ldb+j], s)
			}
			c[i*ldc+j] = s
		}
	}
}

// mulAddTRef is MulAddT in its documented order with the multiply-add ma.
func mulAddTRef(m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int, ma fmaFunc) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			l0, l1, l2, l3 := c[i*ldc+j], 0.0, 0.0, 0.0
			l := 0
			for ; l+4 <= k; l += 4 {
				l0 = ma(a[i*lda+l], b[j*ldb+l], l0)
				l1 = ma(a[i*lda+l+1], b[j*ldb+l+1], l1)
				l2 = ma(a[i*lda+l+2], b[j*ldb+l+2], l2)
				l3 = ma(a[i*lda+l+3], b[j*ldb+l+3], l3)
			}
			s := (l0 + l2) + (l1 + l3)
			for ; l < k; l++ {
				s = ma(a[i*lda+l], b[j*ldb+l], s)
			}
			c[i*ldc+j] = s
		}
	}
}

// checkProduct compares the m×n block of got (stride ldc) with the plain
// loop's want at the round-off bound of k+1 terms whose absolute values
// sum to abs[i*n+j], and with exact (the documented order with refMA) bit
// for bit; elsewhere got must keep its sentinels.
func checkProduct(t *testing.T, name string, m, n, k int, got, want, exact, abs []float64, ldc int) {
	t.Helper()
	for idx, v := range got {
		i, j := idx/ldc, idx%ldc
		if i >= m || j >= n {
			if !math.IsNaN(v) {
				t.Fatalf("%s: wrote %v outside the block at (%d, %d)", name, v, i, j)
			}
			continue
		}
		if w := want[idx]; math.Abs(v-w) > roundoffTol(k, abs[i*n+j]) || math.IsNaN(v) {
			t.Fatalf("%s: C[%d,%d] = %v, the plain loop %v", name, i, j, v, w)
		}
		if v != exact[idx] {
			t.Fatalf("%s: C[%d,%d] = %v, the documented order %v", name, i, j, v, exact[idx])
		}
	}
}

func TestMulAdd(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(4, 1))
		for trial := 0; trial < 600; trial++ {
			m, n, k := rnd.IntN(10), rnd.IntN(72), rnd.IntN(13)
			if trial%50 == 0 {
				n = 100 + rnd.IntN(40)
			}
			if trial < 4 {
				m, n, k = trial%2, trial/2, 1 // empty and 1×1 shapes
			}
			trans := rnd.IntN(2) == 1
			ars, acs := k+rnd.IntN(3), 1
			lenA := max(0, (m-1)*ars+k)
			if trans {
				ars, acs = 1, m+rnd.IntN(3)
				lenA = max(0, (k-1)*acs+m)
			}
			ldb, ldc := n+rnd.IntN(3), n+rnd.IntN(3)
			a := randSlice(rnd, lenA, rnd.IntN(4))
			b := randSlice(rnd, max(0, k*ldb), rnd.IntN(4))
			c := randSlice(rnd, max(0, m*ldc-rnd.IntN(ldc-n+1)), rnd.IntN(4))
			sentinel(c, m, n, ldc)
			if trans {
				sentinel(a, k, m, acs)
			} else {
				sentinel(a, m, k, ars)
			}
			sentinel(b, k, n, ldb)
			want := append([]float64(nil), c...)
			exact := append([]float64(nil), c...)
			mulAddRef(m, n, k, a, ars, acs, b, ldb, want, ldc, plainMA)
			mulAddRef(m, n, k, a, ars, acs, b, ldb, exact, ldc, refMA())
			abs := make([]float64, m*n)
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					s := math.Abs(c[i*ldc+j])
					for l := 0; l < k; l++ {
						s += math.Abs(a[i*ars+l*acs] * b[l*ldb+j])
					}
					abs[i*n+j] = s
				}
			}
			MulAdd(m, n, k, a, ars, acs, b, ldb, c, ldc)
			name := fmt.Sprintf("m=%d n=%d k=%d ars=%d acs=%d ldb=%d ldc=%d", m, n, k, ars, acs, ldb, ldc)
			checkProduct(t, name, m, n, k, c, want, exact, abs, ldc)
		}
	})
}

func TestMulAddT(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(5, 1))
		for trial := 0; trial < 600; trial++ {
			m, n, k := rnd.IntN(10), rnd.IntN(8), rnd.IntN(72)
			if trial%50 == 0 {
				k = 200 + rnd.IntN(400)
			}
			if trial < 4 {
				m, n, k = 1, trial%2, trial/2
			}
			lda, ldb, ldc := k+rnd.IntN(3), k+rnd.IntN(3), n+rnd.IntN(3)
			a := randSlice(rnd, max(0, m*lda), rnd.IntN(4))
			b := randSlice(rnd, max(0, n*ldb), rnd.IntN(4))
			c := randSlice(rnd, max(0, m*ldc-rnd.IntN(ldc-n+1)), rnd.IntN(4))
			sentinel(c, m, n, ldc)
			sentinel(a, m, k, lda)
			sentinel(b, n, k, ldb)
			want := append([]float64(nil), c...)
			exact := append([]float64(nil), c...)
			mulAddTRef(m, n, k, a, lda, b, ldb, want, ldc, plainMA)
			mulAddTRef(m, n, k, a, lda, b, ldb, exact, ldc, refMA())
			abs := make([]float64, m*n)
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					s := math.Abs(c[i*ldc+j])
					for l := 0; l < k; l++ {
						s += math.Abs(a[i*lda+l] * b[j*ldb+l])
					}
					abs[i*n+j] = s
				}
			}
			MulAddT(m, n, k, a, lda, b, ldb, c, ldc)
			name := fmt.Sprintf("m=%d n=%d k=%d lda=%d ldb=%d ldc=%d", m, n, k, lda, ldb, ldc)
			checkProduct(t, name, m, n, k, c, want, exact, abs, ldc)
		}
	})
}

// sqNormsRef is SqNormsLower in its documented order with the
// multiply-add ma.
func sqNormsRef(dst, l []float64, n int, x []float64, ldx int, mu []float64, ma fmaFunc) {
	for j := range dst {
		var q float64
		for a := 0; a < n; a++ {
			var z float64
			for b := 0; b <= a; b++ {
				z = ma(l[a*n+b], x[b*ldx+j]-mu[b], z)
			}
			q = ma(z, z, q)
		}
		dst[j] = q
	}
}

func TestSqNormsLower(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(6, 1))
		for trial := 0; trial < 400; trial++ {
			n, cols := rnd.IntN(13), rnd.IntN(100)
			if trial%40 == 0 {
				cols = 200 + rnd.IntN(300)
			}
			ldx := cols + rnd.IntN(3)
			l := randSlice(rnd, n*n, rnd.IntN(4))
			for a := 0; a < n; a++ {
				for b := a + 1; b < n; b++ {
					l[a*n+b] = math.NaN() // the strict upper triangle is not read
				}
			}
			x := randSlice(rnd, max(0, n*ldx), rnd.IntN(4))
			sentinel(x, n, cols, ldx)
			mu := randSlice(rnd, n, rnd.IntN(4))
			work := randSlice(rnd, 32*(n+1), 0)
			dst := randSlice(rnd, cols, rnd.IntN(4))
			SqNormsLower(dst, l, n, x, ldx, mu, work)
			exact := make([]float64, cols)
			sqNormsRef(exact, l, n, x, ldx, mu, refMA())
			for j, v := range dst {
				var want, abs float64
				for a := 0; a < n; a++ {
					var z, za float64
					for b := 0; b <= a; b++ {
						z += l[a*n+b] * (x[b*ldx+j] - mu[b])
						za += math.Abs(l[a*n+b] * (x[b*ldx+j] - mu[b]))
					}
					want += z * z
					abs += za * za
				}
				if math.Abs(v-want) > 4*roundoffTol(n, abs) || v != exact[j] {
					t.Fatalf("n=%d cols=%d ldx=%d: dst[%d] = %v, the plain loop %v, the documented order %v", n, cols, ldx, j, v, want, exact[j])
				}
			}
		}
	})
}

func TestScatterLower(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(7, 1))
		for trial := 0; trial < 400; trial++ {
			n, cols := rnd.IntN(12), rnd.IntN(90)
			if trial%40 == 0 {
				cols = 200 + rnd.IntN(300)
			}
			n1, ldx := n+1, cols+rnd.IntN(3)
			x := randSlice(rnd, max(0, n*ldx), rnd.IntN(4))
			sentinel(x, n, cols, ldx)
			mu := randSlice(rnd, n, rnd.IntN(4))
			r := randSlice(rnd, cols, rnd.IntN(4))
			for j := range r {
				r[j] = math.Abs(r[j])
				if rnd.IntN(5) == 0 {
					r[j] = 0
				}
			}
			s := randSlice(rnd, n1*n1, rnd.IntN(4))
			before := append([]float64(nil), s...)
			work := randSlice(rnd, 2*n1*cols+16, 0)
			ScatterLower(s, n, x, ldx, mu, r, work)
			// The augmented centred rows and their weighted copies.
			y, yr := make([]float64, n1*cols), make([]float64, n1*cols)
			for j := 0; j < cols; j++ {
				for a := 0; a < n; a++ {
					y[a*cols+j] = x[a*ldx+j] - mu[a]
					yr[a*cols+j] = r[j] * y[a*cols+j]
				}
				y[n*cols+j], yr[n*cols+j] = 1, r[j]
			}
			for a := 0; a < n1; a++ {
				for b := 0; b < n1; b++ {
					got := s[a*n1+b]
					if b > a {
						if got != before[a*n1+b] {
							t.Fatalf("n=%d cols=%d: wrote the upper triangle at (%d, %d)", n, cols, a, b)
						}
						continue
					}
					exact := []float64{before[a*n1+b]}
					mulAddTRef(1, 1, cols, yr[a*cols:], cols, y[b*cols:], cols, exact, 1, refMA())
					want, abs := before[a*n1+b], math.Abs(before[a*n1+b])
					for j := 0; j < cols; j++ {
						want += yr[a*cols+j] * y[b*cols+j]
						abs += math.Abs(yr[a*cols+j] * y[b*cols+j])
					}
					if math.Abs(got-want) > roundoffTol(cols, abs) || got != exact[0] {
						t.Fatalf("n=%d cols=%d: S[%d,%d] = %v, the plain loop %v, the documented order %v", n, cols, a, b, got, want, exact[0])
					}
				}
			}
		}
	})
}

func TestExpSubTo(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(8, 1))
		special := []float64{0, math.Copysign(0, -1), 1, -1, 1e-300, -1e-300, math.NaN(), math.Inf(1), math.Inf(-1),
			-708, math.Nextafter(-708, -1000), -708.4, -708.5, -709, -745.1, -745.13, -745.2, -746, math.Nextafter(-746, 0),
			math.Nextafter(-746, -1000), -800, -1e300, 709, math.Nextafter(709, 0), math.Nextafter(709, 1000), 709.78, 709.79, 710, 1e300}
		for _, n := range vecSizes {
			x, y := randSlice(rnd, n, rnd.IntN(4)), randSlice(rnd, n, rnd.IntN(4))
			for i := range x {
				switch rnd.IntN(4) {
				case 0:
					x[i] = special[rnd.IntN(len(special))]
					y[i] = 0
				case 1:
					x[i] *= 800
				case 2:
					x[i] = -745 * rnd.Float64()
				}
			}
			dst := randSlice(rnd, n, 0)
			ExpSubTo(dst, x, y)
			for i := range dst {
				if want := math.Exp(x[i] - y[i]); math.Float64bits(dst[i]) != math.Float64bits(want) && !(math.IsNaN(want) && math.IsNaN(dst[i])) {
					t.Fatalf("n=%d: exp(%v − %v) = %v, math.Exp %v", n, x[i], y[i], dst[i], want)
				}
			}
			// In place.
			want := make([]float64, n)
			for i := range want {
				want[i] = math.Exp(x[i] - y[i])
			}
			ExpSubTo(x, x, y)
			for i := range x {
				if math.Float64bits(x[i]) != math.Float64bits(want[i]) && !(math.IsNaN(want[i]) && math.IsNaN(x[i])) {
					t.Fatalf("n=%d in place: element %d = %v, math.Exp %v", n, i, x[i], want[i])
				}
			}
		}
		// Every float64 exponent in the vector path's range, at a few
		// mantissas.
		x := make([]float64, 0, 1<<16)
		for v := -746.5; v < 710; v += 1.0 / 64 {
			x = append(x, v, v+rnd.Float64()/64)
		}
		dst, zero := make([]float64, len(x)), make([]float64, len(x))
		ExpSubTo(dst, x, zero)
		for i, v := range x {
			if want := math.Exp(v); math.Float64bits(dst[i]) != math.Float64bits(want) {
				t.Fatalf("exp(%v) = %v, math.Exp %v", v, dst[i], want)
			}
		}
	})
}

func TestLogTo(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(8, 2))
		special := []float64{0, math.Copysign(0, -1), 1, -1, 2, 0.5, math.Sqrt2 / 2, math.Nextafter(math.Sqrt2/2, 0),
			math.Nextafter(math.Sqrt2/2, 1), math.Sqrt2, 1e-300, 5e-324, 2.2250738585072014e-308,
			math.Nextafter(2.2250738585072014e-308, 0), math.MaxFloat64, math.NaN(), math.Inf(1), math.Inf(-1), -1e-300}
		for _, n := range vecSizes {
			x := randSlice(rnd, n, rnd.IntN(4))
			for i := range x {
				switch rnd.IntN(5) {
				case 0:
					x[i] = special[rnd.IntN(len(special))]
				case 1:
					x[i] = math.Exp(1400 * (rnd.Float64() - 0.5))
				case 2:
					x[i] = 1 + 1e-3*(rnd.Float64()-0.5)
				default:
					x[i] = math.Abs(x[i])
				}
			}
			dst := randSlice(rnd, n, 0)
			LogTo(dst, x)
			for i := range dst {
				if want := math.Log(x[i]); math.Float64bits(dst[i]) != math.Float64bits(want) && !(math.IsNaN(want) && math.IsNaN(dst[i])) {
					t.Fatalf("n=%d: ln %v = %v, math.Log %v", n, x[i], dst[i], want)
				}
			}
			want := make([]float64, n)
			for i := range want {
				want[i] = math.Log(x[i])
			}
			LogTo(x, x)
			for i := range x {
				if math.Float64bits(x[i]) != math.Float64bits(want[i]) && !(math.IsNaN(want[i]) && math.IsNaN(x[i])) {
					t.Fatalf("n=%d in place: element %d = %v, math.Log %v", n, i, x[i], want[i])
				}
			}
		}
		// Every binary exponent of the normal range at a few mantissas,
		// the mantissas at either side of √2/2, and 2^20 random mantissas
		// near 1, where the result is smallest.
		x := make([]float64, 0, 1<<21)
		for e := -1022; e <= 1023; e++ {
			for range 64 {
				x = append(x, math.Ldexp(1+rnd.Float64(), e))
			}
			h := math.Ldexp(math.Sqrt2/2, e)
			x = append(x, h, math.Nextafter(h, 0), math.Nextafter(h, math.Inf(1)))
		}
		for range 1 << 20 {
			x = append(x, 1+(rnd.Float64()-0.5)/8)
		}
		dst := make([]float64, len(x))
		LogTo(dst, x)
		for i, v := range x {
			if want := math.Log(v); math.Float64bits(dst[i]) != math.Float64bits(want) {
				t.Fatalf("ln %v = %v, math.Log %v", v, dst[i], want)
			}
		}
	})
}

// TestGatherProdSum4 checks GatherProdSum4 against the products and sums
// written out, bit for bit, on every path, for 0 … 6 factors per group,
// group counts of vecSizes, tables with tiny, huge and zero entries, and
// checks that bad shapes and offsets panic.
func TestGatherProdSum4(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(8, 3))
		for m := 0; m <= 6; m++ {
			for _, n := range vecSizes {
				tab := randSlice(rnd, 40+rnd.IntN(200), 0)
				for i := range tab {
					switch rnd.IntN(8) {
					case 0:
						tab[i] = math.Ldexp(tab[i], -1000+rnd.IntN(2000))
					case 1:
						tab[i] = 0
					}
				}
				h := randSlice(rnd, 4, 0)
				off := make([]int32, m*n)
				for i := range off {
					off[i] = int32(rnd.IntN(len(tab) - 3))
				}
				dst := randSlice(rnd, n, 0)
				GatherProdSum4(dst, tab, h, off, m)
				for q := range dst {
					var z [4]float64
					copy(z[:], h)
					for _, o := range off[q*m : (q+1)*m] {
						for c := range z {
							z[c] = z[c] * tab[int(o)+c]
						}
					}
					want := ((z[0] + z[1]) + z[2]) + z[3]
					if math.Float64bits(dst[q]) != math.Float64bits(want) && !(math.IsNaN(want) && math.IsNaN(dst[q])) {
						t.Fatalf("m=%d n=%d group %d: %v, want %v", m, n, q, dst[q], want)
					}
				}
			}
		}
	})
	paths(t, func(t *testing.T) {
		dst := []float64{7, 7}
		GatherProdSum4(dst, nil, []float64{1, 2, 3, 4}, nil, 0)
		if dst[0] != 10 || dst[1] != 10 {
			t.Errorf("no factors and no table: %v, want [10 10]", dst)
		}
	})
	paths(t, func(t *testing.T) {
		tab := make([]float64, 8)
		for name, fn := range map[string]func(){
			"h":           func() { GatherProdSum4(make([]float64, 1), tab, make([]float64, 3), []int32{0}, 1) },
			"offsets":     func() { GatherProdSum4(make([]float64, 2), tab, make([]float64, 4), []int32{0}, 1) },
			"negative":    func() { GatherProdSum4(make([]float64, 1), tab, make([]float64, 4), []int32{-1}, 1) },
			"past end":    func() { GatherProdSum4(make([]float64, 1), tab, make([]float64, 4), []int32{5}, 1) },
			"later group": func() { GatherProdSum4(make([]float64, 2), tab, make([]float64, 4), []int32{0, 4, 3, 9}, 2) },
			"short table": func() { GatherProdSum4(make([]float64, 1), tab[:3], make([]float64, 4), []int32{0}, 1) },
		} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s: no panic", name)
					}
				}()
				fn()
			}()
		}
	})
}

func TestElementwise(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(9, 1))
		for _, n := range vecSizes {
			x, y, d := randSlice(rnd, n, rnd.IntN(4)), randSlice(rnd, n, rnd.IntN(4)), randSlice(rnd, n, rnd.IntN(4))
			alpha := 2*rnd.Float64() - 1
			prod, scaled, acc := make([]float64, n), make([]float64, n), make([]float64, n)
			for i := range x {
				prod[i] = x[i] * y[i]
				scaled[i] = alpha * x[i]
				acc[i] = refMA()(x[i], y[i], d[i])
			}
			got := randSlice(rnd, n, 1)
			MulTo(got, x, y)
			same(t, "MulTo", got, prod)
			copy(got, x)
			MulTo(got, got, y) // in place
			same(t, "MulTo in place", got, prod)
			copy(got, x)
			Scale(alpha, got)
			same(t, "Scale", got, scaled)
			AddMul(d, x, y)
			same(t, "AddMul", d, acc)
			for _, s := range [][]float64{x, y, d, got} {
				for _, v := range s[n:cap(s)] {
					if !math.IsNaN(v) {
						t.Fatalf("n=%d: wrote past the end", n)
					}
				}
			}
		}
	})
}

// same fails unless got and want are equal bit for bit.
func same(t *testing.T, name string, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("%s n=%d: element %d = %v, want %v", name, len(want), i, got[i], want[i])
		}
	}
}

// TestVecDetection checks that the assembly is selected exactly when the
// CPU has AVX2 and FMA (as this build sees it).
func TestVecDetection(t *testing.T) {
	if Vectorised() != haveVec {
		t.Fatalf("Vectorised() = %v, haveVec = %v", Vectorised(), haveVec)
	}
	t.Logf("vector kernels: %v", haveVec)
}

// TestFlushSubnormals checks that exactly the subnormal elements become
// zeros of their sign, and that zeros, normal numbers, infinities and NaN
// are left alone.
func TestFlushSubnormals(t *testing.T) {
	sub := math.SmallestNonzeroFloat64
	x := []float64{0, math.Copysign(0, -1), MinNormal, -MinNormal, math.Nextafter(MinNormal, 0), -sub, sub, 1, math.Inf(-1), math.NaN(), 1e-300}
	want := []float64{0, math.Copysign(0, -1), MinNormal, -MinNormal, 0, math.Copysign(0, -1), 0, 1, math.Inf(-1), math.NaN(), 1e-300}
	if n := FlushSubnormals(x); n != 3 {
		t.Errorf("FlushSubnormals set %d elements, want 3", n)
	}
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(want[i]) {
			t.Errorf("element %d: got %v (bits %x), want %v (bits %x)", i, x[i], math.Float64bits(x[i]), want[i], math.Float64bits(want[i]))
		}
	}
}
