package results

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestTargetMetAndString(t *testing.T) {
	for _, c := range []struct {
		t    Target
		v    float64
		met  bool
		text string
	}{
		{AtLeast(0.8), 0.8, true, ">= 0.8"},
		{AtLeast(0.8), 0.79, false, ">= 0.8"},
		{AtMost(2), 2, true, "<= 2"},
		{Above(0.5), 0.5, false, "> 0.5"},
		{Below(-0.3), -0.31, true, "< -0.3"},
		{Equal(0), 0, true, "= 0"},
		{Equal(0), 1e-300, false, "= 0"},
		{Within(0.12, 0.35), 0.35, true, "in [0.12, 0.35]"},
		{Within(0.12, 0.35), 0.11, false, "in [0.12, 0.35]"},
		{AtLeast(17).OutOf(20), 17, true, ">= 17 of 20"},
		{AtLeast(-1), math.NaN(), false, ">= -1"},
		{Within(-1, 1), math.NaN(), false, "in [-1, 1]"},
	} {
		if got := c.t.Met(c.v); got != c.met {
			t.Errorf("%s .Met(%v) = %v", c.t, c.v, got)
		}
		if got := c.t.String(); got != c.text {
			t.Errorf("String = %q, want %q", got, c.text)
		}
	}
}

func TestJudgeAndComplete(t *testing.T) {
	cs := Criteria{
		{ID: "a", Text: "first", Target: AtLeast(1), Kind: KindSanity},
		{ID: "b.sub", Text: "second", Target: Holds, Kind: KindExtension},
		{ID: "c", Text: "third", Target: Below(3), Kind: KindSanity},
	}
	var s Summary
	s.Experiment = "x/y"
	s.Judge(cs.Get("a"), 2, "n = 5")
	s.JudgeBool(cs.Get("b.sub").For("seed 1"), false)
	if err := s.CheckComplete(cs); err == nil || !strings.Contains(err.Error(), "never judged: c") {
		t.Errorf("incomplete summary: %v", err)
	}
	s.NotJudged(cs.Get("c"), "quick run")
	if err := s.CheckComplete(cs); err != nil {
		t.Error(err)
	}
	if c := s.Checks[0]; c.ID != "a" || !c.Pass || c.Name != "first (n = 5)" || c.Target != ">= 1" {
		t.Errorf("check %+v", c)
	}
	if c := s.Checks[1]; c.ID != "b.sub[seed 1]" || c.Pass || c.Value != 0 || c.Name != "second (seed 1)" {
		t.Errorf("check %+v", c)
	}
	if c := s.Checks[2]; !c.NotApplicable || c.Verdict() != "n/a" {
		t.Errorf("check %+v", c)
	}
	if got := len(s.ChecksOf("b.sub")); got != 1 {
		t.Errorf("ChecksOf(b.sub) = %d checks", got)
	}
	s.Judge(Criterion{ID: "z", Text: "stray", Target: AtLeast(0)}, 1)
	if err := s.CheckComplete(cs); err == nil || !strings.Contains(err.Error(), `outside the criteria table: "z"`) {
		t.Errorf("stray check: %v", err)
	}
	for _, bad := range []Criteria{
		{{ID: "A", Text: "upper case", Kind: KindSanity}},
		{{ID: "a", Text: "x", Kind: KindSanity}, {ID: "a", Text: "twice", Kind: KindSanity}},
		{{ID: "a", Kind: KindSanity}},
		{{ID: "a[b]", Text: "a case in the table", Kind: KindSanity}},
		{{ID: "a", Text: "unclassified"}},
		{{ID: "a", Text: "unknown kind", Kind: Kind(9)}},
		{{ID: "a", Text: "a claim without the text's number", Kind: KindClaim}},
	} {
		if bad.Validate() == nil {
			t.Errorf("%+v validated", bad)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("JudgeBool of a criterion with a numeric target did not panic")
		}
	}()
	s.JudgeBool(cs.Get("a"), true)
}

