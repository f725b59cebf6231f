package is_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vbworkbench/vbw/core/model/gmm"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/samplers/is"
)

// The Gaussian mixture's target and relabelled VB proposal satisfy the
// package's interfaces by their method sets.
var (
	_ is.Target   = (*gmm.Target)(nil)
	_ is.Proposal = (*gmm.Proposal)(nil)
)

// gmmFit converges VB on x from the seeds 1…starts and returns the
// proposal that mixes the relabelled posteriors of the distinct optima
// found (F differing by more than 10⁻⁶ nats), the target and the best F.
func gmmFit(t *testing.T, x []float64, k int, p gmm.Prior, starts uint64) (*gmm.Proposal, *gmm.Target, float64) {
	t.Helper()
	var fits []*gmm.VB
	var fs []float64
	for seed := uint64(1); seed <= starts; seed++ {
		m, err := gmm.NewVB(x, 2, k, p, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		r := vb.Run(m, vb.Settings{MaxIterations: 2000, RelTol: 1e-12})
		if !slices.ContainsFunc(fs, func(f float64) bool { return math.Abs(f-r.F) < 1e-6 }) {
			fits, fs = append(fits, m), append(fs, r.F)
		}
	}
	f := slices.Max(fs)
	q, err := gmm.NewProposal(fits...)
	if err != nil {
		t.Fatal(err)
	}
	tg, err := gmm.NewTarget(x, 2, k, p)
	if err != nil {
		t.Fatal(err)
	}
	return q, tg, f
}

// TestGMMImportanceSampling: with the VB posteriors of the distinct optima
// of ten restarts, each averaged over its K! relabellings, as the
// proposal, importance sampling recovers the exact evidence: at K = 1 every
// weight equals ln p(X) (q is the posterior), and at K = 2 on 8 points
// (2^8 assignments enumerated) the mean of 20 runs of 5000 samples is
// within 3 standard errors of it. (With the
// best fit alone the estimate misses the posterior mass of the other
// optimum's partitions: 3.5 standard errors low at α₀ = 10⁻³.)
func TestGMMImportanceSampling(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 8))
	var x []float64
	for i := 0; i < 8; i++ {
		c := [2]float64{-1.5, 0}
		if i%2 == 1 {
			c = [2]float64{1.5, 0.5}
		}
		x = append(x, c[0]+0.5*rnd.NormFloat64(), c[1]+0.5*rnd.NormFloat64())
	}
	for _, a0 := range []float64{1, 1e-3} {
		p := gmm.DefaultPrior(2, a0)
		q, tg, _ := gmmFit(t, x, 1, p, 1)
		exact, _ := gmm.LogEvidenceOne(x, 2, p)
		theta := make([]float64, q.Dim())
		for range 20 {
			if lw := is.LogWeight(theta, q, tg, rnd); math.Abs(lw-exact) > 1e-8 {
				t.Fatalf("α₀ = %v, K = 1: ln w = %v, ln p(X) = %v", a0, lw, exact)
			}
		}
		q, tg, f := gmmFit(t, x, 2, p, 10)
		exact, err := gmm.LogEvidenceExact(x, 2, 2, p)
		if err != nil {
			t.Fatal(err)
		}
		_, sum := is.SampleRuns(20, 5000, 2, is.RunStreams(24, "is-gmm-test"), func() (is.Proposal, is.Target) {
			return q.Clone(), tg.Clone()
		})
		if math.Abs(sum.Mean-exact) > 3*sum.SE || !(sum.SE < 0.2) {
			t.Errorf("α₀ = %v, K = 2: IS ln Z = %.4f ± %.4f, exact %.4f", a0, sum.Mean, sum.SE, exact)
		}
		t.Logf("α₀ = %v, K = 2: IS %.4f ± %.4f (pooled %.4f), exact %.4f, F %.4f, F + ln 2 %.4f, F̂ %.4f", a0, sum.Mean, sum.SE, sum.Pooled, exact, f, f+math.Ln2, sum.MeanLogW)
	}
}

