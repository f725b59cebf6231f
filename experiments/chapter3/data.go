package chapter3

import (
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/hmm"
)

// GrammarSpec describes the three-grammar generator reconstructed in the
// targets (§E3.1): the thesis's own list of example strings is missing from
// the seed text (L2123).
type GrammarSpec struct {
	PerGrammar int     // sequences per grammar (7, giving 21)
	MinLength  int     // lengths uniform on {MinLength, …, MaxLength}
	MaxLength  int     // "maximum length 39" (L2125)
	ABProb     float64 // probability of a in (a*b*)*
	// RandomPhase starts the two cycles at a uniformly chosen symbol;
	// otherwise they start at a.
	RandomPhase bool
}

// Generate draws PerGrammar sequences from each of (abc)*, (acb)* and
// (a*b*)* over {a=0, b=1, c=2}, in that order: contiguous substrings of the
// two cycles (a→b→c→a and a→c→b→a) and i.i.d. a/b symbols for the third
// (Beal 2003 section 3.5.1, L2123-L2125).
func (g GrammarSpec) Generate(rnd *rand.Rand) hmm.Data {
	d := hmm.Data{P: 3}
	length := func() int { return g.MinLength + rnd.IntN(g.MaxLength-g.MinLength+1) }
	cycles := [][3]int{{0, 1, 2}, {0, 2, 1}}
	for _, cyc := range cycles {
		for i := 0; i < g.PerGrammar; i++ {
			y := make([]int, length())
			phase := 0
			if g.RandomPhase {
				phase = rnd.IntN(3)
			}
			for t := range y {
				y[t] = cyc[(phase+t)%3]
			}
			d.Seqs = append(d.Seqs, y)
		}
	}
	for i := 0; i < g.PerGrammar; i++ {
		y := make([]int, length())
		for t := range y {
			if rnd.Float64() >= g.ABProb {
				y[t] = 1
			}
		}
		d.Seqs = append(d.Seqs, y)
	}
	return d
}
