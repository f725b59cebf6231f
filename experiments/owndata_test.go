package experiments

import (
	"path/filepath"
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

// TestDataName: figures name the text's data by the text's name when every
// file read was verified, and a user's files by their base names.
func TestDataName(t *testing.T) {
	for _, c := range []struct {
		data []results.DataRecord
		want string
		own  bool
	}{
		{[]results.DataRecord{{File: "faithful.csv", Checked: true}}, "Old Faithful", false},
		{nil, "Old Faithful", false},
		{[]results.DataRecord{{File: "/home/me/geyser.csv"}}, "geyser.csv", true},
		{[]results.DataRecord{{File: "a/train.csv"}, {File: "pima_test.csv", Checked: true}, {File: "b/test.csv"}}, "train.csv and test.csv", true},
	} {
		dir := t.TempDir()
		if err := results.WriteJSON(filepath.Join(dir, results.SummaryFile), &results.Summary{Data: c.data}); err != nil {
			t.Fatal(err)
		}
		got, own, err := DataName(dir, "Old Faithful")
		if err != nil || got != c.want || own != c.own {
			t.Errorf("%v: %q, %v, %v; want %q, %v", c.data, got, own, err, c.want, c.own)
		}
	}
	if _, _, err := DataName(t.TempDir(), "x"); err == nil {
		t.Error("no summary.json: no error")
	}
}
