package chapter4

import (
	"fmt"
	"strings"

	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/results"
)

// Each experiment of the chapter keeps its acceptance criteria (targets
// ch4-mfa.md §3) in a table next to its summary: a results.Criteria, or a
// function of the config where a threshold depends on it. Every criterion
// is judged, or not judged with a reason, in every run
// (results.Summary.Criteria).

// fMonotone is the criterion shared by the experiments that run VBEM
// searches: a decrease of F (or a failure) ends a search with an abnormal
// status, so F never decreased when no search ended abnormally.
var fMonotone = results.Criterion{ID: "f-monotone", Text: "F never decreases within a VBEM run (searches ending abnormally)", Target: results.Equal(0)}.AsSanity()

// judgeSearches judges c (fMonotone, or an experiment's wording of it) on
// the statuses of every search and VBEM or EM run of an experiment run
// (vb.Status names): the number that did not end normally, named by status
// in the check. It sets the metric searches_<status> (hyphens as
// underscores: searches_converged, searches_iteration_limit,
// searches_bound_decreased, …) for every status, so that the summary counts
// how they all ended; a name that is not a status counts as abnormal.
func judgeSearches(s *results.Summary, c results.Criterion, statuses []string) {
	all := vb.Statuses()
	counts := make([]int, len(all))
	unknown := 0
	for _, name := range statuses {
		st, err := vb.ParseStatus(name)
		if err != nil {
			unknown++
			continue
		}
		counts[st]++
	}
	bad := unknown
	var detail []string
	for _, st := range all {
		s.SetMetric("searches_"+strings.ReplaceAll(st.String(), "-", "_"), float64(counts[st]))
		if !st.OK() && counts[st] > 0 {
			bad += counts[st]
			detail = append(detail, fmt.Sprintf("%d %s", counts[st], st))
		}
	}
	if unknown > 0 {
		detail = append(detail, fmt.Sprintf("%d without a status", unknown))
	}
	s.Judge(c, float64(bad), detail...)
}

// as returns criterion c with the check text text, which words the case
// or the run's own numbers into the criterion's text where the scorecards
// have always had them ("delta4: optimisations ending with S = 4 (of 4
// tried)"). The ID and the target stay c's.
func as(c results.Criterion, text string) results.Criterion {
	c.Text = text
	return c
}
