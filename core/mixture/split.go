package mixture

import (
	"slices"

	"github.com/vbworkbench/vbw/core/vb"
)

// The shape of a split search (D'Souza (2004) Algorithm 2, L771–786) that
// does not depend on what a component is: the local 1-vs-2 test of each
// component, cached per state; the count of the local fits' work; the
// proposal of the first untried component whose test favours two; and the
// split of its responsibilities. core/model/gmm's and core/model/mfa's
// Splitters are built from these.

// LocalFits counts the work of a split search's local fits, which is
// outside the global model's and which vb.Search's budget does not see.
type LocalFits struct {
	// LocalIterations counts the iterations of every local fit so far,
	// LocalPointIterations the same weighted by each fit's points.
	LocalIterations, LocalPointIterations int
}

// RunLocal is vb.Run(m, s) for a local fit to pts points, counted.
func (c *LocalFits) RunLocal(m vb.Model, s vb.Settings, pts int) vb.Result {
	r := vb.Run(m, s)
	c.LocalIterations += r.Iterations
	c.LocalPointIterations += r.Iterations * pts
	return r
}

// SplitCache holds the local tests of one state of a model, identified
// by a fingerprint of that state.
type SplitCache[T any] struct {
	tests map[int]T
	key   []float64
}

// Test returns the test of component j at the state whose fingerprint is
// key: the cached one if that state's test of j was made, else test(),
// cached unless it failed. A new fingerprint empties the cache.
func (c *SplitCache[T]) Test(key []float64, j int, test func() (T, error)) (T, error) {
	if !slices.Equal(key, c.key) {
		c.key, c.tests = key, map[int]T{}
	}
	if t, ok := c.tests[j]; ok {
		return t, nil
	}
	t, err := test()
	if err != nil {
		return t, err
	}
	c.tests[j] = t
	return t, nil
}

// ProposeSplit returns the move kind of the first of k components, in
// index order, that has not been tried since the last accepted move and
// for which favours is true (Algorithm 2's loop over m, L774); ok is false
// when there is none ("until no split occurs", L785).
func ProposeSplit(kind string, k int, favours func(j int) bool, log []vb.MoveRecord) (vb.Move, bool) {
	var cands []vb.Move
	for j := 0; j < k; j++ {
		if favours(j) {
			cands = append(cands, vb.Move{Kind: kind, Component: j, Other: -1})
		}
	}
	return vb.Untried(log, cands)
}

// SplitResp returns the responsibilities r (S components of n points,
// component-major) with a new component S that takes, of each point
// pts[a] of component j, the share 1 − rho[a] of q(s = j), j keeping
// rho[a] q(s = j) (Algorithm 2, lines 6–8); the other points are left as
// they are. r is not modified (the result is new, as Add's).
func SplitResp(r []float64, n, j int, pts []int, rho []float64) []float64 {
	s := len(r) / n
	out := Add(r, n)
	for a, i := range pts {
		q := out[j*n+i]
		out[j*n+i], out[s*n+i] = rho[a]*q, (1-rho[a])*q
	}
	return out
}
