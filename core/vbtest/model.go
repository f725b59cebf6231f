package vbtest

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/vbworkbench/vbw/core/vb"
)

// CheckOptions control CheckModel. The zero value of every field means its
// documented default, except EAllocs, whose zero value is a valid (and the
// strictest) setting.
type CheckOptions struct {
	// Iterations is the number of rounds of steps checked (see CheckModel).
	// Default 10.
	Iterations int
	// Tol is the relative tolerance of the monotonicity and sign-contract
	// checks: a step may lower F by at most Tol·max(1, |F|), and the terms
	// must sum to F within the same amount. Default 1e-9, the default of
	// vb.Settings.MonotoneTol and the tolerance of vb.Run's check of the
	// terms.
	Tol float64
	// EAllocs is the largest number of heap allocations that one E call may
	// make in the steady state, which the caller states as part of the
	// model's contract and explains at the call site. For example, the
	// chapter-3 HMMs return a freshly allocated Bound.Terms slice from every
	// E step, so that a caller (a vb.Settings.Recorder) may keep it; that is
	// one allocation (two for MAP-EM, whose second term is appended). A negative
	// value skips the check of E, for a model whose E step allocates by
	// design (say why at the call site). M must never allocate in the steady
	// state; there is no option for it.
	EAllocs int
}

func (o CheckOptions) withDefaults() CheckOptions {
	if o.Iterations <= 0 {
		o.Iterations = 10
	}
	if o.Tol <= 0 {
		o.Tol = 1e-9
	}
	return o
}

// allocRuns is the number of calls testing.AllocsPerRun averages over.
const allocRuns = 20

// CheckModel is the conformance suite that every model package under
// core/model runs from its tests, in the manner of gonum's
// optimize/functions validation helpers. newModel must build a fresh model
// in the same state every time it is called (the same data, start and
// seed); CheckModel calls it twice. A freshly built model must give a finite
// F at its first E step (vb.Run tolerates −Inf there; this suite does not).
//
// On the first model CheckModel runs an initial E step and then
// opts.Iterations rounds of
//
//	E                        (repeated: a second E step cannot lower F)
//	M, E                     (the M step: E → M → E cannot lower F)
//	M, UpdateHyper(g), E     for each group g of HyperGroups, in order,
//	                         if the model implements vb.HyperUpdater
//
// (apart from the repeated E, each is a sequence that vb.Run performs, with
// no hyperparameter schedule or with vb.Every(groups...)), and checks after
// every E step that
//
//   - E returned no error and F is finite (otherwise it stops with
//     t.Fatalf);
//   - F, less the bound's Jump (a change of structure inside E), did not
//     decrease from the previous E step by more than
//     opts.Tol·max(1, |F|): VBEM, EM, MAP-EM and hyperparameter
//     optimisation are coordinate ascent (Beal (2003) Theorem 2.1, Fig. 2.3,
//     eq. (2.79));
//   - the bound has terms, their names are unique, and they sum to F within
//     opts.Tol·max(1, |F|) (the sign contract of vb.Bound: a KL divergence
//     is carried as −KL).
//
// If the model implements vb.Mover, CheckModel then saves it, runs E (a
// step checked like the others), moves it away (M and E, checked too; M and
// UpdateHyper for every group; Apply of the first move that Propose(nil)
// returns; E), restores it and runs E again: F and its terms must equal, bit
// for bit, those of the E step after the save, and Size must be what it was.
//
// The second model from newModel is driven through the same sequence; every
// F and every term must equal the first model's bit for bit (the same seed
// gives the same trace, STYLE.md §2.6).
//
// Finally, after a few more iterations of the first model, CheckModel
// measures with testing.AllocsPerRun that M does not allocate and that E
// allocates at most opts.EAllocs times per call. These checks are skipped
// under the race detector, whose instrumentation can allocate.
//
// Failures are reported through t.Errorf, at most three of a kind one by
// one and the rest counted, except that an error or a non-finite F ends the
// check with t.Fatalf.
func CheckModel(t testing.TB, newModel func() vb.Model, opts CheckOptions) {
	t.Helper()
	opts = opts.withDefaults()
	m := newModel()
	steps := drive(m, opts.Iterations)
	checkSteps(t, steps, opts.Tol)
	compareSteps(t, steps, drive(newModel(), opts.Iterations))
	checkAllocs(t, m, opts.EAllocs)
}

// stepKind says how an E step's F relates to the one before it.
type stepKind int

