package mixq

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// PlotSBN redraws, from sbn_nets.csv and sbn_means.csv alone, the figures
// the results folder's config names: lawrence_fig2_4 (histograms of the
// relative error, one panel per fit, its mean in the title),
// lawrence_fig2_5 (mean percentage error against M) and lawrence_fig2_6
// (mean percentage error against W, one curve per fit).
func PlotSBN(dir string) error {
	m := results.ReadColumns(filepath.Join(dir, "sbn_means.csv"))
	spans, fits, comps, means := m.Floats("span"), m.Strings("fit"), m.Floats("components"), m.Floats("mean_rel_err")
	if err := m.Err(); err != nil {
		return err
	}
	var spanSet []float64
	var fitSet []string
	for i := range spans {
		if !slices.Contains(spanSet, spans[i]) {
			spanSet = append(spanSet, spans[i])
		}
		if !slices.Contains(fitSet, fits[i]) {
			fitSet = append(fitSet, fits[i])
		}
	}
	if len(spanSet) > 2 {
		var series []plots.Series
		for _, f := range fitSet {
			var x, y []float64
			for i := range spans {
				if fits[i] == f {
					x, y = append(x, spans[i]), append(y, 100*means[i])
				}
			}
			name := fitLabel(f)
			if f != "MF" && f != "Markov" {
				name = f + " mixture"
			}
			series = append(series, plots.Series{Name: name, X: x, Y: y, Points: true})
		}
		p, _, err := plots.Lines(plots.Axes{Title: "mean relative error against the span W", XLabel: "W", YLabel: "mean % relative error"}, series...)
		if err != nil {
			return err
		}
		return experiments.SaveFigure(dir, "lawrence_fig2_6", plots.Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{p},
			Title: "Lawrence Fig. 2.6: mean field and a mixture as the span of the weights grows"})
	}
	// span 1: Figs 2.4 and 2.5.
	var x, y []float64
	for i := range spans {
		if fits[i] != "MF" && fits[i] != "Markov" {
			x, y = append(x, comps[i]), append(y, 100*means[i])
		}
	}
	p, _, err := plots.Lines(plots.Axes{Title: "mean relative error against M", XLabel: "components M", YLabel: "mean % relative error", IntegerX: true},
		plots.Series{Name: "mixture", X: x, Y: y, Points: true})
	if err != nil {
		return err
	}
	if err := experiments.SaveFigure(dir, "lawrence_fig2_5", plots.Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{p},
		Title: "Lawrence Fig. 2.5: mean percentage relative error against the number of components"}); err != nil {
		return err
	}
	n := results.ReadColumns(filepath.Join(dir, "sbn_nets.csv"))
	nf, ne := n.Strings("fit"), n.Floats("rel_err")
	if err := n.Err(); err != nil {
		return err
	}
	hi := 0.0
	for _, e := range ne {
		hi = math.Max(hi, e)
	}
	const bins = 40
	var panels []*plot.Plot
	for k, f := range fitSet {
		counts := make([]float64, bins)
		var sum float64
		var cnt int
		for i := range nf {
			if nf[i] != f {
				continue
			}
			b := min(bins-1, max(0, int(ne[i]/hi*bins)))
			counts[b]++
			sum += ne[i]
			cnt++
		}
		var hx, hy []float64 // a step outline of the histogram
		for b := range bins {
			lo, up := hi*float64(b)/bins, hi*float64(b+1)/bins
			hx = append(hx, 100*lo, 100*up)
			hy = append(hy, counts[b], counts[b])
		}
		name := fitLabel(f)
		s := make([]plots.Series, k+1) // the k-th style for the k-th fit
		s[k] = plots.Series{Name: name, X: hx, Y: hy}
		p, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("%s: mean %.2f%%", name, 100*sum/float64(max(cnt, 1))), XLabel: "% relative error", YLabel: "nets"}, s...)
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	cols := 3
	return experiments.SaveFigure(dir, "lawrence_fig2_4", plots.Figure{Rows: (len(panels) + cols - 1) / cols, Cols: cols, Panels: panels,
		Title: "Lawrence Fig. 2.4: histograms of the relative error (L − 𝓛)/L"})
}

// fitLabel names a fit of sbn_nets.csv in a figure.
func fitLabel(f string) string {
	switch f {
	case "MF":
		return "mean field"
	case "Markov":
		return "Markov chain"
	}
	return f
}
