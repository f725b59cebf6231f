package chapter6

import (
	"math"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

// TestThesisTablesVerbatim: the thesis's tables 6.1-6.5 in the code are
// the targets' lines, and the numbers the criteria use (thesisTable62,
// thesisTable65) are those of the same tables.
func TestThesisTablesVerbatim(t *testing.T) {
	exptest.TargetsVerbatim(t, "ch6-dag.md", mdTables)
	_, rows, err := results.ParseMarkdownTable(mdTable62)
	if err != nil {
		t.Fatal(err)
	}
	for r, row := range rows {
		for k, cell := range row[1:] {
			if x := results.LeadingNumber(cell); x != thesisTable62[r][k] {
				t.Errorf("Table 6.2 row %s column %d: %v in the table, %v among the criteria's numbers", row[0], k, x, thesisTable62[r][k])
			}
		}
	}
	_, rows, err = results.ParseMarkdownTable(mdTable65)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(thesisTable65) {
		t.Fatalf("Table 6.5: %d rows, the criteria's numbers %d", len(rows), len(thesisTable65))
	}
	for r, row := range rows {
		for k, cell := range row[1:] {
			if x := results.LeadingNumber(cell); x != float64(thesisTable65[r][k]) {
				t.Errorf("Table 6.5 row %s column %d: %v in the table, %v among the criteria's numbers", row[0], k, x, thesisTable65[r][k])
			}
		}
	}
}

// TestThesisTablesFromResults: the quick runs fill Tables 6.1-6.5 beside
// the thesis's, rows and columns where the thesis has them, and say where
// the shapes differ.
func TestThesisTablesFromResults(t *testing.T) {
	single := exptest.Quick(t, configPath("single-instance.toml"))
	prior := exptest.Quick(t, configPath("prior-average-12.toml"))
	t61 := exptest.ThesisTable(t, "Table 6.1", single)
	if len(t61.Columns) != 10 || t61.Rows[0].Key != "10" || len(t61.Rows) < 20 {
		t.Errorf("Table 6.1: columns %q, %d rows from %s", t61.Columns, len(t61.Rows), t61.Rows[0].Key)
	}
	// Row n = 40 of ours beside the thesis's: MAP rank 28 there.
	for _, row := range t61.Rows {
		if row.Key == "40" && (row.Cells[0].Thesis != "28" || math.IsNaN(row.Cells[0].Ours) || math.IsNaN(row.Cells[0].Diff())) {
			t.Errorf("Table 6.1, n = 40, MAP: %+v", row.Cells[0])
		}
	}
	t63 := exptest.ThesisTable(t, "Table 6.3", single)
	if !strings.Contains(strings.Join(t63.Notes, " "), "single AIS runs, the thesis 5") {
		t.Errorf("Table 6.3 does not say that the quick run has fewer AIS runs: %q", t63.Notes)
	}
	t64 := exptest.ThesisTable(t, "Table 6.4", single)
	if t64.Rows[0].Key != "10…560" || len(t64.Columns) != 5 || t64.Rows[0].Cells[0].Thesis != "≤5.7" {
		t.Errorf("Table 6.4 transposed: first row %+v, columns %q", t64.Rows[0], t64.Columns)
	}
	t62 := exptest.ThesisTable(t, "Table 6.2", prior)
	if len(t62.Rows) != 3 || len(t62.Notes) == 0 {
		t.Errorf("Table 6.2: %d rows, notes %q", len(t62.Rows), t62.Notes)
	}
	t65 := exptest.ThesisTable(t, "Table 6.5", prior)
	if !strings.Contains(strings.Join(t65.Notes, " "), "scaled by 106/") {
		t.Errorf("Table 6.5 does not say its counts are scaled: %q", t65.Notes)
	}
}
