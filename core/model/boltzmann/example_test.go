package boltzmann_test

import (
	"fmt"
	"log"

	"github.com/vbworkbench/vbw/core/model/boltzmann"
)

// A machine of six units all pulling together has two modes, all +1 and
// all −1. Mean field can hold only one; a two-component mixture holds
// both, and its bound on ln Z is higher by nearly ln 2 (here it is
// within 1e-4 of the exact ln Z), and its ⟨s_0⟩ is the exact 0.
func Example() {
	m := boltzmann.NewMachine(6)
	for i := 0; i < 6; i++ {
		for j := i + 1; j < 6; j++ {
			m.SetWeight(i, j, 1)
		}
	}
	ex, err := m.Exact(nil)
	if err != nil {
		log.Fatal(err)
	}
	sched := boltzmann.GeometricSchedule(10, 1, 4)
	up := []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1}
	down := []float64{-0.1, -0.1, -0.1, -0.1, -0.1, -0.1}
	mf, _ := boltzmann.NewMeanField(m, nil, up)
	a, err := mf.Anneal(sched, boltzmann.Settings{})
	if err != nil {
		log.Fatal(err)
	}
	mix, _ := boltzmann.NewMixture(m, nil, [][]float64{up, down})
	b, err := mix.Anneal(sched, boltzmann.Settings{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("ln Z %.4f, mean field %.4f, mixture %.4f\n", ex.LogZ, a.Bound, b.Bound)
	fmt.Printf("<s0 s1>: exact %.3f, mean field %.3f, mixture %.3f\n", ex.Pair[1], mf.Moments().Pair[1], mix.Moments().Pair[1])
	fmt.Printf("<s0>: exact %.3f, mean field %.3f, mixture %.3f\n", ex.Mean[0], mf.Mu[0], mix.Moments().Mean[0])
	// Output:
	// ln Z 15.6934, mean field 15.0003, mixture 15.6934
	// <s0 s1>: exact 1.000, mean field 1.000, mixture 1.000
	// <s0>: exact 0.000, mean field 1.000, mixture -0.000
}
