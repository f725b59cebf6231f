// Package vb is the VBEM driver shared by every model in vbw.
//
// Beal (2003) Theorem 2.1 (eqs. 2.53-2.73) and Theorem 2.2 (eqs. 2.80-2.113)
// give every conjugate-exponential model the same iteration: a VBE step that
// runs the model's exact inference routine with the expected natural
// parameters of q(θ), and a VBM step that adds the expected sufficient
// statistics to the prior's natural parameters. The lower bound
// F = ln Z̃ − KL(q(θ)‖p(θ)) is valid straight after a VBE step with the same
// q(θ); every F this package records is computed at that point, so the
// recorded sequence F(q_θ^t, q_x^{t+1}) ≤ F(q_θ^{t+1}, q_x^{t+2}) must never
// decrease (Beal 2003, Fig. 2.3 and L1121 of the seed text).
//
// The same loop drives maximum-likelihood EM (q(θ) a point mass, objective
// ln p(y|θ)) and MAP-EM (objective ln p(y|θ) + ln p(θ)), which are also
// coordinate-ascent methods whose objective never decreases. A decrease larger
// than Settings.MonotoneTol is therefore a bug; Run stops and reports it as
// the status BoundDecreased instead of continuing from a broken state.
package vb

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// Model is one coordinate-ascent algorithm: VBEM, EM or MAP-EM.
type Model interface {
	// E runs the expectation step (VBE for VBEM) with the current
	// parameters or parameter posterior, and returns the objective evaluated
	// at those parameters and the new hidden-variable distribution, with its
	// named terms. For VBEM that objective is F = ln Z̃ − Σ KL (eq. 3.79).
	E() (Bound, error)
	// M runs the maximisation step (VBM for VBEM).
	M()
}

// HyperUpdater is implemented by models whose prior hyperparameters can be
// optimised by maximising F (Beal 2003 eq. 2.79). They come in named
// groups (chapter 5's α, β, γ, δ, …) that a schedule (Settings.Hyper)
// switches on at different iterations; the driver calls UpdateHyper(group)
// after the M step of each iteration at which the group's stage is due.
// Each call must not decrease F with q held fixed.
type HyperUpdater interface {
	// HyperGroups lists the groups, e.g. ["u_pi", "u_A", "u_C"].
	HyperGroups() []string
	UpdateHyper(group string)
}

// Bound is an objective value with its named additive terms.
type Bound struct {
	// F is the objective (nats, total over the data set).
	F float64
	// Terms are named contributions that sum to F exactly: a KL divergence
	// that F subtracts is carried as its negative, with a name that says
	// so ("-KL[pi]"). Run checks the sum after every E step. Terms are
	// recorded per iteration by name, so a model whose set of terms
	// changes (a component born or removed) never shifts another term.
	Terms []Term
	// Jump is the part of the change of F since the previous E step that
	// is not coordinate ascent: a change of the model's structure made by
	// a rule inside this E step (the removal of a mixture component that
	// holds less than one point, Beal (2003) section 4.3.1, L2637), whose
	// F is that of another model. Run checks that F − Jump did not
	// decrease; 0 for a model whose E step never changes its structure.
	Jump float64
}

// Term is one named term of a bound.
type Term struct {
	Name  string
	Value float64
}

// Settings controls Run. The zero value of every field means the documented
// default.
type Settings struct {
	// MaxIterations is the maximum number of E steps. Default 1000.
	MaxIterations int
	// MinIterations is the number of E steps before convergence may be declared.
	// (The objective at iteration 0 may also be −Inf; see Run.)
	// The first objective after a hand-built initialisation can be
	// astronomically low (targets §1.4), so at least 2 are always required.
	// Default 2.
	MinIterations int
	// Converger decides convergence. nil means
	// &BoundConverge{Relative: RelTol, Absolute: AbsTol}, with the defaults
	// below; FixedIterations{} runs exactly MaxIterations E steps.
	Converger Converger
	// RelTol is the relative test of the default Converger: ΔF < RelTol·|F|.
	// Default 1e-6; a negative value disables it.
	RelTol float64
	// AbsTol is the absolute test of the default Converger: F within AbsTol
	// nats of the value it converges to (see BoundConverge). Default 1e-3;
	// a negative value disables it.
	AbsTol float64
	// MonotoneTol is the largest tolerated decrease, relative to
	// max(1, |F|). A larger decrease stops the run with status
	// BoundDecreased. Default 1e-9.
	MonotoneTol float64
	// Hyper is the schedule of hyperparameter updates; nil means none. The
	// targets' defaults: chapter 5's VB-LDS switches its groups on in
	// stages, α and β from iteration 10, γ and δ from 20, the noise
	// hyperparameters a, b and the initial-state prior μ₀, Σ₀ from 30, each
	// then at every iteration ("hypit = [10, 20, 30]", ch5-lds.md §1.7);
	// chapter 4's MFA updates Ψ and μ*, ν* at every iteration from the first
	// (a*, b*, α* optionally), ch4-mfa.md §1.7. Every(groups...) builds the
	// every-iteration schedule. Iterations are counted from the start of
	// the run, or of the first run under Continue; every VBEM run of a
	// Search counts from its own start (see SearchSettings.Run).
	Hyper []Stage
	// Recorder, if not nil, is called after every E step.
	Recorder func(Iteration)
	// Stop, if not nil, is polled once per iteration; a non-nil error ends
	// the run with status Canceled (for example a cancelled context's Err).
	Stop func() error
}

