package supersmooth_test

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/model/supersmooth"
	"github.com/vbworkbench/vbw/core/vb"
)

// Fit the supersmoother at three queries of 200 noisy points of D'Souza's
// test function on (0, 1) (L1203-1205) with the text's prior (L1195,
// L1199), beside locally weighted regression with one Gaussian
// bandwidth chosen by leave-one-out CV. In the slowly varying left part
// E[h] stays moderate and the fit follows the data; at x = 0.9, where the
// function oscillates, the bound prefers a nearly global line (E[h] ≈ 0).
func Example() {
	x, y := wiggly(1, 200, 0, 1)
	queries := []float64{0.1, 0.3, 0.9}
	fits, err := supersmooth.Smooth(x, y, queries, false, supersmooth.TextPrior(), supersmooth.Settings{},
		vb.Settings{MaxIterations: 5000, AbsTol: 1e-6}, 1)
	if err != nil {
		panic(err)
	}
	lwr, err := supersmooth.NewLWR(x, y)
	if err != nil {
		panic(err)
	}
	h, _, err := lwr.SelectBandwidth(supersmooth.LogGrid(1, 1e6, 61))
	if err != nil {
		panic(err)
	}
	fmt.Printf("LWR bandwidth by LOO: h = %.3g\n", h)
	for _, f := range fits {
		l, _ := lwr.Predict(f.Query, h)
		a := 2 * math.Pi * math.Pow(f.Query, 3)
		truth := f.Query - math.Pow(math.Sin(a), 3)*math.Cos(a)*math.Exp(math.Pow(f.Query, 4))
		fmt.Printf("x = %.1f: f %.3f, supersmoother %.3f (E[h] = %.3g), LWR %.3f\n", f.Query, truth, f.Mean, f.EH, l)
	}
	// Output:
	// LWR bandwidth by LOO: h = 1e+04
	// x = 0.1: f 0.100, supersmoother 0.105 (E[h] = 113), LWR 0.146
	// x = 0.3: f 0.295, supersmoother 0.252 (E[h] = 503), LWR 0.326
	// x = 0.9: f 0.653, supersmoother 0.922 (E[h] = 0.000384), LWR 0.687
}
