package chapter6

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// This file draws the figures of chapter6/single-instance from its CSV
// files alone.

// onePanel returns a one-panel figure wide enough for its title.
func onePanel(p *plot.Plot, title string) plots.Figure {
	return plots.Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{p}, Width: 6.5 * vg.Inch, Height: 4.5 * vg.Inch, Title: title}
}

// csvTable reads dir/name for its columns; the first error sticks (see
// results.Columns).
func csvTable(dir, name string) *results.Columns {
	return results.ReadColumns(filepath.Join(dir, name))
}

// floatCols reads several float columns of tab.
func floatCols(tab *results.Columns, names ...string) [][]float64 {
	out := make([][]float64, len(names))
	for i, n := range names {
		out[i] = tab.Floats(n)
	}
	return out
}

// emptyPlot returns a plot with the house style and no data.
func emptyPlot(ax plots.Axes) *plot.Plot {
	p, _, err := plots.Lines(ax)
	if err != nil {
		panic(err) // no series: cannot fail
	}
	return p
}

// addPoints adds markers at (x, y), skipping non-finite points; a legend
// of p avoids them.
func addPoints(p *plot.Plot, x, y []float64, g draw.GlyphStyle) error {
	var xys plotter.XYs
	for i := range x {
		if !math.IsNaN(y[i]) && !math.IsInf(y[i], 0) && !math.IsNaN(x[i]) {
			xys = append(xys, plotter.XY{X: x[i], Y: y[i]})
		}
	}
	if len(xys) == 0 {
		return nil
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	s.GlyphStyle = g
	p.Add(s)
	plots.PlaceLegend(p, plots.Marks{Points: []plotter.XYs{xys}})
	return nil
}

// symlog is the symmetric logarithmic scale y ↦ sign(y)·log10(1 + |y|),
// linear near 0 and logarithmic beyond ±1, for score differences that run
// from 0 to thousands of nats (Figures 6.4, 6.6, 6.8).
type symlog struct{}

func symlogF(y float64) float64 { return math.Copysign(math.Log10(1+math.Abs(y)), y) }

// Normalize implements plot.Normalizer.
func (symlog) Normalize(min, max, x float64) float64 {
	a, b := symlogF(min), symlogF(max)
	return (symlogF(x) - a) / (b - a)
}

// symlogTicks labels 0 and ±10^k within the range.
type symlogTicks struct{}

// Ticks implements plot.Ticker.
func (symlogTicks) Ticks(min, max float64) []plot.Tick {
	var t []plot.Tick
	add := func(v float64) {
		if v >= min && v <= max {
			t = append(t, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
		}
	}
	add(0)
	for k := 0; k <= 6; k++ {
		add(-math.Pow(10, float64(k)))
		add(math.Pow(10, float64(k)))
	}
	slices.SortFunc(t, func(a, b plot.Tick) int { return cmp.Compare(a.Value, b.Value) })
	return t
}

// useSymlog puts p's y axis on the symlog scale, from lo (≤ 0) to 0.
func useSymlog(p *plot.Plot, lo float64) {
	p.Y.Scale = symlog{}
	p.Y.Tick.Marker = symlogTicks{}
	p.Y.Min, p.Y.Max = math.Min(lo, -1), 0.5
}

// invertLogY shows ranks with 1 at the top on a log axis.
func invertLogY(p *plot.Plot, worst float64) {
	p.Y.Scale = plot.InvertedScale{Normalizer: plot.LogScale{}}
	p.Y.Tick.Marker = plots.Log10Ticks{}
	p.Y.Min, p.Y.Max = 0.9, math.Max(worst, 2)*1.1
}

// PlotSingle draws Figures 6.1–6.4, 6.11, 6.12 and the comparison with the
// exact marginal likelihood from the CSV files of chapter6/single-instance.
func PlotSingle(dir string) error {
	for _, f := range []func(string) error{plotFig61, plotFig62, plotRanks, plotDeltas, plotAcceptance, plotExact} {
		if err := f(dir); err != nil {
			return err
		}
	}
	return nil
}

// plotFig61 draws the true structure (Figure 6.1) from structures.csv.
func plotFig61(dir string) error {
	t := csvTable(dir, "structures.csv")
	codes, flags := t.Strings("code"), t.Floats("is_true")
	if err := t.Err(); err != nil {
		return err
	}
	i := slices.Index(flags, 1)
	if i < 0 {
		return fmt.Errorf("structures.csv: no true structure")
	}
	code, err := dag.ParseCode(codes[i])
	if err != nil {
		return err
	}
	p := emptyPlot(plots.Axes{Title: fmt.Sprintf("%s: binary s1, s2 (dark), 5-valued y3-y6; d = %d", code, code.NumParams())})
	hx := []float64{1.75, 3.25}
	for k, v := range code {
		for h := 0; h < 2; h++ {
			if v&(1<<h) == 0 {
				continue
			}
			l, err := plotter.NewLine(plotter.XYs{{X: hx[h], Y: 1}, {X: float64(k + 1), Y: 0}})
			if err != nil {
				return err
			}
			l.LineStyle = draw.LineStyle{Color: color.Black, Width: vg.Points(1.2)}
			p.Add(l)
		}
	}
	node := draw.GlyphStyle{Shape: draw.CircleGlyph{}, Radius: vg.Points(13), Color: color.Gray{Y: 0x60}}
	obs := draw.GlyphStyle{Shape: draw.CircleGlyph{}, Radius: vg.Points(13), Color: color.Gray{Y: 0xd0}}
	if err := addPoints(p, hx, []float64{1, 1}, node); err != nil {
		return err
	}
	if err := addPoints(p, []float64{1, 2, 3, 4}, []float64{0, 0, 0, 0}, obs); err != nil {
		return err
	}
	labels, err := plotter.NewLabels(plotter.XYLabels{
		XYs:    plotter.XYs{{X: hx[0], Y: 1}, {X: hx[1], Y: 1}, {X: 1, Y: 0}, {X: 2, Y: 0}, {X: 3, Y: 0}, {X: 4, Y: 0}},
		Labels: []string{"s1", "s2", "y3", "y4", "y5", "y6"},
	})
	if err != nil {
		return err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
	}
	p.Add(labels)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0.5, 4.5, -0.4, 1.4
	p.HideAxes()
	return experiments.SaveFigure(dir, "fig6_1", plots.Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{p}, Width: 4 * vg.Inch, Height: 2.6 * vg.Inch,
		Title: "Figure 6.1: the true structure"})
}

// plotFig62 draws Figure 6.2: the score of every structure against its
// number of parameters, one row per size of fig62_rows.csv, one column per
// score.
func plotFig62(dir string) error {
	cols := []string{"map", "bic", "bicp", "cs", "vb"}
	titles := []string{"MAP", "BIC", "BICp", "CS", "VB", "AIS(G)"}
	t, pt, st, rt := csvTable(dir, "scores.csv"), csvTable(dir, "ais_pooled.csv"), csvTable(dir, "structures.csv"), csvTable(dir, "fig62_rows.csv")
	f, pf := floatCols(t, append([]string{"seed", "n", "structure", "d"}, cols...)...), floatCols(pt, "n", "structure", "d", "ais5")
	flags, rowsN := st.Floats("is_true"), rt.Floats("n")
	if err := cmp.Or(t.Err(), pt.Err(), st.Err(), rt.Err()); err != nil {
		return err
	}
	if len(f[0]) == 0 {
		return fmt.Errorf("scores.csv: no rows")
	}
	seed := f[0][0] // the main data set
	truth := float64(slices.Index(flags, 1))
	var panels []*plot.Plot
	steps := make([]float64, len(rowsN)) // the y tick spacing of each row
	for row, n := range rowsN {
		// Columns: x = d, y = score, for each method at this n.
		xs := make([][]float64, len(titles))
		ys := make([][]float64, len(titles))
		tr := make([]int, len(titles))
		for k := range tr {
			tr[k] = -1
		}
		for r := range f[0] {
			if f[0][r] != seed || f[1][r] != n {
				continue
			}
			for k := range cols {
				if f[2][r] == truth {
					tr[k] = len(xs[k])
				}
				xs[k], ys[k] = append(xs[k], f[3][r]), append(ys[k], f[4+k][r])
			}
		}
		for r := range pf[0] {
			if pf[0][r] == n {
				if pf[1][r] == truth {
					tr[5] = len(xs[5])
				}
				xs[5], ys[5] = append(xs[5], pf[2][r]), append(ys[5], pf[3][r])
			}
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for k := range ys {
			for _, v := range ys[k] {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
		if lo > hi {
			return fmt.Errorf("fig6_2: no scores at n = %g", n)
		}
		pad := math.Max((hi-lo)*0.05, 1)
		steps[row] = scoreTickStep(lo-pad, hi+pad)
		for k := range titles {
			ax := plots.Axes{}
			if n == rowsN[0] {
				ax.Title = titles[k]
			}
			if n == rowsN[len(rowsN)-1] {
				ax.XLabel = "parameters d"
			}
			if k == 0 {
				ax.YLabel = fmt.Sprintf("n = %g", n)
			}
			p := emptyPlot(ax)
			if err := addPoints(p, xs[k], ys[k], draw.GlyphStyle{Shape: draw.CircleGlyph{}, Radius: vg.Points(1.3), Color: color.Gray{Y: 0x70}}); err != nil {
				return err
			}
			if len(ys[k]) > 0 {
				b := results.Argmax(ys[k])
				if err := addPoints(p, []float64{xs[k][b]}, []float64{ys[k][b]}, draw.GlyphStyle{Shape: draw.CrossGlyph{}, Radius: vg.Points(4), Color: color.NRGBA{R: 0xD5, G: 0x5E, A: 0xFF}}); err != nil {
					return err
				}
			}
			if tr[k] >= 0 {
				if err := addPoints(p, []float64{xs[k][tr[k]]}, []float64{ys[k][tr[k]]}, draw.GlyphStyle{Shape: draw.RingGlyph{}, Radius: vg.Points(4), Color: color.NRGBA{B: 0xB2, G: 0x72, A: 0xFF}}); err != nil {
					return err
				}
			}
			p.X.Min, p.X.Max = 16, 68
			p.Y.Min, p.Y.Max = lo-pad, hi+pad
			p.Y.Tick.Marker = stepTicks{steps[row]}
			panels = append(panels, p)
		}
	}
	return experiments.SaveFigure(dir, "fig6_2", plots.Figure{Rows: len(rowsN), Cols: len(titles), Panels: panels,
		Width: vg.Length(len(titles)) * 2.1 * vg.Inch, Height: vg.Length(len(rowsN)) * 1.55 * vg.Inch,
		Title: "Figure 6.2: scores of the 136 structures against d (o true structure, × top; BIC-VB alias-corrected; " + tickNote(rowsN, steps) + ")"})
}

// tickNote says how far apart the y ticks of Figure 6.2's rows are, from
// the spacing each row uses: "y ticks every 40 nats" when all rows agree,
// else "y ticks every 20 nats at n = 6, 40 at n = 160".
func tickNote(rowsN, steps []float64) string {
	same := true
	for _, s := range steps {
		same = same && s == steps[0]
	}
	if same && len(steps) > 0 {
		return "y ticks every " + strconv.FormatFloat(steps[0], 'g', -1, 64) + " nats"
	}
	var parts []string
	for i, s := range steps {
		unit := ""
		if i == 0 {
			unit = " nats"
		}
		parts = append(parts, fmt.Sprintf("%s%s at n = %g", strconv.FormatFloat(s, 'g', -1, 64), unit, rowsN[i]))
	}
	return "y ticks every " + strings.Join(parts, ", ")
}

// scoreTickStep returns the y tick spacing of a Figure 6.2 row spanning
// [min, max] nats: the thesis's 40, doubled while the row would have more
// than 12 ticks, halved (to 20, 10, 5) while it would have fewer than two
// (a narrow row, small n).
func scoreTickStep(min, max float64) float64 {
	step := 40.0
	for (max-min)/step > 12 {
		step *= 2
	}
	for (max-min)/step < 2 && step > 5 {
		step /= 2
	}
	return step
}

// stepTicks puts y ticks at the multiples of step, labelling every other
// one when there are more than six.
type stepTicks struct{ step float64 }

// Ticks implements plot.Ticker.
func (s stepTicks) Ticks(min, max float64) []plot.Tick {
	var t []plot.Tick
	for v := math.Ceil(min/s.step) * s.step; v <= max; v += s.step {
		t = append(t, plot.Tick{Value: v})
	}
	for i := range t {
		if len(t) <= 6 || int(math.Round(t[i].Value/s.step))%2 == 0 {
			t[i].Label = strconv.FormatFloat(t[i].Value, 'f', 0, 64)
		}
	}
	return t
}

// rankSeries reads ranks.csv and returns, for the main seed, the rank and
// the score difference of the true structure against n for each method.
func rankSeries(dir string) (ns []float64, rank, delta map[string][]float64, err error) {
	t := csvTable(dir, "ranks.csv")
	f, meth := floatCols(t, "seed", "n", "rank", "delta"), t.Strings("method")
	if err := t.Err(); err != nil {
		return nil, nil, nil, err
	}
	if len(meth) == 0 {
		return nil, nil, nil, fmt.Errorf("ranks.csv: no rows")
	}
	rank, delta = map[string][]float64{}, map[string][]float64{}
	for r := range meth {
		if f[0][r] != f[0][0] {
			continue
		}
		if !slices.Contains(ns, f[1][r]) {
			ns = append(ns, f[1][r])
		}
		rank[meth[r]] = append(rank[meth[r]], f[2][r])
		delta[meth[r]] = append(delta[meth[r]], f[3][r])
	}
	return ns, rank, delta, nil
}

var rankMethods = []string{"BIC", "BICp", "CS", "VB", "AIS5"}

// label names a method in a legend.
func label(m string) string {
	switch m {
	case "AIS5":
		return "AIS(G)"
	case "CSdagger":
		return "CS†"
	}
	return m
}

// methodPanel draws, against ns, one series of by per method of
// rankMethods, and returns the panel with the smallest and the largest
// value drawn.
func methodPanel(ax plots.Axes, ns []float64, by map[string][]float64) (p *plot.Plot, lo, hi float64, err error) {
	var ser []plots.Series
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, m := range rankMethods {
		ser = append(ser, plots.Series{Name: label(m), X: ns, Y: by[m], Points: true})
		lo, hi = math.Min(lo, slices.Min(by[m])), math.Max(hi, slices.Max(by[m]))
	}
	p, _, err = plots.Lines(ax, ser...)
	return p, lo, hi, err
}

// plotRanks draws Figure 6.3 (main seed) and the medians over the data
// seeds (table6_1_median.csv).
func plotRanks(dir string) error {
	ns, rank, _, err := rankSeries(dir)
	if err != nil {
		return err
	}
	p, _, hi, err := methodPanel(plots.Axes{Title: "main data set", XLabel: "n", YLabel: "rank of the true structure", LogX: true}, ns, rank)
	if err != nil {
		return err
	}
	worst := math.Max(1, hi)
	mt := csvTable(dir, "table6_1_median.csv")
	mf := floatCols(mt, "n", "bic", "bicp", "cs", "vb")
	if err := mt.Err(); err != nil {
		return err
	}
	var ms []plots.Series
	for k, m := range []string{"BIC", "BICp", "CS", "VB"} {
		ms = append(ms, plots.Series{Name: m, X: mf[0], Y: mf[k+1], Points: true})
		worst = math.Max(worst, slices.Max(mf[k+1]))
	}
	q, _, err := plots.Lines(plots.Axes{Title: "median over the data seeds", XLabel: "n", YLabel: "rank", LogX: true}, ms...)
	if err != nil {
		return err
	}
	invertLogY(q, worst)
	invertLogY(p, worst)
	return experiments.SaveFigure(dir, "fig6_3", plots.Figure{Rows: 1, Cols: 2, Panels: []*plot.Plot{p, q},
		Title: "Figure 6.3: rank of the true structure among 136 (1 at the top; alias-corrected scores)"})
}

// plotDeltas draws Figure 6.4: score of the true structure minus the top
// score, main seed.
func plotDeltas(dir string) error {
	ns, _, delta, err := rankSeries(dir)
	if err != nil {
		return err
	}
	p, lo, _, err := methodPanel(plots.Axes{Title: "", XLabel: "n", YLabel: "score(true) − max score (nats, symlog)", LogX: true}, ns, delta)
	if err != nil {
		return err
	}
	useSymlog(p, math.Min(0, lo)*1.2)
	return experiments.SaveFigure(dir, "fig6_4", onePanel(p,
		"Figure 6.4: score difference between the true and the top-ranked structure"))
}

// plotAcceptance draws Figures 6.11 and 6.12 from acceptance.csv.
func plotAcceptance(dir string) error {
	t := csvTable(dir, "acceptance.csv")
	f := floatCols(t, "n", "mean", "sd", "sem", "q1", "q2", "q3", "q4", "q1_sem", "q2_sem", "q3_sem", "q4_sem")
	if err := t.Err(); err != nil {
		return err
	}
	band := func(m, w []float64, k float64) (lo, hi []float64) {
		for i := range m {
			e := w[i]
			if math.IsNaN(e) {
				e = 0
			}
			lo, hi = append(lo, m[i]-k*e), append(hi, m[i]+k*e)
		}
		return lo, hi
	}
	sdLo, sdHi := band(f[1], f[2], 1)
	seLo, seHi := band(f[1], f[3], 1)
	p, _, err := plots.Lines(plots.Axes{XLabel: "n", YLabel: "fraction of MH proposals accepted", LogX: true},
		plots.Series{Name: "mean ± 1 SD over structures", X: f[0], Y: f[1], Lo: sdLo, Hi: sdHi, Points: true},
		plots.Series{Name: "mean ± 1 SEM", X: f[0], Y: f[1], Lo: seLo, Hi: seHi})
	if err != nil {
		return err
	}
	p.Y.Min, p.Y.Max = 0, 1
	if err := experiments.SaveFigure(dir, "fig6_11", onePanel(p,
		"Figure 6.11: MH acceptance over the whole schedule, one AIS batch over all structures")); err != nil {
		return err
	}
	var ser []plots.Series
	for q := 0; q < 4; q++ {
		lo, hi := band(f[4+q], f[8+q], 1)
		ser = append(ser, plots.Series{Name: fmt.Sprintf("quarter %d", q+1), X: f[0], Y: f[4+q], Lo: lo, Hi: hi, Points: true})
	}
	p, _, err = plots.Lines(plots.Axes{XLabel: "n", YLabel: "fraction accepted (± SEM)", LogX: true}, ser...)
	if err != nil {
		return err
	}
	p.Y.Min, p.Y.Max = 0, 1
	return experiments.SaveFigure(dir, "fig6_12", onePanel(p,
		"Figure 6.12: MH acceptance in each quarter of the annealing schedule"))
}

// plotExact draws, when exact.csv exists, every score minus the exact
// ln p(y|m) against d (targets §3.14, beyond the thesis).
func plotExact(dir string) error {
	t := csvTable(dir, "exact.csv")
	if t.Err() != nil {
		return nil // exact_n = 0: no figure
	}
	cols := []string{"vb_star", "cs_star", "bic_star", "ais1_1", "ais5"}
	f := floatCols(t, append([]string{"d", "exact"}, cols...)...)
	if err := t.Err(); err != nil {
		return err
	}
	p := emptyPlot(plots.Axes{XLabel: "parameters d", YLabel: "score − exact ln p(y|m) (nats)"})
	lo, hi := math.Inf(1), math.Inf(-1)
	for k, c := range cols {
		y := make([]float64, len(f[0]))
		x := make([]float64, len(f[0]))
		for i := range y {
			y[i] = f[2+k][i] - f[1][i]
			x[i] = f[0][i] + 0.5*float64(k-2) // side by side
			lo, hi = math.Min(lo, y[i]), math.Max(hi, y[i])
		}
		g := plots.GlyphStyle(k)
		g.Radius = vg.Points(1.6)
		if err := addPoints(p, x, y, g); err != nil {
			return err
		}
		p.Legend.Add(map[string]string{"vb_star": "VB*", "cs_star": "CS*", "bic_star": "BIC*", "ais1_1": "AIS(1) run 1", "ais5": "AIS(G)"}[c],
			&plotter.Scatter{GlyphStyle: plots.GlyphStyle(k)})
	}
	zero, err := plotter.NewLine(plotter.XYs{{X: 16, Y: 0}, {X: 68, Y: 0}})
	if err != nil {
		return err
	}
	p.Add(zero)
	plots.PlaceLegend(p, plots.Marks{Lines: []plotter.XYs{zero.XYs}})
	p.X.Min, p.X.Max = 16, 68
	p.Y.Min, p.Y.Max = lo-1, hi+1
	return experiments.SaveFigure(dir, "fig_exact", plots.Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{p}, Width: 6.5 * vg.Inch, Height: 4.5 * vg.Inch,
		Title: "Scores minus the exact log marginal likelihood, every structure (targets §3.14)"})
}

// priorSeries reads prior_summary.csv: for each method of rankFigMethods,
// the named column against n.
func priorSeries(dir string, col ...string) (ns []float64, by map[string][][]float64, instances int, err error) {
	t := csvTable(dir, "prior_summary.csv")
	meth, f := t.Strings("method"), floatCols(t, append([]string{"n", "instances"}, col...)...)
	if err := t.Err(); err != nil {
		return nil, nil, 0, err
	}
	if len(meth) == 0 {
		return nil, nil, 0, fmt.Errorf("prior_summary.csv: no rows")
	}
	by = map[string][][]float64{}
	for r, m := range meth {
		if !slices.Contains(ns, f[0][r]) {
			ns = append(ns, f[0][r])
		}
		if by[m] == nil {
			by[m] = make([][]float64, len(col))
		}
		for k := range col {
			by[m][k] = append(by[m][k], f[2+k][r])
		}
	}
	return ns, by, int(f[1][0]), nil
}

// PlotPrior draws Figures 6.5–6.9 from prior_summary.csv.
func PlotPrior(dir string) error {
	ns, by, inst, err := priorSeries(dir, "median_rank", "best_rank", "success_rate", "median_delta", "q40_delta", "q60_delta", "max_delta")
	if err != nil {
		return err
	}
	title := func(s string) string { return fmt.Sprintf("%s, over %d true models from the prior", s, inst) }
	rankFig := func(name, fig string, col int, extra *plots.Series) error {
		var ser []plots.Series
		worst := 1.0
		for _, m := range rankFigMethods {
			ser = append(ser, plots.Series{Name: m, X: ns, Y: by[m][col], Points: true})
			worst = math.Max(worst, slices.Max(by[m][col]))
		}
		if extra != nil {
			ser = append(ser, *extra)
		}
		p, _, err := plots.Lines(plots.Axes{XLabel: "n", YLabel: "rank of the true structure (1 at the top)", LogX: true}, ser...)
		if err != nil {
			return err
		}
		invertLogY(p, worst)
		return experiments.SaveFigure(dir, name, onePanel(p, title(fig)))
	}
	if err := rankFig("fig6_5", "Figure 6.5: median rank", 0, nil); err != nil {
		return err
	}
	base := expectedBestRandomRank(dag.NumCandidates, inst)
	rnd := plots.Series{Name: fmt.Sprintf("best of %d random guesses (%.3g)", inst, base), X: []float64{ns[0], ns[len(ns)-1]}, Y: []float64{base, base}}
	if err := rankFig("fig6_7", "Figure 6.7: best rank", 1, &rnd); err != nil {
		return err
	}
	deltaFig := func(name, fig string, col int, band bool) error {
		var ser []plots.Series
		lo := 0.0
		for _, m := range rankFigMethods {
			sr := plots.Series{Name: m, X: ns, Y: by[m][col], Points: true}
			if band {
				sr.Lo, sr.Hi = by[m][4], by[m][5]
				lo = math.Min(lo, slices.Min(sr.Lo))
			}
			lo = math.Min(lo, slices.Min(sr.Y))
			ser = append(ser, sr)
		}
		p, _, err := plots.Lines(plots.Axes{XLabel: "n", YLabel: "score(true) − max score (nats, symlog)", LogX: true}, ser...)
		if err != nil {
			return err
		}
		useSymlog(p, lo*1.2)
		return experiments.SaveFigure(dir, name, onePanel(p, title(fig)))
	}
	if err := deltaFig("fig6_6", "Figure 6.6: median score difference (40-60% band)", 3, true); err != nil {
		return err
	}
	if err := deltaFig("fig6_8", "Figure 6.8: largest score difference", 6, false); err != nil {
		return err
	}
	var ser []plots.Series
	for _, m := range append(slices.Clone(rankFigMethods), "CSdagger") {
		ser = append(ser, plots.Series{Name: label(m), X: ns, Y: by[m][2], Points: true})
	}
	p, _, err := plots.Lines(plots.Axes{XLabel: "n", YLabel: "fraction ranking the true structure first", LogX: true}, ser...)
	if err != nil {
		return err
	}
	p.Y.Min, p.Y.Max = 0, 1
	return experiments.SaveFigure(dir, "fig6_9", onePanel(p, title("Figure 6.9: success rate")))
}
