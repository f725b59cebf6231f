package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Ellipse is a Gaussian's contour at SD standard deviations: centre (X, Y)
// and 2×2 covariance [[XX, XY], [XY, YY]].
type Ellipse struct {
	X, Y       float64
	XX, XY, YY float64
	SD         float64
}

// points returns the contour as a closed polyline of n points: centre +
// SD·L·(cos t, sin t) with L the Cholesky factor of the covariance.
func (e Ellipse) points(n int) (plotter.XYs, error) {
	if !(e.XX > 0) || !(e.YY > 0) || e.XX*e.YY-e.XY*e.XY <= 0 || !(e.SD > 0) {
		return nil, fmt.Errorf("plots: ellipse covariance [[%v %v] [%v %v]] is not positive definite", e.XX, e.XY, e.XY, e.YY)
	}
	l11 := math.Sqrt(e.XX)
	l21 := e.XY / l11
	l22 := math.Sqrt(e.YY - l21*l21)
	pts := make(plotter.XYs, n+1)
	for i := range pts {
		t := 2 * math.Pi * float64(i) / float64(n)
		c, s := math.Cos(t), math.Sin(t)
		pts[i].X = e.X + e.SD*l11*c
		pts[i].Y = e.Y + e.SD*(l21*c+l22*s)
	}
	return pts, nil
}

// ScatterEllipses returns a panel with the points (small grey dots) and
// the ellipses (dark outlines with a dot at the centre), in data units with
// equal scales on both axes.
func ScatterEllipses(ax Axes, xs, ys []float64, ells []Ellipse) (*plot.Plot, error) {
	if len(xs) != len(ys) {
		return nil, fmt.Errorf("plots: %d x values, %d y values", len(xs), len(ys))
	}
	p := newPlot(ax.Title)
	p.X.Label.Text, p.Y.Label.Text = ax.XLabel, ax.YLabel
	sp := newSpan()
	tp := newSpan()
	if len(xs) > 0 {
		pts := make(plotter.XYs, len(xs))
		for i := range xs {
			if math.IsNaN(xs[i]) || math.IsInf(xs[i], 0) || math.IsNaN(ys[i]) || math.IsInf(ys[i], 0) {
				return nil, fmt.Errorf("plots: point %d (%v, %v) is not finite", i, xs[i], ys[i])
			}
			pts[i].X, pts[i].Y = xs[i], ys[i]
			sp.add(xs[i])
			tp.add(ys[i])
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: color.Gray{Y: 170}, Radius: vg.Points(1), Shape: draw.CircleGlyph{}}
		p.Add(sc)
	}
	for i, e := range ells {
		pts, err := e.points(96)
		if err != nil {
			return nil, fmt.Errorf("ellipse %d: %w", i, err)
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		l.LineStyle = draw.LineStyle{Color: color.RGBA{R: 0, G: 70, B: 140, A: 255}, Width: vg.Points(1)}
		p.Add(l)
		c, err := plotter.NewScatter(plotter.XYs{{X: e.X, Y: e.Y}})
		if err != nil {
			return nil, err
		}
		c.GlyphStyle = draw.GlyphStyle{Color: color.RGBA{R: 0, G: 70, B: 140, A: 255}, Radius: vg.Points(1.5), Shape: draw.CircleGlyph{}}
		p.Add(c)
		for _, q := range pts {
			sp.add(q.X)
			tp.add(q.Y)
		}
	}
	if sp.min <= sp.max {
		// Equal scales: widen the narrower range about its centre.
		w, h := sp.max-sp.min, tp.max-tp.min
		if w > h {
			mid := (tp.min + tp.max) / 2
			tp.min, tp.max = mid-w/2, mid+w/2
		} else {
			mid := (sp.min + sp.max) / 2
			sp.min, sp.max = mid-h/2, mid+h/2
		}
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = sp.min, sp.max, tp.min, tp.max
	}
	return p, nil
}
