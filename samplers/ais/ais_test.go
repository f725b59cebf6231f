package ais

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"

	"github.com/vbworkbench/vbw/samplers/mcmc"
)

func streams(seed uint64, g int) []*rand.Rand {
	r := make([]*rand.Rand, g)
	for i := range r {
		r[i] = rand.New(rand.NewPCG(seed, uint64(i)))
	}
	return r
}

func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}

func TestLinear(t *testing.T) {
	tau := Linear(4)
	if want := []float64{0, 0.25, 0.5, 0.75, 1}; !reflect.DeepEqual(tau, want) {
		t.Errorf("Linear(4) = %v, want %v", tau, want)
	}
	if got := Linear(1); !reflect.DeepEqual(got, []float64{0, 1}) {
		t.Errorf("Linear(1) = %v", got)
	}
	if !panics(func() { Linear(0) }) {
		t.Error("Linear(0) did not panic")
	}
}

// Target spec T11: τ(0) = 0, τ(K) = 1, monotone, τ(K/2) = 0.1/0.7 for
// e_τ = 0.2, and linear as e_τ → ∞.
func TestNonlinear(t *testing.T) {
	for _, e := range []float64{0.01, 0.05, 0.1, 0.2, 1, 10} {
		tau := Nonlinear(16384, e)
		if err := CheckSchedule(tau); err != nil {
			t.Errorf("e_τ=%g: %v", e, err)
		}
		// Below the diagonal: the schedule lingers at high temperature.
		for k, v := range tau {
			if u := float64(k) / 16384; v > u+1e-15 {
				t.Errorf("e_τ=%g: τ(%d) = %g above k/K = %g", e, k, v, u)
				break
			}
		}
	}
	tau := Nonlinear(16384, 0.2)
	if got, want := tau[8192], 0.1/0.7; math.Abs(got-want) > 1e-15 {
		t.Errorf("τ(K/2) = %.17g, want %.17g", got, want)
	}
	// The first step of the thesis's schedule: τ(1) = 0.2/(K(1 − 1/K + 0.2)).
	if got, want := tau[1], 0.2/16384/(1-1.0/16384+0.2); math.Abs(got-want) > 1e-18 {
		t.Errorf("τ(1) = %g, want %g", got, want)
	}
	lin, big := Linear(100), Nonlinear(100, 1e9)
	for k := range lin {
		if math.Abs(lin[k]-big[k]) > 1e-8 {
			t.Errorf("e_τ=1e9: τ(%d) = %g, linear %g", k, big[k], lin[k])
		}
	}
	for _, bad := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if !panics(func() { Nonlinear(10, bad) }) {
			t.Errorf("Nonlinear(10, %g) did not panic", bad)
		}
	}
}

func TestCheckSchedule(t *testing.T) {
	for _, tau := range [][]float64{nil, {0}, {0.1, 1}, {0, 0.9}, {0, 0.5, 0.5, 1}, {0, 0.6, 0.4, 1}, {0, math.NaN(), 1}} {
		if CheckSchedule(tau) == nil {
			t.Errorf("CheckSchedule(%v) accepted an invalid schedule", tau)
		}
	}
	if err := CheckSchedule([]float64{0, 0.3, 1}); err != nil {
		t.Error(err)
	}
	var r Run
	p := mcmc.Point[float64]{}
	if !panics(func() { ForwardTo[float64](&r, &recorder{}, []float64{0, 0.5}, &p, nil) }) {
		t.Error("ForwardTo accepted a schedule that does not end at 1")
	}
}

// recorder is a deterministic kernel on float64 states: it moves to x = β,
// sets ln L = −5β² − 1 there, records β, and reports an acceptance on every
// other call.
type recorder struct{ betas []float64 }

func ellAt(x float64) float64 { return -5*x*x - 1 }

func (r *recorder) Step(p *mcmc.Point[float64], beta float64, _ *rand.Rand) mcmc.Stats {
	r.betas = append(r.betas, beta)
	p.X, p.LogPrior, p.LogLik = beta, 0, ellAt(beta)
	return mcmc.Stats{Proposed: 1, Accepted: len(r.betas) % 2}
}

