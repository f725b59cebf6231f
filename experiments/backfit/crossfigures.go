package backfit

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// crossGrid is a plotter.GridXYZ over the square grid of side g with z
// row-major (x₂ by row).
type crossGrid struct {
	xs []float64
	z  []float64
}

func (c crossGrid) Dims() (int, int)     { return len(c.xs), len(c.xs) }
func (c crossGrid) Z(col, r int) float64 { return c.z[r*len(c.xs)+col] }
func (c crossGrid) X(col int) float64    { return c.xs[col] }
func (c crossGrid) Y(r int) float64      { return c.xs[r] }

// surfacePanel draws z on the grid xs² with the colour range [lo, hi].
func surfacePanel(title string, xs, z []float64, lo, hi float64) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = plots.TitleSize
	p.X.Label.Text, p.Y.Label.Text = "x₁", "x₂"
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = plots.LabelSize
		a.Tick.Label.Font.Size = plots.TickSize
	}
	cm := moreland.SmoothBlueRed()
	cm.SetMin(lo)
	cm.SetMax(hi)
	h := plotter.NewHeatMap(crossGrid{xs, z}, cm.Palette(64))
	h.Min, h.Max = lo, hi
	p.Add(h)
	return p
}

// PlotCross draws dsouza_fig3_4 from the tables of RunCross: (a) the cross
// function on the (x₁, x₂) plane, (b) the first data set's fitted E[y | u]
// on the plane (the added coordinates 0) with its components' centres
// mapped back to the plane (D'Souza's Fig. 3.4(b)), (c) the occupied
// components and (d) F less the starting F of every data set against the
// tried splits, with the colour bar of (a) and (b).
func PlotCross(dir string) error {
	surf := results.ReadColumns(filepath.Join(dir, "cross_surface.csv"))
	x1, yt, yf := surf.Floats("x1"), surf.Floats("y_true"), surf.Floats("y_fit")
	cen := results.ReadColumns(filepath.Join(dir, "cross_centres.csv"))
	cx, cy := cen.Floats("x1"), cen.Floats("x2")
	mv := results.ReadColumns(filepath.Join(dir, "cross_moves.csv"))
	data, move, occ, fcur := mv.Floats("data"), mv.Floats("move"), mv.Floats("occupied"), mv.Floats("f_current")
	for _, c := range []*results.Columns{surf, cen, mv} {
		if err := c.Err(); err != nil {
			return err
		}
	}
	g := int(math.Round(math.Sqrt(float64(len(x1)))))
	if g < 2 || g*g != len(x1) {
		return fmt.Errorf("cross_surface.csv: %d rows do not make a square grid", len(x1))
	}
	xs := x1[:g]
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range yt {
		lo, hi = math.Min(lo, math.Min(yt[i], yf[i])), math.Max(hi, math.Max(yt[i], yf[i]))
	}
	if !(hi > lo) {
		hi = lo + 1
	}
	a := surfacePanel("(a) the cross function", xs, yt, lo, hi)
	b := surfacePanel(fmt.Sprintf("(b) fit, %d components (centres)", len(cx)), xs, yf, lo, hi)
	if len(cx) > 0 {
		pts := make(plotter.XYs, len(cx))
		for i := range cx {
			pts[i] = plotter.XY{X: cx[i], Y: cy[i]}
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(3), Shape: draw.CrossGlyph{}}
		b.Add(sc)
	}
	var ks, fs []plots.Series
	for i := 0; i < len(data); {
		j := i
		for j < len(data) && data[j] == data[i] {
			j++
		}
		df := make([]float64, j-i)
		for t := range df {
			df[t] = fcur[i+t] - fcur[i]
		}
		ks = append(ks, plots.Series{X: move[i:j], Y: occ[i:j], Points: true})
		fs = append(fs, plots.Series{X: move[i:j], Y: df})
		i = j
	}
	c, _, err := plots.Lines(plots.Axes{Title: "(c) components (N_k ≥ 1), every data set", XLabel: "splits tried", YLabel: "components", IntegerX: true}, ks...)
	if err != nil {
		return err
	}
	d, _, err := plots.Lines(plots.Axes{Title: "(d) F − F(start) of the kept model", XLabel: "splits tried", YLabel: "nats", IntegerX: true}, fs...)
	if err != nil {
		return err
	}
	cm := moreland.SmoothBlueRed()
	cm.SetMin(lo)
	cm.SetMax(hi)
	bar, err := plots.ColorBar("colour scale of (a), (b)", cm, "y")
	if err != nil {
		return err
	}
	return experiments.SaveFigure(dir, "dsouza_fig3_4", plots.Figure{Rows: 2, Cols: 3, Panels: []*plot.Plot{a, b, bar, c, d},
		Title: "D'Souza Fig. 3.4: a mixture of linear experts grown by local splits on the cross function"})
}
