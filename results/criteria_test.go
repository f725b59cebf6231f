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
		{ID: "a", Text: "first", Target: AtLeast(1)},
		{ID: "b.sub", Text: "second", Target: Holds},
		{ID: "c", Text: "third", Target: Below(3)},
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
		{{ID: "A", Text: "upper case"}},
		{{ID: "a", Text: "x"}, {ID: "a", Text: "twice"}},
		{{ID: "a"}},
		{{ID: "a[b]", Text: "a case in the table"}},
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
	cs := Criteria{{ID: "fig1.2-peak", Text: "peak at k = 2", Target: Equal(2)}}
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
