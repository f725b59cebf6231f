package bnnhmc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/bnn"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// sunspotShape returns a problem of the sunspots shape (12 lags, 8 hidden
// units, N = 221, L2174-2176) on a synthetic series: a noisy sine with
// the 11-year period, standardised, as lagged windows.
func sunspotShape() *bnn.Problem {
	r := rand.New(rand.NewPCG(1, 1))
	const lags, n = 12, 221
	series := make([]float64, n+lags)
	for i := range series {
		series[i] = math.Sin(2*math.Pi*float64(i)/11) + 0.3*r.NormFloat64()
	}
	x := make([][]float64, n)
	t := make([]float64, n)
	for i := range x {
		x[i] = append([]float64(nil), series[i:i+lags]...)
		t[i] = series[i+lags]
	}
	p, err := bnn.NewProblem(bnn.Arch{In: lags, Hidden: 8}, x, t)
	if err != nil {
		panic(err)
	}
	return p
}

// The gradient of E_D over the 221 points of a 12-8-1 network; the
// reported ns/point is per data point.
func BenchmarkErrorGradSunspots(b *testing.B) {
	p := sunspotShape()
	w := make([]float64, p.NumWeights())
	netlabInit(p.Arch, w, rand.New(rand.NewPCG(2, 2)))
	g := make([]float64, len(w))
	act := make([]float64, 2*p.Hidden)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		p.ErrorGrad(w, p.X, p.T, g, act)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(p.X)), "ns/point")
}

// One HMC trajectory of 100 leapfrog steps on the sunspot-shaped
// posterior (persistent momenta, α = 0.3, β = 200).
func BenchmarkTrajectorySunspots(b *testing.B) {
	p := sunspotShape()
	post, err := bnn.NewPosterior(p, bnn.Single, []float64{0.3}, 200)
	if err != nil {
		b.Fatal(err)
	}
	w := make([]float64, p.NumWeights())
	rnd := rand.New(rand.NewPCG(3, 3))
	netlabInit(p.Arch, w, rnd)
	h := &mcmc.HMC{Target: post, Steps: 100, Persistence: 0.95, StepSize: func(float64) float64 { return 1e-3 }}
	pt := mcmc.NewPoint[[]float64](post, w)
	h.Step(&pt, 1, rnd)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		h.Step(&pt, 1, rnd)
	}
}

// The batched gradient of the posterior's E_D (bnn.Batch, the HMC's hot
// loop) on the same problem.
func BenchmarkBatchErrorGradSunspots(b *testing.B) {
	p := sunspotShape()
	w := make([]float64, p.NumWeights())
	netlabInit(p.Arch, w, rand.New(rand.NewPCG(2, 2)))
	g := make([]float64, len(w))
	bt := bnn.NewBatch(p)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		bt.ErrorGrad(w, g)
	}
	ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(ns/float64(len(p.X)), "ns/point")
	// 4·H·(I+1) + 7·H + 4 flops a point beside 2·H special functions.
	flops := float64(len(p.X) * (4*p.Hidden*(p.In+1) + 7*p.Hidden + 4))
	b.ReportMetric(flops/ns, "Gflop/s")
}

// A whole Table 5.1 run of the sunspot shape: 200 trajectories of 100
// leapfrog steps with Gibbs updates of α and β.
func BenchmarkSampleHMCSunspots(b *testing.B) {
	p := sunspotShape()
	for range b.N {
		if _, err := SampleHMC(p, bnn.Single, bnn.HMCSettings{}, rand.New(rand.NewPCG(1, 1))); err != nil {
			b.Fatal(err)
		}
	}
}
