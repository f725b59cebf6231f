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
// in format "svg" or "png" (at DPI dots per inch). A title wider than w
// is wrapped (Wrap) for the drawing.
func RenderPlot(p *plot.Plot, w, h vg.Length, format string) ([]byte, error) {
	if p == nil {
		return nil, fmt.Errorf("plots: RenderPlot: nil plot")
	}
	c, err := newCanvas(w, h, format)
	if err != nil {
		return nil, err
	}
	defer func(text string) { p.Title.Text = text }(p.Title.Text)
	p.Title.Text = Wrap(p.Title.TextStyle, p.Title.Text, w)
	p.Draw(draw.New(c))
	return encode(c)
}

// maxTitleLines is the most lines a figure's title wraps to before Render
// widens the figure.
const maxTitleLines = 3

// Wrap breaks text at spaces into lines no wider than width in style sty,
// keeping its own line breaks. A word wider than width stays whole on its
// own line.
func Wrap(sty text.Style, s string, width vg.Length) string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		if sty.Width(para) <= width {
			out = append(out, para)
			continue
		}
		line := ""
		for _, word := range strings.Fields(para) {
			switch {
			case line == "":
				line = word
			case sty.Width(line+" "+word) <= width:
				line += " " + word
			default:
				out = append(out, line)
				line = word
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// Render draws a figure and returns the encoded bytes in format "svg" or
// "png" (at DPI dots per inch). The caller writes them out. No title is
// clipped: the figure's title wraps to the figure's width (and a figure
// too narrow for it in three lines is widened, its grid centred, the
// height grown by the added lines), and each panel's title wraps to the
// width of its cell.
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
	w, h := f.Width, f.Height
	if w == 0 {
		w = vg.Length(f.Cols) * PanelWidth
	}
	// The title wraps to the width of the figure; a figure too narrow for
	// it in maxTitleLines lines is widened, its grid centred.
	gridWidth := w
	title := f.Title
	if title != "" {
		title = Wrap(titleStyle, f.Title, w-vg.Points(8))
		if lines := strings.Count(title, "\n") + 1; lines > maxTitleLines {
			w = max(w, titleStyle.Width(f.Title)/maxTitleLines*1.15+vg.Points(8))
			title = Wrap(titleStyle, f.Title, w-vg.Points(8))
		}
	}
	var titleHeight vg.Length
	if title != "" {
		titleHeight = titleStyle.Rectangle(title).Size().Y + vg.Points(6)
	}
	if h == 0 {
		h = vg.Length(f.Rows)*PanelHeight + titleHeight
	} else if title != f.Title {
		// A Height chosen for the title as given grows by the lines
		// that wrapping added.
		h += titleStyle.Rectangle(title).Size().Y - titleStyle.Rectangle(f.Title).Size().Y
	}
	c, err := newCanvas(w, h, format)
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)

	if title != "" {
		dc.FillText(titleStyle, vg.Point{X: dc.Center().X, Y: dc.Max.Y - vg.Points(3)}, title)
		dc = draw.Crop(dc, 0, 0, 0, -titleHeight)
	}
	if side := (w - gridWidth) / 2; side > 0 {
		dc = draw.Crop(dc, side, -side, 0, 0)
	}

	// Panel titles wrap to the width of a cell; they are restored after
	// drawing, so the caller's plots are unchanged.
	cellWidth := (gridWidth - figureTiles.PadLeft - figureTiles.PadRight - vg.Length(f.Cols-1)*figureTiles.PadX) / vg.Length(f.Cols)
	for _, p := range f.Panels {
		if p != nil && p.Title.Text != "" {
			defer func(p *plot.Plot, text string) { p.Title.Text = text }(p, p.Title.Text)
			p.Title.Text = Wrap(p.Title.TextStyle, p.Title.Text, cellWidth)
		}
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
