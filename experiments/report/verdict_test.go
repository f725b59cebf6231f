package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/results"
)

// verdictSummary is a summary with the criteria a (passes), b (fails, with
// an explained finding; its case n=10 passes), c (does not apply), d
// (fails, no explanation) and e (fails, explained).
func verdictSummary(quick bool) results.Summary {
	s := results.Summary{Experiment: "chapter3/synthetic", Quick: quick}
	s.Judge(results.Criterion{ID: "a", Text: "A holds", Target: results.AtLeast(1)}, 2)
	s.Judge(results.Criterion{ID: "b", Text: "B holds", Target: results.AtMost(1)}, 5)
	s.Judge(results.Criterion{ID: "b", Text: "B holds", Target: results.AtMost(1)}.For("n=10"), 0.5)
	s.NotJudged(results.Criterion{ID: "c", Text: "C holds", Target: results.Equal(0)}, "the quick sizes leave out n = 10240")
	s.Judge(results.Criterion{ID: "d", Text: "D holds", Target: results.Below(0)}, 3)
	s.Judge(results.Criterion{ID: "e", Text: "E holds", Target: results.Above(0)}, -1)
	s.AddFindingsFromChecks(map[string]string{"b": "B needs more data than the thesis had.", "e": "E is beyond our budget."})
	s.Findings = append(s.Findings, "Births are spatial splits.")
	return s
}

func TestClaimVerdict(t *testing.T) {
	for _, tc := range []struct {
		name     string
		quick    bool
		checks   []string
		kind     string
		passed   int
		judged   int
		reasonIn string // a reason must contain it
	}{
		{"every check passes", false, []string{"a"}, Reproduced, 1, 1, ""},
		{"some pass, with the finding's reason", false, []string{"a", "b"}, PartlyReproduced, 2, 3, "B holds: B needs more data than the thesis had."},
		{"none passes, finding's reason", false, []string{"e", "d"}, NotReproduced, 0, 2, "E holds: E is beyond our budget."},
		{"none passes, no explanation: the value and target", false, []string{"d"}, NotReproduced, 0, 1, "D holds: 3 (target < 0)."},
		{"a case of a criterion passes, another fails", false, []string{"b"}, PartlyReproduced, 1, 2, "B needs more data"},
		{"a quick run is not judged", true, []string{"a", "b"}, NotJudged, 2, 3, "a quick run: reduced settings"},
		{"a quick run that would pass is not judged either", true, []string{"a"}, NotJudged, 1, 1, "1 of 1 checks would pass"},
		{"every check does not apply", false, []string{"c"}, NotJudged, 0, 0, "the quick sizes leave out n = 10240"},
		{"no criterion", false, nil, NotJudged, 0, 0, "no acceptance criterion"},
		{"not-applicable checks do not count", false, []string{"a", "c"}, Reproduced, 1, 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := verdictSummary(tc.quick)
			v := ClaimVerdict(s, results.Claim{Artifact: "Figure 3.2", Checks: tc.checks})
			if v.Kind != tc.kind || v.Passed != tc.passed || v.Judged != tc.judged {
				t.Errorf("verdict %q, %d of %d passed; want %q, %d of %d (%+v)", v.Kind, v.Passed, v.Judged, tc.kind, tc.passed, tc.judged, v)
			}
			if tc.reasonIn != "" && !slices.ContainsFunc(v.Reasons, func(r string) bool { return strings.Contains(r, tc.reasonIn) }) {
				t.Errorf("reasons %q lack %q", v.Reasons, tc.reasonIn)
			}
			if tc.kind == Reproduced && len(v.Reasons) > 0 {
				t.Errorf("a reproduced claim has reasons %q", v.Reasons)
			}
			if len(v.Values) != len(checksOf(s, tc.checks)) {
				t.Errorf("%d values for %d checks", len(v.Values), len(checksOf(s, tc.checks)))
			}
		})
	}
}

func checksOf(s results.Summary, ids []string) []results.Check {
	var out []results.Check
	for _, id := range ids {
		out = append(out, s.ChecksOf(id)...)
	}
	return out
}

func TestCombine(t *testing.T) {
	r, p, n, j := Verdict{Kind: Reproduced}, Verdict{Kind: PartlyReproduced}, Verdict{Kind: NotReproduced}, Verdict{Kind: NotJudged, Reasons: []string{"quick"}}
	for _, tc := range []struct {
		in   []Verdict
		want string
	}{
		{[]Verdict{r, r}, Reproduced},
		{[]Verdict{r, j}, Reproduced}, // a claim not judged does not decide
		{[]Verdict{r, n}, PartlyReproduced},
		{[]Verdict{p}, PartlyReproduced},
		{[]Verdict{n, n, j}, NotReproduced},
		{[]Verdict{j, j}, NotJudged},
		{nil, NotRun},
	} {
		if got := combine(tc.in); got.Kind != tc.want {
			t.Errorf("combine(%v) = %q, want %q", tc.in, got.Kind, tc.want)
		}
	}
	if got := combine([]Verdict{j, j}); len(got.Reasons) != 1 {
		t.Errorf("the reasons of claims not judged are not repeated: %q", got.Reasons)
	}
}

