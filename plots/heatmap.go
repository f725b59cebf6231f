package plots

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Geometry of a HeatMap, in units of the matrix's rows: the colour bar's
// height and the gap between it and the matrix.
const (
	heatBarHeight = 0.08
	heatBarGap    = 0.05
	// heatBarColors is the number of colours the bar shows.
	heatBarColors = 256
	// heatMaxPixels bounds the side of the matrix image: every entry is a
	// square block of pixels (nearest neighbour), so that it stays sharp
	// when the image is scaled.
	heatMaxPixels = 480
)

// NaNColor is the colour of a NaN entry of a HeatMap.
var NaNColor color.Color = color.RGBA{R: 0xB0, G: 0xB0, B: 0xB0, A: 0xFF}

// HeatMap returns a panel that shows the matrix m as an image, one block of
// colour per entry (row 0 at the top, column 0 at the left), coloured by
// cmap (a gonum palette.ColorMap: a LinearMap such as DivergingMap or
// GrayMap, or one of gonum's palette/moreland maps), above a horizontal colour bar: the panel's x axis, drawn
// under the bar, gives the value of each colour, with label as its label.
// Entries beyond [cmap.Min(), cmap.Max()] take the colour of the nearer
// end, NaN entries NaNColor. The y axis is hidden. It returns an error for
// an empty matrix, a nil map, or an empty or non-finite range.
func HeatMap(title string, m mat.Matrix, cmap palette.ColorMap, label string) (*plot.Plot, error) {
	if cmap == nil {
		return nil, fmt.Errorf("plots: heat map %q: nil colour map", title)
	}
	lo, hi := cmap.Min(), cmap.Max()
	if !(lo < hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil, fmt.Errorf("plots: heat map %q: colour range [%v, %v] is empty or not finite", title, lo, hi)
	}
	r, c := m.Dims()
	if r == 0 || c == 0 {
		return nil, fmt.Errorf("plots: heat map %q: empty matrix", title)
	}
	img, err := heatImage(m, cmap)
	if err != nil {
		return nil, fmt.Errorf("plots: heat map %q: %v", title, err)
	}
	bar, err := barImage(cmap)
	if err != nil {
		return nil, fmt.Errorf("plots: heat map %q: %v", title, err)
	}
	rows, cols := float64(r), float64(c)
	hb, gap := heatBarHeight*rows, heatBarGap*rows
	p := newPlot(title)
	p.Add(plotter.NewImage(img, 0, hb+gap, cols, hb+gap+rows), plotter.NewImage(bar, 0, 0, cols, hb))
	p.X.Min, p.X.Max = 0, cols
	p.Y.Min, p.Y.Max = 0, hb+gap+rows
	p.X.Label.Text = label
	p.X.Tick.Marker = BarTicks(cmap, cols)
	p.HideY()
	return p, nil
}

// colorBarHeight is the height of ColorBar's bar, as a fraction of its
// panel's data area.
const colorBarHeight = 0.18

// ColorBar returns a panel that holds only a colour bar: cmap from Min at
// the left to Max at the right, as a strip along the bottom of the data
// area above its x axis, which gives the value of each colour and carries
// label (the quantity and its units), with title written just above the
// strip. It serves figures whose panels share one colour scale (a grid of
// heat maps drawn with gonum's plotter.HeatMap on data axes), beside them
// in the figure. The y axis is hidden. It returns an error for a nil map
// or an empty or non-finite range.
func ColorBar(title string, cmap palette.ColorMap, label string) (*plot.Plot, error) {
	if cmap == nil {
		return nil, fmt.Errorf("plots: colour bar %q: nil colour map", title)
	}
	lo, hi := cmap.Min(), cmap.Max()
	if !(lo < hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil, fmt.Errorf("plots: colour bar %q: colour range [%v, %v] is empty or not finite", title, lo, hi)
	}
	bar, err := barImage(cmap)
	if err != nil {
		return nil, fmt.Errorf("plots: colour bar %q: %v", title, err)
	}
	p := newPlot("")
	p.Add(plotter.NewImage(bar, lo, 0, hi, colorBarHeight))
	if title != "" {
		t, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: (lo + hi) / 2, Y: colorBarHeight}}, Labels: []string{title}})
		if err != nil {
			return nil, fmt.Errorf("plots: colour bar %q: %v", title, err)
		}
		t.TextStyle[0] = p.Title.TextStyle
		t.TextStyle[0].XAlign, t.TextStyle[0].YAlign = draw.XCenter, draw.YBottom
		t.Offset = vg.Point{Y: vg.Points(4)}
		p.Add(t)
	}
	p.X.Min, p.X.Max = lo, hi
	p.Y.Min, p.Y.Max = 0, 1
	p.X.Label.Text = label
	p.HideY()
	return p, nil
}

// BarTicks returns the ticks of a colour bar that spans [0, width] of an
// axis: gonum's default ticks of the map's range [Min, Max], each placed
// at width·(v − Min)/(Max − Min) and labelled with its value v.
func BarTicks(cmap palette.ColorMap, width float64) plot.ConstantTicks {
	lo, hi := cmap.Min(), cmap.Max()
	var out plot.ConstantTicks
	for _, t := range (Ticks{}).Ticks(lo, hi) {
		if t.Value < lo || t.Value > hi {
			continue
		}
		out = append(out, plot.Tick{Value: width * (t.Value - lo) / (hi - lo), Label: t.Label})
	}
	return out
}

