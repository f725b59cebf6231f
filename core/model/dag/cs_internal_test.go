package dag

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
)

// TestCSIsBoundAtCSPoint is test T4 of targets §1.8 (Corollary 2.5, seed
// text lines 1641–1676): with q_i(s_i) = p(s_i|y_i, θ̂) held fixed and one
// VBM step, q(θ) = Dir(λ + N̂), the bound
//
//	F = Σ_jlk N̂_jlk ⟨ln θ_jlk⟩ + Σ_i H[q_i] − KL(q(θ) ‖ p(θ))
//
// equals the Cheeseman–Stutz score at θ̂, for an EM estimate and for an
// arbitrary θ̂.
func TestCSIsBoundAtCSPoint(t *testing.T) {
	s := TrueCode.Structure()
	rnd := rand.New(rand.NewPCG(20, 1))
	obs, _ := Sample(s, TrueParams(), 120, rnd)
	d, err := NewData(obs)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := NewProblem(s, s.SymmetricPrior(1), d)
	if err != nil {
		t.Fatal(err)
	}
	em, err := pr.ScoreEM(pr.Inits(3, rnd), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for _, theta := range []Params{em.Theta, s.RandomParams(rnd)} {
		alpha := pr.CSPosterior(theta)
		_, nHat := pr.ExpectedCounts(theta)
		m := pr.NewVBPosterior(alpha)
		kl := m.prepare() // θ̃ = exp⟨ln θ⟩ under Dir(α), and KL
		var avg float64
		for i, n := range nHat {
			avg += numeric.XLogY(n, m.tilde[i])
		}
		h := pr.pl.entropy(theta, make([]float64, pr.pl.h))
		f := avg + h - kl
		if cs := pr.CheesemanStutz(theta); math.Abs(f-cs) > 1e-9*math.Abs(cs) {
			t.Errorf("F at the CS point = %.12g, CS = %.12g", f, cs)
		}
	}
}
