package backfit

import (
	"fmt"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// writeFig49 writes the first sinc data set's fits (dsouza_fig4_9.csv: the
// test grid, sinc and every method's prediction) and its points with the
// vectors each method keeps (dsouza_fig4_9_points.csv).
func (c *RVMConfig) writeFig49(env *experiments.Env, refs []cellRef, cells []RVMCell) error {
	at := slices.Index(refs, cellRef{"sinc", 0})
	if at < 0 {
		return fmt.Errorf("no first sinc data set")
	}
	t, err := c.sincTask(0)
	if err != nil {
		return err
	}
	cols := []string{"x", "sinc"}
	for _, f := range cells[at].Fits {
		cols = append(cols, f.Method)
	}
	fit := results.NewTable(cols...)
	for i, x := range t.xte {
		row := []any{x, sinc(x)}
		for _, f := range cells[at].Fits {
			row = append(row, f.Pred[i])
		}
		fit.AddRow(row...)
	}
	if err := results.WriteCSV(env.Path("dsouza_fig4_9.csv"), *fit); err != nil {
		return err
	}
	pcols := []string{"x", "y"}
	for _, f := range cells[at].Fits {
		pcols = append(pcols, f.Method+"_kept")
	}
	pts := results.NewTable(pcols...)
	for i, x := range t.xtr {
		row := []any{x, t.ytr[i]*t.scale + t.meanY}
		for _, f := range cells[at].Fits {
			row = append(row, boolInt(slices.Contains(f.KeptIdx, i)))
		}
		pts.AddRow(row...)
	}
	return results.WriteCSV(env.Path("dsouza_fig4_9_points.csv"), *pts)
}

// rvmLabels name the methods on the figures.
var rvmLabels = map[string]string{"rvm": "RVM", "brvm": "backfitting RVM", "brvm_fixed_noise": "bRVM, ψ at the RVM's 1/β"}

// PlotRVM draws dsouza_fig4_9 (the sinc fits, one panel a method, its kept
// vectors circled), dsouza_fig4_11 (Boston nMSE of every split, sorted, a
// line a method) and dsouza_fig4_13 (kept vectors of every split and sinc
// data set, sorted, on a log scale) from the results folder's tables.
func PlotRVM(dir string) error {
	fit := results.ReadColumns(filepath.Join(dir, "dsouza_fig4_9.csv"))
	pts := results.ReadColumns(filepath.Join(dir, "dsouza_fig4_9_points.csv"))
	cells := results.ReadColumns(filepath.Join(dir, "rvm_cells.csv"))
	for _, t := range []*results.Columns{fit, pts, cells} {
		if err := t.Err(); err != nil {
			return err
		}
	}
	methods := fit.Table().Header[2:]
	x, truth := fit.Floats("x"), fit.Floats("sinc")
	px, py := pts.Floats("x"), pts.Floats("y")
	var panels []*plot.Plot
	for _, m := range methods {
		pred, keep := fit.Floats(m), pts.Floats(m+"_kept")
		var kx, ky []float64
		for i, k := range keep {
			if k == 1 {
				kx, ky = append(kx, px[i]), append(ky, py[i])
			}
		}
		p, _, err := plots.Lines(plots.Axes{Title: rvmLabels[m], XLabel: "x", YLabel: "y"},
			plots.Series{Name: "data", X: px, Y: py, Markers: true},
			plots.Series{Name: "sin(x)/x", X: x, Y: truth},
			plots.Series{Name: "fit", X: x, Y: pred},
			plots.Series{Name: fmt.Sprintf("kept vectors (%d)", len(kx)), X: kx, Y: ky, Markers: true})
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	if err := fit.Err(); err != nil {
		return err
	}
	if err := experiments.SaveFigure(dir, "dsouza_fig4_9", plots.Figure{Rows: 1, Cols: len(panels), Panels: panels,
		Title: "D'Souza Fig. 4.9: sinc fitted by the RVM and the backfitting RVM (first data set)"}); err != nil {
		return err
	}
	data, method := cells.Strings("data"), cells.Strings("method")
	nm, kept := cells.Floats("nmse"), cells.Floats("kept")
	if err := cells.Err(); err != nil {
		return err
	}
	sorted := func(ds string, val []float64) []plots.Series {
		var out []plots.Series
		for _, m := range methods {
			var ys []float64
			for i := range data {
				if data[i] == ds && method[i] == m {
					ys = append(ys, val[i])
				}
			}
			slices.Sort(ys)
			xs := make([]float64, len(ys))
			for i := range xs {
				xs[i] = float64(i + 1)
			}
			out = append(out, plots.Series{Name: rvmLabels[m], X: xs, Y: ys, Points: true})
		}
		return out
	}
	p, _, err := plots.Lines(plots.Axes{Title: "Boston: test nMSE of every split, sorted", XLabel: "split (rank)", YLabel: "nMSE", LogY: true}, sorted("boston", nm)...)
	if err != nil {
		return err
	}
	if err := experiments.SaveFigure(dir, "dsouza_fig4_11", plots.Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{p},
		Title: "D'Souza Fig. 4.11 (RVM and bRVM bars only): nMSE on Boston, 20 % test splits"}); err != nil {
		return err
	}
	var vp []*plot.Plot
	for _, ds := range rvmData {
		p, _, err := plots.Lines(plots.Axes{Title: ds + ": kept basis vectors, sorted", XLabel: "data set or split (rank)", YLabel: "vectors kept", LogY: true}, sorted(ds, kept)...)
		if err != nil {
			return err
		}
		vp = append(vp, p)
	}
	return experiments.SaveFigure(dir, "dsouza_fig4_13", plots.Figure{Rows: 1, Cols: len(vp), Panels: vp,
		Title: "D'Souza Fig. 4.13 (RVM and bRVM only): basis vectors kept (α or E[α_m] at most prune_alpha)"})
}
