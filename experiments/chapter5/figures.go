package chapter5

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// Every Plot function here reads the result files alone.

// newPanel returns an empty panel with the house's font sizes.
func newPanel(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = plots.TitleSize
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = plots.LabelSize
		a.Tick.Label.Font.Size = plots.TickSize
		a.Tick.Marker = plots.Ticks{}
	}
	return p
}

// ---------------------------------------------------------------------------
// Figures 5.4 and 5.5.

// PlotDimensionality draws Figure 5.4 (Hinton diagrams of ⟨A⟩ and ⟨C⟩
// against T, and the truth, for the first seed) from params.csv and
// alive.csv, and Figure 5.5 (the trajectories of (ln 1/α_j, ln 1/γ_j) on
// the longest sequence) from hyper_trace.csv.
func PlotDimensionality(dir string) error {
	tab := results.ReadColumns(filepath.Join(dir, "alive.csv"))
	seeds, Ts, cross := tab.Strings("seed"), tab.Strings("T"), tab.Strings("cross_init")
	if err := tab.Err(); err != nil {
		return err
	}
	// The main cross_init is the one of the seed's shortest sequence; its
	// runs give the columns of the figure.
	main, minT := "", math.MaxInt
	for i := range seeds {
		T, _ := strconv.Atoi(Ts[i])
		if seeds[i] == "0" && T < minT {
			minT, main = T, cross[i]
		}
	}
	var grid []int
	for i := range seeds {
		if seeds[i] == "0" && cross[i] == main {
			T, _ := strconv.Atoi(Ts[i])
			grid = append(grid, T)
		}
	}
	if len(grid) == 0 {
		return fmt.Errorf("alive.csv: no runs of seed 0")
	}
	slices.Sort(grid)
	pt, err := results.ReadCSV(filepath.Join(dir, experiments.ParamsFile))
	if err != nil {
		return err
	}
	cols := len(grid) + 1
	panels := make([]*plot.Plot, 2*cols)
	for i, T := range grid {
		run := dimCellName(0, T, main, false)
		for row, name := range []string{"A", "C"} {
			m, err := experiments.ReadMatrix(pt, run, "VB", name)
			if err != nil {
				return err
			}
			h, err := plots.HintonPlot(fmt.Sprintf("⟨%s⟩, T = %d", name, T), m)
			if err != nil {
				return err
			}
			panels[row*cols+i] = h
		}
	}
	for row, name := range []string{"A", "C"} {
		m, err := experiments.ReadMatrix(pt, "s00-truth", "truth", name)
		if err != nil {
			return err
		}
		h, err := plots.HintonPlot("true "+name, m)
		if err != nil {
			return err
		}
		panels[row*cols+cols-1] = h
	}
	f := plots.Figure{Rows: 2, Cols: cols, Panels: panels, Width: vg.Length(cols) * 1.9 * vg.Inch, Height: 4.6 * vg.Inch,
		Title: "Figure 5.4: ⟨A⟩ and ⟨C⟩ after the VBEM iterations against T (dimensions by increasing γ_j), seed 0"}
	if err := experiments.SaveFigure(dir, "fig5_4", f); err != nil {
		return err
	}
	if err := plotTrajectories(dir, dimCellName(0, grid[len(grid)-1], main, false)); err != nil {
		return err
	}
	return plotExtended(dir)
}

