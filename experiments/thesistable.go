package experiments

import (
	"fmt"
	"math"
	"strconv"

	"github.com/vbworkbench/vbw/results"
)

// OurRow is one row of our results for a document's table: its key as the
// document prints it (Key, matched against the document's first column)
// or, for a row the document lacks, as we print it, and a cell per column.
type OurRow struct {
	Key   string
	Cells []results.Compared // Thesis fields are filled by JoinRows
}

// Values makes an OurRow of numbers, one per column.
func Values(key string, xs ...float64) OurRow {
	r := OurRow{Key: key}
	for _, x := range xs {
		r.Cells = append(r.Cells, results.Compared{Ours: x})
	}
	return r
}

// JoinRows builds a comparison of a document's table md (a pipe table as
// the targets files print it; its first column is the rows' key, the
// others are the columns, in order) with our rows: the document's rows in
// its order, each beside our row of the same key, then our rows the
// document lacks. A cell of ours the document has no row for shows "—" on
// the document's side, and the reverse.
func JoinRows(md string, ours []OurRow, notes ...string) (results.Comparison, error) {
	header, rows, err := results.ParseMarkdownTable(md)
	if err != nil {
		return results.Comparison{}, fmt.Errorf("the thesis's table: %w", err)
	}
	c := results.Comparison{Key: header[0], Columns: header[1:], Notes: notes}
	byKey := map[string]OurRow{}
	for _, r := range ours {
		if len(r.Cells) != len(c.Columns) {
			return results.Comparison{}, fmt.Errorf("our row %s has %d cells for the %d columns of the thesis's table", r.Key, len(r.Cells), len(c.Columns))
		}
		byKey[r.Key] = r
	}
	used := map[string]bool{}
	for _, row := range rows {
		out := results.ComparedRow{Key: row[0]}
		our, ok := byKey[row[0]]
		used[row[0]] = ok
		for i, thesis := range row[1:] {
			cell := results.Compared{Ours: math.NaN()}
			if ok {
				cell = our.Cells[i]
			}
			cell.Thesis, cell.Ref = thesis, results.LeadingNumber(thesis)
			out.Cells = append(out.Cells, cell)
		}
		c.Rows = append(c.Rows, out)
	}
	for _, r := range ours {
		if !used[r.Key] {
			out := results.ComparedRow{Key: r.Key}
			for _, cell := range r.Cells {
				cell.Thesis, cell.Ref = "", math.NaN()
				out.Cells = append(out.Cells, cell)
			}
			c.Rows = append(c.Rows, out)
		}
	}
	return c, nil
}

// FloatKey writes a number as a document's table prints a row key: 100,
// 0.5.
func FloatKey(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
