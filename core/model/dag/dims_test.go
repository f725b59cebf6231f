package dag_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/dag"
)

// TestDimensionsKnownAnswer is the thesis's example (line 4959, targets
// §2.9): one k-valued hidden parent of one p-valued observed node has
// d = p − 1 and d′ = (k − 1) + (p − 1)k; for k = 2, p = 5, d = 4 and d′ = 9.
func TestDimensionsKnownAnswer(t *testing.T) {
	s, err := dag.NewStructure([]int{2, 5}, [][]int{nil, {0}}, []bool{true, false})
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(21, 1))
	obs, _ := dag.Sample(s, s.RandomParams(rnd), 1000, rnd)
	p := problem(t, s, obs)
	em, err := p.ScoreEM(p.Inits(3, rnd), dag.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	d := p.Dimensions(em.Theta, dag.DimSettings{}, rnd)
	if d.D != 4 || d.DPrime != 9 {
		t.Errorf("d = %d, d′ = %d, want 4 and 9 (σ = %.3g, σ′ = %.3g)", d.D, d.DPrime, d.Sigma, d.SigmaPrime)
	}
	if i, r := dag.LargestGap(d.SigmaPrime); i != 8 || !(r > 1e4) {
		t.Errorf("largest gap of σ′ after %d values (ratio %.3g), want after 9", i+1, r)
	}
}

// TestDimensionsAll625 checks the targets' acceptance for data = "all625"
// (§3.12): with every observed configuration once, d′ = d(m), and d ≤ d′.
func TestDimensionsAll625(t *testing.T) {
	var rows [][]int
	for k := 0; k < 625; k++ {
		rows = append(rows, []int{k / 125, k / 25 % 5, k / 5 % 5, k % 5})
	}
	rnd := rand.New(rand.NewPCG(22, 1))
	for _, code := range []string{"0000", "1000", "1332", "3333"} {
		s := mustCode(t, code).Structure()
		p := problem(t, s, rows)
		d := p.Dimensions(s.RandomParams(rnd), dag.DimSettings{}, rnd)
		if d.DPrime != s.NumParams() || d.D > d.DPrime {
			t.Errorf("%s: d = %d, d′ = %d, d(m) = %d", code, d.D, d.DPrime, s.NumParams())
		}
		// The unconnected model's likelihood ignores its hidden nodes: d is
		// the 16 observed parameters.
		if code == "0000" && d.D != 16 {
			t.Errorf("unconnected: d = %d, want 16", d.D)
		}
	}
}
