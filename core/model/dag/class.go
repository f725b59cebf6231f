package dag

import (
	"fmt"
	"math/bits"
)

// Code names a structure of the chapter-6 class (Beal (2003) lines
// 4681–4686; targets §3.0): two binary hidden nodes s1, s2 (nodes 0 and 1,
// the thesis's nodes 1 and 2) without parents, and four 5-valued observed
// nodes y3…y6 (nodes 2…5) whose only possible parents are the hidden nodes.
// Code[i] ∈ {0,1,2,3} gives the parents of observed node i+2: bit 0 (value 1)
// is the edge s1→y, bit 1 (value 2) the edge s2→y; so 0 is no parent, 1 is
// {s1}, 2 is {s2} and 3 is {s1, s2} (in that order, l = 2·s1 + s2).
type Code [4]uint8

// TrueCode is the generating structure of Fig. 6.1 as the targets
// reconstruct it (§3.0, §4 item 1): s1→{y3, y4, y5}, s2→{y4, y5, y6}; it has
// d = 50 parameters.
var TrueCode = Code{1, 3, 3, 2}

// TrueIndex is the position of TrueCode in Candidates.
const TrueIndex = 98

// NumCandidates is the number of structures of the class after identifying
// a graph with its image under the swap of the hidden nodes: 2^8 = 256
// graphs become 136 (line 4683).
const NumCandidates = 136

// Class arities.
const (
	HiddenArity   = 2 // |s_ij|
	ObservedArity = 5 // |y_ij|
)

// Key returns 64·c3 + 16·c4 + 4·c5 + c6.
func (c Code) Key() int { return int(c[0])<<6 | int(c[1])<<4 | int(c[2])<<2 | int(c[3]) }

// codeOfKey is the inverse of Key.
func codeOfKey(k int) Code {
	return Code{uint8(k >> 6 & 3), uint8(k >> 4 & 3), uint8(k >> 2 & 3), uint8(k & 3)}
}

// Swap returns σ(c), the code of the same graph with the hidden nodes
// relabelled s1 ↔ s2 (1 ↔ 2; 0 and 3 unchanged).
func (c Code) Swap() Code {
	var s Code
	for i, v := range c {
		s[i] = v>>1 | (v&1)<<1
	}
	return s
}

// Canonical reports whether c is the representative of its swap class, the
// one with the smaller key.
func (c Code) Canonical() bool { return c.Key() <= c.Swap().Key() }

// String returns the four digits c3c4c5c6, e.g. "1332".
func (c Code) String() string { return fmt.Sprintf("%d%d%d%d", c[0], c[1], c[2], c[3]) }

// ParseCode parses the four-digit form of String.
func ParseCode(s string) (Code, error) {
	var c Code
	if len(s) != 4 {
		return c, fmt.Errorf("dag: structure code %q: need 4 digits", s)
	}
	for i := range c {
		d := s[i] - '0'
		if d > 3 {
			return c, fmt.Errorf("dag: structure code %q: digit %q is not 0–3", s, s[i])
		}
		c[i] = d
	}
	return c, nil
}

// NumParams returns d(m) = 2 + Σ_j 4·2^popcount(c_j) (eq. (6.24)), from 18
// to 66.
func (c Code) NumParams() int {
	d := 2
	for _, v := range c {
		d += (ObservedArity - 1) << bits.OnesCount8(v)
	}
	return d
}

// HUsed returns the number of hidden nodes with at least one child.
func (c Code) HUsed() int {
	var or uint8
	for _, v := range c {
		or |= v
	}
	return bits.OnesCount8(or)
}

// Contains reports whether every edge of d is an edge of c.
func (c Code) Contains(d Code) bool {
	for i := range c {
		if d[i]&^c[i] != 0 {
			return false
		}
	}
	return true
}

// Structure returns the DAG of c. Both hidden nodes are always present,
// with or without children (targets §1.6; Structure.Prune removes the
// childless ones).
func (c Code) Structure() *Structure {
	arity := []int{HiddenArity, HiddenArity, ObservedArity, ObservedArity, ObservedArity, ObservedArity}
	hidden := []bool{true, true, false, false, false, false}
	parents := make([][]int, 6)
	for i, v := range c {
		if v > 3 {
			panic("dag: structure code digit out of range")
		}
		var pa []int
		if v&1 != 0 {
			pa = append(pa, 0)
		}
		if v&2 != 0 {
			pa = append(pa, 1)
		}
		parents[i+2] = pa
	}
	return mustStructure(arity, parents, hidden)
}

// Candidates returns the 136 structures of the class in canonical order
// (targets §3.0): for key = 64·c3 + 16·c4 + 4·c5 + c6 from 0 to 255, keep c
// when Key(c) ≤ Key(σ(c)), in increasing key order. The first are 0000,
// 0001, 0003, 0010, …, the last 3333, and TrueCode is at TrueIndex.
func Candidates() []Code {
	out := make([]Code, 0, NumCandidates)
	for k := 0; k < 256; k++ {
		if c := codeOfKey(k); c.Canonical() {
			out = append(out, c)
		}
	}
	return out
}

// trueRows are the thesis's generating parameters (lines 4696–4704),
// verbatim: rows in the configuration order of Structure, columns the
// states 1…5 (or 1…2). Several rows sum to 0.99 or 1.01 by rounding.
var trueRows = [6][][]float64{
	{{.12, .88}},
	{{.08, .92}},
	{{.03, .03, .64, .02, .27}, {.18, .15, .22, .19, .27}},
	{{.10, .54, .07, .14, .15}, {.04, .15, .59, .05, .16}, {.20, .08, .36, .17, .18}, {.19, .45, .10, .09, .17}},
	{{.11, .47, .12, .30, .01}, {.27, .07, .16, .25, .25}, {.52, .14, .15, .02, .17}, {.04, .00, .37, .33, .25}},
	{{.10, .08, .43, .03, .36}, {.30, .14, .07, .04, .45}},
}

// TrueParams returns the generating parameters of TrueCode's structure
// (Beal (2003) lines 4696–4704) with every row renormalised to sum to one
// (targets §4 item 2). The exact zero of θ5 stays zero.
func TrueParams() Params {
	s := TrueCode.Structure()
	theta := make(Params, s.Len())
	for j, rows := range trueRows {
		for l, r := range rows {
			var sum float64
			for _, v := range r {
				sum += v
			}
			dst := s.Row(theta, j, l)
			for k, v := range r {
				dst[k] = v / sum
			}
		}
	}
	return theta
}