// TestUnclassifiedRefused: a criterion without a kind is refused, by
// name, wherever a table is validated: Validate, CheckComplete and a
// summary's Validate (which WriteSummary calls).
func TestUnclassifiedRefused(t *testing.T) {
	cs := Criteria{{ID: "ok", Text: "classified", Target: Holds, Kind: KindSanity}, {ID: "fig2.1-bare", Text: "not classified", Target: Holds}}
	s := Summary{Experiment: "x/y", Criteria: cs}
	for _, c := range cs {
		s.JudgeBool(c, true)
	}
	for name, err := range map[string]error{"Validate": cs.Validate(), "CheckComplete": s.CheckComplete(cs), "Summary.Validate": s.Validate()} {
		if err == nil || !strings.Contains(err.Error(), `"fig2.1-bare" has no kind`) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line naming fig2.1-bare", name, err)
		}
	}
	if err := cs[:1].Validate(); err != nil {
		t.Errorf("a classified table: %v", err)
	}
}

// TestClaimOnAndAsOurs: ClaimOn makes a claim of the text, or, on
// settings of ours, an extension keeping the text's statement; AsOurs
// turns every claim of a table and of a summary's checks into an
// extension and leaves the others and the original table as they were.
func TestClaimOnAndAsOurs(t *testing.T) {
	c := Criterion{ID: "fig1.1-x", Text: "x", Target: Holds}
	if got := ClaimOn(false, c, "theirs", "L1"); got.Kind != KindClaim || got.Theirs != "theirs" || got.Line != "L1" {
		t.Errorf("ClaimOn(false) = %+v", got)
	}
	if got := ClaimOn(true, c, "theirs", "L1"); got.Kind != KindExtension || got.Theirs != "theirs" || got.Line != "L1" {
		t.Errorf("ClaimOn(true) = %+v", got)
	}
	cs := Criteria{c.AsClaim("theirs", "L1"), {ID: "s", Text: "s", Target: Holds, Kind: KindSanity}, {ID: "e", Text: "e", Target: Holds, Kind: KindExtension}}
	s := Summary{Experiment: "x/y", Criteria: cs}
	for _, c := range cs {
		s.JudgeBool(c, true)
	}
	s.AsOurs()
	want := []Kind{KindExtension, KindSanity, KindExtension}
	for i, k := range want {
		if s.Criteria[i].Kind != k || s.Checks[i].Kind != k.String() {
			t.Errorf("after AsOurs, %s: criterion %s, check %q; want %s", cs[i].ID, s.Criteria[i].Kind, s.Checks[i].Kind, k)
		}
	}
	if cs[0].Kind != KindClaim {
		t.Errorf("AsOurs changed the table it copied: %s", cs[0].Kind)
	}
}

func TestCheckJSONKeepsID(t *testing.T) {
	c := Check{ID: "fig6.2-map", Name: "n", Pass: true, Value: 1, Target: "= 1"}
	data, err := c.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var back Check
	if err := back.UnmarshalJSON(data); err != nil {
		t.Fatal(err)
	}
	if back != c {
		t.Errorf("round trip %+v, want %+v", back, c)
	}
}

func TestSummaryValidateClaims(t *testing.T) {
	cs := Criteria{Criterion{ID: "fig1.2-peak", Text: "peak at k = 2", Target: Equal(2)}.AsClaim("the peak is at 2", "L12")}
	s := Summary{Experiment: "x/y", Criteria: cs}
	s.Judge(cs.Get("fig1.2-peak"), 2)
	s.Claims = []Claim{{Artifact: "Figure 1.2", Checks: []string{"fig1.2-peak"}}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	s.Claims[0].Checks = []string{"fig1.2"}
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), `"fig1.2"`) {
		t.Errorf("claim naming an unknown criterion: %v", err)
	}
	s.Claims = nil
	s.Checks[0].Pass = false
	s.AddFindingsFromChecks(map[string]string{"fig1.2-peak": "because."})
	if len(s.Findings) != 1 || !strings.HasSuffix(s.Findings[0], "because.") {
		t.Errorf("findings %q", s.Findings)
	}
}