func (s Settings) withDefaults() Settings {
	if s.MaxIterations <= 0 {
		s.MaxIterations = 1000
	}
	if s.MinIterations < 2 {
		s.MinIterations = 2
	}
	if s.RelTol == 0 {
		s.RelTol = 1e-6
	}
	if s.AbsTol == 0 {
		s.AbsTol = 1e-3
	}
	if s.Converger == nil {
		s.Converger = &BoundConverge{Relative: s.RelTol, Absolute: s.AbsTol}
	}
	if s.MonotoneTol <= 0 {
		s.MonotoneTol = 1e-9
	}
	return s
}

// Stage schedules the updates of one hyperparameter group: after the M step
// of iterations From, From+Every, From+2·Every, … (counted from 1, from the
// start of the run; Continue keeps counting from the run it continues).
type Stage struct {
	Group string
	From  int // first iteration (≥ 1; 0 means 1)
	Every int // period (≥ 1; 0 means 1)
}

// due reports whether the stage's update follows the M step of iteration
// it (counted from 1).
func (st Stage) due(it int) bool {
	from, every := max(st.From, 1), max(st.Every, 1)
	return it >= from && (it-from)%every == 0
}

// Every returns the schedule that updates each group at every iteration.
func Every(groups ...string) []Stage {
	s := make([]Stage, len(groups))
	for i, g := range groups {
		s[i] = Stage{Group: g, From: 1, Every: 1}
	}
	return s
}

// Iteration is what the driver records after each E step.
type Iteration struct {
	Iter    int           // 0-based index of the E step
	F       float64       // objective after this E step
	DeltaF  float64       // F − previous F (NaN at iteration 0)
	Jump    float64       // the part of DeltaF made by a change of structure (Bound.Jump)
	Terms   []Term        // named terms of F
	Elapsed time.Duration // wall time of this iteration's E (and the previous M) step
}

// Status says how a run ended.
type Status int

const (
	// Converged: the change of the objective fell below the tolerance.
	Converged Status = iota
	// IterationLimit: MaxIterations E steps ran without convergence.
	IterationLimit
	// BoundDecreased: the objective decreased by more than MonotoneTol.
	BoundDecreased
	// NotFinite: the objective became NaN or infinite.
	NotFinite
	// Failed: the model's E step returned an error.
	Failed
	// Canceled: Settings.Stop asked the run to end.
	Canceled
)

var statusNames = [...]string{"converged", "iteration-limit", "bound-decreased", "not-finite", "failed", "canceled"}

func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return fmt.Sprintf("status(%d)", int(s))
	}
	return statusNames[s]
}

// Statuses returns every Status, in order (Converged … Canceled), for a
// caller that counts how runs ended.
func Statuses() []Status {
	st := make([]Status, len(statusNames))
	for i := range st {
		st[i] = Status(i)
	}
	return st
}

// ParseStatus is the inverse of Status.String.
func ParseStatus(name string) (Status, error) {
	for i, n := range statusNames {
		if n == name {
			return Status(i), nil
		}
	}
	return 0, fmt.Errorf("vb: unknown status %q", name)
}

// OK reports whether the status is a normal end (converged or out of
// iterations) rather than a sign of a bug or a failure.
func (s Status) OK() bool { return s == Converged || s == IterationLimit }

// Trace is the per-iteration record of a run.
type Trace struct {
	F, DeltaF []float64
	// Terms[i] are the named terms of F at iteration i (they sum to F[i]).
	Terms [][]Term
	// Seconds is the wall time of each iteration.
	Seconds []float64
}

// Term returns the value of the named term at iteration i, and whether it
// was recorded there.
func (t *Trace) Term(i int, name string) (float64, bool) {
	for _, term := range t.Terms[i] {
		if term.Name == name {
			return term.Value, true
		}
	}
	return 0, false
}

