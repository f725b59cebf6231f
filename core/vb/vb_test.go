package vb

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// scripted is a Model whose E steps return a fixed sequence of objectives.
type scripted struct {
	f      []float64
	i      int
	ms     int
	hyper  int
	failAt int
}

func (s *scripted) E() (Bound, error) {
	if s.failAt > 0 && s.i == s.failAt {
		return Bound{}, errors.New("boom")
	}
	v := s.f[s.i]
	if s.i < len(s.f)-1 {
		s.i++
	}
	return Bound{F: v, Terms: []Term{{"a", v / 2}, {"b", v / 2}}}, nil
}
func (s *scripted) M() { s.ms++ }
func (s *scripted) UpdateHyper(g string) {
	if g != "h" {
		panic(g)
	}
	s.hyper++
}
func (s *scripted) HyperGroups() []string { return []string{"h"} }

func TestRunConvergesOnRelativeChange(t *testing.T) {
	m := &scripted{f: []float64{-1e9, -100, -50, -49.99999, -49.99998}}
	r := Run(m, Settings{})
	if r.Status != Converged || r.Iterations != 4 {
		t.Fatalf("status %v after %d iterations, want converged after 4", r.Status, r.Iterations)
	}
	if m.ms != 3 {
		t.Fatalf("%d M steps, want 3 (none after the converged E step)", m.ms)
	}
	if b, ok := r.Trace.Term(2, "a"); len(r.Trace.F) != 4 || !ok || b != -25 || r.Trace.Terms[1][1].Name != "b" {
		t.Fatalf("trace not recorded: %+v", r.Trace)
	}
	if !math.IsNaN(r.Trace.DeltaF[0]) || r.Trace.DeltaF[1] != 1e9-100 {
		t.Fatalf("DeltaF = %v", r.Trace.DeltaF)
	}
}

func TestRunNeedsMinIter(t *testing.T) {
	// A flat objective converges at the second E step, never the first.
	r := Run(&scripted{f: []float64{-5}}, Settings{})
	if r.Status != Converged || r.Iterations != 2 {
		t.Fatalf("status %v after %d, want converged after 2", r.Status, r.Iterations)
	}
	r = Run(&scripted{f: []float64{-5}}, Settings{MinIterations: 5})
	if r.Iterations != 5 {
		t.Fatalf("converged after %d iterations with MinIterations 5", r.Iterations)
	}
}

func TestRunDetectsDecrease(t *testing.T) {
	m := &scripted{f: []float64{-10, -9, -9.5, -1}}
	r := Run(m, Settings{})
	if r.Status != BoundDecreased || r.Decrease.Iter != 2 || math.Abs(r.Decrease.By-0.5) > 1e-12 {
		t.Fatalf("got %v at %d by %v, want bound-decreased at 2 by 0.5", r.Status, r.Decrease.Iter, r.Decrease.By)
	}
	if !errors.Is(r.Error(), ErrBoundDecreased) {
		t.Fatalf("Error() = %v", r.Error())
	}
	// A decrease within the tolerance is not an error: 1e-10 relative.
	r = Run(&scripted{f: []float64{-1000, -10, -10 - 1e-9, -10 - 1e-9}}, Settings{RelTol: -1, AbsTol: 1e-12})
	if r.Status == BoundDecreased {
		t.Fatalf("decrease of 1e-9 at |F|=10 flagged with MonotoneTol 1e-9")
	}
}

// jumping is a Model whose E steps return a fixed sequence of objectives
// and, with each, the part of the change made by a change of structure
// (Bound.Jump).
type jumping struct {
	f, jump []float64
	i       int
}

func (s *jumping) E() (Bound, error) {
	b := Bound{F: s.f[s.i], Jump: s.jump[s.i], Terms: []Term{{"a", s.f[s.i]}}}
	s.i = min(s.i+1, len(s.f)-1)
	return b, nil
}
func (s *jumping) M() {}

