package atlas

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/dag"
)

// TestDAGEPLogAliases checks the alias correction of EP's q in its three
// exact cases on chapter 6's structure (S = 4 relabellings of its two
// binary hidden nodes): a relabelling-symmetric q (every count equal) has
// one distinct copy, ln S_eff = 0; a concentrated q (counts 10⁴ θ, whose
// relabelled copies have Bhattacharyya coefficients below e^−100) has S,
// ln 4; the average of such a q and its relabelling of one hidden node is
// invariant under that relabelling (a swap) and has S/2 copies, ln 2. The
// tolerance 1e-9 covers the neglected coefficients and rounding.
func TestDAGEPLogAliases(t *testing.T) {
	s := dag.TrueCode.Structure()
	perms := relabellings(s)
	if len(perms) != 4 {
		t.Fatalf("%d relabellings, want 4", len(perms))
	}
	flat := make(dag.Params, s.Len())
	for i := range flat {
		flat[i] = 2.5
	}
	if got, _ := dagEPLogAliases(s, perms, flat); math.Abs(got) > 1e-9 {
		t.Errorf("symmetric q: ln S_eff = %v, want 0", got)
	}
	theta := s.RandomParams(rand.New(rand.NewPCG(36, 4)))
	sharp := make(dag.Params, len(theta))
	for i, v := range theta {
		sharp[i] = 1e4*v + 1
	}
	if got, _ := dagEPLogAliases(s, perms, sharp); math.Abs(got-math.Log(4)) > 1e-9 {
		t.Errorf("concentrated q: ln S_eff = %v, want ln 4", got)
	}
	swap := relabelNode(s, s.Hidden()[0], []int{1, 0})
	half := make(dag.Params, len(sharp))
	for i := range half {
		half[i] = (sharp[i] + sharp[swap[i]]) / 2
	}
	if got, _ := dagEPLogAliases(s, perms, half); math.Abs(got-math.Log(2)) > 1e-9 {
		t.Errorf("q invariant under one node's swap: ln S_eff = %v, want ln 2", got)
	}
}
