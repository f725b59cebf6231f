package chapter5

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// SeedChecksFile holds the per-seed (or per-unit) outcome of every
// acceptance criterion that is judged seed by seed: criterion, unit,
// pass, value, criterion_ids. The criterion column is the text of the
// criterion whose check is the fraction of units that pass
// (checkBook.fraction), or, for a criterion judged over seeds by a
// per-seed threshold (bySeed), the same condition stated for one seed;
// criterion_ids are the IDs of the criteria of the summary it stands for
// (space-separated: a seed passes when it meets the per-seed targets of
// all of them).
const SeedChecksFile = "seed_checks.csv"

// outcome is one unit's result for one criterion.
type outcome struct {
	unit  string
	pass  bool
	value float64
}

// checkBook collects per-unit outcomes and judges the experiment's
// criteria table (targets §3: "report, for every criterion, the per-seed
// outcome and the fraction of seeds that pass").
type checkBook struct {
	s     *results.Summary
	cr    results.Criteria
	order []string
	per   map[string][]outcome
	ids   map[string]string // the criterion_ids of a label
}

// newCheckBook returns a book that judges the criteria cr into s; writing
// the summary fails unless every one of them was judged.
func newCheckBook(s *results.Summary, cr results.Criteria) *checkBook {
	s.Criteria = cr
	return &checkBook{s: s, cr: cr, per: map[string][]outcome{}, ids: map[string]string{}}
}

// get returns the criterion with the given ID.
func (b *checkBook) get(id string) results.Criterion { return b.cr.Get(id) }

// judge judges criterion id with the value v.
func (b *checkBook) judge(id string, v float64, detail ...string) { b.s.Judge(b.get(id), v, detail...) }

// na records that criterion id does not apply to this run, and why.
func (b *checkBook) na(id, why string) { b.s.NotJudged(b.get(id), why) }

// unit records one unit's outcome under the label (see SeedChecksFile),
// which stands for the criteria ids; without ids, for the criterion of
// the table whose text is the label.
func (b *checkBook) unit(label, unit string, pass bool, value float64, ids ...string) {
	if len(ids) == 0 {
		ids = []string{b.byText(label).ID}
	}
	for _, id := range ids {
		b.get(results.BaseID(id)) // panics on an ID outside the table
	}
	if _, ok := b.per[label]; !ok {
		b.order = append(b.order, label)
		b.ids[label] = strings.Join(ids, " ")
	}
	b.per[label] = append(b.per[label], outcome{unit, pass, value})
}

// byText returns the criterion of the table with the given text; it
// panics when there is none (a programming error).
func (b *checkBook) byText(text string) results.Criterion {
	for _, c := range b.cr {
		if c.Text == text {
			return c
		}
	}
	panic(fmt.Sprintf("chapter5: no criterion with the text %q", text))
}

// fraction judges criterion c, whose units were recorded under its text,
// with the fraction of units that pass, and keeps the spread of the units'
// values with the number that pass (results.Spread, as Summary.JudgeSeeds
// does: the report shows it beside the text's number); without units it
// is not judged.
func (b *checkBook) fraction(c results.Criterion) {
	var p []bool
	var v []float64
	for _, o := range b.per[c.Text] {
		p, v = append(p, o.pass), append(v, o.value)
	}
	f := fraction(p)
	if math.IsNaN(f) {
		b.s.NotJudged(c, "no unit was computed")
		return
	}
	b.s.Judge(c, f, fmt.Sprintf("fraction of %d units", len(p)))
	sp := results.SpreadOf(v)
	for _, ok := range p {
		if ok {
			sp.Held++
		}
	}
	b.s.Checks[len(b.s.Checks)-1].Spread = sp
}

// write writes SeedChecksFile into dir.
func (b *checkBook) write(dir string) error {
	t := results.NewTable("criterion", "unit", "pass", "value", "criterion_ids")
	for _, c := range b.order {
		for _, o := range b.per[c] {
			t.AddRow(c, o.unit, o.pass, o.value, b.ids[c])
		}
	}
	return results.WriteCSV(filepath.Join(dir, SeedChecksFile), *t)
}

