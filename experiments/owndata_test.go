package experiments

import (
	"testing"

	"github.com/vbworkbench/vbw/results"
)

// TestOwnDataNotTheText: on data that no published checksum verifies, the
// text's claims and our extensions are not applicable (with the file in
// the reason) and their findings dropped, while the sanity checks still
// judge the run.
func TestOwnDataNotTheText(t *testing.T) {
	var s results.Summary
	claim := results.Criterion{ID: "fig10.6-two", Text: "two components kept", Target: results.AtLeast(0.9)}.AsClaim("2 at α₀ = 10⁻³", "L460")
	sane := results.Criterion{ID: "f-monotone", Text: "F never decreases", Target: results.Equal(0)}.AsSanity()
	s.Judge(claim, 0.2)
	s.Judge(sane, 0)
	s.AddFindingsFromChecks(nil)
	if len(s.Findings) != 1 {
		t.Fatalf("findings %q", s.Findings)
	}
	notTheText(&s, []string{"mine.csv"})
	c := s.Checks[0]
	if !c.NotApplicable || c.Pass || c.Why != "the data are not the text's (mine.csv): the text's claims do not apply" {
		t.Errorf("the claim on the user's data: %+v", c)
	}
	if s.Checks[1].NotApplicable || !s.Checks[1].Pass {
		t.Errorf("the sanity check: %+v", s.Checks[1])
	}
	if len(s.Findings) != 0 {
		t.Errorf("findings of the claims left: %q", s.Findings)
	}
}
