package sbn_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/sbn"
	"github.com/vbworkbench/vbw/core/vb"
)

// A random 2-4-6 net with its six visible units at 0 (L1127): the
// exact ln P(V) by enumeration of the 64 latent states, the mean-field bound,
// the Markov-chain q's bound from the mean-field solution (the same stream
// gives the same mean field) and the bound of a 3-component mixture, each
// below it.
func Example() {
	net, _ := sbn.Random([]int{2, 4, 6}, 1, rand.New(rand.NewPCG(1, 2)))
	v := make([]float64, 6)
	L, _ := net.ExactLogLik(v)
	mf, _ := sbn.FitPattern(net, v, sbn.Settings{}, rand.New(rand.NewPCG(3, 4)))
	mc, _ := sbn.FitMarkovPattern(net, v, sbn.Settings{}, sbn.MarkovSettings{}, rand.New(rand.NewPCG(3, 4)))
	mix, _ := sbn.FitPattern(net, v, sbn.Settings{Components: 3, VB: vb.Settings{MaxIterations: 200}}, rand.New(rand.NewPCG(3, 4)))
	fmt.Printf("exact %.4f\nmean field %.4f\nMarkov chain %.4f\nmixture %.4f\n", L, mf.Bound, mc.Bound, mix.Bound)
	fmt.Println(mf.Bound <= mc.Bound, mc.Bound <= L, mix.Bound <= L)
	// Output:
	// exact -4.6452
	// mean field -4.7313
	// Markov chain -4.7267
	// mixture -4.6691
	// true true true
}
