package ais

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// RunsFinal's runs are Runs' for the same streams (the same random numbers
// drawn), and each final state is the state a forward run by hand from the
// same prior draw ends in.
func TestRunsFinal(t *testing.T) {
	gm := newGaussModel(2, 5, 1, 1, rand.New(rand.NewPCG(8, 8)))
	s := Sampler[[]float64]{Model: gm, NewKernel: func() mcmc.Kernel[[]float64] { return newScaledKernel(gm, 2) }, Tau: Nonlinear(20, 0.2)}
	ref := s.Runs(streams(81, 7), 1)
	runs, final := s.RunsFinal(streams(81, 7), 3)
	if !reflect.DeepEqual(runs, ref) {
		t.Error("RunsFinal's runs differ from Runs' with the same streams")
	}
	for g, rnd := range streams(81, 7) {
		p := mcmc.NewPoint[[]float64](gm, gm.SamplePrior(nil, rnd))
		var r Run
		ForwardTo(&r, newScaledKernel(gm, 2), s.Tau, &p, rnd)
		if !reflect.DeepEqual(p.X, final[g]) || !reflect.DeepEqual(r, runs[g]) {
			t.Errorf("run %d: final state %v, want %v from ForwardTo", g, final[g], p.X)
		}
	}
}

// batchMoments makes batches of g runs each (batch b from the streams
// seeded 91 + b) and returns, per batch, the posterior mean and variance of
// coordinate 0 from the final states: weighted by the runs' w (Moments)
// when weighted holds, with equal weights otherwise.
func batchMoments(t *testing.T, s Sampler[[]float64], batches, g int, weighted bool) (mean, vr []float64) {
	t.Helper()
	for b := range batches {
		runs, final := s.RunsFinal(streams(uint64(91+b), g), 0)
		if !weighted {
			for i := range runs {
				runs[i].LogW = 0
			}
		}
		m, m2, ok := Moments(runs, final)
		if !ok {
			t.Fatalf("batch %d: no finite weight", b)
		}
		mean, vr = append(mean, m[0]), append(vr, m2[0]-m[0]*m[0])
	}
	return mean, vr
}

// meanSE returns the mean of xs and its standard error sd/√B (divisor
// B − 1): the spread of independent batches' estimates.
func meanSE(xs []float64) (m, se float64) {
	for _, v := range xs {
		m += v / float64(len(xs))
	}
	var ss float64
	for _, v := range xs {
		ss += (v - m) * (v - m)
	}
	return m, math.Sqrt(ss / float64(len(xs)-1) / float64(len(xs)))
}

// The weighted final states of AIS runs estimate the posterior moments
// (Neal 2001 §3). Known answer: the conjugate model θ ~ N(0, 1),
// y_i | θ ~ N(θ, 1), i = 1…10, whose posterior is N(Σy/11, 1/11). The
// estimate is the mean over 20 independent batches of 50 runs, its SE the
// batches' spread over √20; the test asks for 3 SE (a two-sided 0.3% tail
// for a Gaussian mean, the batch estimates' self-normalisation bias of
// O(1/(50·ESS fraction)) being far below the SE at this schedule's near-
// equal weights) and checks that the SE is small against the posterior's
// scale (a tenth), so that the comparison has power. The negative control: the
// unweighted final states of a two-step anneal (one MH step at τ = 1/2
// after a prior draw) are more than 10 SE from the posterior (22 SE here),
// while their weighted moments are within 3 SE (1.8 SE for the mean: the
// weights of so short an anneal are uneven, and the ratio estimate's
// O(1/ESS) bias is no longer far below the SE).
func TestMomentsOfFinalStates(t *testing.T) {
	gm := newGaussModel(1, 10, 1, 1, rand.New(rand.NewPCG(9, 9)))
	v := gm.sdAt(1) * gm.sdAt(1) // 1/(1/σ0² + n/σ²)
	mu := gm.sum[0] / (gm.sig * gm.sig) * v
	// scale is the posterior sd for a mean, the variance for a variance.
	check := func(name string, xs []float64, want, scale float64, within bool) {
		t.Helper()
		m, se := meanSE(xs)
		z := (m - want) / se
		t.Logf("%s: %.5f ± %.5f, exact %.5f (%.1f SE)", name, m, se, want, z)
		if within && se > 0.1*scale {
			t.Errorf("%s: SE %.4g is not small against the posterior's scale %.4g", name, se, scale)
		}
		if within && !(math.Abs(z) < 3) {
			t.Errorf("%s: %.5f ± %.5f is not within 3 SE of %.5f", name, m, se, want)
		}
		if !within && !(math.Abs(z) > 10) {
			t.Errorf("%s: %.5f ± %.5f is within 10 SE of %.5f: the control does not show the bias", name, m, se, want)
		}
	}
	long := Sampler[[]float64]{Model: gm, NewKernel: func() mcmc.Kernel[[]float64] { return newScaledKernel(gm, 1) }, Tau: Nonlinear(200, 0.2)}
	m, vr := batchMoments(t, long, 20, 50, true)
	check("K=200 weighted mean", m, mu, math.Sqrt(v), true)
	check("K=200 weighted variance", vr, v, v, true)

	short := Sampler[[]float64]{Model: gm, NewKernel: func() mcmc.Kernel[[]float64] { return newScaledKernel(gm, 1) }, Tau: Linear(2)}
	m, vr = batchMoments(t, short, 20, 50, false)
	check("K=2 unweighted mean", m, mu, math.Sqrt(v), false)
	check("K=2 unweighted variance", vr, v, v, false)
	m, vr = batchMoments(t, short, 20, 50, true)
	check("K=2 weighted mean", m, mu, math.Sqrt(v), true)
	check("K=2 weighted variance", vr, v, v, true)
}