// plotExtended draws the extension of Figures 5.4-5.5 (issue 20 item 6)
// from extended.csv and trace.csv, fig5_5_extended: one panel per seed
// with F of its extended runs (the [vb] run continued, and the comparison
// run if any) as the distance below the higher final F, against the
// iteration on logarithmic axes, titled with the end states.
func plotExtended(dir string) error {
	tab := results.ReadColumns(filepath.Join(dir, ExtendedFile))
	seeds, cases, hypers, runs, ends, fEnd := tab.Strings("seed"), tab.Strings("schedule"), tab.Strings("hyper"), tab.Strings("run"), tab.Strings("end_state"), tab.Floats("F_end")
	alive, dyn, out := tab.Strings(stateAlive), tab.Strings(stateDynamics), tab.Strings(stateOutput)
	if err := tab.Err(); err != nil {
		return err
	}
	tt, err := results.ReadCSV(filepath.Join(dir, experiments.TraceFile))
	if err != nil {
		return err
	}
	var order []string
	for _, sd := range seeds {
		if !slices.Contains(order, sd) {
			order = append(order, sd)
		}
	}
	var panels []*plot.Plot
	for _, sd := range order {
		best := math.Inf(-1)
		for i := range seeds {
			if seeds[i] == sd {
				best = math.Max(best, fEnd[i])
			}
		}
		var ss []plots.Series
		// The y axis has no label: gonum centres a vertical label at the
		// arithmetic middle of the range, near the top of a log axis, and
		// then shrinks the data area to make room for it.
		title := "seed " + sd + ": nats below the higher final F"
		for i := range seeds {
			if seeds[i] != sd {
				continue
			}
			iter, F, err := experiments.ReadTrace(tt, runs[i])
			if err != nil {
				return err
			}
			ser := plots.Series{Name: cases[i] + ": " + hypers[i]}
			for j := range F {
				if it := int(iter[j]) + 1; it < 100 || keepThinned(it) || j == len(F)-1 {
					ser.X, ser.Y = append(ser.X, float64(it)), append(ser.Y, best-F[j])
				}
			}
			ss = append(ss, ser)
			title += fmt.Sprintf("\n%s: %s (%s alive, %s dynamics-only, %s output-only), F = %.2f", cases[i], ends[i], alive[i], dyn[i], out[i], fEnd[i])
		}
		p, _, err := plots.Lines(plots.Axes{Title: title, XLabel: "iteration", LogX: true, LogY: true}, ss...)
		if err != nil {
			return err
		}
		p.Title.TextStyle.Font.Size = plots.TickSize
		panels = append(panels, p)
	}
	if len(panels) == 0 {
		return fmt.Errorf("%s: no extended run", ExtendedFile)
	}
	cols := min(3, len(panels))
	rows := (len(panels) + cols - 1) / cols
	f := plots.Figure{Rows: rows, Cols: cols, Panels: panels, Width: vg.Length(cols) * 4.6 * vg.Inch, Height: vg.Length(rows) * 4 * vg.Inch,
		Title: "Figures 5.4-5.5 extended: F of the runs on the longest sequence, below the higher of their final values, per seed and hyperparameter schedule"}
	return experiments.SaveFigure(dir, "fig5_5_extended", f)
}

