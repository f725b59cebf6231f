package drift

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// RLS is recursive least squares with forgetting factor γ (Ljung &
// Söderström 1983; L935-937): after step n its weight ŵ_n minimises
//
//	Σ_{m≤n} γ^{n−m} (y_m − x_mᵀw)² + δ γ^n ‖w − w_init‖²,
//
// the exponentially weighted least-squares fit with an effective window of
// γ/(1−γ) steps (L935) and a ridge δ on the start w_init that fades at the
// same rate. With P_n the inverse of the weighted Gram matrix (P_0 = I/δ):
//
//	k = P_{n−1}x_n / (γ + x_nᵀP_{n−1}x_n),  ŵ_n = ŵ_{n−1} + k (y_n − x_nᵀŵ_{n−1}),
//	P_n = (P_{n−1} − k x_nᵀP_{n−1}) / γ.
type RLS struct {
	Gamma float64   // forgetting factor γ ∈ (0, 1]
	Delta float64   // the start's ridge δ > 0
	Init  []float64 // w_init (nil: 0)
}

// Track returns the estimates ŵ_n, n = 1, …, T (T×d).
func (r RLS) Track(data Data) ([]float64, error) {
	if err := data.check(); err != nil {
		return nil, err
	}
	if !(r.Gamma > 0 && r.Gamma <= 1) || !(r.Delta > 0) || math.IsInf(r.Delta, 1) {
		return nil, fmt.Errorf("drift: RLS γ=%g, δ=%g: want 0 < γ ≤ 1 and δ > 0", r.Gamma, r.Delta)
	}
	d, T := data.D, data.T()
	if r.Init != nil && len(r.Init) != d {
		return nil, fmt.Errorf("drift: RLS start has %d values for d=%d", len(r.Init), d)
	}
	w := make([]float64, d)
	if r.Init != nil {
		copy(w, r.Init)
	}
	P := make([]float64, d*d)
	for i := 0; i < d; i++ {
		P[i*d+i] = 1 / r.Delta
	}
	px := make([]float64, d)
	out := make([]float64, T*d)
	for n := 0; n < T; n++ {
		x := data.X[n*d : (n+1)*d]
		for i := 0; i < d; i++ {
			px[i] = numeric.Dot(P[i*d:(i+1)*d], x)
		}
		den := r.Gamma + numeric.Dot(x, px)
		e := data.Y[n] - numeric.Dot(x, w)
		for i := 0; i < d; i++ {
			w[i] += px[i] / den * e
		}
		// P ← (P − px pxᵀ/den)/γ, kept exactly symmetric (P is symmetric,
		// so x_nᵀP = pxᵀ).
		for i := 0; i < d; i++ {
			for j := 0; j <= i; j++ {
				v := (P[i*d+j] - px[i]*px[j]/den) / r.Gamma
				P[i*d+j], P[j*d+i] = v, v
			}
		}
		copy(out[n*d:(n+1)*d], w)
	}
	return out, nil
}
