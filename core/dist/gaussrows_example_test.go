package dist_test

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
)

// ExampleNewGaussianRowsPrecision runs the VBM step and the ARD hyperparameter update
// of a toy linear regression y_t = Λx_t + noise with two outputs and three
// inputs, the third of which the outputs ignore. With a known noise
// precision ρ, the rows of Λ have the posterior
//
//	Σ = (diag(α) + ρS)⁻¹,  S = Σ_t x_t x_tᵀ,   μ_r = Σ b_r,  b_r = ρ Σ_t y_tr x_t,
//
// (the form of q(A) in Beal (2003) eqs. (5.36)–(5.37)), and α_j = R/Σ_r
// E[λ_rj²] maximises F with q fixed (eqs. (5.133)–(5.134)). Alternating the
// two drives the precision of the unused column up, switching it off.
func ExampleNewGaussianRowsPrecision() {
	const (
		T   = 60
		rho = 100.0 // noise precision, noise s.d. 0.1
	)
	trueW := mat.NewDense(2, 3, []float64{
		1.5, -0.8, 0,
		0.3, 2.0, 0,
	})
	// Deterministic inputs and a small deterministic "noise".
	x := mat.NewDense(T, 3, nil)
	y := mat.NewDense(T, 2, nil)
	for t := 0; t < T; t++ {
		ft := float64(t)
		x.SetRow(t, []float64{math.Sin(0.3 * ft), math.Cos(0.7 * ft), math.Sin(1.1*ft + 0.5)})
		for r := 0; r < 2; r++ {
			y.Set(t, r, mat.Dot(trueW.RowView(r), x.RowView(t))+0.1*math.Sin(2.3*ft+float64(r)))
		}
	}
	var s mat.SymDense // S = XᵀX
	s.SymOuterK(1, x.T())
	var b mat.Dense // rows b_r = ρ Σ_t y_tr x_t, i.e. B = ρ YᵀX
	b.Mul(y.T(), x)
	b.Scale(rho, &b)

	alpha := []float64{1, 1, 1}
	prec := mat.NewSymDense(3, nil)
	var q *dist.GaussianRows
	for it := 0; it < 200; it++ {
		// VBM: one Cholesky of diag(α) + ρS.
		prec.ScaleSym(rho, &s)
		for j, a := range alpha {
			prec.SetSym(j, j, prec.At(j, j)+a)
		}
		var err error
		q, err = dist.NewGaussianRowsPrecision(prec, &b, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		// ARD: α_j = R / Σ_r E[λ_rj²].
		alpha = q.ARDPrecisionTo(alpha)
	}
	fmt.Printf("E[Λ] =\n%.2f\n", mat.Formatted(q.MeanTo(nil)))
	fmt.Printf("α = [%.2f %.2f %.1e]\n", alpha[0], alpha[1], alpha[2])
	fmt.Printf("KL[Λ] = %.2f nats\n", dist.KLARD(q, alpha))

	// Output:
	// E[Λ] =
	// ⎡ 1.50  -0.80   0.00⎤
	// ⎣ 0.30   2.00   0.00⎦
	// α = [0.85 0.43 6.0e+05]
	// KL[Λ] = 17.05 nats
}
