package report

// The atlas section (issue 36): the grid of every atlas/<row> result, its
// figures and a reading generated from the numbers of the rows' grid.csv.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/vbworkbench/vbw/results"
)

// atlasPrefix is the document folder of the atlas rows.
const atlasPrefix = "atlas/"

// atlasGrid is the table each atlas row writes (experiments/atlas.GridFile).
const atlasGrid = "grid.csv"

// AtlasView is the atlas section: one row per atlas/<row> result, one
// column per method present in any row, and the reading.
type AtlasView struct {
	Methods []string
	Rows    []AtlasRow
	Reading []string
}

// AtlasRow is one row of the grid: the cells in Methods order, its figures
// and whether it is a quick run.
type AtlasRow struct {
	Row, ID, Anchor string
	Quick           bool
	Cells           []string
	Figures         []Figure
	Error           string
}

// atlasCell is one filled or absent method of a row's grid.csv.
type atlasCell struct {
	method, status, why                  string
	budget                               int
	med, q25, q75, ops, cpu, cross, bias float64
	meanErr, varErr, within              float64
	crossBudget                          int
}

// readAtlasGrid parses a row's grid.csv (the columns experiments/atlas
// writes).
func readAtlasGrid(b []byte) (string, []atlasCell, error) {
	t, err := results.ParseCSV(atlasGrid, b)
	if err != nil {
		return "", nil, err
	}
	c := t.Columns()
	rows, ms, st, why := c.Strings("row"), c.Strings("method"), c.Strings("status"), c.Strings("why")
	bud, med, q25, q75 := c.Floats("budget"), c.Floats("err_median"), c.Floats("err_q25"), c.Floats("err_q75")
	ops, cpu, cross, cb := c.Floats("ops"), c.Floats("cpu_s"), c.Floats("crossover_ops"), c.Floats("crossover_budget")
	bias, me, ve, w := c.Floats("bias"), c.Floats("mean_err"), c.Floats("var_err"), c.Floats("within3se")
	if err := c.Err(); err != nil {
		return "", nil, err
	}
	var out []atlasCell
	row := ""
	for i := range ms {
		row = rows[i]
		out = append(out, atlasCell{method: ms[i], status: st[i], why: why[i], budget: int(bud[i]), med: med[i], q25: q25[i], q75: q75[i],
			ops: ops[i], cpu: cpu[i], cross: cross[i], crossBudget: int(cb[i]), bias: bias[i], meanErr: me[i], varErr: ve[i], within: w[i]})
	}
	return row, out, nil
}

