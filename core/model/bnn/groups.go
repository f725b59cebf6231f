package bnn

import "fmt"

// Prior names how the weights share prior precisions (L1878 and Tables
// 6.1, 6.2).
type Prior int

const (
	// Single is one α for every weight (eq. 5.6).
	Single Prior = iota
	// Grouped is the four connectivity groups of the toy (L2130): input
	// weights, hidden biases, output weights, output bias.
	Grouped
	// ARD is one α per input (its fan-out to the hidden units), one for
	// the hidden biases, one for the output weights and one for the output
	// bias: automatic relevance determination of the inputs.
	ARD
)

func (p Prior) String() string {
	switch p {
	case Single:
		return "single"
	case Grouped:
		return "grouped"
	case ARD:
		return "ard"
	case NRD:
		return "nrd"
	}
	return fmt.Sprintf("Prior(%d)", int(p))
}

// Groups returns the number of precision groups of prior p and the group
// of every weight of w's layout (see Arch).
func (a Arch) Groups(p Prior) (int, []int) {
	g := make([]int, a.NumWeights())
	switch p {
	case Single:
		return 1, g
	case Grouped:
		for k := range g {
			g[k] = a.group4(k)
		}
		return 4, g
	case ARD:
		// inputs 0..In-1, then hidden biases, output weights, output bias.
		for k := range g {
			if k < a.U() && k%(a.In+1) < a.In {
				g[k] = k % (a.In + 1)
			} else {
				g[k] = a.In + a.group4(k) - 1
			}
		}
		return a.In + 3, g
	}
	panic(fmt.Sprintf("bnn: unknown prior %d", int(p)))
}

// group4 is the connectivity group of weight k: 0 input weights, 1 hidden
// biases, 2 output weights, 3 the output bias.
func (a Arch) group4(k int) int {
	switch {
	case k < a.U() && k%(a.In+1) < a.In:
		return 0
	case k < a.U():
		return 1
	case k < a.NumWeights()-1:
		return 2
	}
	return 3
}
