package report

import (
	"fmt"
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
	// NotJudged: a quick run (reduced settings), a claim whose every
	// check does not apply to the run, or one that no criterion tests.
	NotJudged = "not judged"
	// NotRun: no results folder holds the experiment.
	NotRun = "not run"
)

// verdictClass is the CSS class of a verdict.
func verdictClass(v string) string { return strings.ReplaceAll(v, " ", "-") }

// Verdict is a claim's verdict with what it rests on.
type Verdict struct {
	Kind string // Reproduced, PartlyReproduced, NotReproduced, NotJudged or NotRun
	// Passed and Judged count the checks that passed and those that
	// applied (for a quick run: those that would have).
	Passed, Judged int
	// Values are our measured values, one line per check: "text: value
	// (target t, pass)".
	Values []string
	// Reasons say why: for a claim not (or partly) reproduced the
	// findings' one-line reasons of its failed checks; for one not judged
	// why not; for one not run, how to run it.
	Reasons []string
}

// noCriterion is why a claim that names no criterion is not judged.
const noCriterion = "no acceptance criterion tests this claim"

// quickReason is why a quick run's claims are not judged.
const quickReason = "a quick run: reduced settings, not the thesis's"

// ClaimVerdict computes the verdict of claim c from the checks of s that
// its criterion IDs name (with their cases, "id[case]"): reproduced when
// every check that applies passed, partly reproduced when some did, not
// reproduced when none did (with the finding of each failed check as the
// reason), and not judged for a quick run, for a claim whose every check
// does not apply (with their reasons) and for a claim no criterion tests.
func ClaimVerdict(s results.Summary, c results.Claim) Verdict {
	var v Verdict
	var checks []results.Check
	for _, id := range c.Checks {
		checks = append(checks, s.ChecksOf(id)...)
	}
	var notApplicable []string
	for _, ch := range checks {
		v.Values = append(v.Values, checkLine(ch))
		if ch.NotApplicable {
			if ch.Why != "" && !contains(notApplicable, ch.Why) {
				notApplicable = append(notApplicable, ch.Why)
			}
			continue
		}
		v.Judged++
		if ch.Pass {
			v.Passed++
		}
	}
	switch {
	case len(checks) == 0:
		v.Kind, v.Reasons = NotJudged, []string{noCriterion}
	case v.Judged == 0:
		v.Kind, v.Reasons = NotJudged, notApplicable
		if len(v.Reasons) == 0 {
			v.Reasons = []string{"none of its checks applies to this run"}
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
		for _, ch := range checks {
			if !ch.Pass && !ch.NotApplicable {
				v.Reasons = append(v.Reasons, failureReason(s, ch))
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
	if f, ok := findingOf(s, c); ok {
		head := fmt.Sprintf("%s: %.4g (target %s).", c.Name, c.Value, c.Target)
		if why := strings.TrimSpace(strings.TrimPrefix(f, head)); why != "" && why != f {
			return c.Name + ": " + why
		}
		return f
	}
	return fmt.Sprintf("%s: %.4g, target %s", c.Name, c.Value, c.Target)
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
// or several experiments): the claims that were judged decide (reproduced
// when all of them were, not reproduced when none was, partly otherwise);
// when none was judged, not judged.
func combine(vs []Verdict) Verdict {
	var out Verdict
	var judged []Verdict
	for _, v := range vs {
		out.Passed += v.Passed
		out.Judged += v.Judged
		if v.Kind != NotJudged && v.Kind != NotRun {
			judged = append(judged, v)
		}
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
