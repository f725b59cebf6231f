package plots

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// inlinePad is the room an InlineLabel's card leaves around its text.
const inlinePad = vg.Length(1.5)

// InlineLabels is a plot.Plotter that writes each label centred on its
// point, in data coordinates, on a white card a little larger than the
// text, so that the line beneath it (the contour or curve that the label
// names) breaks for it, as a contour map labels its levels. Labels whose
// point lies outside the data area are not drawn.
type InlineLabels struct {
	XYs    plotter.XYs
	Labels []string

	// TextStyle is the labels' style; NewInlineLabels sets TickSize in
	// the given colour.
	TextStyle text.Style
}

// NewInlineLabels returns labels at xys in colour c. It returns an error
// when the lengths differ or a point is not finite.
func NewInlineLabels(xys plotter.XYs, labels []string, c color.Color) (*InlineLabels, error) {
	if len(xys) != len(labels) {
		return nil, fmt.Errorf("plots: inline labels: %d points, %d labels", len(xys), len(labels))
	}
	for i, p := range xys {
		if !drawable(p.X, false) || !drawable(p.Y, false) {
			return nil, fmt.Errorf("plots: inline label %q at (%v, %v)", labels[i], p.X, p.Y)
		}
	}
	return &InlineLabels{XYs: xys, Labels: labels, TextStyle: text.Style{
		Color: c, Font: font.From(plot.DefaultFont, TickSize),
		XAlign: draw.XCenter, YAlign: draw.YCenter, Handler: plot.DefaultTextHandler,
	}}, nil
}

// Plot implements plot.Plotter.
func (l *InlineLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i, xy := range l.XYs {
		at := vg.Point{X: trX(xy.X), Y: trY(xy.Y)}
		if !c.Contains(at) {
			continue
		}
		r := l.TextStyle.Rectangle(l.Labels[i])
		w, h := r.Size().X/2+inlinePad, r.Size().Y/2+inlinePad
		var card vg.Path
		card.Move(vg.Point{X: at.X - w, Y: at.Y - h})
		card.Line(vg.Point{X: at.X + w, Y: at.Y - h})
		card.Line(vg.Point{X: at.X + w, Y: at.Y + h})
		card.Line(vg.Point{X: at.X - w, Y: at.Y + h})
		card.Close()
		c.SetColor(color.White)
		c.Fill(card)
		c.FillText(l.TextStyle, at, l.Labels[i])
	}
}

// DataRange implements plot.DataRanger: the labels' points.
func (l *InlineLabels) DataRange() (xmin, xmax, ymin, ymax float64) {
	return plotter.XYRange(l.XYs)
}