// Result is the outcome of Run.
type Result struct {
	Status     Status
	Iterations int     // number of E steps run
	F          float64 // last objective
	Trace      Trace
	// Decrease holds the iteration and size of a decrease that exceeded
	// MonotoneTol (status BoundDecreased); Decrease.Iter is −1 otherwise.
	Decrease Decrease
	// Err is the E step's error (Failed) or the Stop error (Canceled).
	Err error
}

// Decrease locates a decrease of the objective: the E step at which it
// happened and by how much (nats).
type Decrease struct {
	Iter int
	By   float64
}

// ErrTermsSum is the error of a run whose Bound.Terms do not sum to F.
var ErrTermsSum = errors.New("vb: bound terms do not sum to F")

// ErrBoundDecreased is returned by Result.Error for status BoundDecreased.
var ErrBoundDecreased = errors.New("vb: objective decreased")

// Error returns nil for a normal end and an error describing an abnormal one.
func (r Result) Error() error {
	switch r.Status {
	case Converged, IterationLimit:
		return nil
	case BoundDecreased:
		return fmt.Errorf("%w at iteration %d by %.3g nats", ErrBoundDecreased, r.Decrease.Iter, r.Decrease.By)
	case NotFinite:
		return fmt.Errorf("vb: objective not finite (%v) at iteration %d", r.F, r.Iterations-1)
	default:
		if r.Err != nil {
			return r.Err
		}
		return fmt.Errorf("vb: run ended with status %v", r.Status)
	}
}

// Run iterates E, check, M (and UpdateHyper) until convergence. The order
// E → record F → test → M follows Beal (2003) Fig. 2.3 and Algorithm 5.3, so
// that the objective is always evaluated right after an E step and a
// converged model's parameters are the ones its final objective was
// evaluated at. A run that stops after E step t has made t − 1 M steps;
// Continue makes the t-th and goes on.
func Run(m Model, s Settings) Result {
	return run(m, s, Result{Decrease: Decrease{Iter: -1}})
}

// Continue resumes the run that returned prev, on the same model m in the
// state that run left it (no E, M or UpdateHyper since), as though that run
// had been allowed more iterations. It makes the M step, and the schedule's
// hyperparameter updates, that a run ending after E step t skips, and goes
// on with E step t + 1. Iterations are counted from the start of the first
// run, so that nothing is rebased by hand:
//
//   - s.MaxIterations and s.MinIterations count the iterations in all
//     (prev's included);
//   - s.Hyper is read at those global iteration numbers: a stage with
//     From = 30 continued after 20 iterations first updates after the
//     continuation's 10th (Stage.From is a schedule offset, not a delay
//     from the continuation's start);
//   - the Converger is initialised and then shown prev's changes of F, as
//     Run showed them, so that a rule with memory sees the whole history;
//   - the result joins prev's: Iterations, Trace, Decrease and the
//     Recorder's Iteration.Iter go on from prev's.
//
// Hence Continue(m, Run(m, s with MaxIterations n), s with 2n) makes the
// same calls on m as Run(m, s with 2n), and returns a Result equal to it
// but for the wall times (TestContinueEqualsLongRun). The settings may
// differ from the first run's (another Converger, a larger MaxIterations).
// prev is returned unchanged (its Trace shared) when it did not end
// normally (Status.OK false) or when s.MaxIterations ≤ prev.Iterations; a
// prev of no iterations starts a new run.
func Continue(m Model, prev Result, s Settings) Result {
	if prev.Iterations == 0 {
		return Run(m, s)
	}
	if !prev.Status.OK() || s.withDefaults().MaxIterations <= prev.Iterations {
		return prev
	}
	r := prev
	t := &r.Trace
	// Clip, so that appending never writes into prev's arrays.
	t.F, t.DeltaF, t.Terms, t.Seconds = slices.Clip(t.F), slices.Clip(t.DeltaF), slices.Clip(t.Terms), slices.Clip(t.Seconds)
	return run(m, s, r)
}

