package dist

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestWishartMeanLogDetChol: E[ln|Λ|] from the Cholesky factor of S⁻¹ is
// Wishart.MeanLogDet.
func TestWishartMeanLogDetChol(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 11))
	for it := 0; it < 30; it++ {
		d := 1 + rnd.IntN(6)
		s := randSPD(rnd, d, 0.3)
		nu := float64(d-1) + logUniform(rnd, 0.5, 50)
		got, want := WishartMeanLogDetChol(nu, cholOfInverse(t, s), d), mustWishart(nu, s).MeanLogDet()
		if !(math.Abs(got-want) <= 1e-10*(1+math.Abs(want))) {
			t.Errorf("d=%d: WishartMeanLogDetChol = %.15g, MeanLogDet %.15g", d, got, want)
		}
	}
}

// TestNormalWishartUpdate: the update from statistics about a shift c
// equals PRML (10.60)–(10.63) computed directly from the weighted points
// (x̄ and S about x̄, no shift), and linv·l = I; with N = 0 it is the
// prior (x̄ taken as m₀).
func TestNormalWishartUpdate(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 9))
	for it := 0; it < 40; it++ {
		d, n := 1+rnd.IntN(5), 1+rnd.IntN(30)
		if it%10 == 0 {
			n = 0
		}
		w0inv := randSPD(rnd, d, 0.5)
		b0, nu0 := logUniform(rnd, 0.01, 10), float64(d-1)+logUniform(rnd, 0.5, 10)
		m0, c := randVec(rnd, d, 1), randVec(rnd, d, 1)
		x := make([]float64, n*d)
		r := make([]float64, n)
		for i := range x {
			x[i] = 3 * rnd.NormFloat64()
		}
		var nk float64
		for i := range r {
			r[i] = rnd.Float64()
			nk += r[i]
		}
		// The statistics about c, as a model's scatter holds them.
		s1 := make([]float64, d)
		winv := make([]float64, d*d)
		for a := 0; a < d; a++ {
			for b := 0; b <= a; b++ {
				winv[a*d+b] = w0inv.At(a, b)
			}
		}
		for i := 0; i < n; i++ {
			for a := 0; a < d; a++ {
				s1[a] += r[i] * (x[i*d+a] - c[a])
				for b := 0; b <= a; b++ {
					winv[a*d+b] += r[i] * (x[i*d+a] - c[a]) * (x[i*d+b] - c[b])
				}
			}
		}
		mean := append([]float64(nil), c...)
		l, linv := make([]float64, d*d), make([]float64, d*d)
		beta, nu, ok := NormalWishartUpdate(d, NormalWishartChol{Beta: b0, Nu: nu0, Mean: m0}, nk, s1, mean, winv, l, linv, make([]float64, d))
		if !ok {
			t.Fatalf("d=%d n=%d: not positive definite", d, n)
		}
		// Direct: x̄, S about x̄.
		xbar := append([]float64(nil), m0...)
		if nk > 0 {
			clear(xbar)
			for i := 0; i < n; i++ {
				for a := 0; a < d; a++ {
					xbar[a] += r[i] * x[i*d+a] / nk
				}
			}
		}
		bk := b0 + nk
		for a := 0; a < d; a++ {
			wantM := (b0*m0[a] + nk*xbar[a]) / bk
			if math.Abs(mean[a]-wantM) > 1e-10*(1+math.Abs(wantM)) {
				t.Errorf("d=%d n=%d: m[%d] = %g, want %g", d, n, a, mean[a], wantM)
			}
			for b := 0; b < d; b++ {
				want := w0inv.At(a, b) + b0*nk/bk*(xbar[a]-m0[a])*(xbar[b]-m0[b])
				for i := 0; i < n; i++ {
					want += r[i] * (x[i*d+a] - xbar[a]) * (x[i*d+b] - xbar[b])
				}
				if math.Abs(winv[a*d+b]-want) > 1e-9*(1+math.Abs(want)) {
					t.Errorf("d=%d n=%d: W⁻¹[%d,%d] = %g, want %g", d, n, a, b, winv[a*d+b], want)
				}
			}
		}
		if beta != bk || nu != nu0+nk {
			t.Errorf("β, ν = %g, %g; want %g, %g", beta, nu, bk, nu0+nk)
		}
		// L⁻¹L = I with both lower triangular.
		lm, li := mat.NewTriDense(d, mat.Lower, nil), mat.NewTriDense(d, mat.Lower, nil)
		for a := 0; a < d; a++ {
			for b := 0; b <= a; b++ {
				lm.SetTri(a, b, l[a*d+b])
				li.SetTri(a, b, linv[a*d+b])
			}
		}
		var prod mat.Dense
		prod.Mul(li, lm)
		if !mat.EqualApprox(&prod, eye(d), 1e-10) {
			t.Errorf("d=%d: L⁻¹L = %v", d, mat.Formatted(&prod))
		}
	}
}

func eye(d int) *mat.Dense {
	e := mat.NewDense(d, d, nil)
	for i := 0; i < d; i++ {
		e.Set(i, i, 1)
	}
	return e
}
