package discrim

import (
	"errors"
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// ErrSingular is the error of a covariance that is not positive definite
// to working precision (too few points for the dimension, or a constant
// direction).
var ErrSingular = errors.New("discrim: covariance not positive definite")

// LDA is the linear discriminant: Gaussian classes N(μ_c, Σ) with one
// pooled covariance and priors π_c the training frequencies (package
// doc).
type LDA struct {
	D, K int
	// Means are the class means μ_c, Means[c] of length D.
	Means [][]float64
	// Cov is the pooled covariance Σ = Σ_c Σ_{n ∈ c} (x_n − μ_c)(x_n − μ_c)ᵀ / (N − K),
	// D×D row-major.
	Cov []float64
	// LogPrior are ln π_c = ln(N_c / N).
	LogPrior []float64
	chol     []float64 // the Cholesky factor of Cov
	work     []float64
}

// checkClasses checks the training set: n rows of one length d ≥ 1 and a
// class in 0..k−1 for each.
func checkClasses(x [][]float64, class []int, k int) (d int, err error) {
	if len(x) == 0 || len(x) != len(class) {
		return 0, fmt.Errorf("discrim: %d rows and %d classes", len(x), len(class))
	}
	if k < 2 {
		return 0, fmt.Errorf("discrim: %d classes, want at least 2", k)
	}
	d = len(x[0])
	if d == 0 {
		return 0, errors.New("discrim: rows of length 0")
	}
	for i, r := range x {
		if len(r) != d {
			return 0, fmt.Errorf("discrim: row %d has length %d, want %d", i, len(r), d)
		}
		if class[i] < 0 || class[i] >= k {
			return 0, fmt.Errorf("discrim: row %d has class %d, want 0..%d", i, class[i], k-1)
		}
	}
	return d, nil
}

// NewLDA fits the linear discriminant to the rows x with classes class in
// 0..k−1. Every class needs a point, and the pooled covariance must be
// positive definite (ErrSingular).
func NewLDA(x [][]float64, class []int, k int) (*LDA, error) {
	d, err := checkClasses(x, class, k)
	if err != nil {
		return nil, err
	}
	n := len(x)
	if n <= k {
		return nil, fmt.Errorf("discrim: %d points for %d classes: the pooled covariance needs more", n, k)
	}
	l := &LDA{D: d, K: k, Means: make([][]float64, k), Cov: make([]float64, d*d), LogPrior: make([]float64, k),
		chol: make([]float64, d*d), work: make([]float64, d)}
	count := make([]int, k)
	for c := range l.Means {
		l.Means[c] = make([]float64, d)
	}
	for i, r := range x {
		count[class[i]]++
		numeric.Axpy(1, r, l.Means[class[i]])
	}
	for c, m := range l.Means {
		if count[c] == 0 {
			return nil, fmt.Errorf("discrim: class %d has no training point", c)
		}
		numeric.Scale(1/float64(count[c]), m)
		l.LogPrior[c] = math.Log(float64(count[c]) / float64(n))
	}
	for i, r := range x {
		m := l.Means[class[i]]
		for a := range d {
			da := r[a] - m[a]
			for b := range a + 1 {
				l.Cov[a*d+b] += da * (r[b] - m[b])
			}
		}
	}
	for a := range d {
		for b := range a + 1 {
			l.Cov[a*d+b] /= float64(n - k)
			l.Cov[b*d+a] = l.Cov[a*d+b]
		}
	}
	copy(l.chol, l.Cov)
	if !numeric.CholFactor(l.chol, d) {
		return nil, fmt.Errorf("the pooled covariance: %w", ErrSingular)
	}
	return l, nil
}

// LogPosterior writes ln p(c | x) for every class into dst (allocated
// when too short) and returns it: ln π_c − ½ (x − μ_c)ᵀ Σ⁻¹ (x − μ_c),
// normalised over c (the terms common to every class cancel).
func (l *LDA) LogPosterior(dst, x []float64) []float64 {
	if len(dst) < l.K {
		dst = make([]float64, l.K)
	}
	dst = dst[:l.K]
	for c, m := range l.Means {
		for a := range l.D {
			l.work[a] = x[a] - m[a]
		}
		numeric.CholSolveVec(l.chol, l.D, l.work)
		dst[c] = l.LogPrior[c] - 0.5*numeric.Dot(l.work, l.work)
	}
	z := numeric.LogSumExp(dst)
	for c := range dst {
		dst[c] -= z
	}
	return dst
}

// Classify returns the class of largest posterior probability (the
// lowest index on a tie).
func (l *LDA) Classify(x []float64) int { return argmax(l.LogPosterior(nil, x)) }

func argmax(xs []float64) int {
	best := 0
	for i, v := range xs {
		if v > xs[best] {
			best = i
		}
	}
	return best
}