// run is Run (r without iterations) and Continue (r the result to go on
// from, ended normally after r.Iterations < MaxIterations E steps).
func run(m Model, s Settings, r Result) Result {
	s = s.withDefaults()
	hyper, hasHyper := m.(HyperUpdater)
	if err := checkSchedule(m, s.Hyper); err != nil {
		r.Status, r.Err = Failed, err
		return r
	}
	// updates runs the hyperparameter updates due after the M step of
	// iteration it (counted from 1).
	updates := func(it int) {
		if hasHyper {
			for _, st := range s.Hyper {
				if st.due(it) {
					hyper.UpdateHyper(st.Group)
				}
			}
		}
	}
	if c, ok := s.Converger.(*BoundConverge); ok {
		cc := *c // a caller's rule may be shared by concurrent runs
		s.Converger = &cc
	}
	s.Converger.Init()
	prev := math.NaN()
	first := r.Iterations
	if first > 0 {
		// Continue: replay the history to the converger, then make the M
		// step that the previous run skipped after its last E step.
		for it := 1; it < first; it++ {
			s.Converger.Converged(it, r.Trace.F[it], r.Trace.DeltaF[it])
		}
		prev = r.F
		m.M()
		updates(first)
	}
	start := time.Now()
	for it := first; it < s.MaxIterations; it++ {
		if s.Stop != nil {
			if err := s.Stop(); err != nil {
				r.Status, r.Err = Canceled, err
				return r
			}
		}
		b, err := m.E()
		r.Iterations = it + 1
		if err != nil {
			r.Status, r.Err, r.F = Failed, err, b.F
			return r
		}
		if err := checkTerms(b); err != nil {
			r.Status, r.Err, r.F = Failed, fmt.Errorf("%w at iteration %d: %v", ErrTermsSum, it, err), b.F
			return r
		}
		now := time.Now()
		el := now.Sub(start)
		start = now
		d := b.F - prev
		r.F = b.F
		r.record(it, b, d, el)
		if s.Recorder != nil {
			s.Recorder(Iteration{Iter: it, F: b.F, DeltaF: d, Jump: b.Jump, Terms: b.Terms, Elapsed: el})
		}
		// −Inf is allowed at iteration 0 only: an objective evaluated at a
		// hand-built starting point can be −∞ (MAP-EM started at an ML
		// solution with exact zeros has Σ u ln θ = −∞), and the first M step
		// moves away from it. NaN, +Inf, or −Inf later, is an error.
		if math.IsNaN(b.F) || math.IsInf(b.F, 1) || (math.IsInf(b.F, -1) && it > 0) {
			r.Status = NotFinite
			return r
		}
		if it > 0 {
			// A change of structure inside E (Bound.Jump) is not a step of
			// coordinate ascent: the rest of the change must not be negative.
			if d-b.Jump < -s.MonotoneTol*math.Max(1, math.Abs(b.F)) {
				r.Status = BoundDecreased
				r.Decrease.Iter, r.Decrease.By = it, b.Jump-d
				return r
			}
			// The converger sees every change, so that rules with memory
			// know the history, but is obeyed only after MinIterations steps.
			if conv := s.Converger.Converged(it, b.F, d); conv && it+1 >= s.MinIterations {
				r.Status = Converged
				return r
			}
		}
		prev = b.F
		if it+1 == s.MaxIterations {
			break
		}
		m.M()
		updates(it + 1)
	}
	r.Status = IterationLimit
	return r
}

func (r *Result) record(it int, b Bound, d float64, el time.Duration) {
	t := &r.Trace
	t.F = append(t.F, b.F)
	t.DeltaF = append(t.DeltaF, d)
	t.Terms = append(t.Terms, append([]Term(nil), b.Terms...))
	t.Seconds = append(t.Seconds, el.Seconds())
}

// checkTerms checks the sign contract: the terms sum to F within
// 1e-9·max(1, |F|) (exactly when F is infinite: the infinite term must be
// there with the same sign). A bound without terms passes.
func checkTerms(b Bound) error {
	if len(b.Terms) == 0 || math.IsNaN(b.F) {
		return nil
	}
	var sum float64
	for _, t := range b.Terms {
		sum += t.Value
	}
	if math.IsInf(b.F, 0) || math.IsInf(sum, 0) {
		if sum == b.F {
			return nil
		}
	} else if math.Abs(sum-b.F) <= 1e-9*math.Max(1, math.Abs(b.F)) {
		return nil
	}
	return fmt.Errorf("F = %v, Σ terms = %v (%v)", b.F, sum, b.Terms)
}

// checkSchedule checks that every scheduled group is one the model has.
func checkSchedule(m Model, stages []Stage) error {
	if len(stages) == 0 {
		return nil
	}
	h, ok := m.(HyperUpdater)
	if !ok {
		return fmt.Errorf("vb: a hyperparameter schedule was given, but %T has no hyperparameters to update", m)
	}
	groups := h.HyperGroups()
	for _, st := range stages {
		if !slices.Contains(groups, st.Group) {
			return fmt.Errorf("vb: %T has no hyperparameter group %q (it has %q)", m, st.Group, groups)
		}
		if st.From < 0 || st.Every < 0 {
			return fmt.Errorf("vb: stage %+v: From and Every must be ≥ 0", st)
		}
	}
	return nil
}