// plotTrajectories draws Figure 5.5 for one run of hyper_trace.csv: (a)
// the [vb] iterations (phase 1), (b) a close-up of its survivors, and (c)
// the continued run (both phases, the continuation thinned).
func plotTrajectories(dir, run string) error {
	tab := results.ReadColumns(filepath.Join(dir, "hyper_trace.csv"))
	runs := tab.Strings("run")
	cols := map[string][]float64{}
	for _, c := range []string{"phase", "iter", "dim", "inv_alpha", "inv_gamma"} {
		cols[c] = tab.Floats(c)
	}
	if err := tab.Err(); err != nil {
		return err
	}
	last := 0.0
	series := func(phases ...float64) []plots.Series {
		by := map[int]*plots.Series{}
		var order []int
		for i := range runs {
			if runs[i] != run || !slices.Contains(phases, cols["phase"][i]) {
				continue
			}
			j := int(cols["dim"][i])
			s, ok := by[j]
			if !ok {
				s = &plots.Series{Name: fmt.Sprintf("j=%d", j), Points: true}
				by[j] = s
				order = append(order, j)
			}
			s.X, s.Y = append(s.X, math.Log(cols["inv_alpha"][i])), append(s.Y, math.Log(cols["inv_gamma"][i]))
			last = math.Max(last, cols["iter"][i])
		}
		slices.Sort(order)
		var out []plots.Series
		for _, j := range order {
			out = append(out, *by[j])
		}
		return out
	}
	first := series(1)
	if len(first) == 0 {
		return fmt.Errorf("hyper_trace.csv: no trajectory of run %s", run)
	}
	n := len(first[0].X)
	var surv []plots.Series
	lnAlive := math.Log(DefaultThresholds().Alive)
	for _, s := range first {
		m := len(s.X)
		if s.X[m-1] > lnAlive && s.Y[m-1] > lnAlive {
			z := s
			z.X, z.Y = s.X[m/2:], s.Y[m/2:]
			surv = append(surv, z)
		}
	}
	a, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("(a) iterations 0-%d, all from (0, 0)", n-1), XLabel: "ln 1/α_j", YLabel: "ln 1/γ_j"}, first...)
	if err != nil {
		return err
	}
	panels := []*plot.Plot{a}
	if len(surv) > 0 {
		b, _, err := plots.Lines(plots.Axes{Title: "(b) close-up of the survivors (second half of (a))", XLabel: "ln 1/α_j", YLabel: "ln 1/γ_j"}, surv...)
		if err != nil {
			return err
		}
		panels = append(panels, b)
	}
	if all := series(1, 2); len(all[0].X) > n {
		c, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("(c) continued to iteration %.0f (thinned after %d)", last, n-1), XLabel: "ln 1/α_j", YLabel: "ln 1/γ_j"}, all...)
		if err != nil {
			return err
		}
		panels = append(panels, c)
	}
	f := plots.Figure{Rows: 1, Cols: len(panels), Panels: panels, Width: vg.Length(len(panels)) * 4.5 * vg.Inch, Height: 4.2 * vg.Inch,
		Title: "Figure 5.5: hyperparameter trajectories, one point per VBEM iteration (" + run + ")"}
	return experiments.SaveFigure(dir, "fig5_5", f)
}

// ---------------------------------------------------------------------------
// Figures 5.6-5.8.

