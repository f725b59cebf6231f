package backfit

import (
	"fmt"
	"math"
	"path/filepath"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// smoothRows are the rows of one (set, seed) of a table of backfit/supersmooth.
type smoothRows struct{ cols map[string][]float64 }

// readSmooth returns, for draw 0 of every data set, the named columns of
// dir/name.
func readSmooth(dir, name string, cols ...string) (map[string]smoothRows, error) {
	t, err := results.ReadCSV(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	sc, err := t.Col("set")
	if err != nil {
		return nil, err
	}
	dc, err := t.Col("seed")
	if err != nil {
		return nil, err
	}
	idx := make([]int, len(cols))
	for k, c := range cols {
		if idx[k], err = t.Col(c); err != nil {
			return nil, err
		}
	}
	out := map[string]smoothRows{}
	for i, row := range t.Rows {
		seed, err := t.Int(i, dc)
		if err != nil {
			return nil, err
		}
		if seed != 0 {
			continue
		}
		r, ok := out[row[sc]]
		if !ok {
			r = smoothRows{cols: map[string][]float64{}}
		}
		for k, c := range cols {
			v, err := t.Float(i, idx[k])
			if err != nil {
				return nil, err
			}
			r.cols[c] = append(r.cols[c], v)
		}
		out[row[sc]] = r
	}
	return out, nil
}

// PlotSupersmooth draws dsouza_fig3_19: for draw 0 of each data set, the
// data with the supersmoother's and LWR's fits (and the true function of
// the synthetic sets) above, and E[h] at every query on a log axis below,
// as the text's Fig. 3.19 (L1227).
func PlotSupersmooth(dir string) error {
	fits, err := readSmooth(dir, "supersmooth_fits.csv", "x", "truth", "ss_mean", "lwr", "E_h")
	if err != nil {
		return err
	}
	data, err := readSmooth(dir, "supersmooth_data.csv", "x", "y")
	if err != nil {
		return err
	}
	titles := map[string]string{setWiggly: "(a) varying frequency", setStep: "(b) step, trail-off, noisy section", setFaithful: "(c) Old Faithful"}
	var top, bottom []*plot.Plot
	for _, set := range []string{setWiggly, setStep, setFaithful} {
		f, d := fits[set], data[set]
		if len(f.cols["x"]) == 0 || len(d.cols["x"]) == 0 {
			return fmt.Errorf("%s: no rows of draw 0 of data set %s", dir, set)
		}
		series := []plots.Series{{Name: "data", X: d.cols["x"], Y: d.cols["y"], Markers: true}}
		if !math.IsNaN(f.cols["truth"][0]) {
			series = append(series, plots.Series{Name: "true f", X: f.cols["x"], Y: f.cols["truth"]})
		} else {
			series = append(series, plots.Series{}) // no true f: keep each curve's style across the panels
		}
		series = append(series, plots.Series{Name: "supersmoother", X: f.cols["x"], Y: f.cols["ss_mean"]},
			plots.Series{Name: "LWR (LOO h)", X: f.cols["x"], Y: f.cols["lwr"]})
		p, _, err := plots.Lines(plots.Axes{Title: titles[set], XLabel: "x", YLabel: "y"}, series...)
		if err != nil {
			return err
		}
		q, _, err := plots.Lines(plots.Axes{Title: "bandwidth E[h] at each query", XLabel: "x_q", YLabel: "E[h]", LogY: true},
			plots.Series{Name: "E[h]", X: f.cols["x"], Y: f.cols["E_h"], Points: true})
		if err != nil {
			return err
		}
		top, bottom = append(top, p), append(bottom, q)
	}
	return experiments.SaveFigure(dir, "dsouza_fig3_19", plots.Figure{Rows: 2, Cols: 3, Panels: append(top, bottom...),
		Title: "D'Souza Fig. 3.19: Bayesian supersmoothing against LWR with a global LOO bandwidth"})
}
