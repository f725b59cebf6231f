package chapter4

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// KMeans is Lloyd's algorithm with isotropic Euclidean distance, the
// baseline of the unsupervised digits experiment (Beal 2003 L2861;
// targets ch4-mfa.md §2 item 2): K centroids started at given points (the
// VB analysers' centres, "initialised with part of the VB solution"),
// iterated until no assignment changes or MaxIterations iterations.
type KMeans struct {
	// MaxIterations bounds the Lloyd iterations. Default 300.
	MaxIterations int
}

// KMeansResult is a fitted K-means model.
type KMeansResult struct {
	Centroids  *mat.Dense // K×p
	Assign     []int      // cluster of each training row
	Iterations int
	Converged  bool // no assignment changed in the last iteration
}

// Fit runs K-means on the rows of x from the rows of init (copied). A
// centroid that loses all its points keeps its position.
func (km KMeans) Fit(x, init *mat.Dense) KMeansResult {
	maxIter := km.MaxIterations
	if maxIter <= 0 {
		maxIter = 300
	}
	n, p := x.Dims()
	k, pc := init.Dims()
	if pc != p || k < 1 {
		panic(fmt.Sprintf("chapter4: k-means init is %d×%d for data with %d columns", k, pc, p))
	}
	c := mat.DenseCopyOf(init)
	res := KMeansResult{Centroids: c, Assign: make([]int, n)}
	for i := range res.Assign {
		res.Assign[i] = -1
	}
	sums := make([]float64, k*p)
	counts := make([]int, k)
	for it := 0; it < maxIter; it++ {
		res.Iterations = it + 1
		changed := 0
		for i := 0; i < n; i++ {
			j := nearest(x.RawRowView(i), c)
			if j != res.Assign[i] {
				res.Assign[i] = j
				changed++
			}
		}
		if changed == 0 {
			res.Converged = true
			break
		}
		clear(sums)
		clear(counts)
		for i, j := range res.Assign {
			counts[j]++
			for q, v := range x.RawRowView(i) {
				sums[j*p+q] += v
			}
		}
		for j := 0; j < k; j++ {
			if counts[j] == 0 {
				continue
			}
			row := c.RawRowView(j)
			for q := range row {
				row[q] = sums[j*p+q] / float64(counts[j])
			}
		}
	}
	return res
}

// Predict returns the nearest centroid of each row of x.
func (r KMeansResult) Predict(x *mat.Dense) []int {
	n, _ := x.Dims()
	out := make([]int, n)
	for i := range out {
		out[i] = nearest(x.RawRowView(i), r.Centroids)
	}
	return out
}

// nearest returns the row of c closest to y (the first on ties).
func nearest(y []float64, c *mat.Dense) int {
	k, _ := c.Dims()
	best, bestD := 0, math.Inf(1)
	for j := 0; j < k; j++ {
		var d float64
		for q, v := range c.RawRowView(j) {
			e := y[q] - v
			d += e * e
		}
		if d < bestD {
			best, bestD = j, d
		}
	}
	return best
}

// MajorityClasses maps each of k clusters to the class that most of its
// weight belongs to: class(s) = argmax_c Σ_{i: label_i = c} w_is, with w
// an n×k weight matrix (responsibilities q_is for VB, hard assignments for
// K-means; targets §3.6). A cluster with no weight gets class −1. Ties go
// to the smaller class.
func MajorityClasses(w [][]float64, labels []int, classes int) []int {
	if len(w) == 0 {
		return nil
	}
	k := len(w[0])
	mass := make([]float64, k*classes)
	for i, row := range w {
		for s, v := range row {
			mass[s*classes+labels[i]] += v
		}
	}
	out := make([]int, k)
	for s := range out {
		out[s] = -1
		best := 0.0
		for c := 0; c < classes; c++ {
			if m := mass[s*classes+c]; m > best {
				best, out[s] = m, c
			}
		}
	}
	return out
}

// HardWeights returns the 0/1 weight matrix of assignments to k clusters.
func HardWeights(assign []int, k int) [][]float64 {
	w := make([][]float64, len(assign))
	for i, a := range assign {
		w[i] = make([]float64, k)
		w[i][a] = 1
	}
	return w
}

// Confusion returns the classes×classes confusion matrix (rows true,
// columns predicted) and the accuracy; a prediction of −1 counts as wrong
// and is left out of the matrix.
func Confusion(truth, pred []int, classes int) (m [][]int, accuracy float64) {
	if len(truth) != len(pred) {
		panic("chapter4: confusion of different lengths")
	}
	m = make([][]int, classes)
	for c := range m {
		m[c] = make([]int, classes)
	}
	right := 0
	for i, t := range truth {
		p := pred[i]
		if p < 0 || p >= classes {
			continue
		}
		m[t][p]++
		if p == t {
			right++
		}
	}
	if len(truth) == 0 {
		return m, math.NaN()
	}
	return m, float64(right) / float64(len(truth))
}

// AdjustedRand is the adjusted Rand index of two partitions of the same
// points (Hubert and Arabie 1985): 1 for identical partitions, about 0 for
// independent ones (targets §3.1 acceptance).
func AdjustedRand(a, b []int) float64 {
	if len(a) != len(b) {
		panic("chapter4: partitions of different lengths")
	}
	n := len(a)
	if n < 2 {
		return math.NaN()
	}
	ia, ib := index(a), index(b)
	table := make(map[[2]int]int)
	ra, rb := make([]int, len(ia)), make([]int, len(ib))
	for i := range a {
		x, y := ia[a[i]], ib[b[i]]
		table[[2]int{x, y}]++
		ra[x]++
		rb[y]++
	}
	c2 := func(m int) float64 { return float64(m) * float64(m-1) / 2 }
	var sumIJ, sumA, sumB float64
	for _, v := range table {
		sumIJ += c2(v)
	}
	for _, v := range ra {
		sumA += c2(v)
	}
	for _, v := range rb {
		sumB += c2(v)
	}
	expected := sumA * sumB / c2(n)
	maxIdx := (sumA + sumB) / 2
	if maxIdx == expected {
		return 1 // both partitions trivial in the same way
	}
	return (sumIJ - expected) / (maxIdx - expected)
}

// index maps the distinct labels of a partition to 0, 1, … in order of
// first appearance.
func index(a []int) map[int]int {
	m := make(map[int]int)
	for _, v := range a {
		if _, ok := m[v]; !ok {
			m[v] = len(m)
		}
	}
	return m
}
