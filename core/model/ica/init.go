package ica

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// pcaStart returns the starting mean of q(W) (P×I row-major) and the
// starting noise variance (see NewVB and Settings).
func (m *VB) pcaStart(s Settings) (w []float64, v0 float64, err error) {
	n, p, k := m.n, m.p, m.k
	cov := mat.NewSymDense(p, nil)
	for i := 0; i < n; i++ {
		row := m.t[i*p : (i+1)*p]
		for a := 0; a < p; a++ {
			da := row[a] - m.tsum[a]/float64(n)
			for b := a; b < p; b++ {
				cov.SetSym(a, b, cov.At(a, b)+da*(row[b]-m.tsum[b]/float64(n))/float64(n))
			}
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(cov, true) {
		return nil, 0, fmt.Errorf("ica: PCA start: the eigen-decomposition of the sample covariance failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	order := make([]int, p)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return vals[order[a]] > vals[order[b]] })
	v0 = s.InitNoiseVariance
	if v0 == 0 {
		if k < p {
			for _, j := range order[k:] {
				v0 += math.Max(vals[j], 0)
			}
			v0 /= float64(p - k)
		} else {
			v0 = math.Max(vals[order[p-1]], 0)
		}
		// A noiseless data set (or one of fewer points than dimensions)
		// has no variance left over: start from a small fraction of the
		// total instead.
		var total float64
		for _, v := range vals {
			total += math.Max(v, 0)
		}
		v0 = math.Max(v0, 1e-6*total/float64(p))
		if !(v0 > 0) {
			return nil, 0, fmt.Errorf("ica: the data have no variance: nothing to separate")
		}
	}
	if s.InitW != nil {
		return append([]float64(nil), s.InitW...), v0, nil
	}
	if k > p {
		return nil, 0, fmt.Errorf("ica: the PCA start gives at most P = %d columns for %d sources: set InitW", p, k)
	}
	_, sv := m.src.Moments()
	w = make([]float64, p*k)
	for i := 0; i < k; i++ {
		j := order[i]
		sc := math.Sqrt(math.Max(vals[j], 0) / sv)
		for q := 0; q < p; q++ {
			w[q*k+i] = vecs.At(q, j) * sc
		}
	}
	return w, v0, nil
}
