package dag

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Structure is a discrete DAG: the arity |z_ij| of every node, its ordered
// parent list pa(j) and whether it is hidden (j ∈ H) or observed (j ∈ V)
// (Beal (2003) section 6.2, eqs. (6.1)–(6.3)). It is immutable once built by
// NewStructure.
//
// The parent configuration l of node j is the mixed-radix number of its
// parents' states, the first parent most significant:
//
//	l = (…((z_pa1)·|z_pa2| + z_pa2)·|z_pa3| + …) + z_paL,
//
// so that two binary parents give l = 2·s1 + s2, the row order [1 1], [1 2],
// [2 1], [2 2] of the thesis (seed text line 4702). All states are 0-based.
//
// The parameters θ of a structure are one flat vector (see Params): node j's
// row l, θ_jl = (θ_jl1, …, θ_jl|z_j|), occupies θ[Offset(j)+l·Arity(j) :
// Offset(j)+(l+1)·Arity(j)], nodes in index order.
type Structure struct {
	arity    []int
	parents  [][]int
	hidden   []bool
	offset   []int // first θ entry of each node
	rows     []int // parent configurations of each node
	order    []int // a topological order
	hid, obs []int // hidden and observed node indices, increasing
	children []int // number of children of each node
	size     int   // total number of θ entries
}

// ErrCyclic is returned by NewStructure for a graph with a directed cycle.
var ErrCyclic = errors.New("dag: the graph has a directed cycle")

// NewStructure validates and returns the structure with the given arities,
// parent lists and hidden flags (all copied). It returns an error unless the
// three slices have the same positive length, every arity is ≥ 2, every
// parent index is another node's and appears once in its list, at least one
// node is observed, and the graph is acyclic (ErrCyclic).
func NewStructure(arity []int, parents [][]int, hidden []bool) (*Structure, error) {
	nn := len(arity)
	if nn == 0 || len(parents) != nn || len(hidden) != nn {
		return nil, fmt.Errorf("dag: %d arities, %d parent lists, %d hidden flags: need the same positive number", nn, len(parents), len(hidden))
	}
	s := &Structure{
		arity:    slices.Clone(arity),
		parents:  make([][]int, nn),
		hidden:   slices.Clone(hidden),
		offset:   make([]int, nn),
		rows:     make([]int, nn),
		children: make([]int, nn),
	}
	for j, a := range arity {
		if a < 2 {
			return nil, fmt.Errorf("dag: node %d has arity %d, need ≥ 2", j, a)
		}
		if hidden[j] {
			s.hid = append(s.hid, j)
		} else {
			s.obs = append(s.obs, j)
		}
	}
	if len(s.obs) == 0 {
		return nil, errors.New("dag: no observed node")
	}
	for j, pa := range parents {
		s.parents[j] = slices.Clone(pa)
		rows := 1
		for i, p := range pa {
			if p < 0 || p >= nn || p == j {
				return nil, fmt.Errorf("dag: node %d has parent %d, not another node", j, p)
			}
			if slices.Contains(pa[:i], p) {
				return nil, fmt.Errorf("dag: node %d lists parent %d twice", j, p)
			}
			rows *= arity[p]
			s.children[p]++
		}
		s.rows[j] = rows
	}
	for j := range arity {
		s.offset[j] = s.size
		s.size += s.rows[j] * arity[j]
	}
	// Kahn's algorithm; a node is ready once all its parents are placed.
	indeg := make([]int, nn)
	kids := make([][]int, nn)
	for j, pa := range s.parents {
		indeg[j] = len(pa)
		for _, p := range pa {
			kids[p] = append(kids[p], j)
		}
	}
	for j := range indeg {
		if indeg[j] == 0 {
			s.order = append(s.order, j)
		}
	}
	for i := 0; i < len(s.order); i++ {
		for _, c := range kids[s.order[i]] {
			if indeg[c]--; indeg[c] == 0 {
				s.order = append(s.order, c)
			}
		}
	}
	if len(s.order) != nn {
		return nil, ErrCyclic
	}
	return s, nil
}

// mustStructure is NewStructure for arguments known to be valid.
func mustStructure(arity []int, parents [][]int, hidden []bool) *Structure {
	s, err := NewStructure(arity, parents, hidden)
	if err != nil {
		panic(err)
	}
	return s
}