// ForwardTo applies the kernel at τ(0…K−1) in order and records
// ln R_k = (τ(k) − τ(k−1))·ln L(x_k) at the state after that transition;
// ReverseTo visits τ(K−1…0) and stores the same ratios under the same
// indices.
func TestForwardReverseOrder(t *testing.T) {
	tau := Nonlinear(7, 0.3)
	for _, reverse := range []bool{false, true} {
		rec := &recorder{}
		p := mcmc.Point[float64]{X: -3, LogLik: 100}
		var r Run
		if reverse {
			ReverseTo[float64](&r, rec, tau, &p, nil)
		} else {
			ForwardTo[float64](&r, rec, tau, &p, nil)
		}
		if r.K() != 7 || len(rec.betas) != 7 {
			t.Fatalf("reverse=%v: K = %d after %d steps", reverse, r.K(), len(rec.betas))
		}
		var sum float64
		for i := range rec.betas {
			k := i + 1 // forward: step i is ratio k = i+1
			if reverse {
				k = 7 - i
			}
			if rec.betas[i] != tau[k-1] {
				t.Errorf("reverse=%v: call %d at β=%g, want τ(%d)=%g", reverse, i, rec.betas[i], k-1, tau[k-1])
			}
			want := (tau[k] - tau[k-1]) * ellAt(tau[k-1])
			if r.LogR[k-1] != want {
				t.Errorf("reverse=%v: ln R_%d = %g, want %g", reverse, k, r.LogR[k-1], want)
			}
			if acc := (i + 1) % 2; r.Steps[k-1] != (mcmc.Stats{Proposed: 1, Accepted: acc}) {
				t.Errorf("reverse=%v: Steps[%d] = %+v", reverse, k-1, r.Steps[k-1])
			}
			sum += r.LogR[k-1]
		}
		if r.LogW != sum {
			t.Errorf("reverse=%v: LogW = %g, Σ ln R_k = %g", reverse, r.LogW, sum)
		}
		if want := tau[len(tau)-2]; !reverse && p.X != want {
			t.Errorf("final state %g, want the state of the last step %g", p.X, want)
		}
	}
}

// Accumulating over a run and over blocks of a run.
func TestRunStatsByPart(t *testing.T) {
	r := Run{LogR: make([]float64, 10), Steps: make([]mcmc.Stats, 10)}
	for i := range r.Steps {
		r.Steps[i] = mcmc.Stats{Proposed: 2, Accepted: i % 3}
		r.LogR[i] = float64(i)
	}
	if s := r.Stats(); s != (mcmc.Stats{Proposed: 20, Accepted: 9}) {
		t.Errorf("Stats = %+v", s)
	}
	// Blocks ⌊i·4/10⌋: {0,1,2}, {3,4}, {5,6,7}, {8,9}.
	want := []mcmc.Stats{{Proposed: 6, Accepted: 3}, {Proposed: 4, Accepted: 1}, {Proposed: 6, Accepted: 3}, {Proposed: 4, Accepted: 2}}
	if got := r.StatsByPart(4); !reflect.DeepEqual(got, want) {
		t.Errorf("StatsByPart(4) = %+v, want %+v", got, want)
	}
	if got := r.LogRByPart(4); !reflect.DeepEqual(got, []float64{3, 7, 18, 17}) {
		t.Errorf("LogRByPart(4) = %v", got)
	}
	if !panics(func() { r.StatsByPart(11) }) || !panics(func() { r.LogRByPart(0) }) {
		t.Error("invalid parts did not panic")
	}
}

// still is the identity kernel, which leaves every density invariant.
type still struct{}

func (still) Step(*mcmc.Point[[]float64], float64, *rand.Rand) mcmc.Stats { return mcmc.Stats{} }

