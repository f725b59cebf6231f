package ica_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/ica"
	"github.com/vbworkbench/vbw/core/vb"
)

// Bayesian ICA with ARD on the mixing columns (Lawrence section 6.5): 200
// points of three dimensions mixed from two sources, each a zero-mean
// mixture of Gaussians of variances 1 and 50, with noise of variance 10⁻⁴,
// fitted by a model of three sources from the PCA start. The precision α
// of one column rises about three orders of magnitude above the others and
// switches its source off, while the bound, which the text could not
// evaluate, is computed at every step and never falls.
func Example() {
	src := ica.Sources{Weights: []float64{0.5, 0.5}, Means: []float64{0, 0}, Variances: []float64{1, 50}}
	rnd := rand.New(rand.NewPCG(1, 2))
	w := [3][2]float64{}
	for q := range w {
		for j := range w[q] {
			w[q][j] = rnd.NormFloat64()
		}
	}
	const n = 200
	t := make([]float64, 0, 3*n)
	for range n {
		var x [2]float64
		for j := range x {
			v := src.Variances[rnd.IntN(2)]
			x[j] = math.Sqrt(v) * rnd.NormFloat64()
		}
		for q := range w {
			t = append(t, w[q][0]*x[0]+w[q][1]*x[1]+0.01*rnd.NormFloat64())
		}
	}
	m, err := ica.NewVB(t, 3, src, ica.DefaultPrior(), ica.Settings{Sources: 3})
	if err != nil {
		panic(err)
	}
	const inner, outer = 100, 20
	r := vb.Run(m, vb.Settings{MaxIterations: inner * outer, Converger: vb.FixedIterations{}, Hyper: ica.Schedule(inner)})
	if err := r.Error(); err != nil {
		panic(err)
	}
	for i := 0; i < 3; i++ {
		fmt.Printf("log10 E[alpha_%d] = %5.2f\n", i, math.Log10(m.Alpha(i)))
	}
	fmt.Printf("noise variance 1/E[beta] = %.2g\n", 1/m.Beta())
	// Output:
	// log10 E[alpha_0] = -0.55
	// log10 E[alpha_1] =  1.12
	// log10 E[alpha_2] =  3.18
	// noise variance 1/E[beta] = 0.00011
}