// Nodes returns the number of nodes |z_i|.
func (s *Structure) Nodes() int { return len(s.arity) }

// Arity returns |z_ij|, the number of states of node j.
func (s *Structure) Arity(j int) int { return s.arity[j] }

// Parents returns pa(j) in configuration order. The slice must not be
// modified.
func (s *Structure) Parents(j int) []int { return s.parents[j] }

// IsHidden reports whether node j is hidden (j ∈ H).
func (s *Structure) IsHidden(j int) bool { return s.hidden[j] }

// Hidden returns the hidden nodes in increasing order. The slice must not be
// modified.
func (s *Structure) Hidden() []int { return s.hid }

// Observed returns the observed nodes in increasing order; a datum lists
// their values in this order. The slice must not be modified.
func (s *Structure) Observed() []int { return s.obs }

// Children returns the number of children of node j.
func (s *Structure) Children(j int) int { return s.children[j] }

// Rows returns |z_ipa(j)|, the number of parent configurations of node j
// (1 for a node without parents, eq. (6.25)).
func (s *Structure) Rows(j int) int { return s.rows[j] }

// Offset returns the index in a Params vector of θ_j11, node j's first entry.
func (s *Structure) Offset(j int) int { return s.offset[j] }

// Len returns the length of a Params vector, Σ_j Rows(j)·Arity(j).
func (s *Structure) Len() int { return s.size }

// NumRows returns the number of Dirichlet rows θ_jl, Σ_j Rows(j).
func (s *Structure) NumRows() int {
	var r int
	for _, v := range s.rows {
		r += v
	}
	return r
}

// Row returns θ_jl, the row of node j for parent configuration l, as a
// subslice of theta (writes go through to theta).
func (s *Structure) Row(theta Params, j, l int) []float64 {
	if l < 0 || l >= s.rows[j] {
		panic("dag: parent configuration out of range")
	}
	a := s.arity[j]
	o := s.offset[j] + l*a
	return theta[o : o+a : o+a]
}

// Config returns the parent configuration l of node j under the complete
// assignment z (one state per node).
func (s *Structure) Config(j int, z []int) int {
	l := 0
	for _, p := range s.parents[j] {
		l = l*s.arity[p] + z[p]
	}
	return l
}

// NumParams returns the naive parameter count d(m) of eq. (6.24),
//
//	d(m) = Σ_j (|z_ij| − 1) Π_{l ∈ pa(j)} |z_il|,
//
// with the empty product equal to one (6.25). Every node counts, including
// a hidden node without children (targets §1.6: the unconnected chapter-6
// structure has d = 18).
func (s *Structure) NumParams() int {
	var d int
	for j, a := range s.arity {
		d += (a - 1) * s.rows[j]
	}
	return d
}

// HUsed returns the number of hidden nodes that have at least one child,
// h_used(m) of the targets (§3.0).
func (s *Structure) HUsed() int {
	var h int
	for _, j := range s.hid {
		if s.children[j] > 0 {
			h++
		}
	}
	return h
}

// Prune returns the structure without its childless hidden nodes, the
// ablation "prune_childless_hidden" of the targets (§1.6). The remaining
// nodes keep their relative order. Such a node does not change p(y|θ); it
// adds its own parameters to d(m) and slack to the VB bound.
func (s *Structure) Prune() *Structure {
	keep := make([]int, len(s.arity)) // new index, or −1
	var arity []int
	var hidden []bool
	for j := range s.arity {
		if s.hidden[j] && s.children[j] == 0 {
			keep[j] = -1
			continue
		}
		keep[j] = len(arity)
		arity = append(arity, s.arity[j])
		hidden = append(hidden, s.hidden[j])
	}
	parents := make([][]int, 0, len(arity))
	for j, pa := range s.parents {
		if keep[j] < 0 {
			continue
		}
		np := make([]int, len(pa))
		for i, p := range pa {
			np[i] = keep[p] // a pruned node has no children, so keep[p] ≥ 0
		}
		parents = append(parents, np)
	}
	return mustStructure(arity, parents, hidden)
}

// Params is a parameter vector of a Structure (the layout is described
// there): point parameters θ, Dirichlet hyperparameters λ, counts N or
// posterior pseudo-counts λ + N. As the state of an AIS chain it is θ.
type Params []float64

// Clone returns a copy of p.
func (p Params) Clone() Params { return slices.Clone(p) }

