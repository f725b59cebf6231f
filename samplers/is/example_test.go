package is_test

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/samplers/is"
)

// quadratic is the unnormalised density exp(−½ θᵀAθ) with
// A = [[2, 0.5], [0.5, 1]], whose normaliser is Z = 2π/√|A|.
type quadratic struct{}

func (quadratic) LogProb(th []float64) float64 {
	return -0.5 * (2*th[0]*th[0] + th[0]*th[1] + th[1]*th[1])
}

// ExampleSampleRuns estimates ln Z with a heavy-tailed proposal (a t with
// ν = 4 and unit scale) from 8 independent runs of 5000 samples on 2
// goroutines.
func ExampleSampleRuns() {
	var chol mat.Cholesky
	chol.Factorize(mat.NewSymDense(2, []float64{1, 0, 0, 1}))
	q := is.NewStudentT(4, []float64{0, 0}, &chol)

	runs, s := is.SampleRuns(8, 5000, 2, is.RunStreams(1, "example"),
		func() (is.Proposal, is.Target) { return q, quadratic{} })

	exact := math.Log(2*math.Pi) - 0.5*math.Log(1.75)
	fmt.Printf("ln Z: exact %.2f, estimate %.2f\n", exact, s.Mean)
	fmt.Println("within 3 SE:", math.Abs(s.Mean-exact) < 3*s.SE)
	fmt.Println("KL(q‖p) ≥ 0 in run 0:", runs[0].KL() >= 0)
	// Output:
	// ln Z: exact 1.56, estimate 1.56
	// within 3 SE: true
	// KL(q‖p) ≥ 0 in run 0: true
}
