package chapter4

import (
	"math"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments/exptest"
)

// TestThesisTablesVerbatim: the thesis's tables 4.2 and 4.3 in the code
// are the targets' lines.
func TestThesisTablesVerbatim(t *testing.T) {
	exptest.TargetsVerbatim(t, "ch4-mfa.md", mdTables)
}

// TestThesisTablesFromResults: the quick runs fill Tables 4.1-4.3 beside
// the thesis's, and say where the shapes differ.
func TestThesisTablesFromResults(t *testing.T) {
	t41 := exptest.ThesisTable(t, "Table 4.1", exptest.Quick(t, configPath("embedded.toml")))
	found := false
	for _, row := range t41.Rows {
		if row.Key == "64" {
			found = true
			if row.Cells[0].Thesis != "6" || math.IsNaN(row.Cells[0].Ours) || !strings.Contains(row.Cells[1].Text, " of ") || math.IsNaN(row.Cells[2].Diff()) {
				t.Errorf("Table 4.1 at 64 points per cluster: %+v", row.Cells)
			}
		}
	}
	if !found {
		t.Errorf("Table 4.1 has no row of 64 points per cluster: %+v", t41.Rows)
	}
	t42 := exptest.ThesisTable(t, "Table 4.2", exptest.Quick(t, configPath("digits-classify.toml")))
	if len(t42.Columns) != 2 || t42.Rows[0].Key != "100" || !strings.HasPrefix(t42.Rows[len(t42.Rows)-1].Key, "ours ") {
		t.Errorf("Table 4.2: columns %q, rows %+v", t42.Columns, t42.Rows)
	}
	if !strings.Contains(strings.Join(t42.Notes, " "), "half the thesis's") {
		t.Errorf("Table 4.2 does not say how the sizes map: %q", t42.Notes)
	}
	t43 := exptest.ThesisTable(t, "Table 4.3", exptest.Quick(t, configPath("is-samplers.toml")))
	if len(t43.Rows) != 6 || t43.Rows[1].Cells[2].Thesis != "3" || t43.Rows[1].Cells[2].Ours != 3 || t43.Rows[1].Cells[2].DiffString() != "0" ||
		t43.Rows[0].Cells[1].Text != "Gaussian" || !math.IsInf(t43.Rows[0].Cells[2].Ours, 1) {
		t.Errorf("Table 4.3: %+v", t43.Rows)
	}
}
