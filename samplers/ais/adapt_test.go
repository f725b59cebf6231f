package ais

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// A pilot built by hand: ln L constant on τ < 1/2 (sd 0) and 0, 2, 0, 2 on
// τ ≥ 1/2 (sd √(4/3)). With floor 1/2 the densities are s̄/2 and √(4/3) + s̄/2,
// s̄ = √(4/3)/2, so the first half holds 1/6 of the mass and the schedule of
// four steps is 0, 0.55, 0.7, 0.85, 1.
func TestAdaptedByHand(t *testing.T) {
	pilotTau := Linear(4)
	run := func(l ...float64) Run {
		r := Run{LogR: make([]float64, len(l))}
		for i, v := range l {
			r.LogR[i] = v * (pilotTau[i+1] - pilotTau[i])
			r.LogW += r.LogR[i]
		}
		return r
	}
	pilot := []Run{run(-5, -5, 0, 2), run(-5, -5, 0, 2)}
	tau, err := Adapted(pilot, pilotTau, 4, 2, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	for j, want := range []float64{0, 0.55, 0.7, 0.85, 1} {
		if math.Abs(tau[j]-want) > 1e-12 {
			t.Errorf("τ(%d) = %.15g, want %g (schedule %v)", j, tau[j], want, tau)
		}
	}
	// ln L constant everywhere: the floor alone, the linear schedule.
	flat := []Run{run(-5, -5, -5, -5), run(-5, -5, -5, -5)}
	tau, err = Adapted(flat, pilotTau, 8, 4, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	for j, v := range Linear(8) {
		if math.Abs(tau[j]-v) > 1e-12 {
			t.Errorf("constant ln L: τ(%d) = %g, want the linear %g", j, tau[j], v)
		}
	}
}

func TestAdaptedErrors(t *testing.T) {
	pilotTau := Linear(4)
	good := Run{LogR: []float64{-1, -1, -1, -1}}
	for _, c := range []struct {
		name  string
		pilot []Run
		want  string
	}{
		{"no runs", nil, "no pilot runs"},
		{"length", []Run{good, {LogR: []float64{-1, -1}}}, "pilot run 1 has 2 steps, the pilot schedule 4"},
		{"NaN", []Run{{LogR: []float64{-1, math.NaN(), -1, -1}}}, "pilot run 0 has ln L = NaN at step 2"},
		{"-Inf", []Run{{LogR: []float64{-1, -1, math.Inf(-1), -1}}}, "pilot run 0 has ln L = -Inf at step 3"},
	} {
		if _, err := Adapted(c.pilot, pilotTau, 10, 2, 0.1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	for name, f := range map[string]func(){
		"k = 0":        func() { Adapted([]Run{good}, pilotTau, 0, 2, 0.1) },
		"bins = 0":     func() { Adapted([]Run{good}, pilotTau, 10, 0, 0.1) },
		"bins > steps": func() { Adapted([]Run{good}, pilotTau, 10, 5, 0.1) },
		"floor = 0":    func() { Adapted([]Run{good}, pilotTau, 10, 2, 0) },
		"floor = Inf":  func() { Adapted([]Run{good}, pilotTau, 10, 2, math.Inf(1)) },
		"bad pilotTau": func() { Adapted([]Run{good}, []float64{0, 0.5, 0.4, 0.7, 1}, 10, 2, 0.1) },
	} {
		if !panics(f) {
			t.Errorf("%s: did not panic", name)
		}
	}
}

// lnLMoments returns the mean and variance of ln L of the conjugate
// Gaussian model under f_τ: ln L = c − (n/2σ²) Σ_j (θ_j − ȳ_j)² with
// θ_j ~ N(μ_j, v), v = 1/(1/σ0² + τn/σ²), μ_j = τ S_j/(σ² v⁻¹); for
// X ~ N(a, v), E X² = v + a² and Var X² = 2v² + 4a²v.
func lnLMoments(m *gaussModel, tau float64) (mean, variance float64) {
	n, s2 := float64(m.n), m.sig*m.sig
	prec := 1/(m.sigma0*m.sigma0) + tau*n/s2
	v := 1 / prec
	c := n / (2 * s2)
	var ex, vx float64
	for _, s := range m.sum {
		a := tau*s/s2/prec - s/n
		ex += v + a*a
		vx += 2*v*v + 4*a*a*v
	}
	// The constant: ln L at θ = ȳ.
	ybar := make([]float64, m.d)
	for j, s := range m.sum {
		ybar[j] = s / n
	}
	return m.LogLik(ybar) - c*ex, c * c * vx
}

// The pilot's per-bin sd of ln L, estimated from an exactly mixing kernel,
// matches its expectation from the closed-form moments of ln L, and the
// schedule fitted to it is close to the schedule of the exact sds.
func TestAdaptedGaussian(t *testing.T) {
	gm := newGaussModel(2, 10, 2, 1, rand.New(rand.NewPCG(9, 9)))
	const steps, runs, bins = 400, 200, 20
	pilotTau := Linear(steps)
	s := Sampler[[]float64]{Model: gm, NewKernel: func() mcmc.Kernel[[]float64] { return exactKernel{gm} }, Tau: pilotTau}
	pilot := s.Runs(streams(91, runs), 2)

	// The expected sample variance of a bin pooling runs draws at each of its
	// τ(i): (G Σσ_i² + G Σμ_i² − G Σσ_i²/N − N μ̄²)/(N − 1), N = G·steps in bin.
	edges := make([]float64, bins+1)
	sd := make([]float64, bins)
	for b := range sd {
		lo, hi := b*steps/bins, (b+1)*steps/bins
		edges[b], edges[b+1] = pilotTau[lo], pilotTau[hi]
		var sv, sm, sm2 float64
		for i := lo; i < hi; i++ {
			mu, v := lnLMoments(gm, pilotTau[i])
			sv, sm, sm2 = sv+v, sm+mu, sm2+mu*mu
		}
		g, n := float64(runs), float64(runs*(hi-lo))
		mbar := g * sm / n
		sd[b] = math.Sqrt((g*sv + g*sm2 - g*sv/n - n*mbar*mbar) / (n - 1))
	}
	want, err := thermoSchedule(edges, sd, 50, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Adapted(pilot, pilotTau, 50, bins, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	var worst float64
	for j := range got {
		worst = max(worst, math.Abs(got[j]-want[j]))
	}
	t.Logf("largest |τ̂(j) − τ(j)| = %.4f; τ(1…5) = %.4f", worst, got[1:6])
	if worst > 0.01 {
		t.Errorf("adapted schedule differs from the exact one by %.4f in τ, want ≤ 0.01", worst)
	}
	if !(got[25] < 0.25) {
		t.Errorf("half the steps should lie where ln L varies most, below τ = 1/4; τ(25) = %.3f", got[25])
	}
}

// On the Gaussian model, whose ln L varies most at small τ, the adapted
// schedule of 20 steps gives AIS runs whose ln w varies less than the
// linear schedule's, and both recover the closed-form evidence.
func TestAdaptedLowersVariance(t *testing.T) {
	gm := newGaussModel(2, 20, 3, 1, rand.New(rand.NewPCG(10, 10)))
	s := Sampler[[]float64]{Model: gm, NewKernel: func() mcmc.Kernel[[]float64] { return exactKernel{gm} }, Tau: Linear(200)}
	tau, _, err := s.Adapt(streams(101, 20), 2, 20, 20, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	variance := func(name string, tau []float64) float64 {
		s.Tau = tau
		runs := s.Runs(streams(102, 2000), 2)
		checkWithin3SE(t, name, runs, gm.logZ())
		var m, m2 float64
		for i, lw := range LogWeights(runs) {
			d := lw - m
			m += d / float64(i+1)
			m2 += d * (lw - m)
		}
		return m2 / float64(len(runs)-1)
	}
	lin, ad := variance("linear", Linear(20)), variance("adapted", tau)
	t.Logf("Var ln w: linear %.3f, adapted %.3f", lin, ad)
	if !(ad < lin/2) {
		t.Errorf("Var ln w adapted %.3f, linear %.3f: want less than half", ad, lin)
	}
}
