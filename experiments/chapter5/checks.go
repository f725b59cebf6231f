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
// pass, value. The summary's checks are the fractions of units passing.
const SeedChecksFile = "seed_checks.csv"

// outcome is one unit's result for one criterion.
type outcome struct {
	unit  string
	pass  bool
	value float64
}

// checkBook collects per-unit outcomes and turns them into the summary's
// checks, each the fraction of units that pass (targets §3: "report, for
// every criterion, the per-seed outcome and the fraction of seeds that
// pass").
type checkBook struct {
	s     *results.Summary
	order []string
	per   map[string][]outcome
}

func newCheckBook(s *results.Summary) *checkBook {
	return &checkBook{s: s, per: map[string][]outcome{}}
}

// unit records one unit's outcome of a criterion.
func (b *checkBook) unit(criterion, unit string, pass bool, value float64) {
	if _, ok := b.per[criterion]; !ok {
		b.order = append(b.order, criterion)
	}
	b.per[criterion] = append(b.per[criterion], outcome{unit, pass, value})
}

// passes returns the outcomes of a criterion.
func (b *checkBook) passes(criterion string) []bool {
	var p []bool
	for _, o := range b.per[criterion] {
		p = append(p, o.pass)
	}
	return p
}

// fraction adds the check "criterion (fraction of units)" that passes when
// at least need of the units pass (need = 1: every unit).
func (b *checkBook) fraction(criterion string, need float64) {
	f := fraction(b.passes(criterion))
	target := fmt.Sprintf(">= %.3g", need)
	if need == 1 {
		target = "= 1 (every unit)"
	}
	name := fmt.Sprintf("%s (fraction of %d units)", criterion, len(b.per[criterion]))
	if math.IsNaN(f) {
		b.s.AddCheckNA(name, target, "no unit was computed")
		return
	}
	b.s.AddCheck(name, f >= need, f, target)
}

// write writes SeedChecksFile into dir.
func (b *checkBook) write(dir string) error {
	t := results.NewTable("criterion", "unit", "pass", "value")
	for _, c := range b.order {
		for _, o := range b.per[c] {
			t.AddRow(c, o.unit, o.pass, o.value)
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

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
