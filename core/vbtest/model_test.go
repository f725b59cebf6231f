package vbtest_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// conformanceData is the data of the CheckModel tests: 150 points from three
// well-separated clusters.
func conformanceData() []float64 { return threeClusters(rand.New(rand.NewPCG(31, 1)), 150) }

// newMixture returns a constructor of VBEM for k components on x, always
// from the same seeded start.
func newMixture(x []float64, k int) func() *vbtest.GaussianMixture {
	return func() *vbtest.GaussianMixture {
		return vbtest.NewGaussianMixture(x, k, testPrior, rand.New(rand.NewPCG(32, uint64(k))))
	}
}

// mixtureOptions are the CheckModel options of GaussianMixture: its E step
// computes each component's KL through dist.NormalGamma values that it
// builds on every call (gonum Cholesky factorisations), so it allocates by
// design; it is a test model, and E's allocations are not part of its
// contract.
var mixtureOptions = vbtest.CheckOptions{EAllocs: -1}

func TestCheckModelPasses(t *testing.T) {
	x := conformanceData()
	for _, k := range []int{1, 3, 5} {
		newM := newMixture(x, k)
		vbtest.CheckModel(t, func() vb.Model { return newM() }, mixtureOptions)
	}
	// GaussianMixtureEM's E allocates the bound's terms and a K-vector of
	// per-component constants (which the compiler may keep on the stack when
	// K is small).
	for _, k := range []int{1, 3} {
		vbtest.CheckModel(t, func() vb.Model {
			m := vbtest.NewGaussianMixtureEM(x, k, rand.New(rand.NewPCG(33, uint64(k))))
			m.VarFloor = 1e-3
			return m
		}, vbtest.CheckOptions{EAllocs: 2, Iterations: 20})
	}
}

// Deliberately broken variants of GaussianMixture. Each embeds the working
// model, so it keeps its hyperparameter group and its moves (vb.Mover), and
// breaks one thing.

// positiveKL carries the KL terms with the wrong sign (+KL), so that the
// terms no longer sum to F: the sign-contract bug of an old convention.
type positiveKL struct{ *vbtest.GaussianMixture }

func (m positiveKL) E() (vb.Bound, error) {
	b, err := m.GaussianMixture.E()
	b.Terms = slices.Clone(b.Terms)
	for i := 1; i < len(b.Terms); i++ {
		b.Terms[i].Value = -b.Terms[i].Value
	}
	return b, err
}

// sameNames gives every term the same name (the values still sum to F).
type sameNames struct{ *vbtest.GaussianMixture }

func (m sameNames) E() (vb.Bound, error) {
	b, err := m.GaussianMixture.E()
	b.Terms = slices.Clone(b.Terms)
	for i := range b.Terms {
		b.Terms[i].Name = "F"
	}
	return b, err
}

// shiftedM moves every component mean 10 units (about three data standard
// deviations) away from its VBM update, which lowers F.
type shiftedM struct{ *vbtest.GaussianMixture }

func (m shiftedM) M() {
	m.GaussianMixture.M()
	for j := range m.Mu {
		m.Mu[j] += 10
	}
}

// badHyper sets the Dirichlet strength to 10⁶ instead of maximising F over
// it: with unequal cluster weights, −KL(q(π) ‖ p(π)) falls by about 10⁴
// nats.
type badHyper struct{ *vbtest.GaussianMixture }

func (m badHyper) UpdateHyper(string) { m.Prior.Alpha0 = 1e6 }

// allocatingM keeps a copy of the means after every M step, allocating.
type allocatingM struct {
	*vbtest.GaussianMixture
	last *[]float64
}

func (m allocatingM) M() {
	m.GaussianMixture.M()
	*m.last = slices.Clone(m.Mu)
}

// forgetfulSave saves nothing, so Restore cannot undo the steps and the
// move made since.
type forgetfulSave struct{ *vbtest.GaussianMixture }

func (forgetfulSave) Save() any   { return nil }
func (forgetfulSave) Restore(any) {}

// failingE returns an error from its third E step on.
type failingE struct {
	*vbtest.GaussianMixture
	calls *int
}

func (m failingE) E() (vb.Bound, error) {
	b, err := m.GaussianMixture.E()
	if *m.calls++; *m.calls >= 3 {
		return b, errors.New("broken E")
	}
	return b, err
}

// nanE returns F = NaN from its third E step on.
type nanE struct {
	*vbtest.GaussianMixture
	calls *int
}

