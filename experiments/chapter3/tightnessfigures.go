package chapter3

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// tightRow is one row of tightness.csv.
type tightRow struct {
	dataset, k         int
	method             string
	estimate, se, diff float64
}

func readTightness(dir string) ([]tightRow, error) {
	t, err := results.ReadCSV(filepath.Join(dir, "tightness.csv"))
	if err != nil {
		return nil, err
	}
	cols := map[string]int{}
	for _, name := range []string{"dataset", "k", "method", "estimate", "se", "minus_exact"} {
		if cols[name], err = t.Col(name); err != nil {
			return nil, err
		}
	}
	var out []tightRow
	for i, r := range t.Rows {
		var row tightRow
		if row.dataset, err = t.Int(i, cols["dataset"]); err != nil {
			return nil, err
		}
		if row.k, err = t.Int(i, cols["k"]); err != nil {
			return nil, err
		}
		row.method = r[cols["method"]]
		for name, dst := range map[string]*float64{"estimate": &row.estimate, "se": &row.se, "minus_exact": &row.diff} {
			if *dst, err = t.Float(i, cols[name]); err != nil {
				return nil, err
			}
		}
		out = append(out, row)
	}
	return out, nil
}

// tightSeries collects, for one k and one method, x = data set + offset,
// y = value(row) and the standard errors.
func tightSeries(rows []tightRow, k int, method string, offset float64, value func(tightRow) float64) (x, y, se []float64) {
	for _, r := range rows {
		if r.k == k && r.method == method {
			x = append(x, float64(r.dataset)+offset)
			y = append(y, value(r))
			se = append(se, r.se)
		}
	}
	return x, y, se
}

// PlotTightness draws tightness.svg/png from tightness.csv: for each k, (a)
// the exact ln p(y|m) of every data set with F, CS, BIC and the defensive
// importance-sampling estimate (± SE), and (b) the three samplers'
// estimates minus the exact value (± SE), on a scale where the standard
// errors are visible.
func PlotTightness(dir string) error {
	rows, err := readTightness(dir)
	if err != nil {
		return err
	}
	var ks []int
	for _, r := range rows {
		if !slices.Contains(ks, r.k) {
			ks = append(ks, r.k)
		}
	}
	slices.Sort(ks)
	if len(ks) == 0 {
		return fmt.Errorf("%s: no rows", filepath.Join(dir, "tightness.csv"))
	}
	// Integer ticks at the data sets, labelled as in the CSV files.
	var ticks plot.ConstantTicks
	for _, r := range rows {
		if r.method == "exact" && r.k == ks[0] {
			ticks = append(ticks, plot.Tick{Value: float64(r.dataset), Label: strconv.Itoa(r.dataset)})
		}
	}
	// frame puts the ticks on p and leaves the lowest third of the panel
	// free for the legend (plots.PlaceLegend finds it there).
	frame := func(p *plot.Plot) {
		p.X.Tick.Marker = ticks
		p.X.Min, p.X.Max = p.X.Min-0.3, p.X.Max+0.3
		p.Y.Min -= 0.5 * (p.Y.Max - p.Y.Min)
	}
	est := func(r tightRow) float64 { return r.estimate }
	diff := func(r tightRow) float64 { return r.diff }
	// Series indices fix the colours, the same in every panel: 0 exact,
	// 1 F, 2 CS, 3 BIC, 4-6 the samplers q, q-aliases, defensive.
	props := []string{PropQ, PropAliases, PropDefensive}
	var top, bottom []*plot.Plot
	for _, k := range ks {
		var sa []plots.Series
		for _, m := range []struct{ method, name string }{{"exact", "exact ln p(y|m)"}, {"F", "F (VB)"}, {"CS", "Cheeseman-Stutz"}, {"BIC", "BIC"}} {
			x, y, _ := tightSeries(rows, k, m.method, 0, est)
			sa = append(sa, plots.Series{Name: m.name, X: x, Y: y, Points: true})
		}
		sa = append(sa, plots.Series{}, plots.Series{})
		xd, yd, sed := tightSeries(rows, k, "IS:"+PropDefensive, 0.15, est)
		sa = append(sa, plots.Series{Name: "IS, defensive", X: xd, Y: yd, Points: true})
		pa, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("(a) k = %d: scores of each data set", k), XLabel: "data set", YLabel: "nats"}, sa...)
		if err != nil {
			return err
		}
		if _, err := plots.ErrorBars(pa, 6, xd, yd, sed); err != nil {
			return err
		}
		frame(pa)
		top = append(top, pa)

		x0, _, _ := tightSeries(rows, k, "exact", 0, est)
		sb := []plots.Series{{Name: "exact", X: x0, Y: make([]float64, len(x0))}, {}, {}, {}}
		type bars struct{ x, y, se []float64 }
		var bs []bars
		for i, prop := range props {
			x, y, se := tightSeries(rows, k, "IS:"+prop, 0.15*float64(i-1), diff)
			sb = append(sb, plots.Series{Name: "IS, " + prop, X: x, Y: y, Points: true})
			bs = append(bs, bars{x, y, se})
		}
		pb, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("(b) k = %d: IS estimate − exact (± SE)", k), XLabel: "data set", YLabel: "nats"}, sb...)
		if err != nil {
			return err
		}
		for i, b := range bs {
			if _, err := plots.ErrorBars(pb, 4+i, b.x, b.y, b.se); err != nil {
				return err
			}
		}
		frame(pb)
		bottom = append(bottom, pb)
	}
	panels := append(top, bottom...)
	return experiments.SaveFigure(dir, "tightness", plots.Figure{Rows: 2, Cols: len(ks), Panels: panels,
		Width: vg.Length(1.3*float64(len(ks))) * plots.PanelWidth, Height: 2 * plots.PanelHeight * 1.2,
		Title: "How tight is F for a small VB HMM? Scores against the exact marginal likelihood"})
}
