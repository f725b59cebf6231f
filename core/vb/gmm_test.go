package vb_test

// Loop tests of the VBEM driver on a toy Gaussian mixture (targets
// ch3-hmm.md §0.3): (1) F never decreases, (2) ML-EM, the point-mass special
// case, never decreases the log-likelihood, (3) nor does F with
// hyperparameter optimisation, (4) restarts return the highest-F run and the
// same seed gives bit-identical traces. The HMM versions are in
// core/model/hmm.

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/vbworkbench/vbw/core/parallel"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// prior is a moderately broad prior for data of scale a few units.
var prior = vbtest.MixturePrior{Alpha0: 1, M0: 0, Beta0: 0.05, A0: 1.5, B0: 1}

// threeClusters draws n points from a three-component mixture with one
// overlapping pair, so that K > 3 models have spare components to prune.
func threeClusters(rnd *rand.Rand, n int) []float64 {
	return vbtest.MixtureData(rnd, n, []float64{0.5, 0.3, 0.2}, []float64{-3, 0, 4}, []float64{1, 0.6, 1.2})
}

// strict asks for many iterations and a tight convergence test, so that the
// monotonicity check sees long traces including the slow tail.
var strict = vb.Settings{MaxIterations: 3000, RelTol: 1e-13, MonotoneTol: 1e-9}

func TestGaussianMixtureFNeverDecreases(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		x := threeClusters(rng.New(seed, "vb/gmm", "data"), 150)
		for k := 2; k <= 6; k++ {
			m := vbtest.NewGaussianMixture(x, k, prior, rng.New(seed, "vb/gmm", "init", strconv.Itoa(k)))
			r := vb.Run(m, strict)
			if err := r.Error(); err != nil {
				t.Fatalf("seed %d k=%d: %v", seed, k, err)
			}
			vbtest.CheckMonotone(t, r.Trace.F, 1e-9)
			if n := len(r.Trace.F); n < 10 || !(r.Trace.F[n-1] > r.Trace.F[0]) {
				t.Fatalf("seed %d k=%d: %d iterations from %v to %v; the check saw no real run", seed, k, n, r.Trace.F[0], r.Trace.F[n-1])
			}
		}
	}
}

func TestGaussianMixtureEMNeverDecreases(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		x := threeClusters(rng.New(seed, "vb/gmm", "data"), 150)
		for k := 1; k <= 4; k++ {
			m := vbtest.NewGaussianMixtureEM(x, k, rng.New(seed, "vb/gmm-em", "init", strconv.Itoa(k)))
			// The floor keeps a collapsing component from making the
			// likelihood infinite; the constrained M step is still exact.
			m.VarFloor = 1e-6
			r := vb.Run(m, strict)
			if err := r.Error(); err != nil {
				t.Fatalf("seed %d k=%d: %v", seed, k, err)
			}
			vbtest.CheckMonotone(t, r.Trace.F, 1e-9)
			if got := m.LogLikelihood(); math.Abs(got-r.F) > 1e-12*math.Abs(r.F) {
				t.Fatalf("seed %d k=%d: objective %v is not the log-likelihood %v", seed, k, r.F, got)
			}
			if k == 1 && r.Iterations != 2 {
				t.Fatalf("k=1 ML-EM took %d iterations, want 2 (closed form after one M)", r.Iterations)
			}
		}
	}
}

func TestGaussianMixtureUpdateHyperNeverDecreases(t *testing.T) {
	s := strict
	s.Hyper = vb.Every(vbtest.HyperAlpha0)
	for seed := uint64(1); seed <= 3; seed++ {
		x := threeClusters(rng.New(seed, "vb/gmm", "data"), 150)
		for _, k := range []int{2, 4, 6} {
			for _, a0 := range []float64{0.01, 1, 100} {
				p := prior
				p.Alpha0 = a0
				m := vbtest.NewGaussianMixture(x, k, p, rng.New(seed, "vb/gmm-hyper", "init", strconv.Itoa(k)))
				r := vb.Run(m, s)
				if err := r.Error(); err != nil {
					t.Fatalf("seed %d k=%d α0=%v: %v", seed, k, a0, err)
				}
				vbtest.CheckMonotone(t, r.Trace.F, 1e-9)
				if m.Prior.Alpha0 == a0 {
					t.Fatalf("seed %d k=%d: α0 stayed at %v", seed, k, a0)
				}
				// At convergence α0 is a fixed point of the update.
				before := m.Prior.Alpha0
				m.UpdateHyper(vbtest.HyperAlpha0)
				if d := math.Abs(m.Prior.Alpha0/before - 1); d > 1e-4 {
					t.Fatalf("seed %d k=%d: α0 moved by a relative %.3g after convergence", seed, k, d)
				}
			}
		}
	}
}

