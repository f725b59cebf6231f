package results

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Op is the relation of a Target.
type Op int

// The relations of a Target.
const (
	OpGE Op = iota // value ≥ A
	OpLE           // value ≤ A
	OpGT           // value > A
	OpLT           // value < A
	OpEQ           // value = A
	OpIn           // A ≤ value ≤ B
)

// Target is an acceptance criterion's comparison: it evaluates a measured
// value and renders itself, so a threshold is written once. A NaN value
// never meets a target.
type Target struct {
	Op   Op
	A, B float64
	// Of, when positive, is the number of cases a count is out of, shown
	// as ">= 17 of 20".
	Of int
}

// AtLeast is the target value ≥ a.
func AtLeast(a float64) Target { return Target{Op: OpGE, A: a} }

// AtMost is the target value ≤ a.
func AtMost(a float64) Target { return Target{Op: OpLE, A: a} }

// Above is the target value > a.
func Above(a float64) Target { return Target{Op: OpGT, A: a} }

// Below is the target value < a.
func Below(a float64) Target { return Target{Op: OpLT, A: a} }

// Equal is the target value = a.
func Equal(a float64) Target { return Target{Op: OpEQ, A: a} }

// Within is the target a ≤ value ≤ b.
func Within(a, b float64) Target { return Target{Op: OpIn, A: a, B: b} }

// OutOf returns t for a count out of n cases (rendered "… of n").
func (t Target) OutOf(n int) Target { t.Of = n; return t }

// Met reports whether the measured value v meets the target.
func (t Target) Met(v float64) bool {
	if math.IsNaN(v) {
		return false
	}
	switch t.Op {
	case OpGE:
		return v >= t.A
	case OpLE:
		return v <= t.A
	case OpGT:
		return v > t.A
	case OpLT:
		return v < t.A
	case OpEQ:
		return v == t.A
	case OpIn:
		return v >= t.A && v <= t.B
	}
	panic(fmt.Sprintf("results: unknown target relation %d", t.Op))
}

// String renders the target, e.g. ">= 0.8", "in [0.12, 0.35]", ">= 17 of 20".
func (t Target) String() string {
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	var s string
	switch t.Op {
	case OpGE:
		s = ">= " + num(t.A)
	case OpLE:
		s = "<= " + num(t.A)
	case OpGT:
		s = "> " + num(t.A)
	case OpLT:
		s = "< " + num(t.A)
	case OpEQ:
		s = "= " + num(t.A)
	case OpIn:
		s = "in [" + num(t.A) + ", " + num(t.B) + "]"
	default:
		panic(fmt.Sprintf("results: unknown target relation %d", t.Op))
	}
	if t.Of > 0 {
		s += " of " + strconv.Itoa(t.Of)
	}
	return s
}

// ParseTarget reads a target as String renders it (">= 0.8", "in [0.12,
// 0.35]", ">= 17 of 20"), so that a reader of summary.json can judge a
// check's value again.
func ParseTarget(s string) (Target, error) {
	bad := func() (Target, error) {
		return Target{}, fmt.Errorf("target %q: want e.g. \">= 0.8\", \"in [a, b]\" or \">= 17 of 20\"", s)
	}
	var t Target
	body := s
	if i := strings.LastIndex(s, " of "); i >= 0 {
		n, err := strconv.Atoi(s[i+len(" of "):])
		if err != nil || n <= 0 {
			return bad()
		}
		t.Of, body = n, s[:i]
	}
	if rest, ok := strings.CutPrefix(body, "in ["); ok {
		a, b, ok := strings.Cut(strings.TrimSuffix(rest, "]"), ", ")
		x, err1 := strconv.ParseFloat(a, 64)
		y, err2 := strconv.ParseFloat(b, 64)
		if !ok || !strings.HasSuffix(rest, "]") || err1 != nil || err2 != nil {
			return bad()
		}
		t.Op, t.A, t.B = OpIn, x, y
		return t, nil
	}
	op, num, ok := strings.Cut(body, " ")
	ops := map[string]Op{">=": OpGE, "<=": OpLE, ">": OpGT, "<": OpLT, "=": OpEQ}
	x, err := strconv.ParseFloat(num, 64)
	if _, known := ops[op]; !ok || !known || err != nil {
		return bad()
	}
	t.Op, t.A = ops[op], x
	return t, nil
}