// heatColor returns the colour of the value v under cmap: NaNColor for NaN,
// the end colours beyond the range.
func heatColor(cmap palette.ColorMap, v float64) (color.Color, error) {
	if math.IsNaN(v) {
		return NaNColor, nil
	}
	return cmap.At(math.Min(cmap.Max(), math.Max(cmap.Min(), v)))
}

// heatImage returns m as an image whose entries are square blocks of
// pixels, row 0 at the top.
func heatImage(m mat.Matrix, cmap palette.ColorMap) (*image.RGBA, error) {
	r, c := m.Dims()
	px := max(1, heatMaxPixels/max(r, c))
	img := image.NewRGBA(image.Rect(0, 0, c*px, r*px))
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			col, err := heatColor(cmap, m.At(i, j))
			if err != nil {
				return nil, fmt.Errorf("entry (%d, %d) = %v: %v", i, j, m.At(i, j), err)
			}
			for y := i * px; y < (i+1)*px; y++ {
				for x := j * px; x < (j+1)*px; x++ {
					img.Set(x, y, col)
				}
			}
		}
	}
	return img, nil
}

// barImage returns the colour bar, heatBarColors pixels wide from Min at
// the left to Max at the right, one pixel high.
func barImage(cmap palette.ColorMap) (*image.RGBA, error) {
	img := image.NewRGBA(image.Rect(0, 0, heatBarColors, 1))
	lo, hi := cmap.Min(), cmap.Max()
	for x := 0; x < heatBarColors; x++ {
		col, err := heatColor(cmap, lo+(hi-lo)*float64(x)/float64(heatBarColors-1))
		if err != nil {
			return nil, fmt.Errorf("colour bar: %v", err)
		}
		img.Set(x, 0, col)
	}
	return img, nil
}

// LinearMap is a palette.ColorMap that interpolates linearly in RGB between
// colours spaced evenly over [Min, Max].
type LinearMap struct {
	colors   []color.NRGBA
	min, max float64
	alpha    float64
}

// NewLinearMap returns the map through colors (at least two) over [lo, hi].
func NewLinearMap(lo, hi float64, colors ...color.Color) *LinearMap {
	if len(colors) < 2 {
		panic("plots: NewLinearMap needs at least two colours")
	}
	m := &LinearMap{min: lo, max: hi, alpha: 1}
	for _, c := range colors {
		m.colors = append(m.colors, color.NRGBAModel.Convert(c).(color.NRGBA))
	}
	return m
}

// DivergingMap returns the blue-white-red map over [−lim, lim] of signed
// matrices: 0 white, −lim blue, +lim red.
func DivergingMap(lim float64) *LinearMap {
	return NewLinearMap(-lim, lim, color.NRGBA{B: 0xFF, A: 0xFF}, color.White, color.NRGBA{R: 0xFF, A: 0xFF})
}

// GrayMap returns the white-to-black map over [lo, hi] (ink on paper).
func GrayMap(lo, hi float64) *LinearMap { return NewLinearMap(lo, hi, color.White, color.Black) }

// At returns the colour of v, or an error if v is outside [Min, Max] or NaN.
func (m *LinearMap) At(v float64) (color.Color, error) {
	if !(v >= m.min && v <= m.max) {
		return nil, fmt.Errorf("plots: value %v outside the colour map's range [%v, %v]", v, m.min, m.max)
	}
	f := 0.0
	if m.max > m.min {
		f = (v - m.min) / (m.max - m.min) * float64(len(m.colors)-1)
	}
	i := min(int(f), len(m.colors)-2)
	f -= float64(i)
	a, b := m.colors[i], m.colors[i+1]
	mix := func(x, y uint8) uint8 { return uint8(math.Round((1-f)*float64(x) + f*float64(y))) }
	return color.NRGBA{R: mix(a.R, b.R), G: mix(a.G, b.G), B: mix(a.B, b.B), A: uint8(math.Round(m.alpha * float64(mix(a.A, b.A))))}, nil
}

// Max returns the upper end of the range.
func (m *LinearMap) Max() float64 { return m.max }

// SetMax sets the upper end of the range.
func (m *LinearMap) SetMax(v float64) { m.max = v }

// Min returns the lower end of the range.
func (m *LinearMap) Min() float64 { return m.min }

// SetMin sets the lower end of the range.
func (m *LinearMap) SetMin(v float64) { m.min = v }

// Alpha returns the opacity (default 1).
func (m *LinearMap) Alpha() float64 { return m.alpha }

// SetAlpha sets the opacity; it panics outside [0, 1].
func (m *LinearMap) SetAlpha(a float64) {
	if !(a >= 0 && a <= 1) {
		panic(fmt.Sprintf("plots: alpha %v outside [0, 1]", a))
	}
	m.alpha = a
}

// Palette returns n colours evenly spaced over the range.
func (m *LinearMap) Palette(n int) palette.Palette {
	p := make(linearPalette, n)
	for i := range p {
		v := m.min
		if n > 1 {
			v = m.min + (m.max-m.min)*float64(i)/float64(n-1)
		}
		p[i], _ = m.At(v)
	}
	return p
}

// linearPalette is the palette.Palette of LinearMap.Palette.
type linearPalette []color.Color

// Colors returns the colours.
func (p linearPalette) Colors() []color.Color { return p }