const (
	firstStep    stepKind = iota // the first E step of a fresh model
	monotoneStep                 // F must not be lower than the previous F
	savedStep                    // a monotoneStep right after Save
	freeStep                     // after a move: no relation
	restoredStep                 // after Restore: F must equal the saved step's
)

// step is the outcome of one E step of drive.
type step struct {
	name string
	kind stepKind
	b    vb.Bound
	err  error
	size int // Mover.Size after the step (restoredStep and the one it compares with)
}

// stop reports whether drive must end after s: E failed or F is not finite.
func (s step) stop() bool {
	return s.err != nil || math.IsNaN(s.b.F) || math.IsInf(s.b.F, 0)
}

// drive runs the sequence of steps that CheckModel documents on m and
// records every E step. It ends at the first E step that fails or gives a
// non-finite F.
func drive(m vb.Model, iterations int) []step {
	var steps []step
	e := func(kind stepKind, format string, args ...any) bool {
		b, err := m.E()
		// A model may reuse its Terms slice from call to call (vb.Run
		// copies it), so keep a copy.
		b.Terms = slices.Clone(b.Terms)
		s := step{name: fmt.Sprintf(format, args...), kind: kind, b: b, err: err, size: -1}
		if mv, ok := m.(vb.Mover); ok {
			s.size = mv.Size()
		}
		steps = append(steps, s)
		return !s.stop()
	}
	if !e(firstStep, "first E step") {
		return steps
	}
	var groups []string
	h, hasHyper := m.(vb.HyperUpdater)
	if hasHyper {
		groups = h.HyperGroups()
	}
	for it := 1; it <= iterations; it++ {
		if !e(monotoneStep, "round %d: E after E", it) {
			return steps
		}
		m.M()
		if !e(monotoneStep, "round %d: E after M", it) {
			return steps
		}
		for _, g := range groups {
			m.M()
			h.UpdateHyper(g)
			if !e(monotoneStep, "round %d: E after M and UpdateHyper(%q)", it, g) {
				return steps
			}
		}
	}
	mv, ok := m.(vb.Mover)
	if !ok {
		return steps
	}
	snap := mv.Save()
	if !e(savedStep, "E after Save") {
		return steps
	}
	m.M()
	if !e(monotoneStep, "E after Save and M") {
		return steps
	}
	for _, g := range groups {
		m.M()
		h.UpdateHyper(g)
	}
	if move, ok := mv.Propose(nil); ok {
		// An error leaves the model as it was; the restore is checked
		// either way.
		_ = mv.Apply(move)
	}
	if !e(freeStep, "E after Save, M, UpdateHyper and a move") {
		return steps
	}
	mv.Restore(snap)
	e(restoredStep, "E after Restore")
	return steps
}

// maxReports is the number of failures of one kind that CheckModel reports
// one by one; a summary line counts the rest.
const maxReports = 3

// reporter reports failures by kind, at most maxReports of each.
type reporter struct {
	t      testing.TB
	kinds  []string // in order of first failure
	counts map[string]int
}

func (r *reporter) errorf(kind, format string, args ...any) {
	r.t.Helper()
	if r.counts == nil {
		r.counts = make(map[string]int)
	}
	if r.counts[kind] == 0 {
		r.kinds = append(r.kinds, kind)
	}
	if r.counts[kind]++; r.counts[kind] <= maxReports {
		r.t.Errorf(format, args...)
	}
}

// flush reports how many failures of each kind were not shown.
func (r *reporter) flush() {
	r.t.Helper()
	for _, k := range r.kinds {
		if n := r.counts[k]; n > maxReports {
			r.t.Errorf("vbtest: %d more E steps failed the check of %s (%d in all)", n-maxReports, k, n)
		}
	}
	r.kinds, r.counts = nil, nil
}