// Criterion is one acceptance criterion of an experiment: a stable ID that
// tests, claims and the report refer to, what is measured, and the target.
// An experiment keeps its criteria in one table (a Criteria value, or a
// function of its config that returns one when a threshold depends on the
// config) and judges each of them once per run (Summary.Judge), or says why
// it does not apply (Summary.NotJudged).
type Criterion struct {
	// ID is stable across runs and releases: lower case, digits, '.', '-'
	// and '_', e.g. "fig6.2-map-spearman". A criterion judged once per case
	// (a data set, a size) gets the IDs ID[case] through For.
	ID string
	// Text says what is measured, in one line.
	Text string
	// Target is what the measured value must meet.
	Target Target
	// Kind says what the criterion tests: a claim of the text, a claim
	// of ours that extends it, or a sanity check of the run (Kind). A
	// verdict is computed from the claims alone; a failed sanity check
	// makes the run invalid.
	Kind Kind
	// Theirs (a claim) is the text's number or ordering as the text
	// states it ("0.7 at n = 2", "VB above BIC at every size"), and Line
	// where it states it in the document's source ("L2169", "Table 4.2,
	// L2901").
	Theirs, Line string
}

// Kind is what a criterion tests.
type Kind int

const (
	// KindUnclassified is the zero value: a criterion not classified,
	// which Criteria.Validate refuses (and so every run, before it
	// computes).
	KindUnclassified Kind = iota
	// KindClaim: an assertion of the text (Criterion.Theirs, at
	// Criterion.Line), judged on every seed or data set of the run.
	KindClaim
	// KindExtension: a claim of ours that goes past the text (the bridge to
	// chapter 5, a converged-EM variant, another schedule), judged like a
	// claim and reported in the document's extensions table.
	KindExtension
	// KindSanity: a property every valid run has, whatever the text says: a
	// data checksum, a bound that never decreases, convergence, an
	// identity, agreement of two estimators of one number. Its failure
	// makes the run invalid rather than the claim false.
	KindSanity
)

