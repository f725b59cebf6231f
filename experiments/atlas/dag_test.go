package atlas

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/dag"
)

// TestRelabellings checks that every relabelling of the hidden states
// leaves ln p(y | θ) and the symmetric prior unchanged, that the
// relabellings are distinct, and that there are as many as the aliases S
// of AliasStrict counts (the structures have no automorphism).
func TestRelabellings(t *testing.T) {
	rnd := rand.New(rand.NewPCG(36, 3))
	for _, name := range []string{"lc:2:2,2,2", "lc:3:2,4", "ch6"} {
		s, _, err := parseDAG(name)
		if err != nil {
			t.Fatal(err)
		}
		theta := s.RandomParams(rnd)
		obs, _ := dag.Sample(s, theta, 15, rnd)
		data, err := dag.NewData(obs)
		if err != nil {
			t.Fatal(err)
		}
		p, err := dag.NewProblem(s, s.SymmetricPrior(1.5), data)
		if err != nil {
			t.Fatal(err)
		}
		perms := relabellings(s)
		if want := math.Exp(s.LogAliases(dag.AliasStrict)); math.Abs(float64(len(perms))-want) > 1e-9 {
			t.Errorf("%s: %d relabellings, S = %v", name, len(perms), want)
		}
		seen := map[string]bool{}
		ll, lp := p.LogLik(theta), p.LogPrior(theta)
		for _, perm := range perms {
			th := make(dag.Params, len(theta))
			for i := range th {
				th[i] = theta[perm[i]]
			}
			if err := s.CheckParams(th); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			key := ""
			for _, v := range th {
				key += string(rune(int(v * 1e6)))
			}
			if seen[key] {
				t.Errorf("%s: a relabelling repeats", name)
			}
			seen[key] = true
			if got := p.LogLik(th); math.Abs(got-ll) > 1e-9*math.Abs(ll) {
				t.Errorf("%s: relabelled ln p(y|θ) = %v, want %v", name, got, ll)
			}
			if got := p.LogPrior(th); math.Abs(got-lp) > 1e-9*math.Max(1, math.Abs(lp)) {
				t.Errorf("%s: relabelled ln p(θ) = %v, want %v", name, got, lp)
			}
		}
	}
}