// SymmetricPrior returns the Dirichlet hyperparameters λ_jlk = lambda for
// every entry (eqs. (6.4)–(6.6)); the chapter-6 experiments use lambda = 1
// (seed text line 4694). It panics unless lambda is positive and finite.
func (s *Structure) SymmetricPrior(lambda float64) Params {
	if !(lambda > 0) || math.IsInf(lambda, 1) {
		panic("dag: prior pseudo-count not positive and finite")
	}
	u := make(Params, s.size)
	for i := range u {
		u[i] = lambda
	}
	return u
}

// CheckParams returns an error unless theta has the structure's length and
// every row is a probability vector (entries ≥ 0 summing to 1 within 1e-9).
func (s *Structure) CheckParams(theta Params) error {
	if len(theta) != s.size {
		return fmt.Errorf("dag: %d parameters, the structure has %d", len(theta), s.size)
	}
	for j := range s.arity {
		for l := 0; l < s.rows[j]; l++ {
			var sum float64
			for _, v := range s.Row(theta, j, l) {
				if !(v >= 0) {
					return fmt.Errorf("dag: θ of node %d, row %d has entry %v", j, l, v)
				}
				sum += v
			}
			if math.Abs(sum-1) > 1e-9 {
				return fmt.Errorf("dag: θ of node %d, row %d sums to %v", j, l, sum)
			}
		}
	}
	return nil
}

// LogMarginalCounts returns the complete-data log marginal likelihood of
// eq. (6.9),
//
//	ln p(z|m) = Σ_j Σ_l [ln Γ(λ⁰_jl) − ln Γ(λ⁰_jl + N_jl) + Σ_k (ln Γ(λ_jlk + N_jlk) − ln Γ(λ_jlk))],
//
// for counts N ≥ 0 in the layout of the structure (6.10); the counts may be
// fractional (expected counts, the ln p(ŝ,y|m) of eq. (6.32)). It panics if
// a length differs or a count is negative.
func (s *Structure) LogMarginalCounts(lambda, counts Params) float64 {
	if len(lambda) != s.size || len(counts) != s.size {
		panic("dag: parameter length mismatch")
	}
	var lp float64
	for j := range s.arity {
		for l := 0; l < s.rows[j]; l++ {
			u, n := s.Row(lambda, j, l), s.Row(counts, j, l)
			lp += logDirMultinomial(u, n)
		}
	}
	return lp
}

// logDirMultinomial is one row's factor of (6.9).
func logDirMultinomial(u, n []float64) float64 {
	var u0, n0, s float64
	for k, a := range u {
		if !(n[k] >= 0) {
			panic("dag: negative count")
		}
		u0 += a
		n0 += n[k]
		if n[k] != 0 {
			s += numeric.LogGamma(a+n[k]) - numeric.LogGamma(a)
		}
	}
	return s + numeric.LogGamma(u0) - numeric.LogGamma(u0+n0)
}

// Sample draws n complete data points from the DAG with parameters theta by
// ancestral sampling (each node from its row θ_jl given its parents, in
// topological order, eq. (6.1); targets §3.0) and returns the observed
// values, one row per datum in the order of Observed, and the hidden values
// in the order of Hidden (to be discarded for learning). It panics if theta
// fails CheckParams.
func Sample(s *Structure, theta Params, n int, rnd *rand.Rand) (observed, hidden [][]int) {
	if err := s.CheckParams(theta); err != nil {
		panic(err.Error())
	}
	observed = make([][]int, n)
	hidden = make([][]int, n)
	z := make([]int, len(s.arity))
	for i := 0; i < n; i++ {
		for _, j := range s.order {
			z[j] = drawRow(s.Row(theta, j, s.Config(j, z)), rnd)
		}
		observed[i] = make([]int, len(s.obs))
		for k, j := range s.obs {
			observed[i][k] = z[j]
		}
		hidden[i] = make([]int, len(s.hid))
		for k, j := range s.hid {
			hidden[i][k] = z[j]
		}
	}
	return observed, hidden
}

// drawRow draws a state from the probability vector row. A state with
// probability zero is never drawn.
func drawRow(row []float64, rnd *rand.Rand) int {
	u := rnd.Float64()
	last := 0
	for k, p := range row {
		if p == 0 {
			continue
		}
		last = k
		if u < p {
			return k
		}
		u -= p
	}
	return last // round-off: the last state with positive probability
}
