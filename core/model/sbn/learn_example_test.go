package sbn_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/sbn"
)

// Learning (§2.5.2): a 2-4-6 net presented one pattern 20 times, each
// presentation a mean-field fit and a gradient step of the bound in the
// weights; the pattern's exact ln P(V) rises.
func ExampleLearnStep() {
	net, _ := sbn.Random([]int{2, 4, 6}, 0.1, rand.New(rand.NewPCG(1, 2)))
	v := []float64{1, 1, 0, 0, 1, 1}
	before, _ := net.ExactLogLik(v)
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		net, _, _ = sbn.LearnStep(net, v, sbn.Settings{}, 0.5, r)
	}
	after, _ := net.ExactLogLik(v)
	fmt.Printf("ln P(V) before %.3f, after %.3f\n", before, after)
	// Output:
	// ln P(V) before -4.057, after -0.236
}
