package mfa_test

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Fit a variational Bayesian mixture of factor analysers to three clusters
// in 3-D (one of them elongated along a line), starting from a single
// analyser and letting the search add analysers by births while F rises
// (an analyser left with less than one point of responsibility is removed
// inside the sweep, the thesis's death rule). The model finds the three clusters, and ARD
// keeps one factor only in the analyser of the elongated cluster.
func Example() {
	rnd := rand.New(rand.NewPCG(2003, 1)) // the data
	y := mat.NewDense(150, 3, nil)
	for i := 0; i < 150; i++ {
		switch c := i / 50; c {
		case 0: // elongated along (1, 1, 0)
			t := 2 * rnd.NormFloat64()
			y.SetRow(i, []float64{t + 0.2*rnd.NormFloat64(), t + 0.2*rnd.NormFloat64(), 0.2 * rnd.NormFloat64()})
		default: // round, centred at (8, 0, 0) and (0, 8, 4)
			mu := [][]float64{{8, 0, 0}, {0, 8, 4}}[c-1]
			y.SetRow(i, []float64{mu[0] + 0.5*rnd.NormFloat64(), mu[1] + 0.5*rnd.NormFloat64(), mu[2] + 0.5*rnd.NormFloat64()})
		}
	}
	z, _, _, err := numeric.Standardise(y, nil, numeric.RefuseConstant)
	if err != nil {
		panic(err)
	}

	// One analyser with up to k = 2 factors; births draw their split
	// directions from their own stream.
	m, err := mfa.NewVBRandom(z, 1, mfa.Settings{K: 2}, rand.New(rand.NewPCG(2003, 2)))
	if err != nil {
		panic(err)
	}
	m.Moves = mfa.MoveSettings{Rand: rand.New(rand.NewPCG(2003, 3)), MaxTries: 3}
	res := vb.Search(m, vb.SearchSettings{Run: vb.Settings{Hyper: mfa.DefaultSchedule()}})
	if res.Err != nil {
		panic(res.Err)
	}

	used := 0
	for _, n := range m.Counts() {
		if n >= 1 { // at least one data point's worth of responsibility
			used++
		}
	}
	fmt.Printf("analysers used: %d\n", used)
	for s := 0; s < m.Size(); s++ {
		fmt.Printf("analyser holding %.0f points: %d active factor(s)\n", m.Counts()[s], m.ActiveDims(s, 0.1))
	}
	fmt.Printf("F = %.1f nats\n", res.F)
	// Output:
	// analysers used: 3
	// analyser holding 50 points: 0 active factor(s)
	// analyser holding 50 points: 0 active factor(s)
	// analyser holding 50 points: 1 active factor(s)
	// F = -69.7 nats
}