// PlotInputs draws Figure 5.6 (inputs, true states, outputs) from
// fig5_6_data.csv, Figure 5.7 (F and log₁₀ΔF) from trace.csv and Figure 5.8
// (1/α, 1/β, 1/γ, 1/δ against iteration) from hyper_trace.csv, for the
// first run of each file.
func PlotInputs(dir string) error {
	tab := results.ReadColumns(filepath.Join(dir, "fig5_6_data.csv"))
	runs, kinds, ts, js, vs := tab.Strings("run"), tab.Strings("kind"), tab.Floats("t"), tab.Floats("j"), tab.Floats("value")
	if err := tab.Err(); err != nil {
		return err
	}
	if len(runs) == 0 {
		return fmt.Errorf("fig5_6_data.csv: no rows")
	}
	run := runs[0]
	var panels []*plot.Plot
	for _, k := range []struct{ kind, title, sym string }{{"input", "(a) inputs", "u"}, {"state", "(b) true hidden states", "x"}, {"output", "(c) observations", "y"}} {
		by := map[int]*plots.Series{}
		var order []int
		for i := range runs {
			if runs[i] != run || kinds[i] != k.kind {
				continue
			}
			j := int(js[i])
			if _, ok := by[j]; !ok {
				by[j] = &plots.Series{Name: fmt.Sprintf("%s_%d", k.sym, j)}
				order = append(order, j)
			}
			by[j].X, by[j].Y = append(by[j].X, ts[i]), append(by[j].Y, vs[i])
		}
		slices.Sort(order)
		var ss []plots.Series
		for _, j := range order {
			ss = append(ss, *by[j])
		}
		p, _, err := plots.Lines(plots.Axes{Title: k.title, XLabel: "t"}, ss...)
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	f := plots.Figure{Rows: 3, Cols: 1, Panels: panels, Width: 7 * vg.Inch, Height: 8 * vg.Inch, Title: "Figure 5.6: the input-driven example (" + run + ")"}
	if err := experiments.SaveFigure(dir, "fig5_6", f); err != nil {
		return err
	}
	tt, err := results.ReadCSV(filepath.Join(dir, experiments.TraceFile))
	if err != nil {
		return err
	}
	iter, F, err := experiments.ReadTrace(tt, run)
	if err != nil {
		return err
	}
	x := make([]float64, len(iter))
	for i := range x {
		x[i] = iter[i] + 1 // F_i, i counted from 1
	}
	pa, _, err := plots.Lines(plots.Axes{Title: "(a) F after every VBE step", XLabel: "iteration", YLabel: "F (nats)"}, plots.Series{X: x, Y: F})
	if err != nil {
		return err
	}
	var dx, dy []float64
	for i := 1; i < len(F); i++ {
		dx, dy = append(dx, x[i]), append(dy, F[i]-F[i-1])
	}
	pb, dropped, err := plots.Lines(plots.Axes{Title: "(b) F_i − F_{i−1} (log scale; updates start at 10, 20, 30)", XLabel: "iteration", YLabel: "ΔF (nats)", LogY: true}, plots.Series{X: dx, Y: dy})
	if err != nil {
		return err
	}
	if len(dropped) > 0 {
		pb.Title.Text += fmt.Sprintf(" [%d non-positive ΔF not drawn]", dropped[0].N)
	}
	f = plots.Figure{Rows: 2, Cols: 1, Panels: []*plot.Plot{pa, pb}, Width: 7 * vg.Inch, Height: 7 * vg.Inch, Title: "Figure 5.7: the lower bound during learning (" + run + ")"}
	if err := experiments.SaveFigure(dir, "fig5_7", f); err != nil {
		return err
	}
	tab = results.ReadColumns(filepath.Join(dir, "hyper_trace.csv"))
	hr, hg, hi, hj, hv := tab.Strings("run"), tab.Strings("group"), tab.Floats("iter"), tab.Floats("j"), tab.Floats("inv_value")
	if err := tab.Err(); err != nil {
		return err
	}
	panels = nil
	for _, g := range []struct{ group, title string }{{"alpha", "(a) 1/α (columns of A)"}, {"beta", "(b) 1/β (columns of B)"}, {"gamma", "(c) 1/γ (columns of C)"}, {"delta", "(d) 1/δ (columns of D)"}} {
		by := map[int]*plots.Series{}
		var order []int
		for i := range hr {
			if hr[i] != run || hg[i] != g.group {
				continue
			}
			j := int(hj[i])
			if _, ok := by[j]; !ok {
				by[j] = &plots.Series{Name: fmt.Sprintf("%d", j)}
				order = append(order, j)
			}
			by[j].X, by[j].Y = append(by[j].X, hi[i]), append(by[j].Y, hv[i])
		}
		slices.Sort(order)
		var ss []plots.Series
		for _, j := range order {
			ss = append(ss, *by[j])
		}
		p, _, err := plots.Lines(plots.Axes{Title: g.title, XLabel: "iteration", YLabel: "prior variance", LogY: true}, ss...)
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	f = plots.Figure{Rows: 2, Cols: 2, Panels: panels, Width: 9 * vg.Inch, Height: 7 * vg.Inch, Title: "Figure 5.8: reciprocal ARD hyperparameters against iteration (" + run + ")"}
	return experiments.SaveFigure(dir, "fig5_8", f)
}

// ---------------------------------------------------------------------------
// Figures 5.9 and 5.11-5.13.

// PlotGenes draws Figure 5.9 from expression.csv, 5.11 from errors.csv,
// 5.12 from interactions.csv and 5.13 from network.csv (the first seed's
// interaction fit).
func PlotGenes(dir string) error {
	for _, f := range []func(string) error{plotExpression, plotErrors, plotInteractions, plotNetwork} {
		if err := f(dir); err != nil {
			return err
		}
	}
	return nil
}

// plotExpression draws one panel per gene with every normalised series.
func plotExpression(dir string) error {
	tab := results.ReadColumns(filepath.Join(dir, ExpressionFile))
	sets, reps, genes, ts, vs := tab.Strings("set"), tab.Strings("replicate"), tab.Strings("gene"), tab.Floats("t"), tab.Floats("value")
	if err := tab.Err(); err != nil {
		return err
	}
	type key struct{ gene, set, rep string }
	lines := map[key]plotter.XYs{}
	var geneOrder, setOrder []string
	for i := range genes {
		if !slices.Contains(geneOrder, genes[i]) {
			geneOrder = append(geneOrder, genes[i])
		}
		if !slices.Contains(setOrder, sets[i]) {
			setOrder = append(setOrder, sets[i])
		}
		k := key{genes[i], sets[i], reps[i]}
		lines[k] = append(lines[k], plotter.XY{X: ts[i], Y: vs[i]})
	}
	keys := make([]key, 0, len(lines))
	for k := range lines {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool {
		if keys[a].set != keys[b].set {
			return slices.Index(setOrder, keys[a].set) > slices.Index(setOrder, keys[b].set)
		}
		return keys[a].rep < keys[b].rep
	})
	var panels []*plot.Plot
	for _, g := range geneOrder {
		p := newPanel(g)
		p.Title.TextStyle.Font.Size = 8
		p.Title.Padding = 1
		p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size = 6, 6 // 5 pt read as specks on the page
		p.X.Tick.Marker = plot.ConstantTicks{{Value: 1, Label: "1"}, {Value: 10, Label: "10"}}
		for _, k := range keys {
			if k.gene != g {
				continue
			}
			l, err := plotter.NewLine(lines[k])
			if err != nil {
				return err
			}
			l.LineStyle.Width = vg.Points(0.4)
			l.LineStyle.Color = plots.Colors[slices.Index(setOrder, k.set)%len(plots.Colors)]
			p.Add(l)
		}
		panels = append(panels, p)
	}
	cols := 10
	rows := (len(panels) + cols - 1) / cols
	f := plots.Figure{Rows: rows, Cols: cols, Panels: panels, Width: vg.Length(cols) * 1.35 * vg.Inch, Height: vg.Length(rows) * 1.15 * vg.Inch,
		Title: "Figure 5.9: normalised expression against time index (" + strings.Join(setOrder, ", ") + " in colour order blue, orange)"}
	return experiments.SaveFigure(dir, "fig5_9", f)
}

// plotErrors draws Figure 5.11: the per-sequence reconstruction error
// against k for VB and MAP (median over seeds, band: range over seeds) on
// each set, and the one-step prediction error (extension) on the test set.
func plotErrors(dir string) error {
	tab := results.ReadColumns(filepath.Join(dir, ErrorsFile))
	kinds, methods, sets, ks, recon, pred := tab.Strings("kind"), tab.Strings("method"), tab.Strings("set"), tab.Floats("k"), tab.Floats("recon"), tab.Floats("pred")
	if err := tab.Err(); err != nil {
		return err
	}
	// Training, test, then any extra test set.
	setOrder := []string{"train", "test"}
	for i := range sets {
		if !slices.Contains(setOrder, sets[i]) {
			setOrder = append(setOrder, sets[i])
		}
	}
	series := func(method, set string, v []float64) plots.Series {
		by := map[float64][]float64{}
		for i := range ks {
			if kinds[i] == kindSweep && methods[i] == method && sets[i] == set {
				by[ks[i]] = append(by[ks[i]], v[i])
			}
		}
		s := plots.Series{Name: method, Points: true}
		var kk []float64
		for k := range by {
			kk = append(kk, k)
		}
		slices.Sort(kk)
		for _, k := range kk {
			xs := by[k]
			s.X, s.Y = append(s.X, k), append(s.Y, medianOf(xs))
			s.Lo, s.Hi = append(s.Lo, slices.Min(xs)), append(s.Hi, slices.Max(xs))
		}
		return s
	}
	var panels []*plot.Plot
	label := map[string]string{"train": "training sequences", "test": "test sequences"}
	for i, set := range setOrder {
		title := fmt.Sprintf("(%c) %s", 'a'+i, label[set])
		if label[set] == "" {
			title = fmt.Sprintf("(%c) %s (extra test set)", 'a'+i, set)
		}
		p, _, err := plots.Lines(plots.Axes{Title: title, XLabel: "k", YLabel: "squared error per sequence", IntegerX: true},
			series(MethodMAP, set, recon), series(MethodVB, set, recon))
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	if slices.Contains(setOrder, "test") {
		p, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("(%c) extension: one-step prediction, test", 'a'+len(setOrder)), XLabel: "k", YLabel: "squared error per sequence", IntegerX: true},
			series(MethodMAP, "test", pred), series(MethodVB, "test", pred))
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	f := plots.Figure{Rows: 1, Cols: len(panels), Panels: panels, Width: vg.Length(len(panels)) * 3.6 * vg.Inch, Height: 3.4 * vg.Inch,
		Title: "Figure 5.11: one-step reconstruction error against k (median over seeds; band: range)"}
	return experiments.SaveFigure(dir, "fig5_11", f)
}

// interactionMatrices reads the first seed's default-variant matrices of
// interactions.csv, and the number of significant entries of every seed's
// default variant (in seed order).
func interactionMatrices(dir string) (names []string, m map[string]*mat.Dense, perSeed []int, err error) {
	tab := results.ReadColumns(filepath.Join(dir, InteractionsFile))
	seeds, variants, tg, rows, cols, sig := tab.Strings("seed"), tab.Strings("variant"), tab.Strings("target_gene"), tab.Floats("target"), tab.Floats("source"), tab.Floats("significant")
	if err := tab.Err(); err != nil {
		return nil, nil, nil, err
	}
	p := 0
	count := map[int]int{}
	for i := range seeds {
		if variants[i] != "default" {
			continue
		}
		s, err := strconv.Atoi(seeds[i])
		if err != nil || s < 0 {
			return nil, nil, nil, fmt.Errorf("%s line %d: seed %q is not a seed number", InteractionsFile, tab.Table().Line(i), seeds[i])
		}
		count[s] += int(sig[i])
		if s == 0 {
			p = max(p, int(rows[i]), int(cols[i]))
		}
	}
	if p == 0 {
		return nil, nil, nil, fmt.Errorf("%s: no interactions of seed 0", InteractionsFile)
	}
	for s := 0; s < len(count); s++ {
		perSeed = append(perSeed, count[s])
	}
	names = make([]string, p)
	m = map[string]*mat.Dense{}
	for _, c := range []string{"map_total", "vb_d", "vb_var", "z", "significant", "truth"} {
		v := tab.Floats(c)
		if err := tab.Err(); err != nil {
			return nil, nil, nil, err
		}
		d := mat.NewDense(p, p, nil)
		for i := range seeds {
			if seeds[i] == "0" && variants[i] == "default" {
				d.Set(int(rows[i])-1, int(cols[i])-1, v[i])
				names[int(rows[i])-1] = tg[i]
			}
		}
		m[c] = d
	}
	return names, m, perSeed, nil
}

// perSeedText lists counts per seed and their median, for figure titles
// that draw one seed: "108, 105, 101 (median 105)"; one seed gives its
// count alone.
func perSeedText(counts []int) string {
	if len(counts) == 1 {
		return strconv.Itoa(counts[0])
	}
	xs := make([]string, len(counts))
	fs := make([]float64, len(counts))
	for i, n := range counts {
		xs[i], fs[i] = strconv.Itoa(n), float64(n)
	}
	return fmt.Sprintf("%s (median %g)", strings.Join(xs, ", "), medianOf(fs))
}

// maxAbs returns the largest finite |entry| of m (1 if there is none).
func maxAbs(m *mat.Dense) float64 {
	r, c := m.Dims()
	var v float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if x := math.Abs(m.At(i, j)); !math.IsNaN(x) && !math.IsInf(x, 0) {
				v = math.Max(v, x)
			}
		}
	}
	if v == 0 {
		return 1
	}
	return v
}