// A fall of F that a change of structure inside E accounts for (Bound.Jump)
// is not a decrease; the rest of the change is still checked, and the
// recorder sees the jump.
func TestRunJumpIsNotADecrease(t *testing.T) {
	var jumps []float64
	rec := func(it Iteration) { jumps = append(jumps, it.Jump) }
	// −9 → −12: a jump of −4 and a rise of 1 of the updates.
	r := Run(&jumping{f: []float64{-10, -9, -12, -11, -11}, jump: []float64{0, 0, -4, 0, 0}}, Settings{MaxIterations: 5, Recorder: rec, Converger: FixedIterations{}})
	if r.Status != IterationLimit || r.Iterations != 5 {
		t.Fatalf("status %v after %d iterations, want iteration-limit after 5", r.Status, r.Iterations)
	}
	if jumps[2] != -4 || jumps[3] != 0 {
		t.Errorf("recorded jumps %v", jumps)
	}
	// −9 → −12 with a jump of −2: the updates lowered F by 1.
	r = Run(&jumping{f: []float64{-10, -9, -12, -11}, jump: []float64{0, 0, -2, 0}}, Settings{MaxIterations: 4, Converger: FixedIterations{}})
	if r.Status != BoundDecreased || r.Decrease.Iter != 2 || math.Abs(r.Decrease.By-1) > 1e-12 {
		t.Fatalf("got %v at %d by %v, want bound-decreased at 2 by 1", r.Status, r.Decrease.Iter, r.Decrease.By)
	}
	// A rise made by a jump does not hide a decrease of the updates.
	r = Run(&jumping{f: []float64{-10, -9, -8}, jump: []float64{0, 0, 3}}, Settings{MaxIterations: 3, Converger: FixedIterations{}})
	if r.Status != BoundDecreased || math.Abs(r.Decrease.By-2) > 1e-12 {
		t.Fatalf("got %v by %v, want bound-decreased by 2", r.Status, r.Decrease.By)
	}
}

func TestRunIterationLimitAndFailures(t *testing.T) {
	f := make([]float64, 100)
	for i := range f {
		f[i] = float64(i)
	}
	r := Run(&scripted{f: f}, Settings{MaxIterations: 10})
	if r.Status != IterationLimit || r.Iterations != 10 || !r.Status.OK() {
		t.Fatalf("got %v after %d", r.Status, r.Iterations)
	}
	r = Run(&scripted{f: []float64{-1, math.NaN()}}, Settings{})
	if r.Status != NotFinite || r.Error() == nil {
		t.Fatalf("NaN objective gave %v", r.Status)
	}
	// −Inf at a hand-built start is allowed; later it is an error.
	r = Run(&scripted{f: []float64{math.Inf(-1), -3, -2, -2}}, Settings{})
	if r.Status != Converged {
		t.Fatalf("−Inf at iteration 0 gave %v", r.Status)
	}
	r = Run(&scripted{f: []float64{-3, math.Inf(-1), -2}}, Settings{})
	if r.Status != NotFinite {
		t.Fatalf("−Inf at iteration 1 gave %v", r.Status)
	}
	r = Run(&scripted{f: f, failAt: 3}, Settings{})
	if r.Status != Failed || r.Err == nil || r.Err.Error() != "boom" {
		t.Fatalf("failing E gave %v, %v", r.Status, r.Err)
	}
	stop := errors.New("stop")
	n := 0
	r = Run(&scripted{f: f}, Settings{Stop: func() error {
		n++
		if n > 4 {
			return stop
		}
		return nil
	}})
	if r.Status != Canceled || !errors.Is(r.Error(), stop) || r.Iterations != 4 {
		t.Fatalf("Stop gave %v after %d", r.Status, r.Iterations)
	}
}

func TestRunCallsHyperAndRecorder(t *testing.T) {
	m := &scripted{f: []float64{1, 2, 3, 3}}
	var rec []int
	r := Run(m, Settings{Hyper: Every("h"), Recorder: func(it Iteration) { rec = append(rec, it.Iter) }})
	if r.Status != Converged || m.hyper != m.ms || m.ms != 3 {
		t.Fatalf("status %v, %d M steps, %d hyper updates", r.Status, m.ms, m.hyper)
	}
	if len(rec) != r.Iterations {
		t.Fatalf("recorder called %d times for %d iterations", len(rec), r.Iterations)
	}
}

