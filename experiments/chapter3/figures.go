package chapter3

import (
	"fmt"
	"path/filepath"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// PlotSynthetic redraws Figures 3.2 and 3.3 from summary.json, trace.csv
// and params.csv in dir, without recomputing anything.
func PlotSynthetic(dir string) error {
	sum, err := results.ReadSummary(filepath.Join(dir, "summary.json"))
	if err != nil {
		return err
	}
	d, r, err := figureRun(sum)
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, "summary.json"), err)
	}
	tr, err := results.ReadCSV(filepath.Join(dir, "trace.csv"))
	if err != nil {
		return err
	}
	f32, err := figure3_2(tr, d, r)
	if err != nil {
		return err
	}
	if err := experiments.SaveFigure(dir, "fig3_2", f32); err != nil {
		return err
	}
	pt, err := results.ReadCSV(filepath.Join(dir, "params.csv"))
	if err != nil {
		return err
	}
	f33, err := figure3_3(pt, d, r)
	if err != nil {
		return err
	}
	return experiments.SaveFigure(dir, "fig3_3", f33)
}

func figureRun(sum results.Summary) (int, int, error) {
	d, ok1 := sum.Metrics["figure_dataset"]
	r, ok2 := sum.Metrics["figure_restart"]
	if !ok1 || !ok2 {
		return 0, 0, fmt.Errorf("metrics figure_dataset and figure_restart missing")
	}
	return int(d), int(r), nil
}

// traceOf extracts one fit's objective trace from trace.csv.
func traceOf(t results.Table, d, r int, method string) (iter, obj []float64, err error) {
	return experiments.ReadTrace(t, runName(d, r)+"/"+method)
}

// figure3_2 draws (a) ln p(y|θ) against EM iteration, (b) F against VBEM
// iteration continuing from where ML stopped, (c) and (d) their
// per-iteration changes on log axes (caption L2140). F at VB iteration 0 is
// the bound of the hand-built initial q(θ) and is not drawn (targets §1.4).
func figure3_2(t results.Table, d, r int) (plots.Figure, error) {
	// Without an ML baseline (vb.init = "random" or "random-means",
	// ml.baseline = false) only the VB panels (b) and (d) are drawn, against
	// VB iterations.
	mlIt, ml, mlErr := traceOf(t, d, r, "ML")
	vbIt, f, err := traceOf(t, d, r, "VB")
	if err != nil {
		return plots.Figure{}, err
	}
	// EM iterations are counted from 1; VB continues from the last one.
	x := func(it []float64, off float64) []float64 {
		o := make([]float64, len(it))
		for i, v := range it {
			o[i] = v + off
		}
		return o
	}
	mlX := x(mlIt, 1)
	vbX := x(vbIt[1:], float64(len(ml)))
	delta := func(xs, ys []float64) ([]float64, []float64) {
		var dx, dy []float64
		for i := 1; i < len(ys); i++ {
			dx = append(dx, xs[i])
			dy = append(dy, ys[i]-ys[i-1])
		}
		return dx, dy
	}
	vbLabel := "iteration (continuing from ML)"
	if mlErr != nil {
		vbLabel = "VB iteration"
	}
	pb, _, err := plots.Lines(plots.Axes{Title: "(b) VB: lower bound F", XLabel: vbLabel, YLabel: "F (nats)"},
		plots.Series{X: vbX, Y: f[1:]})
	if err != nil {
		return plots.Figure{}, err
	}
	dvx, dvf := delta(vbX, f[1:])
	pd, _, err := plots.Lines(plots.Axes{Title: "(d) VB: change in F", XLabel: vbLabel, YLabel: "ΔF (nats)", LogY: true},
		plots.Series{X: dvx, Y: dvf, Points: true})
	if err != nil {
		return plots.Figure{}, err
	}
	if mlErr != nil {
		return plots.Figure{Rows: 1, Cols: 2, Panels: []*plot.Plot{pb, pd}, Width: 2 * plots.PanelWidth, Height: plots.PanelHeight,
			Title: fmt.Sprintf("Figure 3.2: VB training from a random start, no ML baseline (data set %d, restart %d)", d, r)}, nil
	}
	pa, _, err := plots.Lines(plots.Axes{Title: "(a) ML: log likelihood", XLabel: "EM iteration", YLabel: "ln p(y|θ) (nats)"},
		plots.Series{X: mlX, Y: ml})
	if err != nil {
		return plots.Figure{}, err
	}
	dmx, dml := delta(mlX, ml)
	pc, _, err := plots.Lines(plots.Axes{Title: "(c) ML: change in log likelihood", XLabel: "EM iteration", YLabel: "Δ ln p (nats)", LogY: true},
		plots.Series{X: dmx, Y: dml})
	if err != nil {
		return plots.Figure{}, err
	}
	return plots.Figure{Rows: 2, Cols: 2, Panels: []*plot.Plot{pa, pb, pc, pd}, Width: 2 * plots.PanelWidth, Height: 2 * plots.PanelHeight,
		Title: fmt.Sprintf("Figure 3.2: ML then VB training (data set %d, restart %d)", d, r)}, nil
}

// paramsOf rebuilds the π (drawn as a k×1 column, so that its rows line
// up with A's and C's), A (k×k) and C (k×p) matrices of one source.
func paramsOf(t results.Table, d, r int, source string) (map[string]*mat.Dense, error) {
	out := map[string]*mat.Dense{}
	for _, name := range []string{"pi", "A", "C"} {
		m, err := experiments.ReadMatrix(t, runName(d, r), source, name)
		if err != nil {
			return nil, err
		}
		out[name] = m
	}
	out["pi"] = mat.DenseCopyOf(out["pi"].T())
	return out, nil
}

// figure3_3 draws Hinton diagrams of (a) the ML π, A, C, (b) the VB
// pseudo-counts w and (c) their row-normalised means (caption L2143).
func figure3_3(t results.Table, d, r int) (plots.Figure, error) {
	var panels []*plot.Plot
	rows := []struct{ source, label string }{
		{"ML", "(a) ML"}, {"VB_counts", "(b) VB counts w"}, {"VB_mean", "(c) VB mean"},
	}
	k := 0
	for _, row := range rows {
		ms, err := paramsOf(t, d, r, row.source)
		if err != nil && row.source == "ML" {
			continue // no ML baseline was run
		}
		if err != nil {
			return plots.Figure{}, err
		}
		k, _ = ms["A"].Dims()
		for _, name := range []string{"pi", "A", "C"} {
			title := fmt.Sprintf("%s %s", row.label, map[string]string{"pi": "π", "A": "A", "C": "C"}[name])
			p, err := plots.HintonPlot(title, ms[name])
			if err != nil {
				return plots.Figure{}, err
			}
			// Rows are hidden states; A's columns the next state, C's
			// the output symbol (π has one column).
			p.Y.Label.Text = map[string]string{"pi": "state", "A": "from state", "C": "state"}[name]
			p.X.Label.Text = map[string]string{"pi": "", "A": "to state", "C": "symbol"}[name]
			if name == "pi" {
				p.X.Tick.Marker = plot.ConstantTicks{} // one column: no index to read
			}
			panels = append(panels, p)
		}
	}
	n := len(panels) / 3
	return plots.Figure{Rows: n, Cols: 3, Panels: panels, Width: 3 * 3.2 * vg.Inch, Height: vg.Length(n) * 3 * vg.Inch,
		Title: fmt.Sprintf("Figure 3.3: learnt parameters, k = %d (data set %d, restart %d)", k, d, r)}, nil
}
