package report

import (
	"fmt"
	"testing"

	"github.com/vbworkbench/vbw/results"
)

// TestShorten: a verdict table keeps every claim row that does not hold,
// then rows that hold up to MaxRows, counts the rest (never "1 more"
// where the row fits), and keeps MaxReasons reasons with a count.
func TestShorten(t *testing.T) {
	row := func(id string, pass, na bool) ClaimRow {
		return ClaimRow{Check: results.Check{ID: id, Pass: pass, NotApplicable: na}}
	}
	ids := func(rs []ClaimRow) string {
		s := ""
		for _, r := range rs {
			s += r.Check.ID
		}
		return s
	}
	for _, c := range []struct {
		rows               []ClaimRow
		want               string
		more, hold         int
		reasons, wantShown int
		moreReasons        int
	}{
		{[]ClaimRow{row("a", true, false), row("b", false, false), row("c", true, false)}, "bac", 0, 0, 2, 2, 0},
		{[]ClaimRow{row("a", true, false), row("b", true, false), row("c", true, false), row("d", true, false), row("e", true, false)}, "abcde", 0, 0, 4, 4, 0},
		{[]ClaimRow{row("a", true, false), row("b", true, false), row("c", true, false), row("d", true, false), row("e", true, false), row("f", false, true)}, "abcd", 2, 1, 5, 3, 2},
		{[]ClaimRow{row("a", true, false), row("b", false, false), row("c", false, false), row("d", false, false), row("e", false, false), row("f", false, false), row("g", true, false)}, "bcdef", 2, 2, 0, 0, 0},
	} {
		var reasons []string
		for i := range c.reasons {
			reasons = append(reasons, fmt.Sprint(i))
		}
		got := shorten(Verdict{Rows: c.rows, Reasons: reasons})
		if ids(got.Rows) != c.want || got.MoreRows != c.more || got.MoreHold != c.hold || len(got.Reasons) != c.wantShown || got.MoreReasons != c.moreReasons {
			t.Errorf("%s: got rows %s, %d more (%d hold), %d reasons + %d; want %s, %d (%d), %d + %d",
				ids(c.rows), ids(got.Rows), got.MoreRows, got.MoreHold, len(got.Reasons), got.MoreReasons, c.want, c.more, c.hold, c.wantShown, c.moreReasons)
		}
	}
}
