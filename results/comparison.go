package results

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Comparison is a table of a document (the thesis's Table 4.1, …) with our
// numbers beside the document's: one row per row of the document's table
// (or of ours, where only one of them has it), and for every column the
// document's value, ours and the difference. The report renders it.
type Comparison struct {
	// Key names the rows, e.g. "n" or "points per cluster".
	Key string
	// Columns name the measures, e.g. "BIC MLMFA", "VBMFA".
	Columns []string
	Rows    []ComparedRow
	// Notes say where our results do not map one to one on the document's
	// table (other sizes, another number of instances, a transposed
	// layout), in a sentence each.
	Notes []string
}

// ComparedRow is one row of a Comparison: a cell per column.
type ComparedRow struct {
	Key   string
	Cells []Compared
}

// Compared is one cell: the document's value as printed, with its number,
// and ours.
type Compared struct {
	// Thesis is the document's value as printed ("88.8 ± .3", "≤5.7"), ""
	// when the document's table has no such cell.
	Thesis string
	// Ref is the document's number (NaN when it printed none: a bound or a
	// word).
	Ref float64
	// Ours is our number (NaN when we measured none); Text replaces it
	// when our value is not a number (a list of dimensionalities).
	Ours float64
	Text string
	// PlusMinus, when positive, is our value's standard error, shown as
	// "x ± PlusMinus".
	PlusMinus float64
}

// Cell returns a cell with the document's printed value (whose leading
// number, if any, is its Ref) and our number.
func Cell(thesis string, ours float64) Compared {
	return Compared{Thesis: thesis, Ref: LeadingNumber(thesis), Ours: ours}
}

// Diff returns ours − the document's, or NaN when either is missing.
func (c Compared) Diff() float64 {
	if c.Text != "" {
		return math.NaN()
	}
	return c.Ours - c.Ref
}

// OursString renders our value: Text, or the number to 4 significant
// digits, or "—" when there is none.
func (c Compared) OursString() string {
	if c.Text != "" {
		return c.Text
	}
	if c.PlusMinus > 0 && !math.IsNaN(c.Ours) && !math.IsInf(c.PlusMinus, 0) {
		return cellString(c.Ours) + " ± " + strconv.FormatFloat(c.PlusMinus, 'g', 2, 64)
	}
	return cellString(c.Ours)
}

// DiffString renders the difference with its sign, or "" when there is
// none.
func (c Compared) DiffString() string {
	d := c.Diff()
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return ""
	}
	if d > 0 {
		return "+" + cellString(d)
	}
	return cellString(d)
}

// formatCell renders a number for a table cell: integers as integers,
// others to 4 significant digits, NaN as "—".
func cellString(x float64) string {
	switch {
	case math.IsNaN(x):
		return "—"
	case math.IsInf(x, 1):
		return "∞"
	case math.IsInf(x, -1):
		return "−∞"
	case x == math.Trunc(x) && math.Abs(x) < 1e15:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// LeadingNumber returns the number a printed cell starts with ("88.8 ± .3"
// gives 88.8, ".5" gives 0.5, "∞" gives +Inf), or NaN when the cell starts
// with anything else (a bound such as "≤5.7", a word, nothing).
func LeadingNumber(s string) float64 {
	s = strings.TrimSpace(s)
	if s == "∞" {
		return math.Inf(1)
	}
	end := 0
	for end < len(s) && strings.IndexByte("+-.0123456789", s[end]) >= 0 {
		end++
	}
	x, err := strconv.ParseFloat(s[:end], 64)
	if err != nil {
		return math.NaN()
	}
	return x
}

// ParseMarkdownTable reads a pipe table as the targets files print the
// thesis's tables ("| n | BIC | VB |", a "|---|" line, then the rows) and
// returns its header and rows of cells, trimmed; "\*" is read as "*".
// Rows whose first cell is in italics ("*single*") are section labels and
// are left out.
func ParseMarkdownTable(md string) (header []string, rows [][]string, err error) {
	split := func(line string) []string {
		line = strings.TrimSpace(line)
		line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
		cells := strings.Split(line, "|")
		for i, c := range cells {
			cells[i] = strings.ReplaceAll(strings.TrimSpace(c), `\*`, "*")
		}
		return cells
	}
	for _, line := range strings.Split(strings.TrimSpace(md), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			return nil, nil, fmt.Errorf("table line %q does not start with |", line)
		}
		cells := split(line)
		switch {
		case header == nil:
			header = cells
		case strings.Trim(strings.Join(cells, ""), "-: ") == "":
			// the line under the header
		case len(cells) != len(header):
			return nil, nil, fmt.Errorf("table row %q has %d cells, the header %d", line, len(cells), len(header))
		case strings.HasPrefix(cells[0], "*") && strings.HasSuffix(cells[0], "*") && len(cells[0]) > 2:
			// a section label such as *single*
		default:
			rows = append(rows, cells)
		}
	}
	if header == nil || len(rows) == 0 {
		return nil, nil, fmt.Errorf("no table rows")
	}
	return header, rows, nil
}
