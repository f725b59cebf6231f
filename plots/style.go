package plots

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Sizes of a single panel and the raster resolution. A Figure whose Width
// or Height is zero is sized at PanelWidth × Cols by PanelHeight × Rows.
const (
	PanelWidth  = 4 * vg.Inch
	PanelHeight = 3 * vg.Inch

	// DPI is the resolution of every PNG this package renders.
	DPI = 150
)

// Font sizes, in points.
const (
	FigureTitleSize = vg.Length(13)
	TitleSize       = vg.Length(11)
	LabelSize       = vg.Length(10)
	TickSize        = vg.Length(8)
	LegendSize      = vg.Length(8)
)

// Line and marker geometry.
const (
	LineWidth   = vg.Length(1.2)
	GlyphRadius = vg.Length(2.2)

	// BandAlpha is the opacity (0–255) of the filled band drawn from a
	// Series' Lo and Hi.
	BandAlpha = 0x40
)

// Colors is the colour cycle of line series: the Okabe–Ito palette, which
// stays distinguishable for the common kinds of colour blindness, with its
// yellow left out because it is too pale on white.
var Colors = []color.Color{
	color.NRGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xFF}, // blue
	color.NRGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 0xFF}, // vermillion
	color.NRGBA{R: 0x00, G: 0x9E, B: 0x73, A: 0xFF}, // bluish green
	color.NRGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 0xFF}, // reddish purple
	color.NRGBA{R: 0xE6, G: 0x9F, B: 0x00, A: 0xFF}, // orange
	color.NRGBA{R: 0x56, G: 0xB4, B: 0xE9, A: 0xFF}, // sky blue
	color.NRGBA{R: 0x00, G: 0x00, B: 0x00, A: 0xFF}, // black
}

// Dashes is the dash cycle of line series. It advances together with
// Colors, so that series stay distinguishable when printed in grey.
var Dashes = [][]vg.Length{
	nil,                              // solid
	{vg.Points(5), vg.Points(2.5)},   // dashed
	{vg.Points(1.2), vg.Points(1.8)}, // dotted
	{vg.Points(5), vg.Points(2), vg.Points(1.2), vg.Points(2)}, // dash-dot
	{vg.Points(9), vg.Points(3)},                               // long dash
}

// Glyphs is the marker cycle used when a Series asks for Points.
var Glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{},
	draw.SquareGlyph{},
	draw.TriangleGlyph{},
	draw.CrossGlyph{},
	draw.RingGlyph{},
	draw.PlusGlyph{},
	draw.PyramidGlyph{},
}

// Colours of a Hinton diagram, after BayesPy and Hinton's own figures:
// positive weights are white squares, negative ones black, on grey.
var (
	HintonBackground color.Color = color.Gray{Y: 0x80}
	HintonPositive   color.Color = color.White
	HintonNegative   color.Color = color.Black
)

// LineStyle returns the line style of the i'th series (i ≥ 0). Styles
// depend only on i, so the same series index looks the same in every panel.
func LineStyle(i int) draw.LineStyle {
	return draw.LineStyle{
		Color:  Colors[i%len(Colors)],
		Width:  LineWidth,
		Dashes: Dashes[i%len(Dashes)],
	}
}

// GlyphStyle returns the marker style of the i'th series (i ≥ 0).
func GlyphStyle(i int) draw.GlyphStyle {
	return draw.GlyphStyle{
		Color:  Colors[i%len(Colors)],
		Radius: GlyphRadius,
		Shape:  Glyphs[i%len(Glyphs)],
	}
}

// BandColor returns the translucent fill colour of the i'th series' band.
func BandColor(i int) color.Color {
	r, g, b, _ := Colors[i%len(Colors)].RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: BandAlpha}
}

// newPlot returns a plot with the house fonts and the given title.
func newPlot(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = TitleSize
	p.Title.Padding = vg.Points(4)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = LabelSize
		a.Label.Padding = vg.Points(2)
		a.Tick.Label.Font.Size = TickSize
		a.Tick.Length = vg.Points(4)
		a.Padding = vg.Points(3)
		a.Tick.Marker = Ticks{}
	}
	p.Legend.TextStyle.Font.Size = LegendSize
	p.Legend.Top = true
	p.Legend.ThumbnailWidth = vg.Points(22)
	p.Legend.Padding = vg.Points(1)
	return p
}
