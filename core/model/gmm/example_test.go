package gmm_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/gmm"
	"github.com/vbworkbench/vbw/core/vb"
)

// Fit six components with α₀ = 10⁻³ to two clusters: the surplus
// components are emptied (PRML Fig. 10.6), and F + ln K! is the score for
// comparing K (section 10.2.4).
func Example() {
	rnd := rand.New(rand.NewPCG(1, 2))
	var x []float64
	for i := 0; i < 200; i++ {
		c := float64(2*(i%2) - 1) // clusters at (−2, −2) and (2, 2)
		x = append(x, 2*c+0.5*rnd.NormFloat64(), 2*c+0.5*rnd.NormFloat64())
	}
	m, err := gmm.NewVB(x, 2, 6, gmm.DefaultPrior(2, 1e-3), rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		panic(err)
	}
	res := vb.Run(m, vb.Settings{MaxIterations: 500})
	used := 0
	for _, w := range m.MeanWeights(nil) {
		if w > 0.01 {
			used++
		}
	}
	fmt.Println(res.Status, "components used:", used)
	fmt.Printf("F = %.2f, F + ln 6! = %.2f\n", res.F, res.F+gmm.LogFactorial(6))
	// Output:
	// converged components used: 2
	// F = -483.89, F + ln 6! = -477.31
}