// plotInteractions draws Figure 5.12 (and the truth for the surrogate).
func plotInteractions(dir string) error {
	_, m, perSeed, err := interactionMatrices(dir)
	if err != nil {
		return err
	}
	p, _ := m["vb_d"].Dims()
	masked := mat.NewDense(p, p, nil)
	for i := 0; i < p; i++ {
		for j := 0; j < p; j++ {
			if m["significant"].At(i, j) == 1 {
				masked.Set(i, j, m["vb_d"].At(i, j))
			}
		}
	}
	lim := math.Max(maxAbs(m["vb_d"]), 1e-12)
	vv := m["vb_var"]
	type heat struct {
		title, label string
		m            *mat.Dense
		cmap         palette.ColorMap
	}
	maps := []heat{
		{"(a) MAP D + CB", "MAP D + CB", m["map_total"], plots.DivergingMap(maxAbs(m["map_total"]))},
		{"(b) VB ⟨D⟩", "posterior mean of D", m["vb_d"], plots.DivergingMap(lim)},
		{"(c) VB posterior variance of D", "posterior variance of D", vv, plots.GrayMap(0, maxAbs(vv))},
		{fmt.Sprintf("(d) ⟨D⟩ where |z| > threshold: %d entries", perSeed[0]), "posterior mean of D", masked, plots.DivergingMap(lim)},
	}
	if truth := m["truth"]; !math.IsNaN(truth.At(0, 0)) {
		maps = append(maps, heat{"(e) surrogate's true D", "true D", truth, plots.DivergingMap(maxAbs(truth))})
	}
	var panels []*plot.Plot
	for _, h := range maps {
		pl, err := plots.HeatMap(h.title, h.m, h.cmap, h.label)
		if err != nil {
			return err
		}
		panels = append(panels, pl)
	}
	f := plots.Figure{Rows: 1, Cols: len(panels), Panels: panels, Width: vg.Length(len(panels)) * 3 * vg.Inch, Height: 3.8 * vg.Inch,
		Title: "Figure 5.12: gene-gene interaction matrices of seed 0 (rows: target gene, columns: source gene; red > 0, blue < 0)\nsignificant entries per seed: " + perSeedText(perSeed)}
	return experiments.SaveFigure(dir, "fig5_12", f)
}