// table returns a Markdown table of the per-unit outcomes, one row per
// criterion, for the scorecard.
func (b *checkBook) table() string {
	var units []string
	seen := map[string]bool{}
	for _, c := range b.order {
		for _, o := range b.per[c] {
			if !seen[o.unit] {
				seen[o.unit] = true
				units = append(units, o.unit)
			}
		}
	}
	if len(units) == 0 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("\nPer-unit outcomes (" + SeedChecksFile + "): pass or **FAIL**, with the measured value.\n\n| criterion | " + strings.Join(units, " | ") + " |\n|---|")
	sb.WriteString(strings.Repeat("---|", len(units)) + "\n")
	cell := strings.NewReplacer("|", "\\|", "\n", " ")
	for _, c := range b.order {
		by := map[string]outcome{}
		for _, o := range b.per[c] {
			by[o.unit] = o
		}
		sb.WriteString("| " + cell.Replace(c) + " |")
		for _, u := range units {
			o, ok := by[u]
			switch {
			case !ok:
				sb.WriteString(" — |")
			case o.pass:
				fmt.Fprintf(&sb, " pass (%.3g) |", o.value)
			default:
				fmt.Fprintf(&sb, " **FAIL** (%.3g) |", o.value)
			}
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// writeSummary writes summary.json and scorecard.md through env, then
// appends the per-unit table to the scorecard and writes SeedChecksFile.
func (b *checkBook) writeSummary(env *experiments.Env, intro string) error {
	if err := env.WriteSummary(b.s, intro); err != nil {
		return err
	}
	if err := b.write(env.Dir); err != nil {
		return err
	}
	card := append(results.Scorecard(b.s, intro), []byte(b.table())...)
	return results.WriteFileAtomic(env.Path("scorecard.md"), card)
}

// majority is the target of a criterion judged over seeds (bySeed) where
// the targets judge the median over seeds: its measure meets its per-seed
// threshold on more than half of them. On an odd number of seeds that is
// the median meeting the threshold; on an even number it asks slightly
// more.
var majority = results.Above(0.5)

// seedTargets are the per-seed thresholds of the criteria judged over
// seeds (bySeed, checkBook.overSeeds): targets §3.1 criterion 4 and
// §3.7-§3.8, which state them of the medians over seeds.
var seedTargets = map[string]results.Target{
	"fig5.4-diagonal-dominance":   results.AtLeast(0.5),
	"fig5.11-map-train-falls":     results.AtMost(-0.9),
	"fig5.11-vb-train-flat":       results.AtMost(1.15),
	"fig5.11-vb-train-above-map":  results.Above(0),
	"fig5.11-map-test-excess":     results.AtLeast(0.1),
	"fig5.11-map-extra-excess":    results.AtLeast(0.25),
	"fig5.11-map-test-excess-k4":  results.AtLeast(0.2),
	"fig5.11-map-test-above-vb":   results.Above(0),
	"fig5.11-map-test-rises":      results.AtLeast(0.7),
	"fig5.11-vb-test-flat":        results.AtMost(1.2),
	"fig5.11-vb-test-above-train": results.Above(1),
	"fig5.11-gamma-alive-stable":  results.AtMost(2),
	"fig5.12-sparse":              results.AtMost(0.05),
	"fig5.12-map-vb-corr":         results.AtLeast(0.5),
	"fig5.12-auroc":               results.AtLeast(0.95),
	"fig5.12-auroc-vs-map":        results.AtLeast(-0.01),
	"fig5.12-precision":           results.AtLeast(0.85),
	"fig5.12-recall":              results.AtLeast(0.7),
	"fig5.12-sign-agreement":      results.AtLeast(0.98),
	"fig5.12-fp-rate":             results.AtMost(0.005),
}

// seedsSuffix ends the text of a criterion judged over seeds (bySeed); its
// per-seed outcomes (SeedChecksFile) are labelled with the text without
// it.
const seedsSuffix = " (fraction of seeds)"

// bySeed returns the criterion id judged over seeds: text, the measure,
// meets the threshold of seedTargets on a seed, and the criterion's target
// (majority) bounds the fraction of seeds on which it does.
func bySeed(id, text string) results.Criterion {
	t, ok := seedTargets[id]
	if !ok {
		panic(fmt.Sprintf("chapter5: criterion %q has no per-seed threshold", id))
	}
	return results.Criterion{ID: id, Text: text + " " + t.String() + seedsSuffix, Target: majority}
}

// seedTarget returns the per-seed threshold of criterion id (or of a case
// of it) if it is judged over seeds, else its target.
func (b *checkBook) seedTarget(id string) results.Target {
	if t, ok := seedTargets[results.BaseID(id)]; ok {
		return t
	}
	return b.get(results.BaseID(id)).Target
}

// overSeeds judges criterion c (judged over seeds: bySeed) on the values
// of its measure on the seeds, or not, and why, without any.
func (b *checkBook) overSeeds(c results.Criterion, values []float64) {
	if len(values) == 0 {
		b.s.NotJudged(c, "no seed was computed")
		return
	}
	b.s.JudgeSeeds(c, values, b.seedTarget(c.ID).Met)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
