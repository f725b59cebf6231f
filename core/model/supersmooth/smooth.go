package supersmooth

import (
	"fmt"

	"github.com/vbworkbench/vbw/core/parallel"
	"github.com/vbworkbench/vbw/core/vb"
)

// Fit is the converged VB fit at one query.
type Fit struct {
	Query      float64
	Mean       float64 // E[β₀], the prediction at the query
	Variance   float64 // predictive variance (VB.Predict)
	EH         float64 // E[h] under q(h)
	Sigma2     float64 // σ²_N (eq. 3.26)
	F          float64 // the converged bound F̃
	Iterations int
	Status     vb.Status
}

// FitQuery runs VB to convergence on (x, y) at xq, leaving out the point
// skip (none if skip < 0: the leave-one-out fit at x_skip when xq = x_skip).
// A run that ends abnormally (the bound decreased, an E step failed) is
// returned with its Status and no error; the error is for data NewVB
// refuses and for a cancelled run (vb.Settings.Stop).
func FitQuery(x, y []float64, xq float64, skip int, prior Prior, s Settings, run vb.Settings) (Fit, error) {
	if skip >= 0 {
		x = append(append(make([]float64, 0, len(x)-1), x[:skip]...), x[skip+1:]...)
		y = append(append(make([]float64, 0, len(y)-1), y[:skip]...), y[skip+1:]...)
	}
	m, err := NewVB(x, y, xq, prior, s)
	if err != nil {
		return Fit{Query: xq}, err
	}
	r := vb.Run(m, run)
	f := Fit{Query: xq, F: r.F, Iterations: r.Iterations, Status: r.Status}
	if r.Status == vb.Canceled {
		return f, r.Err
	}
	if !r.Status.OK() {
		return f, nil
	}
	f.Mean, f.Variance = m.Predict()
	f.EH, f.Sigma2 = m.QH().Mean(), m.NoiseVariance()
	return f, nil
}

// Smooth fits every query independently (each its own VB, L1058) on
// workers goroutines of core/parallel (≤ 0: GOMAXPROCS); loo leaves out
// point i at query i (queries must then be the inputs x). The fits are
// in query order and do not depend on the number of workers. The error
// is that of the lowest failed query.
func Smooth(x, y, queries []float64, loo bool, prior Prior, s Settings, run vb.Settings, workers int) ([]Fit, error) {
	if loo && len(queries) != len(x) {
		return nil, fmt.Errorf("supersmooth: leave-one-out with %d queries for %d points", len(queries), len(x))
	}
	fits := make([]Fit, len(queries))
	err := parallel.ForErr(len(queries), workers, func(i int) error {
		skip := -1
		if loo {
			skip = i
		}
		f, err := FitQuery(x, y, queries[i], skip, prior, s, run)
		fits[i] = f
		return err
	})
	return fits, err
}