// With one annealing step (τ: 0 → 1) AIS is importance sampling from the
// prior: ln w is ln L of a prior draw. With the identity kernel the draw is
// the very state SamplePrior returns from the same stream; with an MH
// kernel it is the state after one prior-invariant transition.
func TestOneStepIsImportanceSampling(t *testing.T) {
	gm := newGaussModel(2, 5, 1.5, 1, rand.New(rand.NewPCG(1, 1)))
	s := Sampler[[]float64]{Model: gm, NewKernel: func() mcmc.Kernel[[]float64] { return still{} }, Tau: Linear(1)}
	for seed := uint64(0); seed < 5; seed++ {
		r := s.Run(rand.New(rand.NewPCG(7, seed)))
		x := gm.SamplePrior(nil, rand.New(rand.NewPCG(7, seed)))
		if want := gm.LogLik(x); r.LogW != want || r.LogR[0] != want {
			t.Errorf("seed %d: ln w = %g (ln R_1 = %g), ln L of the prior draw = %g", seed, r.LogW, r.LogR[0], want)
		}
	}
	rnd := rand.New(rand.NewPCG(8, 8))
	kern := newScaledKernel(gm, 1)
	for i := 0; i < 5; i++ {
		p := mcmc.NewPoint(gm, gm.SamplePrior(nil, rnd))
		var r Run
		ForwardTo(&r, kern, Linear(1), &p, rnd)
		if want := gm.LogLik(p.X); r.LogW != want || p.LogLik != want {
			t.Errorf("run %d: ln w = %g, cached ln L %g, ln L of the final draw = %g", i, r.LogW, p.LogLik, want)
		}
	}
	if kern.mh.Stats.Proposed != 5 {
		t.Errorf("MH made %d proposals in 5 one-step runs", kern.mh.Stats.Proposed)
	}
}

// checkWithin3SE pools the runs and compares with the exact value.
func checkWithin3SE(t *testing.T, name string, runs []Run, exact float64) {
	t.Helper()
	est, se := Pool(LogWeights(runs))
	t.Logf("%s: ln Ẑ = %.4f ± %.4f, exact %.4f, acceptance %.2f", name, est, se, exact, acceptance(runs))
	if !(math.Abs(est-exact) < 3*se) {
		t.Errorf("%s: ln Ẑ = %.4f ± %.4f is not within 3 standard errors of %.4f", name, est, se, exact)
	}
}

func acceptance(runs []Run) float64 {
	var s mcmc.Stats
	for i := range runs {
		s.Add(runs[i].Stats())
	}
	return s.Rate()
}

// Target spec T13 at K = 1: importance sampling from the prior recovers the
// evidence of a small conjugate model.
func TestOneStepRecoversLogZ(t *testing.T) {
	gm := newGaussModel(1, 3, 1, 1, rand.New(rand.NewPCG(2, 2)))
	s := Sampler[[]float64]{Model: gm, NewKernel: func() mcmc.Kernel[[]float64] { return newScaledKernel(gm, 1) }, Tau: Linear(1)}
	checkWithin3SE(t, "K=1", s.Runs(streams(21, 4000), 2), gm.logZ())
}

// The closed form of the Gaussian evidence agrees with quadrature in one
// dimension.
func TestGaussianLogZByQuadrature(t *testing.T) {
	gm := newGaussModel(1, 6, 2, 0.7, rand.New(rand.NewPCG(3, 3)))
	x := []float64{0}
	peak := gm.sum[0] / float64(gm.n)
	f := func(u float64) float64 {
		x[0] = u
		return math.Exp(gm.LogPrior(x) + gm.LogLik(x) - gm.logZ())
	}
	if got := quad.Fixed(f, peak-8, peak+8, 200, nil, 0); math.Abs(got-1) > 1e-10 {
		t.Errorf("∫ p(θ)p(y|θ)dθ / Z = %.12f, want 1", got)
	}
}

// AIS recovers the closed-form evidence of the conjugate Gaussian model
// within 3 standard errors, under both schedules.
func TestGaussianEvidence(t *testing.T) {
	gm := newGaussModel(2, 10, 2, 1, rand.New(rand.NewPCG(4, 4)))
	for _, c := range []struct {
		name string
		tau  []float64
	}{{"linear", Linear(200)}, {"nonlinear", Nonlinear(200, 0.2)}} {
		s := Sampler[[]float64]{Model: gm, NewKernel: func() mcmc.Kernel[[]float64] { return newScaledKernel(gm, 1) }, Tau: c.tau}
		checkWithin3SE(t, c.name, s.Runs(streams(41, 200), 2), gm.logZ())
	}
}

