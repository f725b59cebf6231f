package chapter6

import (
	"fmt"
	"strings"

	"github.com/vbworkbench/vbw/results"
)

// judge records the checks of one experiment's criteria table into its
// summary, naming each criterion by its ID (a misspelt ID panics: it is a
// programming error). The summary gets the table, so that writing it
// fails unless every criterion was judged or said not to apply.
type judge struct {
	s  *results.Summary
	cr results.Criteria
}

func newJudge(s *results.Summary, cr results.Criteria) judge {
	s.Criteria = cr
	return judge{s: s, cr: cr}
}

// val judges criterion id with the measured value v.
func (j judge) val(id string, v float64, detail ...string) { j.s.Judge(j.cr.Get(id), v, detail...) }

// yes judges the yes/no criterion id (target results.Holds).
func (j judge) yes(id string, ok bool, detail ...string) { j.s.JudgeBool(j.cr.Get(id), ok, detail...) }

// na records that criterion id does not apply to this run, and why.
func (j judge) na(id, why string) { j.s.NotJudged(j.cr.Get(id), why) }

// when judges criterion id with v() if ok, and otherwise records why it
// does not apply (a size the config leaves out, a switch that is off).
func (j judge) when(id string, ok bool, why string, v func() float64) {
	if !ok {
		j.na(id, why)
		return
	}
	j.val(id, v())
}

// atLeastOf is the target "at least need(k, m) of the m sizes": a count of
// k of the thesis's 20 sizes scaled to the sizes run.
func atLeastOf(k, m int) results.Target { return results.AtLeast(float64(need(k, m))).OutOf(m) }

// allOf is the target "every one of the n cases".
func allOf(n int) results.Target { return results.Equal(float64(n)).OutOf(n) }

// ids returns the IDs of the criteria, for a claim.
func ids(cs ...results.Criteria) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.IDs()...)
	}
	return out
}

// rival is a competitor of VB in a count of sizes, the count of the
// thesis's 20 sizes at which VB must do at least as well, and what the
// thesis says of the two.
type rival struct {
	meth   string
	k      int
	theirs string
}

// rivalID is the ID of the criterion comparing VB with r under id.
func (r rival) id(id string) string { return id + "-" + strings.ToLower(r.meth) }

// versus returns one criterion per rival: ID rival.id(id), the text
// format filled with the rival's name and detail, the target at least
// need(k, m) of the m sizes, and the rival's statement of the thesis at
// line (results.ClaimOn).
func versus(ours bool, id, format, detail string, m int, rivals []rival, line string) results.Criteria {
	var out results.Criteria
	for _, r := range rivals {
		out = append(out, results.ClaimOn(ours, results.Criterion{ID: r.id(id), Text: fmt.Sprintf(format, r.meth, detail), Target: atLeastOf(r.k, m)}, r.theirs, line))
	}
	return out
}
