package hmm

import (
	"math"

	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/score"
)

// ExpectedCounts runs an exact E step at θ (forward-backward with the
// parameters themselves, Beal 2003 eqs. 3.19-3.35) and returns ln p(y|θ)
// and the expected counts N̂.
func ExpectedCounts(d Data, θ Params) (float64, *infer.Counts) {
	var ws infer.ForwardBackward
	c := θ.Chain()
	counts := infer.NewCounts(θ.K, θ.P)
	var lnp float64
	for _, y := range d.Seqs {
		lnp += ws.AddExpectedCounts(c, y, counts)
	}
	return lnp, counts
}

// CheesemanStutz returns the Cheeseman-Stutz approximation to ln p(y|m)
// at θ̂ (Beal 2003 eq. 1.54, 2.133):
//
//	ln p_CS = ln p(y|θ̂) + Σ_rows [ln ∫ Dir(θ|u) Π θ^{N̂} dθ − Σ N̂ ln θ̂],
//
// where N̂ are the expected counts of an exact E step at θ̂. Theorem 2.3
// makes it a lower bound on ln p(y|m) for any θ̂; it equals F evaluated
// with q(s) = p(s|y,θ̂) after one VBM step (Corollary 2.5), which is the
// CS point that PosteriorFromCounts builds. It returns −Inf if the data are
// impossible under θ̂.
func CheesemanStutz(d Data, θ Params, u Prior) float64 {
	lnp, n := ExpectedCounts(d, θ)
	if math.IsInf(lnp, -1) {
		return lnp
	}
	k, p := θ.K, θ.P
	cs := lnp + score.CSRow(u.Pi, n.Pi, θ.Pi)
	row := make([]float64, p)
	for j := 0; j < k; j++ {
		cs += score.CSRow(u.A, n.A[j*k:(j+1)*k], θ.A[j*k:(j+1)*k])
		for m := 0; m < p; m++ {
			row[m] = n.E[m*k+j]
		}
		cs += score.CSRow(u.C, row, θ.C[j*p:(j+1)*p])
	}
	return cs
}

// BIC returns ln p(y|θ̂) − (d/2) ln N (eq. 1.49) with d = (k−1) + k(k−1) +
// k(p−1) free parameters (L1867) and N the total number of symbols
// (targets §4 item 18: the symbols are not i.i.d.; N = Σ_i T_i is one
// choice).
func BIC(d Data, θ Params) float64 {
	return score.BIC(θ.LogLik(d), θ.NumFree(), float64(d.Symbols()))
}

// PosteriorFromCounts returns the VBM update w = u + N̂ (eqs. 3.55, 3.57,
// 3.59) for expected counts N̂ (in package infer's layout). With N̂ from
// ExpectedCounts at θ̂ it is the Cheeseman-Stutz point from which VBEM can
// only improve on ln p_CS (Corollary 2.5).
func PosteriorFromCounts(u Prior, n *infer.Counts) Posterior {
	k, p := n.K, n.P
	w := Posterior{K: k, P: p, Pi: make([]float64, k), A: make([]float64, k*k), C: make([]float64, k*p)}
	w.setFromCounts(u, n)
	return w
}

// setFromCounts sets w = u + n (eqs. 3.55, 3.57, 3.59).
func (w Posterior) setFromCounts(u Prior, n *infer.Counts) {
	k, p := w.K, w.P
	for j := 0; j < k; j++ {
		w.Pi[j] = u.Pi[j] + n.Pi[j]
		for l := 0; l < k; l++ {
			w.A[j*k+l] = u.A[l] + n.A[j*k+l]
		}
		for m := 0; m < p; m++ {
			w.C[j*p+m] = u.C[m] + n.E[m*k+j]
		}
	}
}