func (m nanE) E() (vb.Bound, error) {
	b, err := m.GaussianMixture.E()
	if *m.calls++; *m.calls >= 3 {
		b.F = math.NaN()
	}
	return b, err
}

// TestCheckModelFails: CheckModel reports each deliberately broken model,
// through a recorder standing in for testing.T, with a message that names
// the broken property. Every broken model wraps the GaussianMixture that
// TestCheckModelPasses shows passing on the same data and seed.
func TestCheckModelFails(t *testing.T) {
	x := conformanceData()
	newM := newMixture(x, 3)
	var seed uint64
	for _, c := range []struct {
		name     string
		newModel func() vb.Model
		opts     vbtest.CheckOptions
		want     string // a substring of some report
		fatal    bool   // whether the check must stop with Fatalf
	}{
		{"terms do not sum to F", func() vb.Model { return positiveKL{newM()} }, mixtureOptions,
			"terms sum to", false},
		// ... at every E step, of which the first three are reported and
		// the rest counted.
		{"terms do not sum to F, summary", func() vb.Model { return positiveKL{newM()} }, mixtureOptions,
			"more E steps failed the check of the sign contract", false},
		{"duplicate term names", func() vb.Model { return sameNames{newM()} }, mixtureOptions,
			`term name "F" appears more than once`, false},
		{"M lowers F", func() vb.Model { return shiftedM{newM()} }, mixtureOptions,
			"E after M: F decreased", false},
		{"UpdateHyper lowers F", func() vb.Model { return badHyper{newM()} }, mixtureOptions,
			`E after M and UpdateHyper("alpha0"): F decreased`, false},
		{"M allocates", func() vb.Model { return allocatingM{newM(), new([]float64)} }, mixtureOptions,
			"M allocates", false},
		{"E allocates more than stated", func() vb.Model {
			return vbtest.NewGaussianMixtureEM(x, 3, rand.New(rand.NewPCG(33, 3)))
		}, vbtest.CheckOptions{EAllocs: 0}, "E allocates", false},
		{"nondeterministic construction", func() vb.Model {
			seed++ // a start that differs at every call
			return vbtest.NewGaussianMixture(x, 3, testPrior, rand.New(rand.NewPCG(seed, 1)))
		}, mixtureOptions, "not deterministic", false},
		{"Save does not save", func() vb.Model { return forgetfulSave{newM()} }, mixtureOptions,
			"Save/Restore does not round-trip", false},
		{"E fails", func() vb.Model { return failingE{newM(), new(int)} }, mixtureOptions,
			"E returned an error: broken E", true},
		{"F not finite", func() vb.Model { return nanE{newM(), new(int)} }, mixtureOptions,
			"F = NaN is not finite", true},
	} {
		var r recorder
		r.run(func(t testing.TB) { vbtest.CheckModel(t, c.newModel, c.opts) })
		reports := r.reports()
		if strings.Contains(c.want, "allocates") && slices.ContainsFunc(r.logs, func(s string) bool { return strings.Contains(s, "race detector") }) {
			t.Logf("%s: not checked: CheckModel skips its allocation checks under the race detector", c.name)
			continue
		}
		if r.panicV != nil {
			t.Errorf("%s: CheckModel panicked: %v", c.name, r.panicV)
			continue
		}
		if len(reports) == 0 {
			t.Errorf("%s: CheckModel reported nothing", c.name)
			continue
		}
		if !slices.ContainsFunc(reports, func(s string) bool { return strings.Contains(s, c.want) }) {
			t.Errorf("%s: no report mentions %q; got %q", c.name, c.want, reports)
		}
		if got := r.fatal != ""; got != c.fatal {
			t.Errorf("%s: stopped with Fatalf: %v, want %v (reports %q)", c.name, got, c.fatal, reports)
		}
	}
}

// TestRecorderFatalEndsCheck: the recorder's Fatalf ends the check's
// goroutine, as testing.T's does, and run returns.
func TestRecorderFatalEndsCheck(t *testing.T) {
	var r recorder
	after := false
	r.run(func(t testing.TB) {
		t.Errorf("first")
		t.Fatalf("stop %d", 2)
		after = true
	})
	if after || r.fatal != "stop 2" || len(r.errs) != 1 || r.errs[0] != "first" {
		t.Fatalf("after Fatalf: ran on %v, fatal %q, errors %q", after, r.fatal, r.errs)
	}
}
