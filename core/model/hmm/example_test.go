package hmm_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/vb"
)

// Fit a variational Bayesian HMM with more states than it needs to a few
// strings from two grammars, (abc)* and (acb)*, keeping the best of five
// random starts. VB switches the surplus states off (they keep almost no
// expected occupancy): on so little data one state per letter explains the
// strings best.
func Example() {
	data, err := hmm.Strings("abc",
		"abcabcabcabc", "bcabcabca", "cabcabcab", "abcabcabcabcab",
		"acbacbacbacb", "cbacbacba", "bacbacbac", "acbacbacbacba")
	if err != nil {
		panic(err)
	}
	const k = 8 // states available
	prior := hmm.SymmetricPrior(k, data.P, 4, 4, 4)

	best, bestF := (*hmm.VB)(nil), 0.0
	for restart := range uint64(5) {
		rnd := rand.New(rand.NewPCG(2003, restart))
		start := hmm.PosteriorFromParams(hmm.RandomParams(k, data.P, rnd), 10, 1e-10)
		m := hmm.NewVB(data, prior, start)
		r := vb.Run(m, vb.Settings{}) // defaults: F within 1e-3 nats of its limit
		if err := r.Error(); err != nil {
			panic(err)
		}
		if best == nil || r.F > bestF {
			best, bestF = m, r.F
		}
	}
	fmt.Printf("F = %.2f nats\n", bestF)
	active := 0
	for _, occ := range best.Counts().Occupancy() {
		if occ >= 0.01*float64(data.Symbols()) {
			active++
		}
	}
	fmt.Printf("active states: %d of %d\n", active, k)
	// Output:
	// F = -101.38 nats
	// active states: 3 of 8
}