// checkSteps checks the steps of one drive (see CheckModel).
func checkSteps(t testing.TB, steps []step, tol float64) {
	t.Helper()
	r := &reporter{t: t}
	defer r.flush()
	saved := -1
	for i, s := range steps {
		if s.err != nil {
			r.flush()
			t.Fatalf("vbtest: %s: E returned an error: %v", s.name, s.err)
		}
		if math.IsNaN(s.b.F) || math.IsInf(s.b.F, 0) {
			r.flush()
			t.Fatalf("vbtest: %s: F = %v is not finite", s.name, s.b.F)
		}
		checkTerms(r, s, tol)
		tolF := tol * math.Max(1, math.Abs(s.b.F))
		switch s.kind {
		case monotoneStep, savedStep:
			// A change of structure inside E (vb.Bound.Jump) is not part of
			// the ascent: the rest of the change is checked, as vb.Run does.
			prev := steps[i-1].b.F
			if d := prev - (s.b.F - s.b.Jump); d > tolF {
				r.errorf("monotonicity", "vbtest: %s: F decreased by %.3g (from %.17g to %.17g with a jump of %.3g; tolerance %.3g)",
					s.name, d, prev, s.b.F, s.b.Jump, tolF)
			}
		case restoredStep:
			sv := steps[saved]
			if math.Float64bits(s.b.F) != math.Float64bits(sv.b.F) || !sameTerms(s.b.Terms, sv.b.Terms) {
				r.errorf("Save/Restore", "vbtest: Save/Restore does not round-trip: F = %.17g after Restore and E, %.17g after Save and E (terms %v and %v)",
					s.b.F, sv.b.F, s.b.Terms, sv.b.Terms)
			}
			if s.size != sv.size {
				r.errorf("Save/Restore", "vbtest: Save/Restore does not round-trip: Size is %d after Restore, %d after Save", s.size, sv.size)
			}
		}
		if s.kind == savedStep {
			saved = i
		}
	}
}

// checkTerms checks the sign contract of one bound: terms present, names
// unique, values summing to F.
func checkTerms(r *reporter, s step, tol float64) {
	r.t.Helper()
	if len(s.b.Terms) == 0 {
		r.errorf("the terms", "vbtest: %s: the bound has no terms", s.name)
		return
	}
	var sum float64
	dup := ""
	for i, term := range s.b.Terms {
		sum += term.Value
		for _, other := range s.b.Terms[:i] {
			if other.Name == term.Name && dup == "" {
				dup = term.Name
			}
		}
	}
	if dup != "" {
		r.errorf("unique term names", "vbtest: %s: term name %q appears more than once in %v", s.name, dup, s.b.Terms)
	}
	if d := math.Abs(sum - s.b.F); !(d <= tol*math.Max(1, math.Abs(s.b.F))) {
		r.errorf("the sign contract", "vbtest: %s: terms sum to %.17g, F = %.17g (difference %.3g, tolerance %.3g; a KL term must be carried as −KL): %v",
			s.name, sum, s.b.F, d, tol*math.Max(1, math.Abs(s.b.F)), s.b.Terms)
	}
}

func sameTerms(a, b []vb.Term) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || math.Float64bits(a[i].Value) != math.Float64bits(b[i].Value) {
			return false
		}
	}
	return true
}

// compareSteps reports the first difference between the drives of two
// models that newModel built alike.
func compareSteps(t testing.TB, a, b []step) {
	t.Helper()
	for i := range min(len(a), len(b)) {
		sa, sb := a[i], b[i]
		if math.Float64bits(sa.b.F) != math.Float64bits(sb.b.F) || !sameTerms(sa.b.Terms, sb.b.Terms) {
			t.Errorf("vbtest: not deterministic: two models from newModel differ at %s: F = %.17g and %.17g (terms %v and %v)",
				sa.name, sa.b.F, sb.b.F, sa.b.Terms, sb.b.Terms)
			return
		}
	}
	if len(a) != len(b) {
		t.Errorf("vbtest: not deterministic: two models from newModel ran %d and %d E steps of the same sequence", len(a), len(b))
	}
}

// checkAllocs measures the allocations of M and E after a few more
// iterations.
func checkAllocs(t testing.TB, m vb.Model, eAllocs int) {
	t.Helper()
	if raceEnabled {
		t.Logf("vbtest: allocation checks skipped under the race detector")
		return
	}
	for range 3 {
		if _, err := m.E(); err != nil {
			t.Fatalf("vbtest: E before the allocation checks returned an error: %v", err)
		}
		m.M()
	}
	if n := testing.AllocsPerRun(allocRuns, m.M); n != 0 {
		t.Errorf("vbtest: M allocates %v times per call in the steady state, want 0", n)
	}
	if eAllocs < 0 {
		t.Logf("vbtest: allocations of E not checked (CheckOptions.EAllocs < 0)")
		return
	}
	e := func() { m.E() }
	if n := testing.AllocsPerRun(allocRuns, e); n > float64(eAllocs) {
		t.Errorf("vbtest: E allocates %v times per call in the steady state, more than CheckOptions.EAllocs = %d", n, eAllocs)
	}
}
