package plots

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// ErrorBars adds vertical error bars from y[j] − e[j] to y[j] + e[j] at
// x[j] to p, drawn solid in the colour of series i (LineStyle(i)), for
// example the standard errors of importance-sampling estimates (Beal 2003
// Figure 4.14) around the markers of series i of a Lines plot. The axes
// grow to hold the bars, and the legend avoids them (PlaceLegend). A point whose x, y or e is NaN or ±Inf, or whose
// e is negative, gets no bar; the number of such points is returned. It
// returns an error when the lengths of x, y and e differ.
func ErrorBars(p *plot.Plot, i int, x, y, e []float64) (dropped int, err error) {
	bars, dropped, err := errorBars(i, x, y, e)
	if err != nil {
		return 0, err
	}
	if len(bars.XYs) > 0 {
		p.Add(bars)
		var m Marks
		for j, xy := range bars.XYs {
			e := bars.YErrors[j]
			m.Lines = append(m.Lines, plotter.XYs{{X: xy.X, Y: xy.Y - e.Low}, {X: xy.X, Y: xy.Y + e.High}})
		}
		PlaceLegend(p, m)
	}
	return dropped, nil
}

// errorBars builds the plotter of ErrorBars.
func errorBars(i int, x, y, e []float64) (*plotter.YErrorBars, int, error) {
	if len(y) != len(x) || len(e) != len(x) {
		return nil, 0, fmt.Errorf("plots: ErrorBars: len(x) = %d, len(y) = %d, len(e) = %d", len(x), len(y), len(e))
	}
	bars := &plotter.YErrorBars{LineStyle: LineStyle(i), CapWidth: vg.Points(4)}
	bars.LineStyle.Dashes = nil
	dropped := 0
	for j := range x {
		if !drawable(x[j], false) || !drawable(y[j], false) || !drawable(e[j], false) || e[j] < 0 {
			dropped++
			continue
		}
		bars.XYs = append(bars.XYs, plotter.XY{X: x[j], Y: y[j]})
		bars.YErrors = append(bars.YErrors, struct{ Low, High float64 }{e[j], e[j]})
	}
	return bars, dropped, nil
}
