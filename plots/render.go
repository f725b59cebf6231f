package plots

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure is a grid of panels drawn with aligned data areas (plot.Align):
// every panel's data area has the same size, whatever its tick labels.
type Figure struct {
	Rows, Cols int

	// Panels lists the panels row by row. A nil panel leaves its cell
	// empty; fewer than Rows×Cols panels leave the last cells empty.
	Panels []*plot.Plot

	// Width and Height are the size of the whole figure. Zero means
	// Cols×PanelWidth and Rows×PanelHeight (plus room for the Title).
	Width, Height vg.Length

	// Title, if not empty, is centred above the grid.
	Title string
}

// Space around and between the panels of a Figure.
var figureTiles = draw.Tiles{
	PadTop: vg.Points(4), PadBottom: vg.Points(4),
	PadLeft: vg.Points(4), PadRight: vg.Points(8),
	PadX: vg.Points(14), PadY: vg.Points(10),
}

// canvas is a vector or raster canvas that can write itself out.
type canvas interface {
	vg.CanvasSizer
	io.WriterTo
}

// newCanvas returns a blank w×h canvas of the given format: "svg", or
// "png" at DPI dots per inch. The format is case-insensitive and may have a
// leading dot.
func newCanvas(w, h vg.Length, format string) (canvas, error) {
	if !(w > 0) || !(h > 0) {
		return nil, fmt.Errorf("plots: size %v×%v is not positive", w, h)
	}
	switch strings.ToLower(strings.TrimPrefix(format, ".")) {
	case "svg":
		return vgsvg.New(w, h), nil
	case "png":
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI))}, nil
	}
	return nil, fmt.Errorf("plots: unknown format %q (want \"svg\" or \"png\")", format)
}

// encode writes c to memory.
func encode(c canvas) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plots: encoding: %v", err)
	}
	return buf.Bytes(), nil
}

// RenderPlot draws one plot on a w×h canvas and returns the encoded bytes
// in format "svg" or "png" (at DPI dots per inch).
func RenderPlot(p *plot.Plot, w, h vg.Length, format string) ([]byte, error) {
	if p == nil {
		return nil, fmt.Errorf("plots: RenderPlot: nil plot")
	}
	c, err := newCanvas(w, h, format)
	if err != nil {
		return nil, err
	}
	p.Draw(draw.New(c))
	return encode(c)
}

// Render draws a figure and returns the encoded bytes in format "svg" or
// "png" (at DPI dots per inch). The caller writes them out.
func Render(f Figure, format string) ([]byte, error) {
	if f.Rows <= 0 || f.Cols <= 0 {
		return nil, fmt.Errorf("plots: figure grid %d×%d is empty", f.Rows, f.Cols)
	}
	if len(f.Panels) > f.Rows*f.Cols {
		return nil, fmt.Errorf("plots: %d panels do not fit a %d×%d grid", len(f.Panels), f.Rows, f.Cols)
	}

	titleStyle := text.Style{
		Color:   plot.New().Title.TextStyle.Color,
		Font:    font.From(plot.DefaultFont, FigureTitleSize),
		XAlign:  draw.XCenter,
		YAlign:  draw.YTop,
		Handler: plot.DefaultTextHandler,
	}
	var titleHeight vg.Length
	if f.Title != "" {
		titleHeight = titleStyle.Rectangle(f.Title).Size().Y + vg.Points(6)
	}

	w, h := f.Width, f.Height
	if w == 0 {
		w = vg.Length(f.Cols) * PanelWidth
	}
	if h == 0 {
		h = vg.Length(f.Rows)*PanelHeight + titleHeight
	}
	c, err := newCanvas(w, h, format)
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)

	if f.Title != "" {
		dc.FillText(titleStyle, vg.Point{X: dc.Center().X, Y: dc.Max.Y - vg.Points(3)}, f.Title)
		dc = draw.Crop(dc, 0, 0, 0, -titleHeight)
	}

	grid := make([][]*plot.Plot, f.Rows)
	for j := range grid {
		grid[j] = make([]*plot.Plot, f.Cols)
		for i := range grid[j] {
			if k := j*f.Cols + i; k < len(f.Panels) {
				grid[j][i] = f.Panels[k]
			}
		}
	}
	tiles := figureTiles
	tiles.Rows, tiles.Cols = f.Rows, f.Cols
	cells := plot.Align(grid, tiles, dc)
	for j, row := range grid {
		for i, p := range row {
			if p != nil {
				p.Draw(cells[j][i])
			}
		}
	}
	return encode(c)
}
