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

// TestDimensionsExactZero is the known-answer model of line 4959 (one
// binary hidden parent s of one 5-valued child y) at a θ̂ with an exact
// zero, θ_{y=0|s=0} = 0, on data with every value of y 40 times, computed
// by hand: the pair (y = 0, s = 0) has ln p(s, y|θ̂) = −∞ and is dropped;
// the other 9 pairs see the hidden row (1 direction), the row y|s=1 (4) and
// the row y|s=0 without its zero entry, which cannot move (3): d′ = 8. The
// incomplete model p(y) = Σ_s θ_s θ_{y|s} is a full 5-valued
// distribution: d = 4. With DimSettings.UniformMix the zero moves into the
// interior, no pair is dropped and d′ is the 9 of the interior.
func TestDimensionsExactZero(t *testing.T) {
	s, err := dag.NewStructure([]int{2, 5}, [][]int{nil, {0}}, []bool{true, false})
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]int
	for k := 0; k < 5*40; k++ {
		rows = append(rows, []int{k % 5})
	}
	p := problem(t, s, rows)
	theta := dag.Params{0.3, 0.7, 0, 0.1, 0.2, 0.3, 0.4, 0.3, 0.1, 0.2, 0.25, 0.15}
	if err := s.CheckParams(theta); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		mix              float64
		d, dPrime, dropP int
	}{{0, 4, 8, 1}, {1e-8, 4, 9, 0}} {
		d := p.Dimensions(theta, dag.DimSettings{UniformMix: c.mix}, rand.New(rand.NewPCG(23, 1)))
		if d.D != c.d || d.DPrime != c.dPrime || d.Dropped != 0 || d.DroppedPrime != c.dropP {
			t.Errorf("uniform mix %g: d = %d, d′ = %d, dropped %d and %d; want %d, %d, 0 and %d (σ′ = %.3g)",
				c.mix, d.D, d.DPrime, d.Dropped, d.DroppedPrime, c.d, c.dPrime, c.dropP, d.SigmaPrime)
		}
	}
	// At an interior θ̂ the mixing changes nothing: d = 4, d′ = 9 either way.
	interior := dag.Params{0.3, 0.7, 0.05, 0.1, 0.2, 0.25, 0.4, 0.3, 0.1, 0.2, 0.25, 0.15}
	for _, w := range []float64{0, 1e-8} {
		if d := p.Dimensions(interior, dag.DimSettings{UniformMix: w}, rand.New(rand.NewPCG(23, 1))); d.D != 4 || d.DPrime != 9 || d.DroppedPrime != 0 {
			t.Errorf("interior θ̂, uniform mix %g: d = %d, d′ = %d, %d pairs dropped; want 4, 9, 0", w, d.D, d.DPrime, d.DroppedPrime)
		}
	}
	for _, w := range []float64{-1e-8, 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("uniform mix %g accepted", w)
				}
			}()
			p.Dimensions(theta, dag.DimSettings{UniformMix: w}, rand.New(rand.NewPCG(23, 1)))
		}()
	}
}
