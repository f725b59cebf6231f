package hmm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/vb"
)

// TestEPOneSequenceExact: with one sequence EP has one site, whose cavity
// is the prior, so its evidence is the tilted normaliser, the exact
// ln p(y | K) of the enumeration (ExactLogEvidence), under a prior with
// no symmetry.
func TestEPOneSequenceExact(t *testing.T) {
	rnd := rand.New(rand.NewPCG(61, 2))
	for _, k := range []int{1, 2, 3} {
		d := randomData(rnd, 1, 3, 7, 7)
		u := randomPrior(rnd, k, 3)
		e, err := NewEP(d, k, u, approx.EPSettings{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Run(); err != nil {
			t.Fatal(err)
		}
		got, err := e.LogEvidence()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := ExactLogEvidence(d, k, u)
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("K = %d: ln Z_EP = %.12g, exact %.12g", k, got, want)
		}
	}
}

// TestEPOneStateExact: at K = 1 a sequence's likelihood is one monomial in
// the emission row, a site in the family, so EP is exact for any number of
// sequences.
func TestEPOneStateExact(t *testing.T) {
	rnd := rand.New(rand.NewPCG(62, 2))
	d := randomData(rnd, 4, 3, 3, 5)
	u := randomPrior(rnd, 1, 3)
	e, err := NewEP(d, 1, u, approx.EPSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(); err != nil {
		t.Fatal(err)
	}
	got, _ := e.LogEvidence()
	want, _ := ExactLogEvidence(d, 1, u)
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("ln Z_EP = %.12g, exact %.12g", got, want)
	}
}

// TestEPSequences: several sequences at K = 2, 3 against the enumeration.
// EP's evidence is an approximation; the errors observed on these data
// are 0.02–0.13 nats, the bound is 0.3, and EP must beat its own start,
// the sum of the sequences' separate evidences Σ_i ln p(y_i) (what
// LogEvidence gives before any sweep, errors of 0.4–1 nats here), so the
// test fails if the sites do nothing. Started at VB's q, a run must reach
// a fixed point too (a sweep then moves no site); on these short
// sequences it is the symmetric one EP reaches from the prior (the log
// shows the same evidence), so adding ln K! to it would overcount.
func TestEPSequences(t *testing.T) {
	rnd := rand.New(rand.NewPCG(63, 2))
	for trial, k := range []int{2, 2, 3} {
		d := randomData(rnd, 3, 3, 3, 4)
		u := SymmetricPrior(k, 3, 2, 2, 2)
		exact, err := ExactLogEvidence(d, k, u)
		if err != nil {
			t.Fatal(err)
		}
		e, err := NewEP(d, k, u, approx.EPSettings{MaxIterations: 500, Tol: 1e-10})
		if err != nil {
			t.Fatal(err)
		}
		start, _ := e.LogEvidence()
		ok, err := e.Run()
		if err != nil || !ok {
			t.Fatalf("trial %d: converged %v after %d sweeps (%d skipped): %v", trial, ok, e.Iterations(), e.Skipped(), err)
		}
		got, _ := e.LogEvidence()
		t.Logf("trial %d, K = %d: EP %.5f, exact %.5f, error %.4f; start's error %.3f", trial, k, got, exact, got-exact, start-exact)
		if math.Abs(got-exact) > 0.3 {
			t.Errorf("trial %d: ln Z_EP = %.5f, exact %.5f", trial, got, exact)
		}
		if math.Abs(got-exact) >= math.Abs(start-exact) {
			t.Errorf("trial %d: EP's error %.4f no better than its start's %.4f", trial, got-exact, start-exact)
		}
		// From VB's q.
		w := PosteriorFromParams(RandomParams(k, 3, rnd), 10, 1e-10)
		m, _ := runVB(t, d, u, w, vb.Settings{MaxIterations: 500, RelTol: 1e-10})
		e2, _ := NewEP(d, k, u, approx.EPSettings{MaxIterations: 500, Tol: 1e-10})
		if err := e2.StartAt(m.W); err != nil {
			t.Fatal(err)
		}
		if ok, err := e2.Run(); err != nil || !ok {
			t.Fatalf("trial %d from VB's q: converged %v, %v", trial, ok, err)
		}
		if c, _ := e2.Sweep(); c > 1e-8 {
			t.Errorf("trial %d from VB's q: a sweep after convergence moved a site by %g", trial, c)
		}
		g2, _ := e2.LogEvidence()
		t.Logf("trial %d from VB's q: EP %.5f (+ ln K! %.5f)", trial, g2, g2+lnFact(k))
	}
}

func lnFact(k int) float64 { v, _ := math.Lgamma(float64(k) + 1); return v }

// TestEPErrors: bad inputs and too many paths are errors.
func TestEPErrors(t *testing.T) {
	u := SymmetricPrior(2, 2, 1, 1, 1)
	if _, err := NewEP(Data{P: 2, Seqs: [][]int{{0, 1}}}, 0, u, approx.EPSettings{}); err == nil {
		t.Error("K = 0 accepted")
	}
	long := make([]int, 21)
	if _, err := NewEP(Data{P: 2, Seqs: [][]int{long}}, 2, u, approx.EPSettings{}); err == nil {
		t.Error("2^21 paths accepted")
	}
	e, _ := NewEP(Data{P: 2, Seqs: [][]int{{0, 1}}}, 2, u, approx.EPSettings{})
	if err := e.StartAt(Posterior{K: 3, P: 2}); err == nil {
		t.Error("a start of another K accepted")
	}
}
