package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/vbworkbench/vbw/results"
)

// The verdicts of a claim, computed from its checks (ClaimVerdict), never
// typed by hand.
const (
	// Reproduced: every check of the claim that applies passed.
	Reproduced = "reproduced"
	// PartlyReproduced: some passed, some failed.
	PartlyReproduced = "partly reproduced"
	// NotReproduced: every check that applies failed.
	NotReproduced = "not reproduced"
	// Invalid: a sanity check of the run failed (a bound that decreased,
	// a data file that did not verify, two estimators of one number that
	// disagree), so its claims are not judged on it: the run is not valid.
	Invalid = "invalid"
	// NotJudged: a quick run (reduced settings), a claim whose every
	// check does not apply to the run (the user's own data), or one that
	// no criterion tests.
	NotJudged = "not judged"
	// NotRun: no results folder holds the experiment.
	NotRun = "not run"
)

// verdictClass is the CSS class of a verdict.
func verdictClass(v string) string { return strings.ReplaceAll(v, " ", "-") }

// Verdict is a claim's verdict with what it rests on.
type Verdict struct {
	Kind string // Reproduced, PartlyReproduced, NotReproduced, Invalid, NotJudged or NotRun
	// Passed and Judged count the claim checks that passed and those that
	// applied (for a quick run: those that would have).
	Passed, Judged int
	// Rows are the claim's checks of the text, one row each: the text's
	// number, ours and whether it holds.
	Rows []ClaimRow
	// Values are our measured values of every check of the claim, one line
	// each: "text: value (target t, pass)".
	Values []string
	// Reasons say why: for a claim not (or partly) reproduced the
	// findings' one-line reasons of its failed checks; for an invalid run
	// its failed sanity checks; for one not judged why not; for one not
	// run, how to run it.
	Reasons []string
}

// ClaimRow is one check of a claim of the text, as a row of a verdict
// table: what is measured, the text's number with its line, ours, and
// whether it holds.
type ClaimRow struct {
	Check results.Check
	// Holds is "holds", "does not hold" or "not judged" (with why).
	Holds string
	// Run names the run the check is of, where an artefact is judged on
	// several (the same claim then has a row per run); empty otherwise.
	Run string
	// Cases are the rows of a criterion judged for several cases, folded
	// into this one (groupCases); empty for a row of one check.
	Cases []CaseRow
}

// Claim renders what the check measures, and on which run when the
// artefact is judged on several.
func (r ClaimRow) Claim() string {
	name := r.Check.Name
	if len(r.Cases) > 1 {
		name += fmt.Sprintf(" (%d cases)", len(r.Cases))
	}
	if r.Run != "" {
		name += " (" + r.Run + ")"
	}
	return name
}

// Ours renders our value: the measure over the seeds (median, range,
// count, on how many the claim holds) for a claim judged over them, else
// the value, with the target.
func (r ClaimRow) Ours() string {
	if len(r.Cases) > 1 {
		return r.casesOurs()
	}
	c := r.Check
	if c.NotApplicable {
		return "—"
	}
	if sp := c.Spread; sp != nil {
		if sp.N == 1 {
			return fmt.Sprintf("%s (1 seed)", num(sp.Median))
		}
		return fmt.Sprintf("median %s (%s to %s over %d seeds); holds on %d of %d (target %s)", num(sp.Median), num(sp.Min), num(sp.Max), sp.N, sp.Held, sp.N, c.Target)
	}
	return fmt.Sprintf("%s (target %s)", num(c.Value), c.Target)
}

// Theirs renders the text's number with where it states it.
func (r ClaimRow) Theirs() string {
	c := r.Check
	switch {
	case c.Theirs != "" && c.Line != "":
		return c.Theirs + " (" + c.Line + ")"
	case c.Theirs != "":
		return c.Theirs
	}
	return "—"
}

