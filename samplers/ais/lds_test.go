package ais_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/lds"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// The LDS's AIS target satisfies the samplers' interfaces by its method set.
var (
	_ ais.Model[[]float64] = (*lds.Annealed)(nil)
	_ mcmc.GradTempered    = (*lds.Annealed)(nil)
)

// subTarget is lds.Annealed with every coordinate but free held at base's
// values: its prior is the full prior divided by the prior of the held
// block, lnHeld, which is exact because the blocks held here are
// independent a priori of the free ones (A of (C, ρ), eqs. 5.8, 5.10, 5.12),
// and its draws are the full prior's free coordinates.
type subTarget struct {
	full   *lds.Annealed
	free   []int
	base   []float64
	lnHeld float64
}

func (s *subTarget) embed(x []float64) []float64 {
	th := append([]float64(nil), s.base...)
	for i, f := range s.free {
		th[f] = x[i]
	}
	return th
}
func (s *subTarget) LogPrior(x []float64) float64 { return s.full.LogPrior(s.embed(x)) - s.lnHeld }
func (s *subTarget) LogLik(x []float64) float64   { return s.full.LogLik(s.embed(x)) }
func (s *subTarget) grad(dst, x []float64, g func(dst, x []float64)) {
	full := make([]float64, len(s.base))
	g(full, s.embed(x))
	for i, f := range s.free {
		dst[i] = full[f]
	}
}
func (s *subTarget) GradLogPrior(dst, x []float64) { s.grad(dst, x, s.full.GradLogPrior) }
func (s *subTarget) GradLogLik(dst, x []float64)   { s.grad(dst, x, s.full.GradLogLik) }
func (s *subTarget) SamplePrior(dst []float64, rnd *rand.Rand) []float64 {
	th := s.full.SamplePrior(nil, rnd)
	if cap(dst) < len(s.free) {
		dst = make([]float64, len(s.free))
	}
	dst = dst[:len(s.free)]
	for i, f := range s.free {
		dst[i] = th[f]
	}
	return dst
}

// gradTarget is an ais.Model with gradients.
type gradTarget interface {
	ais.Model[[]float64]
	mcmc.GradTempered
}

// ldsAIS pools runs AIS runs of m with HMC (leap leapfrog steps of
// eps/√(1 + β n/4)), run g from the stream (55, label, g).
func ldsAIS(m gradTarget, tau []float64, runs, leap int, eps, n float64, label string) (float64, float64, []ais.Run) {
	s := ais.Sampler[[]float64]{
		Model: m,
		NewKernel: func() mcmc.Kernel[[]float64] {
			return &mcmc.HMC{Target: m, Steps: leap, StepSize: func(b float64) float64 { return eps / math.Sqrt(1+b*n/4) }}
		},
		Tau: tau,
	}
	rnds := make([]*rand.Rand, runs)
	for g := range rnds {
		rnds[g] = rng.New(55, label, strconv.Itoa(g))
	}
	rs := s.Runs(rnds, 2)
	z, se := ais.Pool(ais.LogWeights(rs))
	return z, se, rs
}

// lds1D simulates T steps of the 1-D LDS x_t = a x_{t−1} + w_t, y_t = c x_t
// + v_t, v_t ~ N(0, 1/ρ), x_0 ~ N(0, 1).
func lds1D(rnd *rand.Rand, a, c, rho float64, T int) []lds.Sequence {
	par := &lds.Params{A: mat.NewDense(1, 1, []float64{a}), C: mat.NewDense(1, 1, []float64{c}),
		Rho: []float64{rho}, Sigma0: mat.NewSymDense(1, []float64{1})}
	s, _ := lds.Simulate(rnd, par, T, nil)
	return []lds.Sequence{s}
}

// TestLDSEvidence1D runs AIS with HMC on a 1-D LDS (default priors α = γ
// = 1, a = b = 1, μ_0 = 0, Σ_0 = 1) with (C, ρ) held, a 1-D integral over
// A, and with A held, a 2-D integral over (C, ln ρ) (bimodal in C: the
// sign of x is not identified), and checks the pooled estimate against
// adaptive Gauss-Kronrod quadrature within 3 standard errors (each below
// 0.05 nats), over three simulated data sets.
func TestLDSEvidence1D(t *testing.T) {
	datasets := 3
	if testing.Short() {
		datasets = 1
	}
	lnN := func(x float64) float64 { return -0.5*math.Log(2*math.Pi) - 0.5*x*x } // N(x|0, 1)
	for ds := 0; ds < datasets; ds++ {
		rnd := rng.New(55, "lds-1d-data", strconv.Itoa(ds))
		a0, c0, rho0 := 0.8, 1.5, 4.0
		data := lds1D(rnd, a0, c0, rho0, 20)
		full, err := lds.NewAnnealed(data, 1, lds.Hyper{})
		if err != nil {
			t.Fatal(err)
		}
		base := []float64{a0, c0, math.Log(rho0)}
		held0 := append([]float64(nil), base...)
		held0[0] = 0
		for _, c := range []struct {
			name   string
			free   []int
			lnHeld float64
		}{
			{"A", []int{0}, full.LogPrior(held0) - lnN(0)},
			{"C,lnρ", []int{1, 2}, lnN(a0)},
		} {
			sub := &subTarget{full: full, free: c.free, base: base, lnHeld: c.lnHeld}
			var exact float64
			tol := numeric.QuadTol{Rel: 1e-8, Abs: 1e-300}
			// The integrand scaled by e^{−ln L(base)} so that it is of order 1.
			l0 := full.LogLik(base)
			if len(c.free) == 1 {
				v, err := numeric.Integrate(func(x float64) float64 {
					th := []float64{x}
					return math.Exp(sub.LogPrior(th) + sub.LogLik(th) - l0)
				}, -8, 8, tol)
				if err != nil {
					t.Fatal(err)
				}
				exact = math.Log(v) + l0
			} else {
				v, err := numeric.IntegrateVec2(nil, 1, func(x, y float64, out []float64) {
					th := []float64{x, y}
					out[0] = math.Exp(sub.LogPrior(th) + sub.LogLik(th) - l0)
				}, [2]float64{-8, -8}, [2]float64{8, 6}, numeric.QuadTol{Rel: 1e-6, Abs: 1e-300})
				if err != nil {
					t.Fatal(err)
				}
				exact = math.Log(v[0]) + l0
			}
			got, se, runs := ldsAIS(sub, ais.Nonlinear(100, 0.2), 200, 8, 0.5, 20, c.name+"/"+strconv.Itoa(ds))
			if math.Abs(got-exact) > 3*se || !(se < 0.05) {
				t.Errorf("data %d, free %s: AIS ln Z = %.4f ± %.4f, quadrature %.4f", ds, c.name, got, se, exact)
			}
			if st := runs[0].Stats(); st.Rate() < 0.5 {
				t.Errorf("data %d, free %s: HMC acceptance %d of %d", ds, c.name, st.Accepted, st.Proposed)
			}
			t.Logf("data %d, free %s: quadrature %.4f, AIS %.4f ± %.4f", ds, c.name, exact, got, se)
		}
	}
}
