package backfit

import (
	"fmt"
	"math"
)

// KernelBasis is the basis of the relevance vector machine (D'Souza eq.
// 4.33, L1763-1769): a bias, the constant 1, as basis function 0, then a
// Gaussian kernel k(x, c_j) = exp(−λ‖x − c_j‖²) (L1781-1785) centred on
// each of the centres c_j, usually the training inputs. Both the direct
// RVM and the backfitting RVM fit their weights on the design it makes.
type KernelBasis struct {
	// Centres are the kernel centres, row-major, Dim values each.
	Centres []float64
	Dim     int
	// Lambda is λ > 0, the kernel's inverse squared length scale.
	Lambda float64
}

// NewKernelBasis returns the basis centred on the n points x (row-major
// n×dim; not copied).
func NewKernelBasis(x []float64, dim int, lambda float64) (KernelBasis, error) {
	if dim < 1 || len(x) == 0 || len(x)%dim != 0 {
		return KernelBasis{}, fmt.Errorf("backfit: NewKernelBasis: %d values are not points of dimension %d", len(x), dim)
	}
	if !(lambda > 0) || math.IsInf(lambda, 1) {
		return KernelBasis{}, fmt.Errorf("backfit: NewKernelBasis: λ = %g, want positive and finite", lambda)
	}
	return KernelBasis{Centres: x, Dim: dim, Lambda: lambda}, nil
}

// Size is the number of basis functions, the centres plus the bias.
func (b KernelBasis) Size() int { return len(b.Centres)/b.Dim + 1 }

// Design returns the column-major n×Size() design of the n points x
// (row-major n×Dim): column 0 all ones, column j+1 holding k(x_i, c_j).
func (b KernelBasis) Design(x []float64) []float64 {
	if len(x)%b.Dim != 0 {
		panic(fmt.Sprintf("backfit: KernelBasis.Design: %d values are not points of dimension %d", len(x), b.Dim))
	}
	n, m := len(x)/b.Dim, b.Size()
	phi := make([]float64, n*m)
	for i := 0; i < n; i++ {
		phi[i] = 1
	}
	for j := 1; j < m; j++ {
		c := b.Centres[(j-1)*b.Dim : j*b.Dim]
		col := phi[j*n : (j+1)*n]
		for i := range col {
			xi := x[i*b.Dim : (i+1)*b.Dim]
			var d2 float64
			for q, v := range xi {
				d := v - c[q]
				d2 += d * d
			}
			col[i] = math.Exp(-b.Lambda * d2)
		}
	}
	return phi
}

// DesignRows returns the same design row-major, n×Size() (row i holds the
// basis functions at x_i): the layout of NewProblem.
func (b KernelBasis) DesignRows(x []float64) []float64 {
	phi := b.Design(x)
	n, m := len(x)/b.Dim, b.Size()
	rows := make([]float64, n*m)
	for j := 0; j < m; j++ {
		for i, v := range phi[j*n : (j+1)*n] {
			rows[i*m+j] = v
		}
	}
	return rows
}
