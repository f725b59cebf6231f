package chapter3

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// TestSyntheticRandomStart: with vb.init = "random" a cell runs no
// Baum-Welch baseline and its VB run is VBEM from hmm.RandomStart on the
// cell's own stream, with init_ml_iterations iterations; "random-means"
// starts from random means instead, and the two give different runs.
func TestSyntheticRandomStart(t *testing.T) {
	data := loadABC21(t)
	c := DefaultSynthetic()
	c.VB.Init = "random"
	c.VB.InitMLIterations = 7
	r, err := fitMLThenVB(&c, data, 0, 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.MLStatus != mlSkipped {
		t.Errorf("ml_status %q, want %q", r.MLStatus, mlSkipped)
	}
	u := c.Prior.prior(c.Model.K, data.P)
	w, err := hmm.RandomStart(data, u, c.Model.K, 7, rng.New(c.Seed, c.Experiment, "init", "0", "1"))
	if err != nil {
		t.Fatal(err)
	}
	want := vb.Run(hmm.NewVB(data, u, w), c.VB.FitSettings.Settings(nil, new(hmm.VB)))
	if float64(r.F) != want.F || r.VBIterations != want.Iterations {
		t.Errorf("cell: F %v after %d iterations; VBEM from hmm.RandomStart: %v after %d", float64(r.F), r.VBIterations, want.F, want.Iterations)
	}
	c.VB.Init = "random-means"
	means, err := fitMLThenVB(&c, data, 0, 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if means.MLStatus != mlSkipped || means.F == r.F {
		t.Errorf("random-means: ml_status %q, F %v (random: %v)", means.MLStatus, float64(means.F), float64(r.F))
	}
}

func TestBadRandomStartConfig(t *testing.T) {
	c := DefaultSynthetic()
	c.VB.Init = "random"
	c.VB.InitMLIterations = -1
	if err := config.CheckRanges(&c); err == nil || !strings.Contains(err.Error(), "vb.init_ml_iterations") {
		t.Errorf("negative init_ml_iterations: error %v", err)
	}
}

// startFunc draws a VB start for k states; it returns the start and the
// number of iterations (Baum-Welch or annealed VBEM) it ran.
type startFunc func(d hmm.Data, u hmm.Prior, k int, rnd *rand.Rand) (hmm.Posterior, int, error)

// randomStartOf is hmm.RandomStart with iters Baum-Welch iterations.
func randomStartOf(iters int) startFunc {
	return func(d hmm.Data, u hmm.Prior, k int, rnd *rand.Rand) (hmm.Posterior, int, error) {
		w, err := hmm.RandomStart(d, u, k, iters, rnd)
		return w, iters, err
	}
}

// randomMeans is the former random start ("random-means"): uniform
// components, normalised, as means of Dirichlets of strength 10.
func randomMeans(d hmm.Data, u hmm.Prior, k int, rnd *rand.Rand) (hmm.Posterior, int, error) {
	return hmm.PosteriorFromParams(hmm.RandomParams(k, d.P, rnd), 10, 1e-10), 0, nil
}

// randomLabels gives every symbol a uniformly drawn state (hard random
// responsibilities) and takes the VBM step from the counts of those paths.
func randomLabels(d hmm.Data, u hmm.Prior, k int, rnd *rand.Rand) (hmm.Posterior, int, error) {
	n := infer.NewCounts(k, d.P)
	for _, y := range d.Seqs {
		prev := -1
		for _, m := range y {
			s := rnd.IntN(k)
			if prev < 0 {
				n.Pi[s]++
			} else {
				n.A[prev*k+s]++
			}
			n.E[m*k+s]++
			prev = s
		}
	}
	return hmm.PosteriorFromCounts(u, n), 0, nil
}

// priorDraw draws every row of θ from its prior Dirichlet, a point
// estimate for the first q(s) (entries floored at 1e-300, so that no
// sequence is impossible), then takes the VBM step: BayesPy's
// initialize_from_random on the parameter nodes, q(s) updated first.
func priorDraw(d hmm.Data, u hmm.Prior, k int, rnd *rand.Rand) (hmm.Posterior, int, error) {
	θ := drawRows(u.Pi, u.A, u.C, k, rnd).Floored(1e-300)
	_, n := hmm.ExpectedCounts(d, θ)
	return hmm.PosteriorFromCounts(u, n), 0, nil
}

// drawnCounts draws the posterior pseudo-counts themselves: each row from
// the symmetric Dirichlet with entries 1/(row length), scaled to the
// number of sequences (π) or of symbols per state (A, C), floored at
// 1e-10: hmmlearn's VariationalCategoricalHMM._init.
func drawnCounts(d hmm.Data, u hmm.Prior, k int, rnd *rand.Rand) (hmm.Posterior, int, error) {
	flat := hmm.SymmetricPrior(k, d.P, 1, 1, 1)
	θ := drawRows(flat.Pi, flat.A, flat.C, k, rnd)
	w := hmm.Posterior{K: k, P: d.P, Pi: θ.Pi, A: θ.A, C: θ.C}
	perState := float64(d.Symbols()) / float64(k)
	for _, g := range []struct {
		x     []float64
		scale float64
	}{{w.Pi, float64(len(d.Seqs))}, {w.A, perState}, {w.C, perState}} {
		for i := range g.x {
			g.x[i] = math.Max(g.x[i]*g.scale, 1e-10)
		}
	}
	return w, 0, nil
}

// drawRows draws π ~ Dir(pi) and every row of A and C from Dir(a), Dir(c).
func drawRows(pi, a, c []float64, k int, rnd *rand.Rand) hmm.Params {
	θ := hmm.NewParams(k, len(c))
	dist.NewDirichlet(pi).Rand(θ.Pi, rnd)
	for j := 0; j < k; j++ {
		dist.NewDirichlet(a).Rand(θ.A[j*k:(j+1)*k], rnd)
		dist.NewDirichlet(c).Rand(θ.C[j*len(c):(j+1)*len(c)], rnd)
	}
	return θ
}

// annealedUp runs sweeps annealed VBEM iterations from the random-means
// start, the VBM step w = u + β·N̂ with β rising linearly from 0.1 to 1
// (eqs. 2.118-2.119).
func annealedUp(sweeps int) startFunc {
	return func(d hmm.Data, u hmm.Prior, k int, rnd *rand.Rand) (hmm.Posterior, int, error) {
		w, _, _ := randomMeans(d, u, k, rnd)
		for s := range sweeps {
			m := hmm.NewVB(d, u, w)
			if _, err := m.E(); err != nil {
				return w, s, err
			}
			β := 0.1 + 0.9*float64(s)/float64(sweeps-1)
			n := m.Counts()
			scaled := &infer.Counts{K: k, P: d.P, Pi: scale(n.Pi, β), A: scale(n.A, β), E: scale(n.E, β)}
			w = hmm.PosteriorFromCounts(u, scaled)
		}
		return w, sweeps, nil
	}
}

func scale(x []float64, β float64) []float64 {
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = β * v
	}
	return y
}

// fromML is the thesis's start (vb.init = "from-ml"): Baum-Welch from
// random parameters to convergence ([ml] defaults of chapter3/synthetic),
// then Dirichlets with the ML means and strength 10 (L2129).
func fromML(d hmm.Data, u hmm.Prior, k int, rnd *rand.Rand) (hmm.Posterior, int, error) {
	em := hmm.NewEM(d, hmm.RandomParams(k, d.P, rnd), nil)
	s := DefaultSynthetic().ML.FitSettings
	s.AbsTol = 0 // the targets' relative rule, as configs/chapter3/synthetic.toml
	r := vb.Run(em, s.Settings(nil, em))
	return hmm.PosteriorFromParams(em.Params, 10, 1e-10), r.Iterations, r.Error()
}

// startStats summarises one start's restarts.
type startStats struct {
	name                      string
	f                         []float64 // final F of each restart
	vbIters, initIters        []float64
	recovered                 int     // restarts whose VB posterior has the thesis's structure (CheckStructure)
	seconds                   float64 // wall time of all restarts, start included
	bestOf5, reach, reachBest float64
}

// bestOf5Median returns the median, over all C(n,5) groups of five of the
// restarts, of the group's best F: the smallest order statistic F_(i)
// with C(i,5)/C(n,5) ≥ 1/2.
func bestOf5Median(f []float64) float64 {
	s := slices.Sorted(slices.Values(f))
	n := len(s)
	for i := 5; i <= n; i++ {
		if choose5(i)/choose5(n) >= 0.5 {
			return s[i-1]
		}
	}
	return math.NaN()
}

func choose5(n int) float64 {
	if n < 5 {
		return 0
	}
	c := 1.0
	for j := range 5 {
		c *= float64(n-j) / float64(j+1)
	}
	return c
}

// TestRandomStarts measures random initialisations of the VB-HMM at equal
// restarts (issue 20, item 11): for each start, 200 restarts on fixed
// seeds, each VBEM run with chapter3/synthetic's stop rule; the spread of
// the final F, the median best of 5 (over all groups of five restarts),
// the fraction of restarts within 0.1 nats of the best F any start found
// and the chance that a best of 5 is, the fraction whose posterior has the
// structure of Figure 3.3 (CheckStructure; only meaningful on abc21), the
// median iterations (of the start, and of VBEM) and the time. It
// asserts what the README states: on the thesis's 21 strings (k = 12) the
// "random" start (hmm.RandomStart, 20 Baum-Welch iterations) has the best
// median best of 5 of all starts tried, recovers the structure of Figure
// 3.3 at least as often as any, and reaches the best F more often than the
// former random start and than the peers' schemes; at prior
// strength 1 its median best of 5 is above BayesPy's best of 5 reported
// in issue 20 (−272.5). On data from a random unstructured HMM it is not
// the best start (logged, not asserted). Run with -v to see the table.
func TestRandomStarts(t *testing.T) {
	if testing.Short() {
		t.Skip("measurement: about 4000 VBEM fits")
	}
	abc := loadABC21(t)
	rnd := rand.New(rand.NewPCG(5, 5))
	sampled := drawRows(symmetric(6, 3), symmetric(6, 2), symmetric(5, 2), 6, rnd).Sample(rnd, 10, 60)

	all := []struct {
		name  string
		start startFunc
	}{
		{`"random" (20 Baum-Welch iterations)`, randomStartOf(hmm.DefaultStartIterations)},
		{`"random" with 0 iterations`, randomStartOf(0)},
		{`"random-means" (former "random")`, randomMeans},
		{"random labels", randomLabels},
		{"prior draw (BayesPy)", priorDraw},
		{"drawn pseudo-counts (hmmlearn)", drawnCounts},
		{"annealed, β 0.1→1 in 10 (eq. 2.119)", annealedUp(10)},
		{`"from-ml" (converged Baum-Welch)`, fromML},
	}
	const restarts = 200
	for _, c := range []struct {
		name   string
		data   hmm.Data
		f      float64 // prior strength of every row
		starts []int   // indices into all
		abc21  bool    // the thesis's strings: the structure check applies, the claims are asserted
	}{
		{"abc21, k = 12, prior strength 1", abc, 1, []int{0, 1, 2, 3, 4, 5, 6, 7}, true},
		{"abc21, k = 12, prior strength 4 (the thesis's)", abc, 4, []int{0, 1, 2, 3, 4, 5, 7}, true},
		{"600 symbols of a random 6-state HMM, k = 12, strength 1", sampled, 1, []int{0, 2, 3, 4}, false},
	} {
		const k = 12
		u := hmm.SymmetricPrior(k, c.data.P, c.f, c.f, c.f)
		settings := DefaultSynthetic().VB.FitSettings.Settings(nil, new(hmm.VB))
		var stats []*startStats
		for _, i := range c.starts {
			st := &startStats{name: all[i].name}
			t0 := time.Now()
			for r := range restarts {
				w, it, err := all[i].start(c.data, u, k, rand.New(rand.NewPCG(uint64(r), 2003)))
				if err != nil {
					t.Fatalf("%s, %s, restart %d: %v", c.name, st.name, r, err)
				}
				m := hmm.NewVB(c.data, u, w)
				res := vb.Run(m, settings)
				if err := res.Error(); err != nil {
					t.Fatalf("%s, %s, restart %d: %v", c.name, st.name, r, err)
				}
				if CheckStructure(m.W.Mean(), m.Counts().Occupancy(), 0.01).Recovered {
					st.recovered++
				}
				st.f = append(st.f, res.F)
				st.vbIters = append(st.vbIters, float64(res.Iterations))
				st.initIters = append(st.initIters, float64(it))
			}
			st.seconds = time.Since(t0).Seconds()
			stats = append(stats, st)
		}
		best := math.Inf(-1)
		for _, st := range stats {
			best = max(best, slices.Max(st.f))
		}
		var tab strings.Builder
		fmt.Fprintf(&tab, "%s: %d restarts per start, best F found %.2f\n", c.name, restarts, best)
		fmt.Fprintf(&tab, "%-38s %8s %8s %8s %8s | %9s | %7s %7s | %7s | %5s %5s %7s\n", "start", "best", "q90", "median", "q10",
			"bo5 med", "≥best-.1", "bo5 ≥", "struct.", "init", "VB it", "ms/run")
		for _, st := range stats {
			m := 0
			for _, v := range st.f {
				if v >= best-0.1 {
					m++
				}
			}
			st.bestOf5 = bestOf5Median(st.f)
			st.reach = float64(m) / restarts
			st.reachBest = 1 - choose5(restarts-m)/choose5(restarts)
			recovered := "n/a"
			if c.abc21 {
				recovered = fmt.Sprintf("%.1f%%", 100*float64(st.recovered)/restarts)
			}
			fmt.Fprintf(&tab, "%-38s %8.2f %8.2f %8.2f %8.2f | %9.2f | %6.1f%% %6.1f%% | %7s | %5.0f %5.0f %7.1f\n", st.name,
				slices.Max(st.f), results.Quantile(st.f, 0.9), results.Median(st.f), results.Quantile(st.f, 0.1),
				st.bestOf5, 100*st.reach, 100*st.reachBest, recovered, results.Median(st.initIters), results.Median(st.vbIters),
				1000*st.seconds/restarts)
		}
		t.Log("\n" + tab.String())
		if !c.abc21 {
			continue
		}
		newStart := stats[0]
		for _, st := range stats[1:] {
			if newStart.bestOf5 < st.bestOf5 {
				t.Errorf("%s: median best of 5 of %s %.2f < %s's %.2f", c.name, newStart.name, newStart.bestOf5, st.name, st.bestOf5)
			}
			if newStart.recovered < st.recovered {
				t.Errorf("%s: %s recovers the structure in %d restarts, %s in %d", c.name, newStart.name, newStart.recovered, st.name, st.recovered)
			}
			if strings.Contains(st.name, "from-ml") {
				continue
			}
			if newStart.reach <= st.reach {
				t.Errorf("%s: %s reaches the best F in %.1f%% of restarts, %s in %.1f%%", c.name, newStart.name, 100*newStart.reach, st.name, 100*st.reach)
			}
		}
		if c.f == 1 && newStart.bestOf5 < -272.5 {
			t.Errorf("%s: median best of 5 %.2f below BayesPy's best of 5, -272.5", c.name, newStart.bestOf5)
		}
	}
}

// symmetric returns n entries of f/n (a symmetric Dirichlet of strength f).
func symmetric(n int, f float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = f / float64(n)
	}
	return x
}
