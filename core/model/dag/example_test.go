package dag_test

import (
	"fmt"

	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/rng"
)

// Score a structure with two binary hidden causes on six observations of
// four 5-valued variables (0-based states), and compare the scores with the
// exact log marginal likelihood, which six data points still allow to be
// computed by enumeration. VB and Cheeseman–Stutz are lower bounds on it;
// the maximum log-likelihood (the "MAP" score) is far above it.
func Example() {
	rows := [][]int{{0, 1, 2, 3}, {4, 4, 0, 1}, {2, 2, 2, 2}, {0, 1, 2, 4}, {3, 0, 1, 2}, {2, 2, 1, 2}}
	data, err := dag.NewData(rows)
	if err != nil {
		panic(err)
	}
	s := dag.TrueCode.Structure() // s1 → y3, y4, y5; s2 → y4, y5, y6
	p, err := dag.NewProblem(s, s.SymmetricPrior(1), data)
	if err != nil {
		panic(err)
	}
	sc, err := p.Score(dag.Settings{Restarts: 10}, rng.New(2003, "example"))
	if err != nil {
		panic(err)
	}
	exact, _ := p.Exact()
	fmt.Printf("exact ln p(y|m) = %.2f\n", exact)
	fmt.Printf("VB* = %.2f  CS* = %.2f  BIC* = %.2f  MAP = %.2f\n", sc.VB.F, sc.EM.CS, sc.EM.BIC, sc.EM.LogLik)
	// Output:
	// exact ln p(y|m) = -39.37
	// VB* = -44.02  CS* = -45.90  BIC* = -61.61  MAP = -16.82
}
