package mfa_test

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// clusters returns per points from each of the isotropic Gaussians
// N(centres[c], sd² I), in cluster order, with their labels.
func clusters(rnd *rand.Rand, centres [][]float64, sd float64, per int) (*mat.Dense, []int) {
	p := len(centres[0])
	y := mat.NewDense(per*len(centres), p, nil)
	labels := make([]int, 0, per*len(centres))
	for c, mu := range centres {
		for j := 0; j < per; j++ {
			row := y.RawRowView(len(labels))
			for q := range row {
				row[q] = mu[q] + sd*rnd.NormFloat64()
			}
			labels = append(labels, c)
		}
	}
	return y, labels
}

// embedded returns the embedded Gaussian clusters of Beal (2003) section
// 4.5.2 (line 2761; targets ch4-mfa.md §3.2): 6 clusters of intrinsic
// dimensionalities 7, 4, 3, 2, 2, 1 in p = 10, centres uniform on [0, 3]^10,
// orientations the first k_c columns of a random orthogonal matrix, unit
// factor variances and noise of variance 0.01, per points each.
func embedded(rnd *rand.Rand, per int) (*mat.Dense, []int) {
	const p = 10
	dims := []int{7, 4, 3, 2, 2, 1}
	y := mat.NewDense(per*len(dims), p, nil)
	labels := make([]int, 0, per*len(dims))
	for c, k := range dims {
		g := mat.NewDense(p, p, nil)
		for i := 0; i < p; i++ {
			for j := 0; j < p; j++ {
				g.Set(i, j, rnd.NormFloat64())
			}
		}
		var qr mat.QR
		qr.Factorize(g)
		var o mat.Dense
		qr.QTo(&o)
		mu := make([]float64, p)
		for q := range mu {
			mu[q] = 3 * rnd.Float64()
		}
		z := make([]float64, k)
		for j := 0; j < per; j++ {
			for l := range z {
				z[l] = rnd.NormFloat64()
			}
			row := y.RawRowView(len(labels))
			for q := range row {
				v := mu[q] + 0.1*rnd.NormFloat64()
				for l, zl := range z {
					v += o.At(q, l) * zl
				}
				row[q] = v
			}
			labels = append(labels, c)
		}
	}
	return y, labels
}

// labelResp returns n×S responsibilities with mass sharp on each point's
// label and the rest spread evenly over the other analysers.
func labelResp(labels []int, S int, sharp float64) *mat.Dense {
	r := mat.NewDense(len(labels), S, nil)
	for i, l := range labels {
		for s := 0; s < S; s++ {
			v := (1 - sharp) / float64(S-1)
			if s == l%S {
				v = sharp
			}
			r.Set(i, s, v)
		}
	}
	return r
}

// factorClusters returns n points in p dimensions from C clusters (point i
// in cluster i mod C) of k-dimensional factor structure: centres N(0, 4I),
// loadings N(0, 1) entries, unit factors and noise of standard deviation
// 0.3.
func factorClusters(rnd *rand.Rand, p, k, C, n int) *mat.Dense {
	mus := make([][]float64, C)
	lams := make([][]float64, C)
	for c := range mus {
		mus[c] = make([]float64, p)
		for q := range mus[c] {
			mus[c][q] = 2 * rnd.NormFloat64()
		}
		lams[c] = make([]float64, p*k)
		for j := range lams[c] {
			lams[c][j] = rnd.NormFloat64()
		}
	}
	y := mat.NewDense(n, p, nil)
	x := make([]float64, k)
	for i := 0; i < n; i++ {
		mu, lam := mus[i%C], lams[i%C]
		for l := range x {
			x[l] = rnd.NormFloat64()
		}
		for q, row := 0, y.RawRowView(i); q < p; q++ {
			v := mu[q] + 0.3*rnd.NormFloat64()
			for l, xl := range x {
				v += lam[q*k+l] * xl
			}
			row[q] = v
		}
	}
	return y
}