var kindNames = [...]string{"unclassified", "claim", "extension", "sanity"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// ParseKind reads a Kind as String writes it ("" is Unclassified).
func ParseKind(s string) (Kind, error) {
	if s == "" {
		return KindUnclassified, nil
	}
	for i, n := range kindNames {
		if n == s {
			return Kind(i), nil
		}
	}
	return 0, fmt.Errorf("results: kind %q: want claim, extension or sanity", s)
}

// AsClaim returns c as a claim of the text stating theirs at line.
func (c Criterion) AsClaim(theirs, line string) Criterion {
	c.Kind, c.Theirs, c.Line = KindClaim, theirs, line
	return c
}

// AsSanity returns c as a sanity check.
func (c Criterion) AsSanity() Criterion { c.Kind = KindSanity; return c }

// AsExtension returns c as a claim of ours that extends the text.
func (c Criterion) AsExtension() Criterion { c.Kind = KindExtension; return c }

// ClaimOn returns c as a claim of the text stating theirs at line or, when
// ours (the run's settings are not the text's: a config declaring
// settings = "ours", or a key the text fixes set otherwise), as a claim of
// ours that extends it, keeping the text's statement and line for the
// report.
func ClaimOn(ours bool, c Criterion, theirs, line string) Criterion {
	c = c.AsClaim(theirs, line)
	if ours {
		c.Kind = KindExtension
	}
	return c
}

// AsOurs returns a copy of cs in which every claim of the text is a claim
// of ours (an extension), as ClaimOn makes it: the table of a run whose
// settings are not the text's.
func (cs Criteria) AsOurs() Criteria {
	out := slices.Clone(cs)
	for i := range out {
		if out[i].Kind == KindClaim {
			out[i].Kind = KindExtension
		}
	}
	return out
}

// AsOurs makes the summary's claims of the text claims of ours, in its
// criteria table and in its checks (see Criteria.AsOurs): the summary of
// a run whose settings are declared to be ours.
func (s *Summary) AsOurs() {
	s.Criteria = s.Criteria.AsOurs()
	for i := range s.Checks {
		if s.Checks[i].Kind == KindClaim.String() {
			s.Checks[i].Kind = KindExtension.String()
		}
	}
}

var idOK = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*(\[[^\[\]]+\])?$`)

// For returns the criterion judged for one case: ID "id[case]" and the
// case in parentheses after the text.
func (c Criterion) For(cas string) Criterion {
	c.ID = c.ID + "[" + cas + "]"
	c.Text = c.Text + " (" + cas + ")"
	return c
}

// WithTarget returns the criterion with another target (a threshold that
// depends on the run, such as a count out of the sizes run).
func (c Criterion) WithTarget(t Target) Criterion { c.Target = t; return c }

// BaseID returns the criterion ID of a check ID: "a[b]" gives "a".
func BaseID(id string) string {
	if i := strings.IndexByte(id, '['); i >= 0 {
		return id[:i]
	}
	return id
}

// Criteria is an experiment's table of criteria.
type Criteria []Criterion

// Validate reports a malformed or duplicate ID, a criterion without its
// text, one without a kind (KindUnclassified: a programming error, since a
// verdict needs to know whether it judges a claim or a sanity check) and a
// claim of the text without the text's number and line.
func (cs Criteria) Validate() error {
	seen := map[string]bool{}
	for _, c := range cs {
		if !idOK.MatchString(c.ID) || strings.Contains(c.ID, "[") {
			return fmt.Errorf("results: criterion ID %q: want lower-case letters, digits, '.', '-', '_'", c.ID)
		}
		if seen[c.ID] {
			return fmt.Errorf("results: criterion ID %q appears twice", c.ID)
		}
		seen[c.ID] = true
		if c.Text == "" {
			return fmt.Errorf("results: criterion %q has no text", c.ID)
		}
		if c.Kind == KindUnclassified {
			return fmt.Errorf("results: criterion %q has no kind: make it a claim of the text (AsClaim), an extension (AsExtension) or a sanity check (AsSanity)", c.ID)
		}
		if c.Kind < KindUnclassified || int(c.Kind) >= len(kindNames) {
			return fmt.Errorf("results: criterion %q has an unknown kind %d", c.ID, int(c.Kind))
		}
		if c.Kind == KindClaim && (c.Theirs == "" || c.Line == "") {
			return fmt.Errorf("results: criterion %q is a claim of the text without the text's number (Theirs) and line (Line)", c.ID)
		}
	}
	return nil
}

// Get returns the criterion with the given ID; it panics when there is
// none, which is a programming error (a misspelt ID in the code).
func (cs Criteria) Get(id string) Criterion {
	for _, c := range cs {
		if c.ID == id {
			return c
		}
	}
	panic(fmt.Sprintf("results: no criterion %q", id))
}

// IDs returns the criteria's IDs in table order.
func (cs Criteria) IDs() []string {
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	return ids
}

// Judge records the check of criterion c with the measured value v. A
// detail (the run's own numbers, such as the data set or a count) is added
// to the check's name in parentheses.
func (s *Summary) Judge(c Criterion, v float64, detail ...string) {
	name := c.Text
	if len(detail) > 0 && strings.Join(detail, "") != "" {
		name += " (" + strings.Join(detail, ", ") + ")"
	}
	s.Checks = append(s.Checks, c.check(name, c.Target.Met(v), v))
}

// check is the check of c named name with the verdict and value given.
func (c Criterion) check(name string, pass bool, v float64) Check {
	ch := Check{ID: c.ID, Name: name, Pass: pass, Value: v, Target: c.Target.String(), Theirs: c.Theirs, Line: c.Line}
	if c.Kind != KindUnclassified {
		ch.Kind = c.Kind.String()
	}
	return ch
}

// JudgeSeeds records the check of a claim over the seeds (or data sets,
// instances) of a run, never over one of them alone: values are the
// claim's measure on each, holds says whether the claim holds on one, the
// check's value is the fraction of them on which it holds, which c's
// target bounds (results.AtLeast(0.7): on at least 70%), and the check
// keeps the spread of values (Spread: median, range, count), which the
// report shows beside the text's number. A NaN value counts as one on
// which the claim does not hold. It panics on no values.
func (s *Summary) JudgeSeeds(c Criterion, values []float64, holds func(v float64) bool, detail ...string) {
	if len(values) == 0 {
		panic(fmt.Sprintf("results: JudgeSeeds of %q over no values", c.ID))
	}
	held := 0
	for _, v := range values {
		if !math.IsNaN(v) && holds(v) {
			held++
		}
	}
	frac := float64(held) / float64(len(values))
	name := c.Text
	if len(detail) > 0 && strings.Join(detail, "") != "" {
		name += " (" + strings.Join(detail, ", ") + ")"
	}
	ch := c.check(name, c.Target.Met(frac), frac)
	ch.Spread = SpreadOf(values)
	ch.Spread.Held = held
	s.Checks = append(s.Checks, ch)
}

// Spread is the distribution of a claim's measure over the seeds of a
// run (JudgeSeeds): how many, on how many it held, the median and the
// range of the finite values.
type Spread struct {
	N      int     `json:"n"`
	Held   int     `json:"held"`
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// SpreadOf returns the spread of values (Held left 0); the median and the
// range are NaN when none is finite.
func SpreadOf(values []float64) *Spread {
	var fin []float64
	for _, v := range values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			fin = append(fin, v)
		}
	}
	sp := &Spread{N: len(values), Median: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	if len(fin) > 0 {
		sort.Float64s(fin)
		sp.Min, sp.Max = fin[0], fin[len(fin)-1]
		sp.Median = Median(fin)
	}
	return sp
}

// Holds is the target of a yes/no criterion (JudgeBool): the value 1.
var Holds = Equal(1)

// JudgeBool records the check of a criterion whose measure is a yes/no
// condition: the value is 1 when ok and 0 when not. The criterion's target
// must be Holds.
func (s *Summary) JudgeBool(c Criterion, ok bool, detail ...string) {
	if c.Target != Holds {
		panic(fmt.Sprintf("results: JudgeBool of criterion %q, whose target is %s, not Holds", c.ID, c.Target))
	}
	v := 0.0
	if ok {
		v = 1
	}
	s.Judge(c, v, detail...)
}

// NotJudged records that criterion c does not apply to this run, and why
// (a quick run's sizes leave out the one it is about; a user's own data has
// no thesis numbers).
func (s *Summary) NotJudged(c Criterion, why string) {
	ch := c.check(c.Text, false, math.NaN())
	ch.NotApplicable, ch.Why = true, why
	s.Checks = append(s.Checks, ch)
}

// CheckComplete returns an error naming every criterion of cs that s has no
// check of (neither judged nor not judged) and every check whose criterion
// is not in cs: the table and the code that judges it agree, so no
// criterion is silently skipped.
func (s *Summary) CheckComplete(cs Criteria) error {
	if err := cs.Validate(); err != nil {
		return err
	}
	judged := map[string]bool{}
	known := map[string]bool{}
	for _, c := range cs {
		known[c.ID] = true
	}
	var extra []string
	for _, c := range s.Checks {
		b := BaseID(c.ID)
		judged[b] = true
		if !known[b] {
			extra = append(extra, fmt.Sprintf("%q", c.ID))
		}
	}
	var missing []string
	for _, c := range cs {
		if !judged[c.ID] {
			missing = append(missing, c.ID)
		}
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "criteria never judged: "+strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		parts = append(parts, "checks outside the criteria table: "+strings.Join(extra, ", "))
	}
	if len(parts) > 0 {
		return fmt.Errorf("summary of %s: %s", s.Experiment, strings.Join(parts, "; "))
	}
	return nil
}

// CheckByID returns the check with the given ID.
func (s *Summary) CheckByID(id string) (Check, bool) {
	for _, c := range s.Checks {
		if c.ID == id {
			return c, true
		}
	}
	return Check{}, false
}

// ChecksOf returns the checks of criterion id: the check with that ID and
// those of its cases (id[case]).
func (s *Summary) ChecksOf(id string) []Check {
	var out []Check
	for _, c := range s.Checks {
		if c.ID == id || BaseID(c.ID) == id {
			out = append(out, c)
		}
	}
	return out
}
