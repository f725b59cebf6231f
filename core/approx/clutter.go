package approx

import (
	"errors"
	"math"
)

// ClutterFactor is one observation x of the clutter problem (PRML §10.7.1,
// eq. (10.209)): f(θ) = (1 − w) N(x | θ, I) + w N(x | 0, aI) in D
// dimensions, an EP Factor whose tilted moments are closed forms for an
// isotropic cavity N(θ | m, vI) (PRML eqs. (10.212)–(10.215)):
//
//	Z = (1 − w) N(x | m, (v + 1)I) + w N(x | 0, aI),  ρ = 1 − (w/Z) N(x | 0, aI),
//	mean = m + ρ v (x − m)/(v + 1),
//	var  = v − ρ v²/(v + 1) + ρ(1 − ρ) v² ‖x − m‖² / (D (v + 1)²),
//
// the tilted covariance being var·I (the isotropic moment match of PRML's
// Algorithm). The cavity's covariance must be a multiple of the identity.
type ClutterFactor struct {
	X    []float64
	W, A float64
}

// Tilted implements Factor.
func (f ClutterFactor) Tilted(m, v, mean, cov []float64) (float64, error) {
	d := len(m)
	vv := v[0]
	for i := range d {
		for j := range d {
			want := 0.0
			if i == j {
				want = vv
			}
			if math.Abs(v[i*d+j]-want) > 1e-12*math.Abs(vv) {
				return math.NaN(), errors.New("approx: ClutterFactor: the cavity covariance is not isotropic")
			}
		}
	}
	var x2 float64
	for i := range d {
		x2 += f.X[i] * f.X[i]
	}
	fd := float64(d)
	lclut := math.Log(f.W) - 0.5*fd*math.Log(2*math.Pi*f.A) - 0.5*x2/f.A
	lz, s := clutterTilted(f.X, m, vv, f.W, lclut, mean)
	clear(cov[:d*d])
	for i := range d {
		cov[i*d+i] = s
	}
	return lz, nil
}