// TestGMMProposalNormalised: the relabelled proposal's draws and density
// agree (RandLogProb returns LogProb of the draw), and its density is
// invariant under a relabelling of θ.
func TestGMMProposalNormalised(t *testing.T) {
	x := []float64{-1, 0, -1.2, 0.3, 1, 1, 1.4, 0.8, 0.9, 1.3, -0.8, -0.2}
	q, _, _ := gmmFit(t, x, 3, gmm.DefaultPrior(2, 1), 2)
	rnd := rand.New(rand.NewPCG(1, 1))
	theta := make([]float64, q.Dim())
	perm := make([]float64, q.Dim())
	for range 50 {
		lq := q.RandLogProb(theta, rnd)
		if got := q.LogProb(theta); math.Abs(got-lq) > 1e-9*math.Max(1, math.Abs(lq)) {
			t.Fatalf("RandLogProb %v, LogProb %v", lq, got)
		}
		// swap components 0 and 2: weights, means (D = 2), precisions (3 values)
		copy(perm, theta)
		sw := func(off, w int) {
			for i := 0; i < w; i++ {
				perm[off+i], perm[off+2*w+i] = theta[off+2*w+i], theta[off+i]
			}
		}
		sw(0, 1)
		sw(3, 2)
		sw(9, 3)
		if got := q.LogProb(perm); math.Abs(got-lq) > 1e-9*math.Max(1, math.Abs(lq)) {
			t.Fatalf("relabelled density %v, original %v", got, lq)
		}
	}
}

// TestGMMDefensiveProposal: the best fit alone, flattened (widen 1.5) and
// mixed with the prior (ε = 0.1), gives a proposal whose draws and density
// agree and whose importance sampling recovers the exact evidence of
// TestGMMImportanceSampling's data at K = 2, at both α₀, within 3 standard
// errors, where the best fit's q alone misses the other optimum's
// partitions; with widen 1 and ε = 0 it is NewProposal's density.
func TestGMMDefensiveProposal(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 8))
	var x []float64
	for i := 0; i < 8; i++ {
		c := [2]float64{-1.5, 0}
		if i%2 == 1 {
			c = [2]float64{1.5, 0.5}
		}
		x = append(x, c[0]+0.5*rnd.NormFloat64(), c[1]+0.5*rnd.NormFloat64())
	}
	for _, a0 := range []float64{1, 1e-3} {
		p := gmm.DefaultPrior(2, a0)
		m, err := gmm.NewVB(x, 2, 2, p, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		vb.Run(m, vb.Settings{MaxIterations: 2000, RelTol: 1e-12})
		plain, _ := gmm.NewProposal(m)
		same, err := gmm.NewDefensiveProposal(p, 1, 0, m)
		if err != nil {
			t.Fatal(err)
		}
		q, err := gmm.NewDefensiveProposal(p, 1.5, 0.1, m)
		if err != nil {
			t.Fatal(err)
		}
		theta := make([]float64, q.Dim())
		for range 50 {
			lq := q.RandLogProb(theta, rnd)
			if got := q.LogProb(theta); math.Abs(got-lq) > 1e-9*math.Max(1, math.Abs(lq)) {
				t.Fatalf("RandLogProb %v, LogProb %v", lq, got)
			}
			if a, b := plain.LogProb(theta), same.LogProb(theta); math.Abs(a-b) > 1e-9*math.Max(1, math.Abs(a)) {
				t.Fatalf("NewProposal %v, NewDefensiveProposal(1, 0) %v", a, b)
			}
		}
		tg, _ := gmm.NewTarget(x, 2, 2, p)
		exact, err := gmm.LogEvidenceExact(x, 2, 2, p)
		if err != nil {
			t.Fatal(err)
		}
		_, sum := is.SampleRuns(20, 5000, 2, is.RunStreams(24, "is-gmm-defensive"), func() (is.Proposal, is.Target) {
			return q.Clone(), tg.Clone()
		})
		if math.Abs(sum.Pooled-exact) > 3*sum.SE || !(sum.SE < 0.2) {
			t.Errorf("α₀ = %v: IS ln Z = %.4f ± %.4f, exact %.4f", a0, sum.Pooled, sum.SE, exact)
		}
		t.Logf("α₀ = %v: defensive IS %.4f ± %.4f, exact %.4f", a0, sum.Pooled, sum.SE, exact)
	}
	if _, err := gmm.NewDefensiveProposal(gmm.DefaultPrior(2, 1), 0.5, 0.1, nil...); err == nil {
		t.Error("widen 0.5 accepted")
	}
}
