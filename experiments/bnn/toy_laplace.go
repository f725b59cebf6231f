package bnn

// The Laplace approximation of the toy's evidence procedure (bnn.Evidence)
// as Figs 5.3(c) and 5.4 use it: its covariance's eigenvectors, draws from
// it, and the expected output of eq. 5.49.

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/bnn"
)

// laplaceEigen is the eigendecomposition of a Laplace covariance A⁻¹:
// eigenvalues decreasing, eigenvectors the columns of vec.
type laplaceEigen struct {
	w   []float64
	cov []float64
	eig []float64
	vec *mat.Dense
}

// newLaplaceEigen decomposes l.Cov (positive definite: bnn.Evidence sets
// the data Hessian's negative eigenvalues to zero).
func newLaplaceEigen(l *bnn.Laplace) (*laplaceEigen, error) {
	k := len(l.W)
	var es mat.EigenSym
	if !es.Factorize(mat.NewSymDense(k, append([]float64(nil), l.Cov...)), true) {
		return nil, fmt.Errorf("bnn/toy: the eigendecomposition of the Laplace covariance failed")
	}
	vals := es.Values(nil)
	var vec mat.Dense
	es.VectorsTo(&vec)
	e := &laplaceEigen{w: l.W, cov: l.Cov, eig: make([]float64, k), vec: mat.NewDense(k, k, nil)}
	for i := range k { // EigenSym's values increase: reverse them
		e.eig[i] = math.Max(vals[k-1-i], 0)
		for j := range k {
			e.vec.Set(j, i, vec.At(j, k-1-i))
		}
	}
	return e, nil
}

// sample draws w from N(w*, A⁻¹).
func (e *laplaceEigen) sample(dst []float64, r *rand.Rand) {
	copy(dst, e.w)
	for i, l := range e.eig {
		z := math.Sqrt(l) * r.NormFloat64()
		for j := range dst {
			dst[j] += z * e.vec.At(j, i)
		}
	}
}

// laplaceMean is ⟨f(x, w)⟩ under the full-covariance Gaussian N(w, Σ) (Σ
// row-major), eq. 5.49: with a_h = u_hᵀx̃ ~ N(μ_h, σ_h²) and
// Cov(v_h, a_h) = Σ_{v_h u_h}x̃,
//
//	⟨v_h g(a_h)⟩ = v̄_h g(μ_h/√(1+σ_h²)) + Cov(v_h, a_h) √(2/π) exp(−μ_h²/(2(1+σ_h²)))/√(1+σ_h²)
//
// (Stein's lemma). Eq. 5.49 prints the exponent's numerator as xᵀū; it is
// (xᵀū)², as in eq. C.39.
func laplaceMean(a bnn.Arch, w, cov []float64, x []float64) float64 {
	k := a.NumWeights()
	xt := append(append([]float64(nil), x...), 1)
	u := a.U()
	f := w[u+a.Hidden]
	for h := 0; h < a.Hidden; h++ {
		o := h * (a.In + 1)
		var mu, s2, c float64
		for i, xi := range xt {
			mu += w[o+i] * xi
			c += cov[(u+h)*k+o+i] * xi
			for j, xj := range xt {
				s2 += xi * cov[(o+i)*k+o+j] * xj
			}
		}
		d := math.Sqrt(1 + s2)
		f += w[u+h]*bnn.G(mu/d) + c*math.Sqrt(2/math.Pi)*math.Exp(-mu*mu/(2*(1+s2)))/d
	}
	return f
}

// fig54Lines returns the true log posterior (post.LogDensity) and the
// Laplace approximation along every eigenvector of the Laplace covariance,
// t ∈ [−3σ_i, 3σ_i] in units of σ_i (Fig. 5.4), and the measures of its
// claims: the discrepancy d_i = ½|Δ(2σ_i) + Δ(−2σ_i)| with
// Δ(t) = [ln p(w* + t e_i) − ln p(w*)] − [−t²/2σ_i²] for the direction of
// largest variance, and the largest d_i of the four of smallest variance.
func fig54Lines(post *bnn.Posterior, e *laplaceEigen) ([]ToyLine, float64, float64) {
	k := len(e.w)
	l0 := post.LogDensity(e.w)
	w := make([]float64, k)
	at := func(i int, t float64) float64 {
		for j := range w {
			w[j] = e.w[j] + t*math.Sqrt(e.eig[i])*e.vec.At(j, i)
		}
		return post.LogDensity(w) - l0
	}
	d := make([]float64, k)
	var lines []ToyLine
	for i := range k {
		d[i] = 0.5 * math.Abs(at(i, 2)+2+at(i, -2)+2)
		ln := ToyLine{Label: fmt.Sprintf("%d", i+1)}
		for s := 0; s <= 60; s++ {
			t := -3 + 0.1*float64(s)
			ln.T = append(ln.T, t)
			ln.True = append(ln.True, at(i, t))
			ln.Approx = append(ln.Approx, -t*t/2)
		}
		lines = append(lines, ln)
	}
	small := 0.0
	for _, x := range d[max(0, k-4):] {
		small = math.Max(small, x)
	}
	return lines, d[0], small
}
