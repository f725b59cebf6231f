package bnn

import (
	"path/filepath"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// PlotNRD redraws lawrence_fig6_17: the mean number of hidden nodes kept
// against N, with ± one standard deviation over the networks (L2680).
func PlotNRD(dir string) error {
	c := results.ReadColumns(filepath.Join(dir, "lawrence_fig6_17.csv"))
	n, m, sd := c.Floats("n"), c.Floats("mean_kept"), c.Floats("sd_kept")
	if err := c.Err(); err != nil {
		return err
	}
	p, _, err := plots.Lines(plots.Axes{Title: "hidden nodes kept by NRD against N (mean ± sd)", XLabel: "N", YLabel: "hidden nodes", LogX: true},
		plots.Series{Name: "mean over the networks", X: n, Y: m, Points: true})
	if err != nil {
		return err
	}
	if _, err := plots.ErrorBars(p, 0, n, m, sd); err != nil {
		return err
	}
	return experiments.SaveFigure(dir, "lawrence_fig6_17", plots.Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{p},
		Title: "Lawrence Fig. 6.17: node relevance determination on 0.4 sin 2πx"})
}