// atlasNum formats a number of the grid with 3 significant digits.
func atlasNum(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// methodLabel is a method's name in the grid's header.
func methodLabel(m string) string {
	switch m {
	case "vb":
		return "VB (F)"
	case "laplace":
		return "Laplace"
	default:
		return strings.ToUpper(m)
	}
}

// text is a cell as the grid shows it: median |error| [IQR] in nats, the
// posterior errors where they apply, the cost; or why it is empty.
func (c atlasCell) text() string {
	if c.status != "filled" {
		return "— " + c.why
	}
	s := fmt.Sprintf("%s [%s, %s]; %s ops, %s s", atlasNum(c.med), atlasNum(c.q25), atlasNum(c.q75), atlasNum(c.ops), atlasNum(c.cpu))
	if !math.IsNaN(c.meanErr) {
		s += fmt.Sprintf("; mean err %s, var err %s", atlasNum(c.meanErr), atlasNum(c.varErr))
	}
	if !math.IsNaN(c.within) {
		s += fmt.Sprintf("; within 3 SE %s", atlasNum(c.within))
	}
	return s
}

// atlasView builds the section from the atlas rows among r's experiments
// (a full run of a row before its quick run; the first of each ID), or nil
// when there are none.
func atlasView(r *Report) *AtlasView {
	v := &AtlasView{}
	seen := map[string]bool{}
	present := map[string]bool{}
	grids := map[string][]atlasCell{}
	order := []string{"vb", "bic", "cs", "laplace", "ep", "is", "ais"}
	for i := range r.Experiments {
		e := &r.Experiments[i]
		if !strings.HasPrefix(e.ID, atlasPrefix) || seen[e.ID] {
			continue
		}
		seen[e.ID] = true
		ar := AtlasRow{ID: e.ID, Row: strings.TrimPrefix(e.ID, atlasPrefix), Anchor: e.Anchor, Quick: e.Quick}
		b, ok := e.files[atlasGrid]
		if !ok || !e.Trusted {
			ar.Error = "grid.csv is not among the run's verified outputs"
			v.Rows = append(v.Rows, ar)
			continue
		}
		row, cells, err := readAtlasGrid(b)
		if err != nil {
			ar.Error = err.Error()
			v.Rows = append(v.Rows, ar)
			continue
		}
		if row != "" {
			ar.Row = row
		}
		for _, c := range cells {
			present[c.method] = true
		}
		grids[e.ID] = cells
		for _, f := range e.Other {
			if strings.HasPrefix(f.Stem, "atlas_") {
				ar.Figures = append(ar.Figures, f)
			}
		}
		v.Rows = append(v.Rows, ar)
	}
	if len(v.Rows) == 0 {
		return nil
	}
	for _, m := range order {
		if present[m] {
			v.Methods = append(v.Methods, m)
		}
	}
	for i := range v.Rows {
		ar := &v.Rows[i]
		cells := grids[ar.ID]
		for _, m := range v.Methods {
			t := "— not in this row"
			for _, c := range cells {
				if c.method == m {
					t = c.text()
				}
			}
			ar.Cells = append(ar.Cells, t)
		}
		if ar.Error == "" {
			v.Reading = append(v.Reading, atlasReading(ar.Row, ar.Quick, cells))
		}
	}
	return v
}

// atlasReading is the sentence of one row: the method closest to the gold
// standard, VB's error, and where each sampler reaches VB's error.
func atlasReading(row string, quick bool, cells []atlasCell) string {
	best, bm := math.Inf(1), ""
	var vb *atlasCell
	for i, c := range cells {
		if c.status != "filled" {
			continue
		}
		if c.method == "vb" {
			vb = &cells[i]
		}
		if c.med < best {
			best, bm = c.med, c.method
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s", row)
	if quick {
		b.WriteString(" (QUICK run)")
	}
	if bm == "" {
		b.WriteString(": no filled cell.")
		return b.String()
	}
	fmt.Fprintf(&b, ": closest to the gold standard is %s (median |error| %s nats", methodLabel(bm), atlasNum(best))
	if vb != nil && bm != "vb" {
		fmt.Fprintf(&b, "; VB's bound is %s nats below at %s ops", atlasNum(-vb.bias), atlasNum(vb.ops))
	}
	b.WriteString(").")
	if vb == nil {
		return b.String()
	}
	for _, c := range cells {
		if c.status != "filled" || (c.method != "is" && c.method != "ais") {
			continue
		}
		if math.IsNaN(c.cross) {
			fmt.Fprintf(&b, " %s never reaches VB's error within its ladder (%s nats at %s ops).", methodLabel(c.method), atlasNum(c.med), atlasNum(c.ops))
			continue
		}
		fmt.Fprintf(&b, " %s overtakes VB at about %s ops (budget %d; VB's converged error %s nats at %s ops, a ratio of %s).",
			methodLabel(c.method), atlasNum(c.cross), c.crossBudget, atlasNum(vb.med), atlasNum(vb.ops), atlasNum(c.cross/vb.ops))
	}
	return b.String()
}

// markdownAtlas writes the atlas section of REPORT.md.
func markdownAtlas(b *strings.Builder, v *AtlasView, esc func(string) string) {
	b.WriteString("\n<a id=\"atlas\"></a>\n## Atlas: evidence error against the gold standard and cost\n\n")
	b.WriteString("Each cell: median |ln Z − gold| in nats [interquartile range] over data sets × seeds at the method's largest budget; its cost in operations (each row's unit) and CPU seconds; the posterior mean and variance errors where they apply; for a sampler, the fraction of estimates within 3 combined standard errors of the gold standard.\n\n| row |")
	for _, m := range v.Methods {
		b.WriteString(" " + methodLabel(m) + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(v.Methods)) + "\n")
	for _, r := range v.Rows {
		name := r.Row
		if r.Quick {
			name += " **QUICK**"
		}
		fmt.Fprintf(b, "| [%s](#%s) |", esc(name), r.Anchor)
		if r.Error != "" {
			fmt.Fprintf(b, " %s |%s\n", esc(r.Error), strings.Repeat(" |", max(len(v.Methods)-1, 0)))
			continue
		}
		for _, c := range r.Cells {
			b.WriteString(" " + esc(c) + " |")
		}
		b.WriteString("\n")
	}
	if len(v.Reading) > 0 {
		b.WriteString("\n")
		for _, s := range v.Reading {
			b.WriteString("- " + esc(s) + "\n")
		}
	}
	for _, r := range v.Rows {
		for _, f := range r.Figures {
			fmt.Fprintf(b, "\n![%s](%s)\n", f.Stem, f.Path)
		}
	}
}
