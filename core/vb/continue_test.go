package vb_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// logged wraps a model and logs every call the driver makes on it.
type logged struct {
	*vbtest.GaussianMixture
	calls []string
}

func (l *logged) E() (vb.Bound, error) {
	b, err := l.GaussianMixture.E()
	l.calls = append(l.calls, fmt.Sprintf("E %x", math.Float64bits(b.F)))
	return b, err
}

func (l *logged) M() {
	l.GaussianMixture.M()
	l.calls = append(l.calls, "M")
}

func (l *logged) UpdateHyper(g string) {
	l.GaussianMixture.UpdateHyper(g)
	l.calls = append(l.calls, fmt.Sprintf("H %s %x", g, math.Float64bits(l.Prior.Alpha0)))
}

func newLogged() *logged {
	x := threeClusters(rng.New(7, "vb/continue", "data"), 120)
	return &logged{GaussianMixture: vbtest.NewGaussianMixture(x, 5, prior, rng.New(7, "vb/continue", "init"))}
}

// sameBits reports whether two traces are equal bit for bit (NaN equal to
// NaN).
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// TestContinueEqualsLongRun: a run of 2n iterations and a run of n
// continued to 2n make the same calls on the model, with the same values,
// and return the same result, bit for bit: with a fixed budget and a
// staged hyperparameter schedule whose stage starts before, at and after
// the split, and with the default stop rule (whose memory Continue
// replays), which must stop both at the same iteration.
func TestContinueEqualsLongRun(t *testing.T) {
	for _, c := range []struct {
		name  string
		n     int
		conv  vb.Converger
		from  int
		every int
	}{
		{"fixed, stage before the split", 20, vb.FixedIterations{}, 5, 2},
		{"fixed, stage at the split", 20, vb.FixedIterations{}, 20, 2},
		{"fixed, stage after the split", 20, vb.FixedIterations{}, 31, 2},
		{"fixed, n = 1", 1, vb.FixedIterations{}, 1, 2},
		// n = 0: split one iteration before the long run converges
		// (after 2660 of at most 3000), which needs the replayed memory.
		{"bound rule", 0, nil, 3, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			set := vb.Settings{Converger: c.conv, Hyper: []vb.Stage{{Group: vbtest.HyperAlpha0, From: c.from, Every: c.every}}}
			long, short := newLogged(), newLogged()
			var longIters, shortIters []int
			total, n := 2*c.n, c.n
			if n == 0 {
				total = 3000
			}
			set.MaxIterations = total
			set.Recorder = func(it vb.Iteration) { longIters = append(longIters, it.Iter) }
			want := vb.Run(long, set)
			if n == 0 {
				if want.Status != vb.Converged {
					t.Fatalf("the long run did not converge (%v after %d); the test checks nothing", want.Status, want.Iterations)
				}
				n = want.Iterations - 1
			}
			set.MaxIterations = n
			set.Recorder = func(it vb.Iteration) { shortIters = append(shortIters, it.Iter) }
			first := vb.Run(short, set)
			if first.Iterations != n || first.Status != vb.IterationLimit {
				t.Fatalf("first run: %v after %d iterations, want the limit %d", first.Status, first.Iterations, n)
			}
			set.MaxIterations = total
			got := vb.Continue(short, first, set)
			if got.Status != want.Status || got.Iterations != want.Iterations || math.Float64bits(got.F) != math.Float64bits(want.F) {
				t.Fatalf("continued: %v after %d, F = %v; long run: %v after %d, F = %v",
					got.Status, got.Iterations, got.F, want.Status, want.Iterations, want.F)
			}
			if !sameBits(got.Trace.F, want.Trace.F) || !sameBits(got.Trace.DeltaF, want.Trace.DeltaF) || len(got.Trace.Terms) != len(want.Trace.Terms) {
				t.Fatalf("traces differ:\n%v\n%v", got.Trace.F, want.Trace.F)
			}
			for i := range want.Trace.Terms {
				if !slices.Equal(got.Trace.Terms[i], want.Trace.Terms[i]) {
					t.Fatalf("terms of iteration %d differ: %v, %v", i, got.Trace.Terms[i], want.Trace.Terms[i])
				}
			}
			if !slices.Equal(short.calls, long.calls) {
				t.Fatalf("calls differ:\ncontinued %v\nlong      %v", short.calls, long.calls)
			}
			if !slices.Equal(shortIters, longIters) {
				t.Fatalf("recorded iterations %v, want %v", shortIters, longIters)
			}
			if len(first.Trace.F) != n {
				t.Fatalf("Continue changed the first result's trace: %d entries", len(first.Trace.F))
			}
		})
	}
}