func TestSplitFindings(t *testing.T) {
	s := verdictSummary(true)
	fromChecks, other := splitFindings(s)
	if len(fromChecks) != 3 || !slices.Equal(other, []string{"Births are spatial splits."}) {
		t.Errorf("findings of failed checks %v, others %q", fromChecks, other)
	}
}

// TestClaimsApartFromSanity: a verdict is computed from the claim checks
// alone (a sanity check among a claim's checks neither passes nor fails
// it), a failed sanity check anywhere in the run makes it invalid, and
// extension checks are judged apart; each claim row shows the text's
// number with its line and ours over the seeds.
func TestClaimsApartFromSanity(t *testing.T) {
	claim := results.Criterion{ID: "c3", Text: "VB ahead with few sentences", Target: results.AtLeast(0.7)}.AsClaim("≥ 0.7", "L2169")
	sane := results.Criterion{ID: "f-monotone", Text: "F never decreases", Target: results.Equal(0)}.AsSanity()
	ext := results.Criterion{ID: "bridge-bias", Text: "E_q[A] biased towards 0", Target: results.Holds}.AsExtension()
	run := func(sanity float64) results.Summary {
		var s results.Summary
		s.JudgeSeeds(claim, []float64{0.9, 0.5, 0.8}, func(v float64) bool { return v > 0.6 })
		s.Judge(sane, sanity)
		s.JudgeBool(ext, false)
		return s
	}
	c := results.Claim{Artifact: "Figure 3.4", Checks: []string{"c3", "f-monotone", "bridge-bias"}}
	v := ClaimVerdict(run(0), c)
	if v.Kind != NotReproduced || v.Judged != 1 || len(v.Rows) != 1 {
		t.Fatalf("verdict %+v, want not reproduced on its one claim check", v)
	}
	row := v.Rows[0]
	if row.Theirs() != "≥ 0.7 (L2169)" || !strings.Contains(row.Ours(), "median 0.8 (0.5 to 0.9 over 3 seeds); holds on 2 of 3") || row.Holds != "does not hold" {
		t.Errorf("row: theirs %q, ours %q, holds %q", row.Theirs(), row.Ours(), row.Holds)
	}
	if x := ExtensionVerdict(run(0), c); x.Kind != NotReproduced || len(x.Rows) != 1 || x.Rows[0].Check.ID != "bridge-bias" {
		t.Errorf("extension verdict %+v", x)
	}
	inv := ClaimVerdict(run(1), c)
	if inv.Kind != Invalid || !slices.ContainsFunc(inv.Reasons, func(r string) bool { return strings.Contains(r, "the run is not valid: F never decreases") }) {
		t.Errorf("a run whose sanity check failed: %+v", inv)
	}
	if got := combine([]Verdict{{Kind: Reproduced, Passed: 1, Judged: 1}, inv}); got.Kind != Invalid {
		t.Errorf("an artefact with an invalid run: %q", got.Kind)
	}
}

// TestReasonsOnce checks that failed checks sharing one explanation (the
// cases of a criterion) give one reason that counts the others, while
// different explanations each keep their own.
func TestReasonsOnce(t *testing.T) {
	s := results.Summary{Experiment: "chapter3/synthetic"}
	f := results.Criterion{ID: "f", Text: "F holds", Target: results.Above(0)}
	for _, cas := range []string{"n=1", "n=2", "n=3"} {
		s.Judge(f.For(cas), -1)
	}
	s.Judge(results.Criterion{ID: "g", Text: "G holds", Target: results.Above(0)}, -1)
	s.AddFindingsFromChecks(map[string]string{"f": "F needs the thesis's data.", "g": "G is beyond our budget."})
	v := ClaimVerdict(s, results.Claim{Artifact: "Figure 3.2", Checks: []string{"f", "g"}})
	if v.Kind != NotReproduced || len(v.Reasons) != 2 {
		t.Fatalf("verdict %s with reasons %q, want not reproduced with 2", v.Kind, v.Reasons)
	}
	if !strings.Contains(v.Reasons[0], "F needs the thesis's data. (and 2 more failed checks with this explanation)") {
		t.Errorf("first reason %q", v.Reasons[0])
	}
	if !strings.Contains(v.Reasons[1], "G is beyond our budget.") || strings.Contains(v.Reasons[1], "more failed") {
		t.Errorf("second reason %q", v.Reasons[1])
	}
}
