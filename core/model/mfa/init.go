package mfa

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
)

// Constants of the PCA initialisation (targets ch4-mfa.md §1.14).
const (
	// pcaMinVar is the smallest loading variance e_l − σ² and the smallest
	// noise variance σ² of the initialisation.
	pcaMinVar = 1e-3
	// pcaFullNoise is σ² when k ≥ p−1 leaves fewer than two trailing
	// eigenvalues to average.
	pcaFullNoise = 0.01
	// minCount is the responsibility mass below which an analyser is
	// initialised from the whole data set instead of its own points.
	minCount = 1e-8
)

// initPCA builds q(Λ̃^s) of every analyser from a PCA of its weighted data,
// then Ψ (if setPsi), q(ν) and q(π); see NewVB.
func (m *VB) initPCA(ks []int, setPsi bool) error {
	n, p := m.n, m.p
	S := len(ks)
	m.comps = make([]*component, S)
	m.omega = make([]float64, S)
	w := make([]float64, n)
	var noise, mass float64
	for s, k := range ks {
		var ns float64
		for i := 0; i < n; i++ {
			w[i] = m.resp[s*n+i]
			ns += w[i]
		}
		if ns < minCount {
			for i := range w {
				w[i] = 1
			}
		}
		mean, lambda, sigma2 := weightedPCA(m.y, w, k)
		noise += ns * sigma2
		mass += ns
		c := newComponent(n, p, k)
		d := k + 1
		means := mat.NewDense(p, d, nil)
		for q := 0; q < p; q++ {
			row := means.RawRowView(q)
			for l := 0; l < k; l++ {
				row[l] = lambda.At(q, l)
			}
			row[k] = mean[q]
		}
		// Cov(Λ̃_q) = σ²/N_s I, the posterior covariance of the mean of N_s
		// points with noise σ² (targets §1.14 has I; see NewVB).
		cov := mat.NewSymDense(d, nil)
		for j := 0; j < d; j++ {
			cov.SetSym(j, j, sigma2/math.Max(ns, 1))
		}
		sig := make([]mat.Symmetric, p)
		for q := range sig {
			sig[q] = cov
		}
		rows, err := dist.NewGaussianRowsDistinct(means, sig)
		if err != nil {
			return fmt.Errorf("mfa: initial q(Λ̃) of analyser %d: %w", s, err)
		}
		c.rows, c.ownRows = rows, true
		m.comps[s] = c
	}
	if setPsi {
		v := math.Max(noise/mass, pcaMinVar)
		m.Hyper.Psi = make([]float64, p)
		for q := range m.Hyper.Psi {
			m.Hyper.Psi[q] = v
		}
	}
	m.resize()
	m.M()
	return nil
}

// weightedPCA returns the weighted mean of the rows of y, the loadings
// u_l √max(e_l − σ², pcaMinVar) of the top k principal directions of the
// weighted covariance (columns of a p×k matrix; nil if k = 0) and σ², the
// mean of the trailing p−k eigenvalues (pcaFullNoise if k ≥ p−1), at least
// pcaMinVar.
func weightedPCA(y *mat.Dense, w []float64, k int) (mean []float64, lambda *mat.Dense, sigma2 float64) {
	n, p := y.Dims()
	mean = make([]float64, p)
	var ws float64
	for i := 0; i < n; i++ {
		ws += w[i]
		for q, v := range y.RawRowView(i) {
			mean[q] += w[i] * v
		}
	}
	for q := range mean {
		mean[q] /= ws
	}
	cov := mat.NewSymDense(p, nil)
	dev := make([]float64, p)
	for i := 0; i < n; i++ {
		if w[i] == 0 {
			continue
		}
		for q, v := range y.RawRowView(i) {
			dev[q] = v - mean[q]
		}
		for a := 0; a < p; a++ {
			for b := a; b < p; b++ {
				cov.SetSym(a, b, cov.At(a, b)+w[i]*dev[a]*dev[b]/ws)
			}
		}
	}
	var eig mat.EigenSym
	vals := make([]float64, p)
	var vecs mat.Dense
	if eig.Factorize(cov, true) {
		eig.Values(vals)
		eig.VectorsTo(&vecs)
	} else {
		// Not expected for a symmetric matrix; fall back to the axes.
		vecs = *mat.NewDense(p, p, nil)
		for q := 0; q < p; q++ {
			vals[q] = cov.At(q, q)
			vecs.Set(q, q, 1)
		}
	}
	order := make([]int, p)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return vals[order[a]] > vals[order[b]] })
	sigma2 = pcaFullNoise
	if k < p-1 {
		var t float64
		for _, j := range order[k:] {
			t += math.Max(vals[j], 0)
		}
		sigma2 = t / float64(p-k)
	}
	sigma2 = math.Max(sigma2, pcaMinVar)
	if k == 0 {
		return mean, nil, sigma2
	}
	lambda = mat.NewDense(p, k, nil)
	for l, j := range order[:k] {
		sc := math.Sqrt(math.Max(vals[j]-sigma2, pcaMinVar))
		for q := 0; q < p; q++ {
			lambda.Set(q, l, vecs.At(q, j)*sc)
		}
	}
	return mean, lambda, sigma2
}
