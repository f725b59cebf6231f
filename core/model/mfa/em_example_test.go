package mfa_test

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Fit the BIC-penalised maximum-likelihood MFA, the baseline of Beal (2003)
// section 4.6.2, to three clusters in 3-D (one elongated along a line),
// starting from one analyser and adding analysers by responsibility-split
// births while BIC rises, with epochs ended by the agitation rule of the
// VB search. Then evaluate the fitted density at a test point.
func ExampleEM() {
	rnd := rand.New(rand.NewPCG(2003, 4)) // the data
	y := mat.NewDense(180, 3, nil)
	for i := 0; i < 180; i++ {
		switch c := i / 60; c {
		case 0: // elongated along (1, 1, 0)
			t := 2 * rnd.NormFloat64()
			y.SetRow(i, []float64{t + 0.2*rnd.NormFloat64(), t + 0.2*rnd.NormFloat64(), 0.2 * rnd.NormFloat64()})
		default: // round, centred at (8, 0, 0) and (0, 8, 4)
			mu := [][]float64{{8, 0, 0}, {0, 8, 4}}[c-1]
			y.SetRow(i, []float64{mu[0] + 0.5*rnd.NormFloat64(), mu[1] + 0.5*rnd.NormFloat64(), mu[2] + 0.5*rnd.NormFloat64()})
		}
	}
	z, _, st, err := numeric.Standardise(y, nil, numeric.RefuseConstant)
	if err != nil {
		panic(err)
	}

	// One analyser of k = 1 factor (a PCA of all the data), Ψ ≥ 1e-5, BIC as
	// the objective, births from their own stream, three rounds of tries.
	m, err := mfa.NewEM(z, 1, 1, 1e-5, rand.New(rand.NewPCG(2003, 5)))
	if err != nil {
		panic(err)
	}
	m.Objective = mfa.BICObjective
	m.Moves = mfa.EMMoveSettings{Rand: rand.New(rand.NewPCG(2003, 6)), MaxTries: 3}
	res := vb.Search(m, vb.SearchSettings{Run: vb.Settings{MaxIterations: 2000, Converger: m.EpochConverger(0, 1e-6, 2)}})
	if res.Err != nil {
		panic(res.Err)
	}

	accepted := 0
	for _, mv := range res.Moves {
		if mv.Accepted {
			accepted++
		}
	}
	fmt.Printf("analysers: %d (%d births accepted of %d tried)\n", m.Size(), accepted, len(res.Moves))
	for s := 0; s < m.Size(); s++ {
		fmt.Printf("analyser %d: π = %.3f\n", s, m.Pi[s])
	}
	fmt.Printf("BIC = %.1f, ln p(y|θ) = %.1f\n", m.BIC(), m.LogLik())

	d, err := m.Density()
	if err != nil {
		panic(err)
	}
	zt, err := st.Apply(mat.NewDense(1, 3, []float64{8, 0, 0}))
	if err != nil {
		panic(err)
	}
	test := zt.RawRowView(0)
	fmt.Printf("ln p at the centre of the second cluster (z-scored): %.2f\n", d.LogDensity(test))
	// Output:
	// analysers: 3 (2 births accepted of 11 tried)
	// analyser 0: π = 0.333
	// analyser 1: π = 0.333
	// analyser 2: π = 0.333
	// BIC = -80.2, ln p(y|θ) = -20.4
	// ln p at the centre of the second cluster (z-scored): 1.70
}