// AIS over parameters and hidden labels of a binomial mixture, with a Gibbs
// sweep over the labels and MH on the parameters at each temperature,
// recovers the evidence computed by enumerating the 2^8 labellings.
func TestMixtureEvidence(t *testing.T) {
	mm := newMixModel(5, []int{0, 1, 5, 4, 5, 0, 2, 5})
	s := Sampler[*mixState]{Model: mm, NewKernel: func() mcmc.Kernel[*mixState] { return newMixKernel(mm, 0.15) }, Tau: Nonlinear(300, 0.2)}
	checkWithin3SE(t, "mixture", s.Runs(streams(51, 200), 2), mm.logZ())
}

// AIS on a discrete state space with MH ±1 moves recovers the sum over the
// sixteen states.
func TestDiscreteEvidence(t *testing.T) {
	dm := newDiscModel()
	s := Sampler[int]{Model: dm, NewKernel: func() mcmc.Kernel[int] { return &mcmc.MH[int]{Target: dm, Proposal: step{}} }, Tau: Linear(50)}
	checkWithin3SE(t, "discrete", s.Runs(streams(61, 500), 2), dm.logZ())
}

// Results depend only on each run's stream, not on the number of workers.
func TestRunsIndependentOfWorkers(t *testing.T) {
	mm := newMixModel(5, []int{0, 1, 5, 4, 5, 0, 2, 5})
	s := Sampler[*mixState]{Model: mm, NewKernel: func() mcmc.Kernel[*mixState] { return newMixKernel(mm, 0.15) }, Tau: Nonlinear(40, 0.2)}
	ref := s.Runs(streams(71, 9), 1)
	for _, w := range []int{2, 3, 0} {
		if got := s.Runs(streams(71, 9), w); !reflect.DeepEqual(got, ref) {
			t.Errorf("workers=%d: runs differ from the sequential runs", w)
		}
	}
	if got := s.Run(rand.New(rand.NewPCG(71, 4))); !reflect.DeepEqual(got, ref[4]) {
		t.Error("Sampler.Run differs from run 4 of Runs with the same stream")
	}
}

// With a perfectly mixing kernel every ratio of either pass is estimated
// from an independent draw of f_{k−1}, so both the forward and the reverse
// pass are unbiased and recover the evidence; a reverse pass that stepped at
// the wrong temperature or inverted the ratios would not.
func TestForwardReverse(t *testing.T) {
	gm := newGaussModel(1, 10, 2, 1, rand.New(rand.NewPCG(5, 5)))
	s := Sampler[[]float64]{Model: gm, NewKernel: func() mcmc.Kernel[[]float64] { return exactKernel{gm} }, Tau: Nonlinear(8, 0.2)}
	var fw, rv []float64
	for _, rnd := range streams(81, 2000) {
		fwd, rev := s.ForwardReverse(rnd)
		fw, rv = append(fw, fwd.LogW), append(rv, rev.LogW)
	}
	exact := gm.logZ()
	for _, c := range []struct {
		name string
		lw   []float64
	}{{"forward", fw}, {"reverse", rv}} {
		est, se := Pool(c.lw)
		t.Logf("%s: ln Ẑ = %.4f ± %.4f, exact %.4f", c.name, est, se, exact)
		if !(math.Abs(est-exact) < 3*se) {
			t.Errorf("%s: ln Ẑ = %.4f ± %.4f not within 3 standard errors of %.4f", c.name, est, se, exact)
		}
	}
}

