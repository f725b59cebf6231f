package lds

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// scalarData simulates sequences of the given lengths from the scalar LDS
// (A, C, ρ), x_0 ~ N(0, 1).
func scalarData(rnd *rand.Rand, a, c, rho float64, lens ...int) []Sequence {
	par := &Params{A: mat.NewDense(1, 1, []float64{a}), C: mat.NewDense(1, 1, []float64{c}), Rho: []float64{rho},
		Sigma0: mat.NewSymDense(1, []float64{1})}
	var out []Sequence
	for _, T := range lens {
		s, _ := Simulate(rnd, par, T, nil)
		out = append(out, s)
	}
	return out
}

// TestLogLik1 checks the scalar filter against Annealed.LogLik (the
// general Kalman smoother of package infer) at random θ, with a
// non-default Σ_0.
func TestLogLik1(t *testing.T) {
	rnd := rand.New(rand.NewPCG(61, 1))
	data := scalarData(rnd, 0.8, 1.3, 3, 9, 40)
	h := Hyper{Lambda0: []float64{0.5}}
	a, err := NewAnnealed(data, 1, h)
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		th := []float64{1.5 * rnd.NormFloat64(), 2 * rnd.NormFloat64(), 1.5 * rnd.NormFloat64()}
		want := a.LogLik(th)
		var got float64
		for _, y := range a.y {
			got += logLik1(y, th[0], th[1], math.Exp(th[2]), 0, 0.5)
		}
		if math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
			t.Errorf("θ = %v: logLik1 %v, Annealed.LogLik %v", th, got, want)
		}
	}
}

// TestLogEvidenceQuadMC checks LogEvidenceQuad against simple Monte Carlo
// over the prior, ln mean_m p(y | θ_m) with θ_m ~ p(θ) (Annealed.SamplePrior
// and Annealed.LogLik, the general smoother), on a short sequence where
// the prior is an adequate proposal: within 4 standard errors (the delta
// method's sd(w)/(√M mean w)) of 4·10⁵ draws, with non-default
// hyperparameters; and that the quadrature's own error is below 10⁻⁶.
func TestLogEvidenceQuadMC(t *testing.T) {
	rnd := rand.New(rand.NewPCG(62, 1))
	data := scalarData(rnd, 0.7, 1, 2, 4)
	h := Hyper{Alpha: []float64{2}, Gamma: []float64{0.5}, NoiseShape: 2, NoiseRate: 1.5}
	res, err := LogEvidenceQuad(data, h, QuadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Err > 1e-6 {
		t.Errorf("quadrature error %v", res.Err)
	}
	a, err := NewAnnealed(data, 1, h)
	if err != nil {
		t.Fatal(err)
	}
	const m = 400000
	lw := make([]float64, m)
	var th []float64
	for i := range lw {
		th = a.SamplePrior(th, rnd)
		lw[i] = a.LogLik(th)
	}
	top := numeric.LogSumExp(lw)
	var s1, s2 float64
	for _, v := range lw {
		w := math.Exp(v - top)
		s1 += w
		s2 += w * w
	}
	mean := s1 / m
	mc := top + math.Log(mean)
	se := math.Sqrt((s2/m-mean*mean)/m) / mean
	if math.Abs(mc-res.LnZ) > 4*se {
		t.Errorf("quadrature ln p(y) = %v (± %v), Monte Carlo %v ± %v", res.LnZ, res.Err, mc, se)
	}
	t.Logf("quadrature %v ± %v (%d evaluations), Monte Carlo %v ± %v", res.LnZ, res.Err, res.Evals, mc, se)
}

// TestLogEvidenceQuadRefuses checks the refusals: two outputs, an even
// grid, μ_0 ≠ 0.
func TestLogEvidenceQuadRefuses(t *testing.T) {
	rnd := rand.New(rand.NewPCG(63, 1))
	data := scalarData(rnd, 0.5, 1, 2, 10)
	if _, err := LogEvidenceQuad(data, Hyper{}, QuadSettings{Points: 64}); err == nil {
		t.Error("even Points accepted")
	}
	if _, err := LogEvidenceQuad(data, Hyper{Mu0: []float64{1}}, QuadSettings{}); err == nil {
		t.Error("μ_0 ≠ 0 accepted")
	}
	two := []Sequence{{Y: mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})}}
	if _, err := LogEvidenceQuad(two, Hyper{}, QuadSettings{}); err == nil {
		t.Error("p = 2 accepted")
	}
}

// fixedVB fits the VB LDS with k = 1 and the hyperparameters h held fixed
// (no hyperparameter schedule) for iters iterations.
func fixedVB(t *testing.T, data []Sequence, h Hyper, iters int, rnd *rand.Rand) (*VB, float64) {
	t.Helper()
	m, err := NewVB(data, Settings{K: 1, Hyper: h}, rnd)
	if err != nil {
		t.Fatal(err)
	}
	res := vb.Run(m, vb.Settings{MaxIterations: iters, Converger: vb.FixedIterations{}})
	if err := res.Error(); err != nil {
		t.Fatal(err)
	}
	return m, res.F
}

