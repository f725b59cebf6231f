package ais_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// The chapter-6 model satisfies the samplers' interfaces by its method sets
// (core/model/dag does not import the samplers).
var (
	_ ais.Model[dag.Params]     = (*dag.Problem)(nil)
	_ mcmc.Proposal[dag.Params] = (*dag.DirichletProposal)(nil)
)

// TestDAGEvidence runs Algorithm 6.1 of Beal (2003) on a discrete DAG with
// two hidden nodes (the true structure of chapter 6) and the six data
// points Y6 of ../shared/targets/ch6-dag.md §1.8, with the joint Dirichlet
// MH proposal (6.59)–(6.60) at the targets' strength α = 2500, and checks the pooled estimate (6.61) of 1000
// runs against the exact ln p(y|m) obtained by enumerating the hidden
// completions (test T13 of the targets).
func TestDAGEvidence(t *testing.T) {
	if testing.Short() {
		t.Skip("1000 annealing runs of 256 steps")
	}
	rows := [][]int{{0, 1, 2, 3}, {4, 4, 0, 1}, {2, 2, 2, 2}, {0, 1, 2, 4}, {3, 0, 1, 2}, {2, 2, 1, 2}}
	data, err := dag.NewData(rows)
	if err != nil {
		t.Fatal(err)
	}
	s := dag.TrueCode.Structure()
	p, err := dag.NewProblem(s, s.SymmetricPrior(1), data)
	if err != nil {
		t.Fatal(err)
	}
	exact, err := p.Exact()
	if err != nil {
		t.Fatal(err)
	}
	sampler := ais.Sampler[dag.Params]{
		Model: p,
		NewKernel: func() mcmc.Kernel[dag.Params] {
			return &mcmc.MH[dag.Params]{Target: p, Proposal: dag.NewDirichletProposal(s, 2500)}
		},
		Tau: ais.Nonlinear(256, 0.2),
	}
	rnds := make([]*rand.Rand, 1000)
	for g := range rnds {
		rnds[g] = rng.New(6, "ais-dag-test", strconv.Itoa(g))
	}
	runs := sampler.Runs(rnds, 2)
	logZ, se := ais.Pool(ais.LogWeights(runs))
	if math.Abs(logZ-exact) > 3*se || !(se < 0.5) {
		t.Errorf("AIS ln Z = %.4f ± %.4f, exact %.4f", logZ, se, exact)
	}
	if acc := runs[0].Stats(); acc.Accepted == 0 || acc.Accepted == acc.Proposed {
		t.Errorf("acceptance %d of %d", acc.Accepted, acc.Proposed)
	}
}
