package chapter3

import (
	"sort"

	"github.com/vbworkbench/vbw/core/model/hmm"
)

// Active returns the states whose expected occupancy Σ_i Σ_t γ_{i,t}(j) is
// at least threshold times the total number of symbols (targets §E3.2).
func Active(occupancy []float64, threshold float64) []int {
	var total float64
	for _, o := range occupancy {
		total += o
	}
	var act []int
	for j, o := range occupancy {
		if o >= threshold*total {
			act = append(act, j)
		}
	}
	return act
}

// Structure is the outcome of checking a learnt HMM over {a,b,c} against the
// 7-state model the thesis postulates (L2127, L2133).
type Structure struct {
	Active    []int    // active states
	ABState   int      // the self-transitioning a/b state, −1 if none
	Cycles    [][3]int // the deterministic 3-cycles found (states in order)
	Words     []string // the symbols each cycle spells, rotated to start at 'a'
	Recovered bool
}

// CheckStructure applies the definition of targets §E3.2 to the mean
// parameters θ (VB: row-normalised w) and the state occupancies: exactly 7
// active states; one emits a and b each with probability in [0.3, 0.7] and
// self-transitions with probability > 0.7; the other six each emit one
// symbol with probability > 0.8 and form two cycles under "most probable
// successor", one spelling abc and one acb.
func CheckStructure(θ hmm.Params, occupancy []float64, threshold float64) Structure {
	s := Structure{Active: Active(occupancy, threshold), ABState: -1}
	k, p := θ.K, θ.P
	if p != 3 {
		return s
	}
	active := make(map[int]bool, len(s.Active))
	for _, j := range s.Active {
		active[j] = true
	}
	dominant := make(map[int]int) // state -> dominant symbol
	nAB := 0
	for _, j := range s.Active {
		c := θ.C[j*p : (j+1)*p]
		if c[0] >= 0.3 && c[0] <= 0.7 && c[1] >= 0.3 && c[1] <= 0.7 && θ.A[j*k+j] > 0.7 {
			s.ABState = j
			nAB++
			continue
		}
		for m, v := range c {
			if v > 0.8 {
				dominant[j] = m
			}
		}
	}
	next := func(j int) int {
		best := 0
		for l := 1; l < k; l++ {
			if θ.A[j*k+l] > θ.A[j*k+best] {
				best = l
			}
		}
		return best
	}
	seen := make(map[int]bool)
	states := make([]int, 0, len(dominant))
	for j := range dominant {
		states = append(states, j)
	}
	sort.Ints(states)
	for _, j := range states {
		if seen[j] {
			continue
		}
		a := next(j)
		b := next(a)
		if next(b) != j || a == j || b == j || a == b {
			continue
		}
		_, okA := dominant[a]
		_, okB := dominant[b]
		if !okA || !okB {
			continue
		}
		cyc := [3]int{j, a, b}
		word := []byte{byte('a' + dominant[j]), byte('a' + dominant[a]), byte('a' + dominant[b])}
		for r := 0; r < 3 && word[0] != 'a'; r++ {
			word = append(word[1:], word[0])
		}
		seen[j], seen[a], seen[b] = true, true, true
		s.Cycles = append(s.Cycles, cyc)
		s.Words = append(s.Words, string(word))
	}
	words := append([]string(nil), s.Words...)
	sort.Strings(words)
	s.Recovered = len(s.Active) == 7 && nAB == 1 && len(dominant) == 6 &&
		len(words) == 2 && words[0] == "abc" && words[1] == "acb"
	return s
}
