package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// StackedBars draws one bar per category, each the stack of its layers'
// values from the bottom up: layers[j][i] is layer j's height in category
// i (Figure 4.11: the average number of analysers of each digit class,
// digit 0 at the bottom, against the training-set size). Layers alternate
// between two shades of grey so that neighbours stay apart; names, if not
// nil, label them in a legend placed off the bars (PlaceLegend). Every value must be finite and ≥ 0.
func StackedBars(ax Axes, categories []string, layers [][]float64, names []string) (*plot.Plot, error) {
	if len(categories) == 0 || len(layers) == 0 {
		return nil, fmt.Errorf("plots: StackedBars %q: %d categories, %d layers", ax.Title, len(categories), len(layers))
	}
	if names != nil && len(names) != len(layers) {
		return nil, fmt.Errorf("plots: StackedBars %q: %d names for %d layers", ax.Title, len(names), len(layers))
	}
	for j, l := range layers {
		if len(l) != len(categories) {
			return nil, fmt.Errorf("plots: StackedBars %q: layer %d has %d values for %d categories", ax.Title, j, len(l), len(categories))
		}
		for i, v := range l {
			if !(v >= 0) || math.IsInf(v, 1) {
				return nil, fmt.Errorf("plots: StackedBars %q: layer %d, category %q is %v", ax.Title, j, categories[i], v)
			}
		}
	}
	p := newPlot(ax.Title)
	p.X.Label.Text, p.Y.Label.Text = ax.XLabel, ax.YLabel
	shades := []color.Color{color.Gray{Y: 0x50}, color.Gray{Y: 0xc8}}
	var below *plotter.BarChart
	bars := make([]*plotter.BarChart, len(layers))
	for j, l := range layers {
		b, err := plotter.NewBarChart(plotter.Values(l), vg.Points(18))
		if err != nil {
			return nil, fmt.Errorf("plots: StackedBars %q: %w", ax.Title, err)
		}
		b.Color = shades[j%2]
		b.LineStyle.Width = vg.Length(0.4)
		if below != nil {
			b.StackOn(below)
		}
		below, bars[j] = b, b
		p.Add(b)
	}
	if names != nil {
		// The legend lists the top layer first, as the bars read.
		for j := len(bars) - 1; j >= 0; j-- {
			p.Legend.Add(names[j], bars[j])
		}
		p.Legend.TextStyle.Font.Size = LegendSize
		// The legend avoids the bars: each is marked by its centre line.
		var m Marks
		for i := range categories {
			top := 0.0
			for _, l := range layers {
				top += l[i]
			}
			m.Lines = append(m.Lines, plotter.XYs{{X: float64(i), Y: 0}, {X: float64(i), Y: top}})
		}
		PlaceLegend(p, m)
	}
	p.NominalX(categories...)
	return p, nil
}
