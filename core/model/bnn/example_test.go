package bnn_test

import (
	"fmt"

	"github.com/vbworkbench/vbw/core/model/bnn"
)

// A 1-2-1 network (eq. 5.2): its output, and the squared error of eq. 5.5
// on two points.
func Example() {
	a := bnn.Arch{In: 1, Hidden: 2}
	w := []float64{1, 0, -1, 0.5, 2, -1, 0.1} // u_0, b_0, u_1, b_1, v_0, v_1, v_bias
	fmt.Printf("K = %d weights\n", a.NumWeights())
	fmt.Printf("f(0.5) = %.4f\n", a.Forward(w, []float64{0.5}, nil))
	x := [][]float64{{0}, {1}}
	fmt.Printf("E_D = %.4f\n", a.ErrorGrad(w, x, []float64{0, 1}, nil, nil))
	// Output:
	// K = 7 weights
	// f(0.5) = 0.8658
	// E_D = 0.3998
}
