package exptest

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/results"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed = append(r.failed, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

// run calls f with a recorder in its own goroutine (Fatal ends it) and
// returns the failures.
func run(f func(tb testing.TB)) []string {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.failed
}

func sample() results.Summary {
	var s results.Summary
	s.Experiment = "chapterX/demo"
	s.SetMetric("iterations", 120)
	s.SetMetric("F", -1234.5678)
	s.SetMetric("zero", 0)
	s.SetMetric("seconds_total", 3.2)
	s.Lists = map[string][]float64{"dims": {7, 4, 3}}
	crit := results.Criteria{
		{ID: "f-monotone", Text: "F never decreases", Target: results.Equal(0)},
		{ID: "recovered", Text: "structure recovered", Target: results.AtLeast(0.7)},
	}
	s.Judge(crit.Get("f-monotone"), 0)
	s.Judge(crit.Get("recovered").For("n=64"), 0.8)
	s.Judge(crit.Get("recovered").For("n=128"), 0.6)
	return s
}

// TestGoldenDiffCatchesOnePercent: a 1% change of any golden number, a
// flipped verdict, a missing metric, list entry or check, and a changed
// table cell all show in Diff; timings do not.
func TestGoldenDiffCatchesOnePercent(t *testing.T) {
	tab := results.Table{Header: []string{"run", "F", "seconds"}, Rows: [][]string{{"a", "-10.5", "1"}, {"b", "-20.25", "2"}}}
	base := func() Golden {
		g := GoldenOf(sample())
		g.Tables = map[string]TableFingerprint{"runs.csv": Fingerprint(tab)}
		return g
	}
	want := base()
	if d := want.Diff(base()); len(d) > 0 {
		t.Fatalf("identical goldens differ: %v", d)
	}
	if _, ok := want.Metrics["seconds_total"]; ok {
		t.Error("a timing is in the golden numbers")
	}
	if _, ok := want.Tables["runs.csv"].Columns["seconds"]; ok {
		t.Error("a timing column is in the golden numbers")
	}
	bump := func(p *float64) *float64 { x := *p * 1.01; return &x }
	for name, edit := range map[string]func(g *Golden){
		"metric F":      func(g *Golden) { g.Metrics["F"] = bump(g.Metrics["F"]) },
		"integer":       func(g *Golden) { g.Metrics["iterations"] = bump(g.Metrics["iterations"]) },
		"zero":          func(g *Golden) { x := 1e-300; g.Metrics["zero"] = &x },
		"missing":       func(g *Golden) { delete(g.Metrics, "F") },
		"extra":         func(g *Golden) { x := 1.0; g.Metrics["new"] = &x },
		"non-finite":    func(g *Golden) { g.Metrics["F"] = nil },
		"list":          func(g *Golden) { g.Lists["dims"][1] = bump(g.Lists["dims"][1]) },
		"list length":   func(g *Golden) { g.Lists["dims"] = g.Lists["dims"][:2] },
		"check verdict": func(g *Golden) { g.Checks[1].Verdict = "FAIL" },
		"check value":   func(g *Golden) { g.Checks[2].Value = bump(g.Checks[2].Value) },
		"check id":      func(g *Golden) { g.Checks[0].ID = "f-monotone-2" },
		"check missing": func(g *Golden) { g.Checks = g.Checks[:2] },
		"table cell": func(g *Golden) {
			t2 := results.Table{Header: tab.Header, Rows: [][]string{{"a", "-10.605", "1"}, {"b", "-20.25", "2"}}}
			g.Tables["runs.csv"] = Fingerprint(t2)
		},
		"table text": func(g *Golden) {
			t2 := results.Table{Header: tab.Header, Rows: [][]string{{"a", "-10.5", "1"}, {"c", "-20.25", "2"}}}
			g.Tables["runs.csv"] = Fingerprint(t2)
		},
		"table rows": func(g *Golden) {
			t2 := results.Table{Header: tab.Header, Rows: tab.Rows[:1]}
			g.Tables["runs.csv"] = Fingerprint(t2)
		},
	} {
		got := base()
		edit(&got)
		if d := want.Diff(got); len(d) == 0 {
			t.Errorf("%s: the change does not show", name)
		}
	}
	// A change within the tolerance of a non-integer does not show.
	got := base()
	x := *got.Metrics["F"] * (1 + GoldenRelTol/2)
	got.Metrics["F"] = &x
	if d := want.Diff(got); len(d) > 0 {
		t.Errorf("a change of half the tolerance shows: %v", d)
	}
}

func TestGoldenEqual(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	for _, c := range []struct {
		got, want *float64
		eq        bool
	}{
		{f(3), f(3), true},
		{f(3 + 1e-12), f(3), false}, // integers exactly
		{f(0.1 + 1e-9), f(0.1), true},
		{f(0.1 * 1.001), f(0.1), false},
		{nil, nil, true},
		{f(1), nil, false},
		{nil, f(1), false},
		{f(math.Copysign(0, -1)), f(0), true},
		{f(2.17e-16), f(1.75e-16), true}, // round-off of a zero
		{f(-3e-13), f(1.75e-16), true},
		{f(2e-12), f(1.75e-16), false},
		{f(1.75e-16), f(0), false}, // an exact 0 stays exact
	} {
		if GoldenEqual(c.got, c.want) != c.eq {
			t.Errorf("GoldenEqual(%v, %v) = %v", show(c.got), show(c.want), !c.eq)
		}
	}
}

// TestChecksFailsOnMissingID: the helpers that name criteria fail when a
// criterion is missing, and MustPass fails when one did not pass.
func TestChecksFailsOnMissingID(t *testing.T) {
	s := sample()
	if f := run(func(tb testing.TB) { MustPass(tb, s, "f-monotone") }); len(f) > 0 {
		t.Errorf("passing check reported: %v", f)
	}
	if f := run(func(tb testing.TB) { Checks(tb, s, "no-such-criterion") }); len(f) != 1 || !strings.Contains(f[0], "no-such-criterion") {
		t.Errorf("missing criterion: %v", f)
	}
	if f := run(func(tb testing.TB) { MustPass(tb, s, "recovered") }); len(f) != 1 || !strings.Contains(f[0], "n=128") {
		t.Errorf("failed case: %v", f)
	}
	if f := run(func(tb testing.TB) { Checks(tb, s) }); len(f) != 1 {
		t.Errorf("no IDs: %v", f)
	}
	if got := len(run(func(tb testing.TB) { Checks(tb, s, "recovered") })); got != 0 {
		t.Errorf("cases of a criterion not found by its ID")
	}
}
