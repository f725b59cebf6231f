package moe_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/moe"
	"github.com/vbworkbench/vbw/core/vb"
)

// Grow a mixture of linear experts from one component by local splits
// (D'Souza's Algorithm 2) on the tent y = max(0, 1 − |x|) + noise on
// [−2, 2], four linear pieces.
func Example() {
	rnd := rand.New(rand.NewPCG(1, 2))
	var x, y []float64
	for i := 0; i < 400; i++ {
		xi := 4*rnd.Float64() - 2
		x = append(x, xi)
		y = append(y, math.Max(0, 1-math.Abs(xi))+0.05*rnd.NormFloat64())
	}
	m, err := moe.NewVB(x, y, 1, 1, moe.DefaultPrior(1), moe.Settings{}, nil)
	if err != nil {
		panic(err)
	}
	res := vb.Search(m, vb.SearchSettings{Run: vb.Settings{RelTol: 1e-9, AbsTol: 1e-6}})
	accepted := 0
	for _, mv := range res.Moves {
		if mv.Accepted {
			accepted++
		}
	}
	fmt.Println(res.Status, "splits accepted:", accepted, "components:", m.Occupied(1))
	fmt.Printf("F %.1f → %.1f\n", res.Runs[0].F, res.F)
	fmt.Printf("E[y | x = 0.5] = %.2f (true 0.5)\n", m.Predict([]float64{0.5}, make([]float64, m.K())))
	// Output:
	// converged splits accepted: 3 components: 4
	// F -769.0 → -108.4
	// E[y | x = 0.5] = 0.50 (true 0.5)
}