func TestStatusNames(t *testing.T) {
	for s := Converged; s <= Canceled; s++ {
		got, err := ParseStatus(s.String())
		if err != nil || got != s {
			t.Fatalf("ParseStatus(%q) = %v, %v", s.String(), got, err)
		}
	}
	if _, err := ParseStatus("nope"); err == nil {
		t.Fatal("ParseStatus accepted an unknown name")
	}
}

func TestBest(t *testing.T) {
	v := []float64{math.NaN(), 3, math.Inf(1), 5, 5, -1}
	if b := Best(len(v), func(i int) float64 { return v[i] }); b != 3 {
		t.Fatalf("Best = %d, want 3 (first of the tied finite maxima)", b)
	}
	if b := Best(1, func(int) float64 { return math.NaN() }); b != -1 {
		t.Fatalf("Best of NaN = %d", b)
	}
}

// geometric returns F_t = fStar − c·r^t for t < n: linear convergence at
// rate r, whose remaining increase after step t is c·r^t exactly.
func geometric(fStar, c, r float64, n int) []float64 {
	f := make([]float64, n)
	for t := range f {
		f[t] = fStar - c*math.Pow(r, float64(t))
	}
	return f
}

func TestBoundConvergeAbsoluteDeliversF(t *testing.T) {
	// A slowly converging objective (r = 0.995, like a VB run crossing a
	// plateau) at |F| ≈ 300: the relative test alone stops hundreds of
	// iterations early, far from the fixed point.
	const fStar, c, r = -300.0, 20.0, 0.995
	f := geometric(fStar, c, r, 20000)
	rel := Run(&scripted{f: f}, Settings{MaxIterations: len(f), RelTol: 1e-6, AbsTol: -1})
	if gap := fStar - rel.F; gap < 1e-2 {
		t.Fatalf("relative test alone stopped %v nats short; the test case is not slow enough to show the problem", gap)
	}
	for _, abs := range []float64{1e-2, 1e-3, 1e-5} {
		res := Run(&scripted{f: f}, Settings{MaxIterations: len(f), RelTol: 1e-6, AbsTol: abs})
		if res.Status != Converged {
			t.Fatalf("AbsTol %g: status %v after %d", abs, res.Status, res.Iterations)
		}
		if gap := fStar - res.F; gap >= abs || gap < abs/50 {
			t.Fatalf("AbsTol %g: stopped %v nats below the fixed point (after %d iterations); want in [%g, %g)", abs, gap, res.Iterations, abs/50, abs)
		}
	}
}

func TestBoundConvergeNeverWhileChangesGrow(t *testing.T) {
	// Changes that grow (a run leaving a saddle) never pass the absolute
	// test, however small they are.
	f := make([]float64, 50)
	for i := range f {
		f[i] = -100 + 1e-6*math.Pow(1.1, float64(i))
	}
	res := Run(&scripted{f: f}, Settings{MaxIterations: len(f), RelTol: -1, AbsTol: 1e-3})
	if res.Status != IterationLimit {
		t.Fatalf("growing changes: %v after %d iterations", res.Status, res.Iterations)
	}
	// A change at round-off level passes.
	res = Run(&scripted{f: []float64{-100, -50, -50 + 1e-14, -50 + 2e-14, -50 + 2e-14}}, Settings{RelTol: -1, AbsTol: 1e-3})
	if res.Status != Converged || res.Iterations != 3 {
		t.Fatalf("round-off change: %v after %d iterations, want converged after 3", res.Status, res.Iterations)
	}
}

func TestFixedIterationsRunsMaxIter(t *testing.T) {
	f := make([]float64, 100)
	for i := range f {
		f[i] = -1 // no change at all: any tolerance would stop at once
	}
	res := Run(&scripted{f: f}, Settings{MaxIterations: 37, Converger: FixedIterations{}})
	if res.Status != IterationLimit || res.Iterations != 37 {
		t.Fatalf("FixedIterations: %v after %d iterations, want iteration-limit after 37", res.Status, res.Iterations)
	}
}

