package vembias_test

import (
	"fmt"

	"github.com/vbworkbench/vbw/core/model/vembias"
)

// Learn the dynamics λ of the two-chain model of T&S Fig 1.4 from
// infinitely many sequences, the other parameters held at their true
// values, by exact EM and by each approximation: all of them
// under-estimate λ = 0.9, and the chain-factored q_FC least (Appendix A).
func Example() {
	truth := vembias.Params{vembias.Lambda: 0.9, vembias.SigmaX2: 0.19, vembias.SigmaY2: 0.43,
		vembias.Norm1: 1, vembias.Norm2: 1}
	for _, q := range vembias.Approxes {
		pr := &vembias.Problem{Obs: 2, Truth: truth, Approx: q, Free: []vembias.Param{vembias.Lambda}}
		grid, err := pr.Grid(2001)
		if err != nil {
			panic(err)
		}
		vem, run, err := pr.RunVEM([]float64{0.5}, vembias.Converged(10000))
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-3v λ̂ = %.3f (vEM %.3f after %d iterations)\n", q, grid.X[0], vem.X[0], run.Iterations)
	}
	// Output:
	// ml  λ̂ = 0.900 (vEM 0.900 after 27 iterations)
	// mf  λ̂ = 0.735 (vEM 0.735 after 16 iterations)
	// fc  λ̂ = 0.816 (vEM 0.816 after 14 iterations)
	// ft  λ̂ = 0.735 (vEM 0.735 after 16 iterations)
	// map λ̂ = 0.735 (vEM 0.735 after 16 iterations)
}
