package chapter4

import "github.com/vbworkbench/vbw/results"

// Each experiment of the chapter keeps its acceptance criteria (targets
// ch4-mfa.md §3) in a table next to its summary: a results.Criteria, or a
// function of the config where a threshold depends on it. Every criterion
// is judged, or not judged with a reason, in every run
// (results.Summary.Criteria).

// fMonotone is the criterion shared by the experiments that run VBEM
// searches: a decrease of F (or a failure) ends a search with an abnormal
// status, so F never decreased when no search ended abnormally.
var fMonotone = results.Criterion{ID: "f-monotone", Text: "F never decreases within a VBEM run (searches ending abnormally)", Target: results.Equal(0)}

// as returns criterion c with the check text text, which words the case
// or the run's own numbers into the criterion's text where the scorecards
// have always had them ("delta4: optimisations ending with S = 4 (of 4
// tried)"). The ID and the target stay c's.
func as(c results.Criterion, text string) results.Criterion {
	c.Text = text
	return c
}
