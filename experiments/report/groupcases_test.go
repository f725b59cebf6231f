package report

import (
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/results"
)

// TestGroupCases checks that the rows of one criterion judged for several
// cases fold into one row per claim (and per run), counting the cases
// where it holds and naming those where it does not, while rows of
// criteria without cases, and a criterion of one case, stay as they were.
func TestGroupCases(t *testing.T) {
	row := func(id, name string, pass bool, run string) ClaimRow {
		h := "does not hold"
		if pass {
			h = "holds"
		}
		return ClaimRow{Check: results.Check{ID: id, Name: name, Pass: pass, Value: 1, Target: "= 1"}, Holds: h, Run: run}
	}
	rows := []ClaimRow{
		row("a[n=1]", "gap (n=1)", true, ""),
		row("plain", "plain", false, ""),
		row("a[n=2]", "gap (n=2)", false, ""),
		row("a[n=3]", "gap (n=3)", true, ""),
		row("b[x]", "one case (x)", true, ""),
		row("a[n=1]", "gap (n=1)", true, "other"),
		row("a[n=2]", "gap (n=2)", true, "other"),
	}
	got := groupCases(rows)
	if len(got) != 4 {
		t.Fatalf("%d rows, want 4 (a, plain, b, a on the other run): %+v", len(got), got)
	}
	a := got[0]
	if a.Claim() != "gap (3 cases)" || a.Holds != "holds for 2 of 3" || a.Check.Pass {
		t.Errorf("grouped row: claim %q holds %q pass %v", a.Claim(), a.Holds, a.Check.Pass)
	}
	if o := a.Ours(); !strings.HasPrefix(o, "holds for 2 of 3 cases; not for n=2: ") {
		t.Errorf("grouped ours %q", o)
	}
	if got[1].Check.ID != "plain" || got[1].Holds != "does not hold" || len(got[1].Cases) != 0 {
		t.Errorf("plain row changed: %+v", got[1])
	}
	if got[2].Check.Name != "one case (x)" || len(got[2].Cases) != 0 {
		t.Errorf("a criterion of one case must stay as it was: %+v", got[2])
	}
	if b := got[3]; b.Claim() != "gap (2 cases) (other)" || b.Holds != "holds" || !b.Check.Pass {
		t.Errorf("other run's row: claim %q holds %q", b.Claim(), b.Holds)
	}
	if rows[0].Check.Name != "gap (n=1)" || len(rows[0].Cases) != 0 {
		t.Error("groupCases changed its input")
	}
}
