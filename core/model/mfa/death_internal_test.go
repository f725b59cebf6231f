package mfa

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/mixture"
	"github.com/vbworkbench/vbw/core/numeric"
)

// starvedModel returns a model of three clusters in 3-D whose fourth
// analyser holds less than one point of the first cluster after two
// sweeps under DeathAsMove (nothing removed): q(s) is the last updateS's.
func starvedModel(t *testing.T, penalty bool) *VB {
	t.Helper()
	rnd := rand.New(rand.NewPCG(5, 6))
	const per = 30
	centres := [][]float64{{0, 0, 0}, {6, 0, 1}, {0, 6, -1}}
	y := mat.NewDense(3*per, 3, nil)
	resp := mat.NewDense(3*per, 4, nil)
	for c, mu := range centres {
		for j := 0; j < per; j++ {
			i := c*per + j
			for q := range mu {
				y.Set(i, q, mu[q]+rnd.NormFloat64())
			}
			resp.Set(i, c, 1)
			if c == 0 && j < 6 {
				resp.Set(i, 3, 1)
			}
		}
	}
	m, err := NewVB(y, resp, Settings{K: 1, ReferencePenalty: penalty})
	if err != nil {
		t.Fatal(err)
	}
	m.Moves.Death = DeathAsMove
	for it := range 2 {
		if _, err := m.E(); err != nil {
			t.Fatal(err)
		}
		if it == 0 {
			m.M()
			m.UpdateHyper(HyperPsi)
			m.UpdateHyper(HyperMuNu)
		}
	}
	return m
}

// TestRemovalJump checks the change of F at a removal (removeAnalysers,
// section 4.3.1) against its closed form, term by term: the analyser's
// parameter KLs, Σ_i ln(1 − q_id), n(ψ(ω_0) − ψ(ω_0 − ω_d)), the change of
// KL[q(π)] under the prior of S − 1 analysers, and p(k+1) under
// ReferencePenalty; to 1e-9 relative to |F|.
func TestRemovalJump(t *testing.T) {
	for _, penalty := range []bool{false, true} {
		m := starvedModel(t, penalty)
		const d = 3
		ns := m.Counts()
		if !(ns[d] < 1) || !(ns[d] > 1e-3) {
			t.Fatalf("analyser %d holds %v: the test needs a mass in (0, 1)", d, ns[d])
		}
		n := m.n
		var dataPart, qmax float64
		for _, q := range m.resp[d*n : (d+1)*n] {
			dataPart += math.Log1p(-q)
			qmax = math.Max(qmax, q)
		}
		if qmax < 0.05 {
			t.Fatalf("largest q_id = %v: ln(1 − q) ≈ −q, the test has little power", qmax)
		}
		c := m.comps[d]
		m.componentKL(c)
		params := c.klNu + c.klLam
		omega := slices.Clone(m.omega)
		w0 := numeric.Sum(omega)
		pis := float64(n) * (numeric.Digamma(w0) - numeric.Digamma(w0-omega[d]))
		klPi := mixture.KLWeights(slices.Delete(slices.Clone(omega), d, d+1), m.Hyper.Alpha) - mixture.KLWeights(omega, m.Hyper.Alpha)
		want := params + dataPart + pis - klPi
		if penalty {
			want += float64(m.p * c.d)
		}
		before, after, err := m.removeAnalysers([]int{d})
		if err != nil {
			t.Fatal(err)
		}
		if m.Size() != 3 {
			t.Fatalf("S = %d after the removal", m.Size())
		}
		if got := after - before; math.Abs(got-want) > 1e-9*math.Abs(before) {
			t.Errorf("penalty %v: jump %.12g, closed form %.12g (parameters %.6g, data %.6g, ⟨ln π⟩ %.6g, −ΔKL[π] %.6g)",
				penalty, got, want, params, dataPart, pis, -klPi)
		}
		t.Logf("penalty %v: mass %.3f, jump %.4f = parameters %.4f + data %.4f + ⟨ln π⟩ %.4f + q(π) %.4f",
			penalty, ns[d], after-before, params, dataPart, pis, -klPi)
	}
}