// clock is a model whose F rises by one at every E step and which logs the
// iteration (M steps so far) of every hyperparameter update.
type clock struct {
	f       float64
	ms      int
	updates []int
}

func (c *clock) E() (vb.Bound, error) { c.f++; return vb.Bound{F: c.f}, nil }
func (c *clock) M()                   { c.ms++ }
func (c *clock) UpdateHyper(string)   { c.updates = append(c.updates, c.ms) }
func (c *clock) HyperGroups() []string {
	return []string{"h"}
}

// TestContinueScheduleOffset: under Continue a stage's From and Every are
// read at the iteration numbers of the whole run, so a schedule is never
// rebased by hand; and the caps count the first run's iterations.
func TestContinueScheduleOffset(t *testing.T) {
	m := &clock{}
	set := vb.Settings{MaxIterations: 12, Converger: vb.FixedIterations{}, Hyper: []vb.Stage{{Group: "h", From: 10, Every: 5}, {Group: "h", From: 30}}}
	r := vb.Run(m, set)
	if !slices.Equal(m.updates, []int{10}) {
		t.Fatalf("first run: updates after iterations %v, want [10]", m.updates)
	}
	set.MaxIterations = 35
	r = vb.Continue(m, r, set)
	// Due at 10, 15, 20, 25, 30 (then 30 and 31-34 by the second stage);
	// no M step follows the last E step, 35.
	want := []int{10, 15, 20, 25, 30, 30, 31, 32, 33, 34}
	if !slices.Equal(m.updates, want) || r.Iterations != 35 || m.ms != 34 || len(r.Trace.F) != 35 || r.F != 35 {
		t.Fatalf("updates after iterations %v (want %v), %d iterations, %d M steps, F = %v", m.updates, want, r.Iterations, m.ms, r.F)
	}
	// Continuing to fewer iterations than already run changes nothing.
	if again := vb.Continue(m, r, vb.Settings{MaxIterations: 20}); again.Iterations != 35 || m.ms != 34 {
		t.Fatalf("continue to 20 after 35: %d iterations, %d M steps", again.Iterations, m.ms)
	}
}

// TestContinueEdges: a run that ended abnormally is not continued, and a
// result of no iterations starts a new run.
func TestContinueEdges(t *testing.T) {
	m := &clock{}
	bad := vb.Result{Status: vb.BoundDecreased, Iterations: 3, Decrease: vb.Decrease{Iter: 2, By: 1}}
	if r := vb.Continue(m, bad, vb.Settings{MaxIterations: 10}); r.Status != vb.BoundDecreased || r.Iterations != 3 || m.ms != 0 || m.f != 0 {
		t.Fatalf("continued a decreased run: %v after %d, model touched: %+v", r.Status, r.Iterations, m)
	}
	r := vb.Continue(m, vb.Result{}, vb.Settings{MaxIterations: 4, Converger: vb.FixedIterations{}})
	if r.Iterations != 4 || m.ms != 3 || r.Decrease.Iter != -1 {
		t.Fatalf("continue from nothing: %d iterations, %d M steps, decrease %+v", r.Iterations, m.ms, r.Decrease)
	}
}