func TestRemainingEstimate(t *testing.T) {
	f := geometric(0, 1, 0.5, 6)
	d := make([]float64, len(f)-1)
	for i := range d {
		d[i] = f[i+1] - f[i]
	}
	// Exactly geometric: the estimate equals the true remaining increase.
	if got, want := RemainingEstimate(d), -f[len(f)-1]; math.Abs(got-want) > 1e-15 {
		t.Fatalf("RemainingEstimate = %v, want %v", got, want)
	}
	for _, c := range []struct {
		deltas []float64
		want   float64
	}{
		{[]float64{4, 2, 0.5}, 0.5 * 0.5 / 0.5},           // speeding up: the slower ratio, 0.5, is used
		{[]float64{4, 2, 1.02}, 1.02 * 0.61 / (1 - 0.61)}, // ratio 0.5 → 0.51: rate 0.51 + 10·0.01
		{[]float64{4, 2, 1.1}, math.Inf(1)},               // ratio 0.5 → 0.55: rate 0.55 + 10·0.05 ≥ 1
		{[]float64{4, 2, -1e-12}, 0},                      // a decrease: nothing left
	} {
		if got := RemainingEstimate(c.deltas); !(got == c.want || math.Abs(got-c.want) < 1e-12*c.want) {
			t.Errorf("RemainingEstimate(%v) = %v, want %v", c.deltas, got, c.want)
		}
	}
	if got := RemainingEstimate([]float64{1, 2, 4}); !math.IsInf(got, 1) {
		t.Fatalf("growing changes: %v, want +Inf", got)
	}
	if got := RemainingEstimate([]float64{1, 1}); !math.IsNaN(got) {
		t.Fatalf("two changes: %v, want NaN", got)
	}
}

// TestHyperSchedule: a stage updates its group after the M steps of
// iterations From, From+Every, …; an unknown group or a model without
// hyperparameters is an error before any E step.
func TestHyperSchedule(t *testing.T) {
	f := make([]float64, 30)
	for i := range f {
		f[i] = float64(i)
	}
	m := &scripted{f: f}
	r := Run(m, Settings{MaxIterations: 30, Converger: FixedIterations{}, Hyper: []Stage{{Group: "h", From: 10, Every: 5}}})
	// M steps follow iterations 1..29; due at 10, 15, 20, 25.
	if r.Status != IterationLimit || m.hyper != 4 {
		t.Fatalf("%v, %d updates, want 4", r.Status, m.hyper)
	}
	r = Run(&scripted{f: f}, Settings{Hyper: Every("nope")})
	if r.Status != Failed || r.Iterations != 0 || !strings.Contains(r.Error().Error(), `"nope"`) {
		t.Fatalf("unknown group: %v after %d: %v", r.Status, r.Iterations, r.Error())
	}
	r = Run(noHyper{&scripted{f: f}}, Settings{Hyper: Every("h")})
	if r.Status != Failed || r.Iterations != 0 {
		t.Fatalf("model without hyperparameters: %v after %d", r.Status, r.Iterations)
	}
}

type noHyper struct{ s *scripted }

func (n noHyper) E() (Bound, error) { return n.s.E() }
func (n noHyper) M()                { n.s.M() }

// badTerms reports terms that do not sum to F.
type badTerms struct{ scripted }

func (b *badTerms) E() (Bound, error) {
	bd, err := b.scripted.E()
	bd.Terms[0].Value += 1e-6 * (1 + math.Abs(bd.F))
	return bd, err
}

// TestTermsMustSumToF: the sign contract is checked after every E step.
func TestTermsMustSumToF(t *testing.T) {
	r := Run(&badTerms{scripted{f: []float64{-10, -5, -4}}}, Settings{})
	if r.Status != Failed || !errors.Is(r.Error(), ErrTermsSum) {
		t.Fatalf("terms off by 1e-6: %v: %v", r.Status, r.Error())
	}
	// −Inf at iteration 0 with a −Inf term is consistent.
	inf := &infTerms{}
	if r := Run(inf, Settings{}); r.Status != Converged {
		t.Fatalf("−Inf term at iteration 0: %v: %v", r.Status, r.Error())
	}
}

type infTerms struct{ i int }

func (m *infTerms) E() (Bound, error) {
	m.i++
	if m.i == 1 {
		return Bound{F: math.Inf(-1), Terms: []Term{{"lnp", -3}, {"lnprior", math.Inf(-1)}}}, nil
	}
	return Bound{F: -3, Terms: []Term{{"lnp", -2}, {"lnprior", -1}}}, nil
}
func (m *infTerms) M() {}
