package ais

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// GradLogPrior and GradLogLik make gaussModel an mcmc.GradTempered.
func (m *gaussModel) GradLogPrior(dst, x []float64) {
	for j, v := range x {
		dst[j] = -v / (m.sigma0 * m.sigma0)
	}
}

func (m *gaussModel) GradLogLik(dst, x []float64) {
	for j, v := range x {
		dst[j] = (m.sum[j] - float64(m.n)*v) / (m.sig * m.sig)
	}
}

// hmcFor returns an HMC kernel whose step is a fraction of the tempered
// posterior's standard deviation, 1/√(1/σ₀² + βn/σ²).
func hmcFor(m *gaussModel) mcmc.Kernel[[]float64] {
	return &mcmc.HMC{Target: m, Steps: 10, StepSize: func(beta float64) float64 {
		return 0.3 / math.Sqrt(1/(m.sigma0*m.sigma0)+beta*float64(m.n)/(m.sig*m.sig))
	}}
}

// AIS with the HMC kernel recovers the closed-form evidence of the
// conjugate Gaussian model in 3 dimensions within 3 standard errors, and
// HMC at β = 1 reproduces the posterior's mean and variance.
func TestHMCGaussianEvidence(t *testing.T) {
	gm := newGaussModel(3, 20, 2, 1, rand.New(rand.NewPCG(8, 8)))
	s := Sampler[[]float64]{Model: gm, NewKernel: func() mcmc.Kernel[[]float64] { return hmcFor(gm) }, Tau: Geometric(1000, 1e-4)}
	runs := s.Runs(streams(43, 200), 2)
	checkWithin3SE(t, "HMC", runs, gm.logZ())
	_, se := Pool(LogWeights(runs))
	if !(se < 0.1) {
		t.Errorf("standard error %.3f: 200 AIS runs of K = 1000 should pin ln Z to 0.1", se)
	}

	// The posterior: precision 1/σ₀² + n/σ², mean Σy/σ² over it.
	prec := 1/(gm.sigma0*gm.sigma0) + float64(gm.n)/(gm.sig*gm.sig)
	k := hmcFor(gm)
	rnd := rand.New(rand.NewPCG(5, 6))
	p := mcmc.NewPoint[[]float64](gm, []float64{0, 0, 0})
	var sum, sum2 float64
	const burn, n = 100, 20000
	for i := range burn + n {
		k.Step(&p, 1, rnd)
		if i >= burn {
			sum += p.X[0]
			sum2 += p.X[0] * p.X[0]
		}
	}
	mean, v := sum/n, sum2/n-(sum/n)*(sum/n)
	want := gm.sum[0] / (gm.sig * gm.sig) / prec
	// HMC draws are nearly independent here; 5 standard errors of n draws.
	if math.Abs(mean-want) > 5*math.Sqrt(1/prec/n) || math.Abs(v*prec-1) > 0.05 {
		t.Errorf("HMC at β = 1: mean %.4f variance %.5f, want %.4f and %.5f", mean, v, want, 1/prec)
	}
}

func TestGeometric(t *testing.T) {
	tau := Geometric(4, 1e-3)
	if err := CheckSchedule(tau); err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{0, 1e-3, 1e-2, 1e-1, 1} {
		if math.Abs(tau[i]-want) > 1e-15 {
			t.Errorf("τ(%d) = %g, want %g", i, tau[i], want)
		}
	}
}
