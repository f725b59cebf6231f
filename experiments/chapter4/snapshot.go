package chapter4

import (
	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/mfa"
)

// Snapshot is the state of a VBMFA that the ellipse figures draw (Figures
// 4.3 and 4.6): every analyser's centre and expected covariance, after an
// accepted epoch.
type Snapshot struct {
	Epoch int         // accepted epochs so far
	Iter  int         // VBEM iterations of the search so far
	Means [][]float64 // per analyser: E[μ^s] (p)
	// Covs per analyser: E[Λ^sΛ^sᵀ] + Ψ (p×p, row-major), with
	// E[ΛΛᵀ]_{qq′} = λ̄_qᵀλ̄_q′ + δ_{qq′} tr Γ_q[1:k, 1:k] (targets §3.1).
	Covs   [][]float64
	Points []float64 // responsibility mass per analyser
}

// TakeSnapshot reads the analysers of m holding at least minPoints of
// responsibility.
func TakeSnapshot(m *mfa.VB, epoch, iter int, minPoints float64) Snapshot {
	sn := Snapshot{Epoch: epoch, Iter: iter}
	p := m.P()
	counts := m.Counts()
	for s := 0; s < m.Size(); s++ {
		if counts[s] < minPoints {
			continue
		}
		rows := m.Loadings(s)
		_, d := rows.Dims() // k + 1: the mean column is last
		k := d - 1
		lam := make([][]float64, p)
		trace := make([]float64, p)
		var cov mat.SymDense
		for q := 0; q < p; q++ {
			lam[q] = rows.RowMeanTo(nil, q)
			rows.CovarianceTo(&cov, q)
			for l := 0; l < k; l++ {
				trace[q] += cov.At(l, l)
			}
		}
		mean := make([]float64, p)
		c := make([]float64, p*p)
		for q := 0; q < p; q++ {
			mean[q] = lam[q][k]
			for r := 0; r < p; r++ {
				var v float64
				for l := 0; l < k; l++ {
					v += lam[q][l] * lam[r][l]
				}
				if q == r {
					v += trace[q] + m.Hyper.Psi[q]
				}
				c[q*p+r] = v
			}
		}
		sn.Means, sn.Covs, sn.Points = append(sn.Means, mean), append(sn.Covs, c), append(sn.Points, counts[s])
	}
	return sn
}