func TestPool(t *testing.T) {
	if z, se := Pool([]float64{-2, -2, -2}); z != -2 || se != 0 {
		t.Errorf("equal weights: %g ± %g, want −2 ± 0", z, se)
	}
	// Weights 1 and 3: mean 2; scaled weights 1/2, 3/2; se = √(0.5/2) = 0.5.
	if z, se := Pool([]float64{0, math.Log(3)}); math.Abs(z-math.Log(2)) > 1e-15 || math.Abs(se-0.5) > 1e-15 {
		t.Errorf("weights 1, 3: %g ± %g, want ln 2 ± 0.5", z, se)
	}
	// Far outside the range of exp: only differences matter.
	if z, se := Pool([]float64{-59000, -59000 + math.Log(3)}); math.Abs(z-(-59000+math.Log(2))) > 1e-10 || math.Abs(se-0.5) > 1e-12 {
		t.Errorf("weights e^−59000·(1, 3): %g ± %g", z, se)
	}
	if z, se := Pool([]float64{-7}); z != -7 || !math.IsNaN(se) {
		t.Errorf("one run: %g ± %g, want −7 ± NaN", z, se)
	}
	if z, se := Pool([]float64{math.Inf(-1), math.Inf(-1)}); !math.IsInf(z, -1) || !math.IsNaN(se) {
		t.Errorf("zero weights: %g ± %g, want −Inf ± NaN", z, se)
	}
	if !panics(func() { Pool(nil) }) {
		t.Error("Pool(nil) did not panic")
	}
}

func TestPoolRatios(t *testing.T) {
	gm := newGaussModel(1, 4, 1, 1, rand.New(rand.NewPCG(6, 6)))
	s := Sampler[[]float64]{Model: gm, NewKernel: func() mcmc.Kernel[[]float64] { return newScaledKernel(gm, 1) }, Tau: Nonlinear(30, 0.2)}
	runs := s.Runs(streams(91, 6), 1)
	if got := PoolRatios(runs[:1]); got != runs[0].LogW {
		t.Errorf("G=1: %g, want the run's ln w %g", got, runs[0].LogW)
	}
	// By hand: Σ_k ln((1/G) Σ_g R_k^(g)).
	var want float64
	for k := 0; k < 30; k++ {
		var m float64
		for g := range runs {
			m += math.Exp(runs[g].LogR[k])
		}
		want += math.Log(m / float64(len(runs)))
	}
	if got := PoolRatios(runs); math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Errorf("G=6: %.15g, direct sum %.15g", got, want)
	}
	s.Tau = Linear(1)
	one := s.Runs(streams(92, 6), 1)
	if z, _ := Pool(LogWeights(one)); PoolRatios(one) != z {
		t.Errorf("K=1: PoolRatios %g differs from Pool %g", PoolRatios(one), z)
	}
	if !panics(func() { PoolRatios([]Run{runs[0], one[0]}) }) || !panics(func() { PoolRatios(nil) }) {
		t.Error("mismatched or empty runs did not panic")
	}
}

// A forward run into a Run of sufficient capacity allocates nothing.
func TestForwardToAllocs(t *testing.T) {
	gm := newGaussModel(3, 10, 1, 1, rand.New(rand.NewPCG(1, 2)))
	kern := newScaledKernel(gm, 1)
	tau := Nonlinear(64, 0.2)
	rnd := rand.New(rand.NewPCG(3, 4))
	p := mcmc.NewPoint(gm, gm.SamplePrior(nil, rnd))
	var r Run
	ForwardTo(&r, kern, tau, &p, rnd)
	if a := testing.AllocsPerRun(20, func() { ForwardTo(&r, kern, tau, &p, rnd) }); a != 0 {
		t.Errorf("ForwardTo allocates %g times per run", a)
	}
}

func TestLogWSE(t *testing.T) {
	// ln w = 0, 2: sd √2 (divisor 1), over √2 runs: 1.
	if got := LogWSE([]float64{0, 2}); math.Abs(got-1) > 1e-15 {
		t.Errorf("LogWSE(0, 2) = %v, want 1", got)
	}
	// Far from zero: only differences matter.
	if got := LogWSE([]float64{-59000, -59002, -59004}); math.Abs(got-2/math.Sqrt(3)) > 1e-9 {
		t.Errorf("LogWSE(−59000, −59002, −59004) = %v, want 2/√3", got)
	}
	if got := LogWSE([]float64{-7}); !math.IsNaN(got) {
		t.Errorf("one run: %v, want NaN", got)
	}
	if got := LogWSE([]float64{-1, math.Inf(-1)}); !math.IsNaN(got) {
		t.Errorf("a zero weight: %v, want NaN", got)
	}
}