// plotNetwork draws Figure 5.13 from network.csv and interactions.csv (for
// the gene names), the first seed's default variant.
func plotNetwork(dir string) error {
	names, _, perSeed, err := interactionMatrices(dir)
	if err != nil {
		return err
	}
	tab := results.ReadColumns(filepath.Join(dir, NetworkFile))
	seeds, variants, src, tgt, sign, te := tab.Strings("seed"), tab.Strings("variant"), tab.Floats("source"), tab.Floats("target"), tab.Floats("sign"), tab.Strings("true_edge")
	if err := tab.Err(); err != nil {
		return err
	}
	t := *tab.Table()
	var arcs []plots.Arc
	pos, neg, self, fps := 0, 0, 0, 0
	for i := range seeds {
		if seeds[i] != "0" || variants[i] != "default" {
			continue
		}
		a := plots.Arc{From: int(src[i]) - 1, To: int(tgt[i]) - 1, Sign: int(sign[i]), Highlight: te[i] == "false"}
		if a.From < 0 || a.From >= len(names) || a.To < 0 || a.To >= len(names) {
			return fmt.Errorf("%s line %d: gene index out of range", NetworkFile, t.Line(i))
		}
		arcs = append(arcs, a)
		switch {
		case a.From == a.To:
			self++
		case a.Sign > 0:
			pos++
		default:
			neg++
		}
		if a.Highlight {
			fps++
		}
	}
	nw, err := plots.NewNetwork(names, arcs)
	if err != nil {
		return err
	}
	p := newPanel(fmt.Sprintf("seed 0: %d excitatory (green), %d inhibitory (red, dotted), %d self-connections (circles)", pos, neg, self))
	if fps > 0 {
		p.Title.Text += fmt.Sprintf("; %d false positives (grey halo)", fps)
	}
	p.Title.Text += "\nsignificant entries (arcs) per seed: " + perSeedText(perSeed)
	p.Add(nw)
	p.HideAxes()
	f := plots.Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{p}, Width: 8.5 * vg.Inch, Height: 8 * vg.Inch,
		Title: "Figure 5.13: significant entries of ⟨D⟩ (|z| above the threshold) as a network, source → target, seed 0"}
	return experiments.SaveFigure(dir, "fig5_13", f)
}
