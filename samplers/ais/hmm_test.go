package ais_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// The HMM's AIS target satisfies the samplers' interfaces by its method set.
var (
	_ ais.Model[[]float64] = (*hmm.Annealed)(nil)
	_ mcmc.GradTempered    = (*hmm.Annealed)(nil)
)

// hmmStepSize is the HMC step of the HMM's log-ratio coordinates at inverse
// temperature β: eps at the prior, shrinking as 1/√(1 + β n/4) with
// n = symbols/k, the counts a row of A or C sees on average, since a
// row's log-ratios have posterior sd about 2/√(counts) (a heuristic fixed
// in advance, not from the states, so each step stays reversible).
func hmmStepSize(eps float64, d hmm.Data, k int) func(float64) float64 {
	n := float64(d.Symbols()) / float64(k)
	return func(beta float64) float64 { return eps / math.Sqrt(1+beta*n/4) }
}

// hmmAIS pools runs AIS runs on the schedule tau with an HMC kernel of
// leap leapfrog steps, run g from the stream (36, label, g); wrap, when
// not nil, replaces the kernel (the negative control). It returns ln Ẑ,
// Pool's se and the runs.
func hmmAIS(a *hmm.Annealed, d hmm.Data, k int, tau []float64, runs, leap int, label string,
	wrap func(mcmc.Kernel[[]float64]) mcmc.Kernel[[]float64]) (float64, float64, []ais.Run) {
	s := ais.Sampler[[]float64]{
		Model: a,
		NewKernel: func() mcmc.Kernel[[]float64] {
			var kern mcmc.Kernel[[]float64] = &mcmc.HMC{Target: a, Steps: leap, StepSize: hmmStepSize(0.4, d, k)}
			if wrap != nil {
				kern = wrap(kern)
			}
			return kern
		},
		Tau: tau,
	}
	rnds := make([]*rand.Rand, runs)
	for g := range rnds {
		rnds[g] = rng.New(36, label, strconv.Itoa(g))
	}
	rs := s.Runs(rnds, 2)
	z, se := ais.Pool(ais.LogWeights(rs))
	return z, se, rs
}

// atOne is a broken kernel: it runs its inner kernel at β = 1 whatever τ,
// so the states are posterior draws where the schedule wants f_τ.
type atOne struct{ k mcmc.Kernel[[]float64] }

func (b atOne) Step(p *mcmc.Point[[]float64], _ float64, rnd *rand.Rand) mcmc.Stats {
	return b.k.Step(p, 1, rnd)
}

// tinyHMMCases are data sets of T ≤ 8 symbols with k = 2 states, whose
// exact evidence is the enumeration of the 2^T paths (ExactLogEvidence).
func tinyHMMCases() []struct {
	name string
	d    hmm.Data
	u    hmm.Prior
} {
	return []struct {
		name string
		d    hmm.Data
		u    hmm.Prior
	}{
		{"p2-sym", hmm.Data{P: 2, Seqs: [][]int{{0, 0, 1, 1, 0, 0, 1, 1}}}, hmm.SymmetricPrior(2, 2, 2, 2, 2)},
		{"p3-two-seqs", hmm.Data{P: 3, Seqs: [][]int{{0, 1, 2, 0}, {2, 2, 1}}}, hmm.SymmetricPrior(2, 3, 1, 2, 3)},
		{"p3-asym", hmm.Data{P: 3, Seqs: [][]int{{0, 0, 0, 2, 2, 2, 1}}},
			hmm.Prior{Pi: []float64{0.6, 1.7}, A: []float64{2.4, 0.8}, C: []float64{0.5, 1.1, 2.6}}},
		{"p2-weak", hmm.Data{P: 2, Seqs: [][]int{{1, 1, 1, 1, 1, 0}, {0, 1}}}, hmm.SymmetricPrior(2, 2, 1, 1, 1)},
	}
}

