package lds

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestBoostReachesML checks targets §2.2: the VBM step with the statistics
// boosted by κ (MAPBoost) tends to the ML-EM M step on the same
// statistics as κ → ∞: the largest differences of ⟨A⟩, ⟨B⟩, ⟨C⟩, ⟨D⟩ and of
// ρ̄ (relative) from the ML parameters fall like 1/κ (log-log slope
// 1 ± 0.1 per decade from κ = 10³ to 10⁶).
func TestBoostReachesML(t *testing.T) {
	rnd := rand.New(rand.NewPCG(61, 0))
	par := randomParams(rnd, 2, 3, 2)
	data := simulateAll(rnd, par, []int{60, 35})
	m := mustNew(t, data, Settings{K: 2}, 10)
	for range 10 {
		mustE(t, m)
		m.M()
	}
	mustE(t, m)
	em, err := NewEM(data, par, EMSettings{FixX0: true})
	if err != nil {
		t.Fatal(err)
	}
	em.stats = m.stats // the same hidden-state statistics
	em.M()
	if em.err != nil {
		t.Fatal(em.err)
	}
	ml := em.Params()
	var prev float64
	for i, kappa := range []float64{1e3, 1e4, 1e5, 1e6} {
		m.mode, m.kappa = MAPBoost, kappa
		m.M()
		mp := m.MeanParams()
		var d float64
		for _, pair := range [][2]*mat.Dense{{mp.A, ml.A}, {mp.B, ml.B}, {mp.C, ml.C}, {mp.D, ml.D}} {
			var diff mat.Dense
			diff.Sub(pair[0], pair[1])
			d = math.Max(d, mat.Norm(&diff, math.Inf(1)))
		}
		for s, r := range mp.Rho {
			d = math.Max(d, math.Abs(r/ml.Rho[s]-1))
		}
		t.Logf("κ = %.0e: largest difference from ML %.3g", kappa, d)
		if i > 0 {
			if s := math.Log10(prev / d); !(s >= 0.9 && s <= 1.1) {
				t.Errorf("κ %.0e → %.0e: difference %.3g → %.3g, slope %.3f, want 1 ± 0.1", kappa/10, kappa, prev, d, s)
			}
		}
		prev = d
	}
}

// TestEMFit runs ML-EM from a perturbed start on 2000 steps of a known
// LDS with inputs and checks that ln p(y | θ) never decreases and ends
// above its value at the true parameters (EM climbs to a maximum of the
// likelihood, which the true parameters are not), and that the E step's
// objective equals Params.LogLikelihood of the fitted parameters.
func TestEMFit(t *testing.T) {
	rnd := rand.New(rand.NewPCG(62, 0))
	par := randomParams(rnd, 2, 3, 1)
	data := simulateAll(rnd, par, []int{1500, 500})
	start := par.Clone()
	start.A.Scale(0.5, start.A)
	start.C.Scale(0.8, start.C)
	for s := range start.Rho {
		start.Rho[s] = 1
	}
	em, err := NewEM(data, start, EMSettings{})
	if err != nil {
		t.Fatal(err)
	}
	r := vb.Run(em, vb.Settings{MaxIterations: 300, Converger: vb.FixedIterations{}})
	if err := r.Error(); err != nil {
		t.Fatal(err)
	}
	vbtest.CheckMonotone(t, r.Trace.F, 1e-12)
	llTrue, err := par.LogLikelihood(data)
	if err != nil {
		t.Fatal(err)
	}
	ll, err := em.Params().LogLikelihood(data)
	if err != nil {
		t.Fatal(err)
	}
	b := mustE(t, em)
	if math.Abs(b.F-ll) > 1e-9*math.Abs(ll) {
		t.Errorf("EM's E step gives %.12g, Params.LogLikelihood %.12g", b.F, ll)
	}
	t.Logf("ln p(y|θ): start %.3f, EM %.3f after %d iterations, true parameters %.3f", r.Trace.F[0], r.F, r.Iterations, llTrue)
	if !(r.F > llTrue) {
		t.Errorf("EM ended at ln p(y|θ) = %.4f, below the true parameters' %.4f", r.F, llTrue)
	}
}