func TestGaussianMixtureSameSeedSameTrace(t *testing.T) {
	x := threeClusters(rng.New(7, "vb/gmm", "data"), 150)
	run := func(seed uint64) vb.Result {
		s := strict
		s.Hyper = vb.Every(vbtest.HyperAlpha0)
		return vb.Run(vbtest.NewGaussianMixture(x, 5, prior, rng.New(seed, "vb/gmm", "init")), s)
	}
	a, b := run(7), run(7)
	if len(a.Trace.F) != len(b.Trace.F) || a.Iterations != b.Iterations || a.Status != b.Status {
		t.Fatalf("runs differ: %d vs %d iterations, %v vs %v", a.Iterations, b.Iterations, a.Status, b.Status)
	}
	for i := range a.Trace.F {
		if math.Float64bits(a.Trace.F[i]) != math.Float64bits(b.Trace.F[i]) {
			t.Fatalf("iteration %d: F = %v and %v", i, a.Trace.F[i], b.Trace.F[i])
		}
		for j := range a.Trace.Terms[i] {
			ta, tb := a.Trace.Terms[i][j], b.Trace.Terms[i][j]
			if ta.Name != tb.Name || math.Float64bits(ta.Value) != math.Float64bits(tb.Value) {
				t.Fatalf("iteration %d: term %v and %v", i, ta, tb)
			}
		}
	}
	// A different seed is a different run, so the comparison above is not
	// vacuous.
	if c := run(8); len(c.Trace.F) == len(a.Trace.F) && c.Trace.F[0] == a.Trace.F[0] {
		t.Fatalf("seeds 7 and 8 gave the same trace start %v", c.Trace.F[0])
	}
}

func TestGaussianMixtureRestartsPickBest(t *testing.T) {
	// With these data and K = 6, random starts end in different local
	// optima (one of them merges two clusters and splits another).
	x := threeClusters(rng.New(2, "vb/gmm", "data"), 150)
	const restarts, k = 12, 6
	// Each restart's initialisation comes from its own named stream, so the
	// results cannot depend on which worker ran it or in what order.
	run := func(workers int) []vb.Result {
		res := make([]vb.Result, restarts)
		parallel.For(restarts, workers, func(i int) {
			m := vbtest.NewGaussianMixture(x, k, prior, rng.New(11, "vb/gmm", "restart", strconv.Itoa(i)))
			res[i] = vb.Run(m, strict)
		})
		return res
	}
	ref := run(1)
	best := vb.Best(restarts, func(i int) float64 { return ref[i].F })
	if best < 0 {
		t.Fatal("no finite restart")
	}
	distinct := false
	for i, r := range ref {
		if err := r.Error(); err != nil {
			t.Fatalf("restart %d: %v", i, err)
		}
		vbtest.CheckMonotone(t, r.Trace.F, 1e-9)
		if r.F > ref[best].F {
			t.Fatalf("Best chose restart %d (F = %v) but restart %d has F = %v", best, ref[best].F, i, r.F)
		}
		if math.Abs(r.F-ref[best].F) > 1e-6*math.Abs(r.F) {
			distinct = true
		}
	}
	if !distinct {
		t.Fatalf("all %d restarts reached the same F; the choice is not tested", restarts)
	}
	for _, w := range []int{2, 3, 8} {
		res := run(w)
		if b := vb.Best(restarts, func(i int) float64 { return res[i].F }); b != best {
			t.Fatalf("%d workers chose restart %d, 1 worker chose %d", w, b, best)
		}
		for i := range res {
			if len(res[i].Trace.F) != len(ref[i].Trace.F) {
				t.Fatalf("%d workers: restart %d ran %d iterations, not %d", w, i, len(res[i].Trace.F), len(ref[i].Trace.F))
			}
			for j, f := range res[i].Trace.F {
				if math.Float64bits(f) != math.Float64bits(ref[i].Trace.F[j]) {
					t.Fatalf("%d workers: restart %d iteration %d: F = %v, not %v", w, i, j, f, ref[i].Trace.F[j])
				}
			}
		}
	}
}
