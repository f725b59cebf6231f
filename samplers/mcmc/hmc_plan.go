package mcmc

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/vbworkbench/vbw/core/parallel"
	"github.com/vbworkbench/vbw/core/rng"
)

// Plan is a burn-in and thinning plan for one chain: Burn transitions are
// discarded, then Keep states are kept, each after Thin transitions (Thin
// 0 means 1). Lawrence's Table 5.1 run (L2183) is Plan{Burn: 100, Keep:
// 100}: 200 samples, the first 100 ignored.
type Plan struct {
	Burn, Keep, Thin int
}

// thin returns Thin, with 0 read as 1.
func (p Plan) thin() int { return max(p.Thin, 1) }

// Check refuses negative counts and a plan that keeps nothing.
func (p Plan) Check() error {
	if p.Burn < 0 || p.Keep < 1 || p.Thin < 0 {
		return fmt.Errorf("mcmc: plan burn %d, keep %d, thin %d: want burn ≥ 0, keep ≥ 1, thin ≥ 0", p.Burn, p.Keep, p.Thin)
	}
	return nil
}

// Transitions is the number of transitions of the plan, Burn + Keep·Thin.
func (p Plan) Transitions() int { return p.Burn + p.Keep*p.thin() }

// Kept reports whether the state after transition t (0-based) is kept,
// and its index among the kept states.
func (p Plan) Kept(t int) (int, bool) {
	s := t + 1 - p.Burn
	if s <= 0 || s%p.thin() != 0 {
		return 0, false
	}
	return s/p.thin() - 1, true
}

// Run makes the plan's transitions of k from pt at inverse temperature
// beta, calls keep(i, pt) with each kept state (i = 0..Keep−1; keep must
// copy what it needs, the next Step may reuse pt.X's buffer), and returns
// the counts of the transitions after the burn-in.
func Run[S any](k Kernel[S], pt *Point[S], beta float64, plan Plan, rnd *rand.Rand, keep func(i int, pt *Point[S])) Stats {
	var st Stats
	for t := range plan.Transitions() {
		s := k.Step(pt, beta, rnd)
		if t >= plan.Burn {
			st.Add(s)
		}
		if i, ok := plan.Kept(t); ok && keep != nil {
			keep(i, pt)
		}
	}
	return st
}

// ChainStream returns the random stream of chain c of a run whose streams
// are named by labels under seed: rng.New(seed, labels…, "chain", c).
func ChainStream(seed uint64, c int, labels ...string) *rand.Rand {
	l := append(append([]string(nil), labels...), "chain", strconv.Itoa(c))
	return rng.New(seed, l...)
}

// Chains runs n independent chains, run(c, rnd) for c = 0..n−1, on
// Workers(workers, n) goroutines of core/parallel, chain c drawing only
// from ChainStream(seed, c, labels…), and returns their results by chain.
// The results are therefore the same for any number of workers. The first
// error (of the lowest chain) stops the hand-out and is returned.
func Chains[T any](n, workers int, seed uint64, labels []string, run func(c int, rnd *rand.Rand) (T, error)) ([]T, error) {
	out := make([]T, n)
	err := parallel.ForErr(n, workers, func(c int) error {
		v, err := run(c, ChainStream(seed, c, labels...))
		if err != nil {
			return fmt.Errorf("chain %d: %w", c, err)
		}
		out[c] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
