package backfit_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/backfit"
	"github.com/vbworkbench/vbw/core/vb"
)

// The relevance vector machine on 100 noisy points of sin(x)/x (Tipping
// 2001's toy, D'Souza Fig. 4.9): a bias and a Gaussian kernel on every
// point, 101 basis functions, of which MacKay's updates keep a handful;
// the fit is compared with the noise-free function on a grid.
func ExampleRVM() {
	rnd := rand.New(rand.NewPCG(1, 2))
	x, y := make([]float64, 100), make([]float64, 100)
	for i := range x {
		x[i] = -10 + 20*rnd.Float64()
		y[i] = math.Sin(x[i])/x[i] + 0.1*rnd.NormFloat64()
	}
	kb, err := backfit.NewKernelBasis(x, 1, 0.2)
	if err != nil {
		panic(err)
	}
	r, err := backfit.NewRVM(kb.Design(x), len(x), y, backfit.RVMSettings{})
	if err != nil {
		panic(err)
	}
	// MacKay's updates are not coordinate ascent: no monotone check.
	res := vb.Run(r, vb.Settings{MaxIterations: 2000, MonotoneTol: math.Inf(1)})
	if err := res.Error(); err != nil {
		panic(err)
	}
	grid := make([]float64, 201)
	for i := range grid {
		grid[i] = -10 + 0.1*float64(i) + 0.05
	}
	pred := r.Predict(nil, kb.Design(grid), len(grid))
	var se float64
	for i, g := range grid {
		d := pred[i] - math.Sin(g)/g
		se += d * d
	}
	fmt.Printf("%s after %d iterations: ln p(y) = %.2f\n", res.Status, res.Iterations, res.F)
	fmt.Printf("kept %d of %d basis functions, noise sd %.3f, rms error %.3f\n", len(r.Kept()), kb.Size(), 1/math.Sqrt(r.Beta()), math.Sqrt(se/float64(len(grid))))
	// Output:
	// converged after 1351 iterations: ln p(y) = 72.41
	// kept 9 of 101 basis functions, noise sd 0.102, rms error 0.029
}
