package approx_test

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/numeric"
)

// Example compares Laplace, the KL(q‖p) Gaussian and EP on the skewed
// density p(z) ∝ exp(−z²/2) σ(20z + 4) of PRML Figs 10.1 and 10.14.
func Example() {
	logp := func(x []float64) float64 { return -x[0]*x[0]/2 + approx.LogSigmoid(20*x[0]+4) }
	p := approx.Density{LogP: logp, Lo: []float64{-12}, Hi: []float64{12}}
	ex, _ := p.Exact(numeric.QuadTol{})
	lap, _ := approx.Laplace(approx.Func{LogP: logp}, []float64{0})
	vbq, _ := approx.FitKLqp(logp, lap.Q, approx.FitSettings{})
	ep, _ := approx.NewEP(approx.Normal{Mean: []float64{0}, Cov: []float64{1}},
		[]approx.Factor{approx.ProjectedFactor{A: []float64{1}, LogG: func(u float64) float64 { return approx.LogSigmoid(20*u + 4) }}},
		approx.EPSettings{})
	ep.Run()
	fmt.Printf("exact    mean %.3f sd %.3f\n", ex.Mean[0], math.Sqrt(ex.Cov[0]))
	for _, r := range []struct {
		name string
		q    approx.Normal
	}{{"laplace", lap.Q}, {"KL(q|p)", vbq.Q}, {"EP", ep.Q()}} {
		row, _ := approx.Compare(r.q, p, ex, numeric.QuadTol{})
		fmt.Printf("%-8s mean %.3f sd %.3f KL(q|p) %.4f KL(p|q) %.4f\n", r.name, r.q.Mean[0], math.Sqrt(r.q.Cov[0]), row.KLqp, row.KLpq)
	}
	// Output:
	// exact    mean 0.673 sd 0.643
	// laplace  mean 0.077 sd 0.627 KL(q|p) 2.3771 KL(p|q) 0.5687
	// KL(q|p)  mean 0.707 sd 0.494 KL(q|p) 0.1720 KL(p|q) 0.2041
	// EP       mean 0.673 sd 0.643 KL(q|p) 0.3669 KL(p|q) 0.1173
}
