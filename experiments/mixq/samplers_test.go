package mixq

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/vbworkbench/vbw/core/model/boltzmann"
	"github.com/vbworkbench/vbw/core/model/sbn"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// aisCheck pools G runs of K Gibbs-kernel steps and requires the estimate
// within 4 of Pool's standard errors of the known ln Z, with the standard
// error small enough (< 0.05 nats) that the test has teeth.
func aisCheck[S any](t *testing.T, what string, model ais.Model[S], kernel func() mcmc.Kernel[S], exact, offset float64) {
	t.Helper()
	const G, K = 400, 20
	sm := ais.Sampler[S]{Model: model, NewKernel: kernel, Tau: ais.Linear(K)}
	rnds := make([]*rand.Rand, G)
	for i := range rnds {
		rnds[i] = rng.New(3, "mixq", "ais-test", what, strconv.Itoa(i))
	}
	logw := make([]float64, G)
	for i, r := range sm.Runs(rnds, 2) {
		logw[i] = r.LogW
	}
	lz, se := ais.Pool(logw)
	lz += offset
	if !(se < 0.05) {
		t.Fatalf("%s: se %v too large for the test", what, se)
	}
	if d := math.Abs(lz - exact); d > 4*se {
		t.Errorf("%s: AIS ln Ẑ = %v ± %v, exact %v (off by %.1f se)", what, lz, se, exact, d/se)
	}
}

// TestAISKnownNormaliser checks AIS with Gibbs kernels against the exact
// normalising constants: ln P(V) of a 2-4-6 sigmoid belief net at span 2
// (sbn.Posterior: prior × likelihood), and ln Z of a six-unit Boltzmann
// machine (uniform base, ln Z = ln Ẑ + N ln 2).
func TestAISKnownNormaliser(t *testing.T) {
	net, err := sbn.Random([]int{2, 4, 6}, 2, rng.New(3, "mixq", "ais-test", "net"))
	if err != nil {
		t.Fatal(err)
	}
	v := []float64{1, 0, 0, 1, 0, 1}
	post, _ := sbn.NewPosterior(net, v)
	L, _ := net.ExactLogLik(v)
	aisCheck[[]float64](t, "sbn", post, func() mcmc.Kernel[[]float64] { return &mcmc.Gibbs[[]float64]{Target: post, Sweeper: post} }, L, 0)

	m := boltzmann.NewRandom(6, 1, rng.New(3, "mixq", "ais-test", "machine"))
	ex, err := m.Exact(nil)
	if err != nil {
		t.Fatal(err)
	}
	model := boltzmann.Gibbs{M: m}
	aisCheck[[]float64](t, "bm", model, func() mcmc.Kernel[[]float64] { return &mcmc.Gibbs[[]float64]{Target: model, Sweeper: model} }, ex.LogZ, 6*math.Ln2)
}
