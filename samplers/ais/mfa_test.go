package ais_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/is"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// The one-analyser AIS target satisfies the samplers' interfaces by its
// method set.
var (
	_ ais.Model[[]float64] = (*mfa.Annealed)(nil)
	_ mcmc.GradTempered    = (*mfa.Annealed)(nil)
	_ is.Target            = (*mfa.Annealed)(nil)
)

// TestMFAEvidence runs AIS with HMC on one factor analyser (k = 1, p = 2,
// Ψ, a*, b*, μ*, ν* fixed) over data sets of 30 points drawn from a
// one-factor model, and checks the pooled ln p(y) against the quadrature
// mfa.Annealed.LogEvidenceQuad within 3 standard errors, each below 0.1
// nats. The posterior has the two mirrored modes ±Λ̂; the runs start from
// prior draws, so both are visited. The kernel is HMC with 10 leapfrog
// steps of 1/√(1 + τn/ψ) (acceptance about 0.87 here), 32 runs of 1000
// temperatures on the geometric schedule from τ(1) = 10⁻⁴.
func TestMFAEvidence(t *testing.T) {
	datasets := 3
	if testing.Short() {
		datasets = 1
	}
	h := mfa.Hyper{Alpha: 1, A: 1, B: 1, Mu: []float64{0, 0}, Nu: []float64{1, 1}, Psi: []float64{0.5, 0.5}}
	for ds := range datasets {
		rnd := rng.New(56, "mfa-data", strconv.Itoa(ds))
		const n = 30
		y := mat.NewDense(n, 2, nil)
		for i := range n {
			x := rnd.NormFloat64()
			y.Set(i, 0, x+math.Sqrt(h.Psi[0])*rnd.NormFloat64())
			y.Set(i, 1, 0.8*x+math.Sqrt(h.Psi[1])*rnd.NormFloat64())
		}
		a, err := mfa.NewAnnealed(y, 1, h)
		if err != nil {
			t.Fatal(err)
		}
		q, err := a.LogEvidenceQuad(mfa.QuadSettings{})
		if err != nil {
			t.Fatal(err)
		}
		s := ais.Sampler[[]float64]{
			Model: a,
			NewKernel: func() mcmc.Kernel[[]float64] {
				return &mcmc.HMC{Target: a, Steps: 10, StepSize: func(b float64) float64 { return 1 / math.Sqrt(1+b*n/h.Psi[0]) }}
			},
			Tau: ais.Geometric(1000, 1e-4),
		}
		rnds := make([]*rand.Rand, 32)
		for g := range rnds {
			rnds[g] = rng.New(56, "mfa-ais", strconv.Itoa(ds), strconv.Itoa(g))
		}
		z, se := ais.Pool(ais.LogWeights(s.Runs(rnds, 2)))
		if math.Abs(z-q.LnZ) > 3*se || se > 0.1 {
			t.Errorf("data set %d: AIS ln p(y) = %.4f ± %.4f, quadrature %.4f", ds, z, se, q.LnZ)
		}
	}
}
