package ltu_test

import (
	"fmt"

	"github.com/vbworkbench/vbw/core/model/ltu"
	"github.com/vbworkbench/vbw/core/rng"
)

// Example learns XOR, which no single threshold unit represents, with ten
// hidden linear threshold units: seven steps of zero-temperature
// inference (annealed from T = 1000) and a maximum-margin problem per unit.
func Example() {
	x := [][]float64{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}
	t := []float64{-1, 1, 1, -1}
	net := ltu.NewNet(2, 10, rng.New(0, "ltu", "xor"))
	res, err := ltu.Fit(net, x, t, rng.New(0, "ltu", "order"), ltu.Settings{C: 100})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("training errors per iteration:", res.TrainErrors)
	fmt.Println("errors of the best network:", res.Best.Errors(x, t))
	s := make([]float64, net.H)
	for i := range x {
		fmt.Println(x[i], "→", res.Best.Forward(x[i], s))
	}
	// Output:
	// training errors per iteration: [0 0 0 0 0 0 0]
	// errors of the best network: 0
	// [-1 -1] → -1
	// [-1 1] → 1
	// [1 -1] → 1
	// [1 1] → -1
}