// TestProposal checks Proposal on a VB fit, with Gaussian and t (ν = 5)
// tails, by checkProposal; that importance sampling from it (ν = 5) on the
// Annealed target agrees with LogEvidenceQuad within 4 standard errors
// (the delta method's, 20000 draws); that F ≤ ln p(y); and the refusals.
func TestProposal(t *testing.T) {
	rnd := rand.New(rand.NewPCG(64, 1))
	data := scalarData(rnd, 0.8, 1.5, 4, 25)
	h := Hyper{Alpha: []float64{1}, Gamma: []float64{1}, NoiseShape: 2, NoiseRate: 1}
	m, f := fixedVB(t, data, h, 200, rnd)
	gold, err := LogEvidenceQuad(data, h, QuadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if f > gold.LnZ {
		t.Errorf("VB's F = %v above ln p(y) = %v", f, gold.LnZ)
	}
	if _, err := NewProposal(m, 0.5, 5); err == nil {
		t.Error("w < 1 accepted")
	}
	if _, err := NewProposal(m, 1.5, 0); err == nil {
		t.Error("ν = 0 accepted")
	}
	for _, nu := range []float64{math.Inf(1), 5} {
		q, err := NewProposal(m, 1.5, nu)
		if err != nil {
			t.Fatal(err)
		}
		checkProposal(t, q, rnd)
	}
	q, err := NewProposal(m, 1.5, 5)
	if err != nil {
		t.Fatal(err)
	}
	th := make([]float64, q.Dim())
	a, err := NewAnnealed(data, 1, h)
	if err != nil {
		t.Fatal(err)
	}
	const n = 20000
	lw := make([]float64, n)
	for i := range lw {
		lq := q.RandLogProb(th, rnd)
		lw[i] = a.LogPrior(th) + a.LogLik(th) - lq
	}
	top := numeric.LogSumExp(lw)
	var s1, s2 float64
	for _, x := range lw {
		e := math.Exp(x - top)
		s1 += e
		s2 += e * e
	}
	mean := s1 / n
	est := top + math.Log(mean)
	se := math.Sqrt((s2/n-mean*mean)/n) / mean
	if math.Abs(est-gold.LnZ) > 4*se+gold.Err {
		t.Errorf("IS %v ± %v, quadrature %v", est, se, gold.LnZ)
	}
	t.Logf("F %v, IS %v ± %v, quadrature %v ± %v", f, est, se, gold.LnZ, gold.Err)
}

// checkProposal checks that ln g is even in C, that a draw's returned ln g
// is LogProb's, and that g integrates to 1: at A = ⟨A⟩ over (C, ln ρ) by
// nested rules (ln ρ within 12 sd of its mean under the widened gamma; C,
// given ρ, with breaks at ±n and 12 scales w√(Σ_C/ρ) about them, out to
// 10⁴ scales for the t's tails), against the marginal density of A at its
// centre.
func checkProposal(t *testing.T, q *Proposal, rnd *rand.Rand) {
	t.Helper()
	th := make([]float64, q.Dim())
	for range 20 {
		lq := q.RandLogProb(th, rnd)
		if got := q.LogProb(th); math.Abs(got-lq) > 1e-12 {
			t.Errorf("ν = %v: RandLogProb %v, LogProb %v", q.nu, lq, got)
		}
		mir := []float64{th[0], -th[1], th[2]}
		if d := q.LogProb(mir) - lq; math.Abs(d) > 1e-12 {
			t.Errorf("ν = %v: ln g not even in C: difference %v", q.nu, d)
		}
	}
	g := q.rho[0]
	lm, ls := g.MeanLog(), math.Sqrt(numeric.Trigamma(g.Alpha))
	tol := numeric.QuadTol{Rel: 1e-10, Abs: 1e-14}
	var qerr error
	inner := func(lr float64) float64 {
		n, sd := math.Abs(q.meanC[0]), q.sdC*math.Exp(-lr/2)
		f := func(c float64) float64 { return math.Exp(q.LogProb([]float64{q.meanA, c, lr})) }
		far := 1e4 * sd
		breaks := []float64{-n - far, -n - 12*sd, -n}
		if n > 12*sd {
			breaks = append(breaks, -n+12*sd, n-12*sd)
		}
		breaks = append(breaks, n, n+12*sd, n+far)
		v, _, err := numeric.IntegrateBreaks(f, breaks, tol)
		qerr = errors.Join(qerr, err)
		return v
	}
	v, _, err := numeric.IntegrateBreaks(inner, []float64{lm - 12*ls, lm, lm + 12*ls}, tol)
	if err = errors.Join(err, qerr); err != nil {
		t.Fatal(err)
	}
	// The density of A at its centre: e^{lnNormT}/σ_A.
	if z := v * q.sdA / math.Exp(q.lnNormT); math.Abs(z-1) > 1e-6 {
		t.Errorf("ν = %v: ∫ g = %v", q.nu, z)
	}
}
