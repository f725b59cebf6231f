package lds

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/infer"
)

// Sequence is one observed sequence y_{1:T} with its inputs u_{1:T}
// (Beal 2003 eqs. 5.4-5.5; sequences of different lengths as in section
// 5.3.8). Row t of Y is y_{t+1} and row t of U is u_{t+1}, the input that
// drives both x_{t+1} and y_{t+1}.
type Sequence struct {
	Y *mat.Dense // T×p outputs
	U *mat.Dense // T×d inputs; nil for the model without inputs (d = 0)
}

// dataset is the data copied into the layouts of package infer, with the
// statistics of eq. 5.34 summed over sequences (eq. 5.148).
type dataset struct {
	p, d int
	y, u [][]float64 // per sequence: T×p and T×d (nil when d = 0)
	tmax int
	nobs int       // T = Σ_i T_i
	uu   []float64 // Ü = Σ u_t u_tᵀ, d×d
	uy   []float64 // U_Y = Σ u_t y_tᵀ, d×p
	yy   []float64 // the diagonal of Ÿ = Σ y_t y_tᵀ, p
	// mom[i] are the moments of sequence i through which its ln Z' depends
	// on the data alone (infer.LDSMoments), for the smoother.
	mom []infer.LDSMoments
}

// newDataset checks and copies the sequences.
func newDataset(data []Sequence) (*dataset, error) {
	if len(data) == 0 {
		return nil, errors.New("lds: no sequences")
	}
	if data[0].Y == nil {
		return nil, errors.New("lds: sequence 0 has no outputs")
	}
	_, p := data[0].Y.Dims()
	d := 0
	if data[0].U != nil {
		_, d = data[0].U.Dims()
	}
	ds := &dataset{p: p, d: d, uu: make([]float64, d*d), uy: make([]float64, d*p), yy: make([]float64, p)}
	for i, s := range data {
		if s.Y == nil {
			return nil, fmt.Errorf("lds: sequence %d has no outputs", i)
		}
		T, pi := s.Y.Dims()
		if pi != p {
			return nil, fmt.Errorf("lds: sequence %d has %d outputs, sequence 0 has %d", i, pi, p)
		}
		if (s.U == nil) != (d == 0) {
			return nil, fmt.Errorf("lds: sequence %d: inputs given for some sequences only", i)
		}
		y := make([]float64, T*p)
		for t := 0; t < T; t++ {
			mat.Row(y[t*p:(t+1)*p], t, s.Y)
		}
		var u []float64
		if d > 0 {
			Tu, di := s.U.Dims()
			if Tu != T || di != d {
				return nil, fmt.Errorf("lds: sequence %d: inputs are %d×%d, want %d×%d", i, Tu, di, T, d)
			}
			u = make([]float64, T*d)
			for t := 0; t < T; t++ {
				mat.Row(u[t*d:(t+1)*d], t, s.U)
			}
		}
		for _, v := range y {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("lds: sequence %d has a non-finite output", i)
			}
		}
		for _, v := range u {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("lds: sequence %d has a non-finite input", i)
			}
		}
		for t := 0; t < T; t++ {
			yt := y[t*p : (t+1)*p]
			for s, v := range yt {
				ds.yy[s] += v * v
			}
			if d > 0 {
				ut := u[t*d : (t+1)*d]
				addOuter(ds.uu, ut, ut, 1)
				addOuter(ds.uy, ut, yt, 1)
			}
		}
		ds.y = append(ds.y, y)
		ds.u = append(ds.u, u)
		var mom infer.LDSMoments
		mom.Set(y, u, p, d)
		ds.mom = append(ds.mom, mom)
		ds.tmax = max(ds.tmax, T)
		ds.nobs += T
	}
	return ds, nil
}

// seqLen returns T_i.
func (ds *dataset) seqLen(i int) int { return len(ds.y[i]) / ds.p }
