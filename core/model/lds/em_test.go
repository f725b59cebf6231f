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

// TestMAPEM: MAP-EM (EMSettings.Prior) never lowers ln p(y | θ) + ln p(θ)
// (vb.Run's check and the trace), its objective's prior term is the sum
// of the log densities of eqs. 5.8-5.12, and it ends at a stationary
// point of that objective: the central differences of E's F at the fixed
// point in every coordinate of A, B, C, D and ρ are zero to the
// differences' truncation (each perturbation lowers F). A huge α pins A
// at 0, the prior's mode.
func TestMAPEM(t *testing.T) {
	rnd := rand.New(rand.NewPCG(63, 0))
	par := randomParams(rnd, 2, 3, 1)
	data := simulateAll(rnd, par, []int{60, 40})
	h := Hyper{Alpha: []float64{2, 0.5}, Beta: []float64{1.5}, Gamma: []float64{3, 0.7}, Delta: []float64{0.4}, NoiseShape: 2.5, NoiseRate: 1.5}
	start := par.Clone()
	start.A.Scale(0.5, start.A)
	set := EMSettings{FixX0: true, Prior: &h}
	em, err := NewEM(data, start, set)
	if err != nil {
		t.Fatal(err)
	}
	r := vb.Run(em, vb.Settings{MaxIterations: 5000, RelTol: 1e-14, AbsTol: 1e-12})
	if err := r.Error(); err != nil {
		t.Fatal(err)
	}
	vbtest.CheckMonotone(t, r.Trace.F, 1e-12)
	f0 := mustE(t, em).F
	at := func(mod func(p *Params)) float64 {
		q := em.Params().Clone()
		mod(q)
		e, err := NewEM(data, q, set)
		if err != nil {
			t.Fatal(err)
		}
		return mustE(t, e).F
	}
	const step = 1e-4
	check := func(name string, get func(p *Params) *float64) {
		up := at(func(p *Params) { *get(p) += step })
		dn := at(func(p *Params) { *get(p) -= step })
		if g := (up - dn) / (2 * step); math.Abs(g) > 1e-3 {
			t.Errorf("%s: ∂F ≈ %.3g at MAP-EM's fixed point", name, g)
		}
		if up > f0+1e-9 || dn > f0+1e-9 {
			t.Errorf("%s: a step of %g raises F from %.10g to %.10g / %.10g", name, step, f0, up, dn)
		}
	}
	p0 := em.Params()
	for i := range 2 {
		for j := range 2 {
			check("A", func(p *Params) *float64 { return &p.A.RawMatrix().Data[i*p0.A.RawMatrix().Stride+j] })
		}
		check("B", func(p *Params) *float64 { return &p.B.RawMatrix().Data[i*p0.B.RawMatrix().Stride] })
	}
	for s := range 3 {
		for j := range 2 {
			check("C", func(p *Params) *float64 { return &p.C.RawMatrix().Data[s*p0.C.RawMatrix().Stride+j] })
		}
		check("D", func(p *Params) *float64 { return &p.D.RawMatrix().Data[s*p0.D.RawMatrix().Stride] })
		check("rho", func(p *Params) *float64 { return &p.Rho[s] })
	}
	// The prior term against the densities written out.
	b := mustE(t, em)
	var lp float64
	lnN := func(x, prec float64) float64 { return 0.5*math.Log(prec/(2*math.Pi)) - 0.5*prec*x*x }
	for i := range 2 {
		for j := range 2 {
			lp += lnN(p0.A.At(i, j), h.Alpha[j])
		}
		lp += lnN(p0.B.At(i, 0), h.Beta[0])
	}
	for s := range 3 {
		r := p0.Rho[s]
		lg, _ := math.Lgamma(h.NoiseShape)
		lp += h.NoiseShape*math.Log(h.NoiseRate) - lg + (h.NoiseShape-1)*math.Log(r) - h.NoiseRate*r
		for j := range 2 {
			lp += lnN(p0.C.At(s, j), r*h.Gamma[j])
		}
		lp += lnN(p0.D.At(s, 0), r*h.Delta[0])
	}
	if got := b.Terms[1].Value; math.Abs(got-lp) > 1e-9*(1+math.Abs(lp)) {
		t.Errorf("ln p(θ) = %.12g, the densities give %.12g", got, lp)
	}
	// α → ∞ pins A at its prior mode 0.
	hard := h
	hard.Alpha = []float64{1e12, 1e12}
	em2, _ := NewEM(data, start, EMSettings{FixX0: true, Prior: &hard})
	if r := vb.Run(em2, vb.Settings{MaxIterations: 200}); r.Error() != nil {
		t.Fatal(r.Error())
	}
	if a := em2.Params().A; math.Abs(a.At(0, 0))+math.Abs(a.At(1, 1))+math.Abs(a.At(0, 1))+math.Abs(a.At(1, 0)) > 1e-8 {
		t.Errorf("A = %v with α = 1e12", mat.Formatted(a))
	}
}