// TestParseTargetRoundTrip: every target String renders reads back the
// same, and other text is refused.
func TestParseTargetRoundTrip(t *testing.T) {
	for _, tg := range []Target{AtLeast(0.8), AtMost(-3), Above(1e-300), Below(2.5), Equal(0), Holds, Within(0.12, 0.35),
		AtLeast(17).OutOf(20), Within(-1, 1).OutOf(3), Equal(math.Inf(1)), AtLeast(0.1 + 0.2)} {
		got, err := ParseTarget(tg.String())
		if err != nil || got != tg {
			t.Errorf("ParseTarget(%q) = %+v, %v; want %+v", tg.String(), got, err, tg)
		}
	}
	for _, s := range []string{"", ">=", "=> 1", ">= x", "in [1, 2", "in [1 2]", ">= 1 of 0", ">= 1 of x", "about 3", ">=  1"} {
		if _, err := ParseTarget(s); err == nil {
			t.Errorf("ParseTarget(%q) accepted", s)
		}
	}
}

// TestClaimsAndSanity: a claim carries the text's number and line into its
// check, judged over every seed with the spread of its measure; a sanity
// check is marked so; a claim without the text's number is refused.
func TestClaimsAndSanity(t *testing.T) {
	c := Criterion{ID: "fig4.4-dims", Text: "seeds whose search learns the true dimensionalities", Target: AtLeast(0.7)}.AsClaim("(7,2,2,4,3,1)", "L2801")
	var s Summary
	s.JudgeSeeds(c, []float64{1, 0, 1, 1, math.NaN()}, func(v float64) bool { return v == 1 })
	ch := s.Checks[0]
	if ch.Value != 0.6 || ch.Pass || ch.Kind != "claim" || ch.Theirs != "(7,2,2,4,3,1)" || ch.Line != "L2801" {
		t.Errorf("check %+v", ch)
	}
	if sp := ch.Spread; sp == nil || sp.N != 5 || sp.Held != 3 || sp.Median != 1 || sp.Min != 0 || sp.Max != 1 {
		t.Errorf("spread %+v", ch.Spread)
	}
	m := Criterion{ID: "f-monotone", Text: "F never decreases", Target: Equal(0)}.AsSanity()
	s.Judge(m, 0)
	if !s.Checks[1].IsSanity() || s.Checks[1].IsExtension() {
		t.Errorf("sanity check %+v", s.Checks[1])
	}
	s.NotJudged(c, "the quick sizes")
	if s.Checks[2].Kind != "claim" || s.Checks[2].Theirs == "" {
		t.Errorf("a claim not judged keeps its kind and number: %+v", s.Checks[2])
	}
	if err := (Criteria{{ID: "a", Text: "x", Target: AtLeast(1), Kind: KindClaim}}).Validate(); err == nil || !strings.Contains(err.Error(), "without the text's number") {
		t.Errorf("a claim without the text's number: %v", err)
	}
	for _, k := range []Kind{KindUnclassified, KindClaim, KindExtension, KindSanity} {
		if got, err := ParseKind(map[Kind]string{KindUnclassified: ""}[k] + map[bool]string{true: k.String()}[k != KindUnclassified]); err != nil || got != k {
			t.Errorf("ParseKind(%v) = %v, %v", k, got, err)
		}
	}
	// Round trip through JSON.
	data, err := json.Marshal(s.Checks[0])
	if err != nil {
		t.Fatal(err)
	}
	var back Check
	if err := json.Unmarshal(data, &back); err != nil || back.Spread == nil || back.Spread.Held != 3 || back.Kind != "claim" {
		t.Errorf("round trip %s → %+v, %v", data, back, err)
	}
}