// TestHMMEvidence runs AIS with HMC on hmm.Annealed for four tiny
// two-state HMMs (data sets of 7-8 symbols, symmetric and asymmetric
// priors, strengths 1-3) at three seeds each and checks the pooled estimate
// (6.61) against the exact ln p(y|m) within 3 of its standard errors, each
// below 0.05 nats. It checks too that the estimate, averaged over the
// seeds, is not below the best VB bound F of five restarts (F ≤ ln p(y|m))
// by more than 3 standard errors.
func TestHMMEvidence(t *testing.T) {
	seeds := 3
	if testing.Short() {
		seeds = 1
	}
	for _, c := range tinyHMMCases() {
		const k = 2
		exact, err := hmm.ExactLogEvidence(c.d, k, c.u)
		if err != nil {
			t.Fatal(err)
		}
		a, err := hmm.NewAnnealed(c.d, k, c.u)
		if err != nil {
			t.Fatal(err)
		}
		f := bestVBF(t, c.d, k, c.u)
		if f > exact {
			t.Fatalf("%s: F = %v above ln p(y|m) = %v", c.name, f, exact)
		}
		var mean, se2 float64
		for s := 0; s < seeds; s++ {
			got, se, runs := hmmAIS(a, c.d, k, ais.Linear(100), 200, 8, c.name+"/"+strconv.Itoa(s), nil)
			if math.Abs(got-exact) > 3*se || !(se < 0.05) {
				t.Errorf("%s seed %d: AIS ln Z = %.4f ± %.4f, exact %.4f", c.name, s, got, se, exact)
			}
			if st := runs[0].Stats(); st.Rate() < 0.5 {
				t.Errorf("%s seed %d: HMC acceptance %d of %d", c.name, s, st.Accepted, st.Proposed)
			}
			mean += got / float64(seeds)
			se2 += se * se / float64(seeds*seeds)
		}
		if mean < f-3*math.Sqrt(se2) {
			t.Errorf("%s: mean AIS %.4f ± %.4f below the VB bound F = %.4f", c.name, mean, math.Sqrt(se2), f)
		}
		t.Logf("%s: exact %.4f, AIS mean %.4f ± %.4f, F %.4f (gap %.3f)", c.name, exact, mean, math.Sqrt(se2), f, exact-f)
	}
}

// TestHMMEvidenceBrokenKernel is the negative control of TestHMMEvidence: a
// kernel that ignores τ (HMC at β = 1 throughout) gives an estimate more
// than 3 standard errors from the exact value on a case where the
// posterior is far from the prior.
func TestHMMEvidenceBrokenKernel(t *testing.T) {
	c := tinyHMMCases()[2]
	exact, _ := hmm.ExactLogEvidence(c.d, 2, c.u)
	a, _ := hmm.NewAnnealed(c.d, 2, c.u)
	got, se, _ := hmmAIS(a, c.d, 2, ais.Linear(100), 200, 8, "broken",
		func(k mcmc.Kernel[[]float64]) mcmc.Kernel[[]float64] { return atOne{k} })
	if math.Abs(got-exact) <= 3*se {
		t.Errorf("broken kernel passed: AIS ln Z = %.4f ± %.4f, exact %.4f", got, se, exact)
	}
	t.Logf("broken kernel: AIS %.4f ± %.4f, exact %.4f", got, se, exact)
}

// bestVBF returns the largest F of five VB restarts (hmm.RandomStart-like
// starts from random parameters at strength 10).
func bestVBF(t *testing.T, d hmm.Data, k int, u hmm.Prior) float64 {
	t.Helper()
	best := math.Inf(-1)
	for r := range uint64(5) {
		rnd := rand.New(rand.NewPCG(37, r))
		m := hmm.NewVB(d, u, hmm.PosteriorFromParams(hmm.RandomParams(k, d.P, rnd), 10, 1e-10))
		res := vb.Run(m, vb.Settings{MaxIterations: 2000, RelTol: 1e-10})
		if err := res.Error(); err != nil {
			t.Fatal(err)
		}
		best = math.Max(best, res.F)
	}
	return best
}

// BenchmarkHMMAnnealedHMC times one HMC transition (8 leapfrog steps: 9
// forward-backward passes and one forward pass) of hmm.Annealed at the
// size of chapter 3's synthetic experiment (k = 12 states, p = 3 symbols,
// 21 sequences, about 550 symbols as abc21.txt); an AIS estimate is
// runs × temperatures of them.
func BenchmarkHMMAnnealedHMC(b *testing.B) {
	rnd := rand.New(rand.NewPCG(38, 1))
	d := hmm.Data{P: 3}
	for i := 0; i < 21; i++ {
		y := make([]int, 20+rnd.IntN(13))
		for t := range y {
			y[t] = rnd.IntN(3)
		}
		d.Seqs = append(d.Seqs, y)
	}
	const k = 12
	a, err := hmm.NewAnnealed(d, k, hmm.SymmetricPrior(k, 3, 4, 4, 4))
	if err != nil {
		b.Fatal(err)
	}
	kern := &mcmc.HMC{Target: a, Steps: 8, StepSize: hmmStepSize(0.4, d, k)}
	p := mcmc.NewPoint[[]float64](a, a.SamplePrior(nil, rnd))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		kern.Step(&p, 0.5, rnd)
	}
}
