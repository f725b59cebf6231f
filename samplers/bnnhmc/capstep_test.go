package bnnhmc

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vbworkbench/vbw/core/model/bnn"
)

// TestCapPriorStep checks bnn.HMCSettings.CapPriorStep on the tiny network
// with the grouped prior: with the output bias's group switched off
// (α = 10¹⁰, ε√α = 200 at the text's ε = 2×10⁻³) the plain leapfrog
// accepts nothing and the capped one mixes; with every ε√α_g ≤ 1 the
// capped chain is the plain one, sample for sample.
func TestCapPriorStep(t *testing.T) {
	p := tiny()
	_, group := p.Groups(bnn.Grouped)
	stiff := make([]float64, 4)
	for k := range stiff {
		stiff[k] = 1
	}
	stiff[group[p.NumWeights()-1]] = 1e10
	run := runTiny(p)
	for _, c := range []struct {
		alpha          []float64
		plain, capped  float64 // bounds on the acceptance rates: plain at most, capped at least
		wantSameChains bool
	}{
		{stiff, 0, 0.5, false},
		{[]float64{1, 1, 1, 1}, -1, -1, true},
	} {
		plain := run(c.alpha, false)
		capped := run(c.alpha, true)
		if c.wantSameChains {
			for i := range plain.W {
				if !slices.Equal(plain.W[i], capped.W[i]) {
					t.Fatalf("α = %v: sample %d differs with the cap though every ε√α ≤ 1", c.alpha, i)
				}
			}
			continue
		}
		t.Logf("α = %v: acceptance %.3f plain, %.3f capped", c.alpha, plain.AcceptRate, capped.AcceptRate)
		if plain.AcceptRate > c.plain {
			t.Errorf("α = %v: the plain leapfrog accepted %v of the proposals, want %v", c.alpha, plain.AcceptRate, c.plain)
		}
		if capped.AcceptRate < c.capped {
			t.Errorf("α = %v: the capped leapfrog accepted %v, want at least %v", c.alpha, capped.AcceptRate, c.capped)
		}
	}
}

// runTiny returns a runner of 60 trajectories of 100 leapfrog steps of
// 2×10⁻³ at fixed α (grouped) and β = 20 from the same start and stream.
func runTiny(p *bnn.Problem) func(alpha []float64, capped bool) *bnn.HMCResult {
	return func(alpha []float64, capped bool) *bnn.HMCResult {
		start := []float64{1.1, 0.05, 0.6, 1e-6}
		res, err := SampleHMC(p, bnn.Grouped, bnn.HMCSettings{Samples: 60, NoBurn: true, Leapfrog: 100, Step: 2e-3,
			FullRefresh: true, Alpha: alpha, Beta: 20, FixHyper: true, Start: start, CapPriorStep: capped, Workers: 1},
			rand.New(rand.NewPCG(35, 6)))
		if err != nil {
			panic(err)
		}
		return res
	}
}