// num formats a value for a verdict table.
func num(x float64) string {
	if math.IsNaN(x) {
		return "none"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// noCriterion is why a claim that names no criterion is not judged.
const noCriterion = "no acceptance criterion tests this claim"

// quickReason is why a quick run's claims are not judged.
const quickReason = "a quick run: reduced settings, not the thesis's"

// isClaimCheck reports whether a check judges a claim of the text (an
// unclassified one is taken as such).
func isClaimCheck(c results.Check) bool { return !c.IsSanity() && !c.IsExtension() }

// SanityFailures returns the sanity checks of s that failed: any makes the
// run invalid.
func SanityFailures(s results.Summary) []results.Check {
	var out []results.Check
	for _, c := range s.Checks {
		if c.IsSanity() && !c.Pass && !c.NotApplicable {
			out = append(out, c)
		}
	}
	return out
}

// ClaimVerdict computes the verdict of claim c from the checks of s that
// its criterion IDs name (with their cases, "id[case]") and that judge
// claims of the text (not sanity checks, not extensions): invalid when a
// sanity check of the run failed, else reproduced when every claim check
// that applies passed, partly reproduced when some did, not reproduced
// when none did (with the finding of each failed check as the reason), and
// not judged for a quick run, for a claim whose every check does not apply
// (with their reasons) and for a claim no criterion tests. ExtensionVerdict
// is the same for the checks of ours that extend the text.
func ClaimVerdict(s results.Summary, c results.Claim) Verdict { return verdictOf(s, c, isClaimCheck) }

// ExtensionVerdict is ClaimVerdict of the claim's extension checks.
func ExtensionVerdict(s results.Summary, c results.Claim) Verdict {
	return verdictOf(s, c, results.Check.IsExtension)
}

func verdictOf(s results.Summary, c results.Claim, keep func(results.Check) bool) Verdict {
	var v Verdict
	var checks []results.Check
	for _, id := range c.Checks {
		for _, ch := range s.ChecksOf(id) {
			v.Values = append(v.Values, checkLine(ch))
			if keep(ch) {
				checks = append(checks, ch)
			}
		}
	}
	var notApplicable []string
	for _, ch := range checks {
		row := ClaimRow{Check: ch}
		switch {
		case ch.NotApplicable:
			row.Holds = "not judged: " + ch.Why
			if ch.Why != "" && !contains(notApplicable, ch.Why) {
				notApplicable = append(notApplicable, ch.Why)
			}
		case ch.Pass:
			row.Holds = "holds"
		default:
			row.Holds = "does not hold"
		}
		v.Rows = append(v.Rows, row)
		if ch.NotApplicable {
			continue
		}
		v.Judged++
		if ch.Pass {
			v.Passed++
		}
	}
	insane := SanityFailures(s)
	switch {
	case len(checks) == 0:
		v.Kind, v.Reasons = NotJudged, []string{noCriterion}
	case v.Judged == 0:
		v.Kind, v.Reasons = NotJudged, notApplicable
		if len(v.Reasons) == 0 {
			v.Reasons = []string{"none of its checks applies to this run"}
		}
	case len(insane) > 0:
		v.Kind = Invalid
		for _, ch := range insane {
			v.Reasons = append(v.Reasons, "the run is not valid: "+failureReason(s, ch))
		}
	case s.Quick:
		v.Kind, v.Reasons = NotJudged, []string{fmt.Sprintf("%s (%d of %d checks would pass)", quickReason, v.Passed, v.Judged)}
	case v.Passed == v.Judged:
		v.Kind = Reproduced
	default:
		v.Kind = PartlyReproduced
		if v.Passed == 0 {
			v.Kind = NotReproduced
		}
		// A reason whose explanation an earlier failed check already gave
		// (the cases of one criterion, say) is counted on that one.
		first, more := map[string]int{}, []int{}
		for _, ch := range checks {
			if ch.Pass || ch.NotApplicable {
				continue
			}
			reason, why := failureReasonWhy(s, ch)
			if why != "" {
				if i, ok := first[why]; ok {
					more[i]++
					continue
				}
				first[why] = len(v.Reasons)
			}
			v.Reasons, more = append(v.Reasons, reason), append(more, 0)
		}
		for i, m := range more {
			if m > 0 {
				v.Reasons[i] += fmt.Sprintf(" (and %d more failed checks with this explanation)", m)
			}
		}
	}
	return v
}

// checkLine renders a check's value for the claim: its text, our value,
// its target and its verdict.
func checkLine(c results.Check) string {
	if c.NotApplicable {
		return fmt.Sprintf("%s: not judged (%s)", c.Name, c.Why)
	}
	return fmt.Sprintf("%s: %.4g (target %s, %s)", c.Name, c.Value, c.Target, c.Verdict())
}

// failureReason returns the one-line reason of a failed check: the
// explanation of the finding that AddFindingsFromChecks wrote for it (the
// text after "… (target t). "), or else the finding itself, or else the
// check's value against its target.
func failureReason(s results.Summary, c results.Check) string {
	r, _ := failureReasonWhy(s, c)
	return r
}

// failureReasonWhy is failureReason with the finding's explanation alone
// (empty when the finding has none).
func failureReasonWhy(s results.Summary, c results.Check) (reason, why string) {
	if f, ok := findingOf(s, c); ok {
		head := fmt.Sprintf("%s: %.4g (target %s).", c.Name, c.Value, c.Target)
		if why := strings.TrimSpace(strings.TrimPrefix(f, head)); why != "" && why != f {
			return c.Name + ": " + why, why
		}
		return f, ""
	}
	return fmt.Sprintf("%s: %.4g, target %s", c.Name, c.Value, c.Target), ""
}

// findingOf returns the finding written for the failed check c (it starts
// with the check's name and a colon).
func findingOf(s results.Summary, c results.Check) (string, bool) {
	for _, f := range s.Findings {
		if strings.HasPrefix(f, c.Name+": ") {
			return f, true
		}
	}
	return "", false
}

// splitFindings separates the findings of a run into those written for its
// failed checks and the others. A quick run's failed checks are not
// findings (its settings are not the thesis's): the report lists them
// under "not judged".
func splitFindings(s results.Summary) (fromChecks map[string]bool, other []string) {
	fromChecks = map[string]bool{}
	for _, c := range s.Checks {
		if c.Pass || c.NotApplicable {
			continue
		}
		if f, ok := findingOf(s, c); ok {
			fromChecks[f] = true
		}
	}
	for _, f := range s.Findings {
		if !fromChecks[f] {
			other = append(other, f)
		}
	}
	return fromChecks, other
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// combine is the verdict of an artefact covered by several claims (of one
// or several experiments): an invalid run makes it invalid; otherwise the
// claims that were judged decide (reproduced when all of them were, not
// reproduced when none was, partly otherwise); when none was judged, not
// judged.
func combine(vs []Verdict) Verdict {
	var out Verdict
	var judged []Verdict
	for _, v := range vs {
		out.Passed += v.Passed
		out.Judged += v.Judged
		out.Rows = append(out.Rows, v.Rows...)
		if v.Kind == Invalid {
			out.Kind = Invalid
			for _, r := range v.Reasons {
				if !contains(out.Reasons, r) {
					out.Reasons = append(out.Reasons, r)
				}
			}
		}
		if v.Kind != NotJudged && v.Kind != NotRun && v.Kind != Invalid {
			judged = append(judged, v)
		}
	}
	if out.Kind == Invalid {
		return out
	}
	switch {
	case len(judged) == 0 && len(vs) > 0:
		out.Kind = NotJudged
		for _, v := range vs {
			for _, r := range v.Reasons {
				if !contains(out.Reasons, r) {
					out.Reasons = append(out.Reasons, r)
				}
			}
		}
		return out
	case len(judged) == 0:
		out.Kind = NotRun
		return out
	}
	all, none := true, true
	for _, v := range judged {
		all = all && v.Kind == Reproduced
		none = none && v.Kind == NotReproduced
		out.Reasons = append(out.Reasons, v.Reasons...)
	}
	switch {
	case all:
		out.Kind = Reproduced
	case none:
		out.Kind = NotReproduced
	default:
		out.Kind = PartlyReproduced
	}
	return out
}

// CaseRow is one case of a criterion judged for several (Criterion.For:
// the check's ID is "id[case]").
type CaseRow struct {
	Case string
	Row  ClaimRow
}

// splitCase splits a check ID "id[case]" into its criterion's ID and the
// case; ok is false for an ID without a case.
func splitCase(id string) (base, cas string, ok bool) {
	i := strings.IndexByte(id, '[')
	if i < 0 || !strings.HasSuffix(id, "]") {
		return id, "", false
	}
	return id[:i], id[i+1 : len(id)-1], true
}

// groupCases folds the rows of a criterion judged for several cases (of
// one run) into one row that says for how many cases the claim holds and
// names those where it does not, so that a verdict table has one row per
// claim; the run's own section keeps a row per case.
func groupCases(rows []ClaimRow) []ClaimRow {
	var out []ClaimRow
	at := map[string]int{}
	for _, r := range rows {
		base, cas, ok := splitCase(r.Check.ID)
		if !ok {
			out = append(out, r)
			continue
		}
		key := r.Run + "\x00" + base
		if i, seen := at[key]; seen {
			out[i].Cases = append(out[i].Cases, CaseRow{cas, r})
			continue
		}
		at[key] = len(out)
		g := r
		g.Cases = []CaseRow{{cas, r}}
		out = append(out, g)
	}
	for i := range out {
		cs := out[i].Cases
		if len(cs) == 0 {
			continue
		}
		if len(cs) == 1 {
			out[i] = cs[0].Row
			continue
		}
		judged, held := 0, 0
		for _, c := range cs {
			if c.Row.Check.NotApplicable {
				continue
			}
			judged++
			if c.Row.Check.Pass {
				held++
			}
		}
		g := &out[i]
		g.Check.Name = strings.TrimSuffix(g.Check.Name, " ("+cs[0].Case+")")
		switch {
		case judged == 0:
			g.Check.NotApplicable = true // every case's; the first case's Why stands
		case held == judged:
			g.Holds, g.Check.Pass, g.Check.NotApplicable = "holds", true, false
		case held == 0:
			g.Holds, g.Check.Pass, g.Check.NotApplicable = "does not hold", false, false
		default:
			g.Holds, g.Check.Pass, g.Check.NotApplicable = fmt.Sprintf("holds for %d of %d", held, judged), false, false
		}
	}
	return out
}

// casesOurs renders a grouped row's values: for how many cases the claim
// holds and, for the others, the case with our value (at most four).
func (r ClaimRow) casesOurs() string {
	judged, held := 0, 0
	var not []string
	for _, c := range r.Cases {
		if c.Row.Check.NotApplicable {
			continue
		}
		judged++
		if c.Row.Check.Pass {
			held++
			continue
		}
		if len(not) < 4 {
			v := c.Row.Ours()
			if sp := c.Row.Check.Spread; sp != nil && sp.N > 1 {
				v = fmt.Sprintf("on %d of %d seeds", sp.Held, sp.N)
			}
			not = append(not, c.Case+": "+v)
		}
	}
	if judged == 0 {
		return "—"
	}
	s := fmt.Sprintf("holds for %d of %d cases", held, judged)
	if len(not) > 0 {
		s += "; not for " + strings.Join(not, "; ")
		if judged-held > len(not) {
			s += fmt.Sprintf("; and %d more", judged-held-len(not))
		}
	}
	return s + " (each case in the run's section)"
}
