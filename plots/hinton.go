package plots

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// HintonMaxSide is the side of the square of the largest weight, as a
// fraction of a cell, so that neighbouring squares never touch.
const HintonMaxSide = 0.9

// HintonInvalid is the colour of the full-size square drawn for a NaN or
// ±Inf entry, which has no place on the white–black scale.
var HintonInvalid color.Color = color.NRGBA{R: 0xD0, G: 0x20, B: 0x20, A: 0xFF}

// Hinton is a plot.Plotter that draws a matrix as a Hinton diagram: entry
// (i, j) is a square centred on the data point (x, y) = (j, i), with side
// HintonMaxSide·√(|w|/Max) cells, white for w > 0 and black for w < 0, on a
// grey background covering the matrix area [-½, c-½] × [-½, r-½]. A zero
// entry draws no square.
//
// Row 0 is at the top only when the plot's y axis is inverted,
// p.Y.Scale = plot.InvertedScale{Normalizer: plot.LinearScale{}}, as
// HintonPlot arranges. When a cell is not square on the canvas, every
// square's side is measured in the shorter of the cell's two dimensions, so
// squares stay square whatever the panel's aspect ratio.
type Hinton struct {
	// Max is the magnitude drawn at the full side HintonMaxSide. Zero (or
	// any value that is not positive and finite) means the largest finite
	// |w| in the matrix. Set the same Max on several diagrams to draw them
	// on one scale; entries with |w| > Max are drawn at the full side.
	Max float64

	// Background, Positive and Negative are the fill colours; they start
	// as HintonBackground, HintonPositive and HintonNegative.
	Background, Positive, Negative color.Color

	w *mat.Dense
}

var (
	_ plot.Plotter    = (*Hinton)(nil)
	_ plot.DataRanger = (*Hinton)(nil)
)

// NewHinton returns a Hinton diagram of a copy of m. It panics if m has no
// rows or no columns.
func NewHinton(m mat.Matrix) *Hinton {
	r, c := m.Dims()
	if r == 0 || c == 0 {
		panic("plots: NewHinton: empty matrix")
	}
	return &Hinton{
		Background: HintonBackground,
		Positive:   HintonPositive,
		Negative:   HintonNegative,
		w:          mat.DenseCopyOf(m),
	}
}

// Dims returns the numbers of rows and columns of the matrix.
func (h *Hinton) Dims() (r, c int) { return h.w.Dims() }

// Scale returns the magnitude drawn at the full side: Max if it is positive
// and finite, otherwise the largest finite |w| (zero for a zero matrix).
func (h *Hinton) Scale() float64 {
	if h.Max > 0 && !math.IsInf(h.Max, 0) {
		return h.Max
	}
	var m float64
	r, c := h.w.Dims()
	for i := range r {
		for j := range c {
			if v := math.Abs(h.w.At(i, j)); !math.IsInf(v, 0) && v > m { // NaN > m is false
				m = v
			}
		}
	}
	return m
}

// Square is one square of a Hinton diagram, in data coordinates.
type Square struct {
	Row, Col int
	Value    float64

	// X, Y is the centre: X = Col, Y = Row.
	X, Y float64

	// Side is the side length in cells (data units), in (0, HintonMaxSide].
	Side float64

	Color color.Color
}

// Squares returns the squares Plot would draw, in row-major order. Zero
// entries have none. NaN and ±Inf entries get a full-size square of colour
// HintonInvalid.
func (h *Hinton) Squares() []Square {
	scale := h.Scale()
	r, c := h.w.Dims()
	var sq []Square
	for i := range r {
		for j := range c {
			v := h.w.At(i, j)
			s := Square{Row: i, Col: j, Value: v, X: float64(j), Y: float64(i)}
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				s.Side, s.Color = HintonMaxSide, HintonInvalid
			case v == 0 || scale == 0:
				continue
			default:
				s.Side = HintonMaxSide * math.Sqrt(math.Min(math.Abs(v)/scale, 1))
				s.Color = h.Positive
				if v < 0 {
					s.Color = h.Negative
				}
			}
			sq = append(sq, s)
		}
	}
	return sq
}

// DataRange implements plot.DataRanger: the matrix area, half a cell
// beyond the outer centres.
func (h *Hinton) DataRange() (xmin, xmax, ymin, ymax float64) {
	r, c := h.w.Dims()
	return -0.5, float64(c) - 0.5, -0.5, float64(r) - 0.5
}

// Plot implements plot.Plotter.
func (h *Hinton) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	xmin, xmax, ymin, ymax := h.DataRange()

	if h.Background != nil {
		bg := c.ClipPolygonXY([]vg.Point{
			{X: trX(xmin), Y: trY(ymin)},
			{X: trX(xmax), Y: trY(ymin)},
			{X: trX(xmax), Y: trY(ymax)},
			{X: trX(xmin), Y: trY(ymax)},
		})
		if len(bg) > 0 {
			c.FillPolygon(h.Background, bg)
		}
	}

	// Measure sides in the shorter dimension of a cell so squares stay square.
	cell := min(abs(trX(1)-trX(0)), abs(trY(1)-trY(0)))
	for _, s := range h.Squares() {
		centre := vg.Point{X: trX(s.X), Y: trY(s.Y)}
		if !c.Contains(centre) {
			continue
		}
		half := vg.Length(s.Side) * cell / 2
		var pa vg.Path
		pa.Move(vg.Point{X: centre.X - half, Y: centre.Y - half})
		pa.Line(vg.Point{X: centre.X + half, Y: centre.Y - half})
		pa.Line(vg.Point{X: centre.X + half, Y: centre.Y + half})
		pa.Line(vg.Point{X: centre.X - half, Y: centre.Y + half})
		pa.Close()
		c.SetColor(s.Color)
		c.Fill(pa)
	}
}

func abs(l vg.Length) vg.Length {
	if l < 0 {
		return -l
	}
	return l
}

// HintonPlot returns a plot of a Hinton diagram of m with row 0 at the top,
// rows and columns numbered from 1 as a matrix is printed, and no axis
// padding, so that the grey background meets the axes. Every row and column
// is labelled up to 20 of them, and every 5th (or 10th, 20th, …) beyond.
// It returns an error if m has no rows or columns.
func HintonPlot(title string, m mat.Matrix) (*plot.Plot, error) {
	r, c := m.Dims()
	if r == 0 || c == 0 {
		return nil, fmt.Errorf("plots: HintonPlot %q: empty %d×%d matrix", title, r, c)
	}
	p := newPlot(title)
	p.Add(NewHinton(m))
	p.X.Padding, p.Y.Padding = 0, 0
	p.Y.Scale = plot.InvertedScale{Normalizer: plot.LinearScale{}}
	p.X.Tick.Marker = IndexTicks(c)
	p.Y.Tick.Marker = IndexTicks(r)
	return p, nil
}

// IndexTicks returns ticks for n matrix indices at data positions
// 0 … n-1, labelled 1 … n. Up to 20 indices all are labelled; beyond, only
// the first and every step'th, with step in 5, 10, 20, 50, … chosen to
// leave at most 10 labels, and unlabelled indices get minor ticks up to
// n = 100.
func IndexTicks(n int) plot.ConstantTicks {
	step := 1
	if n > 20 {
		for _, s := range []int{5, 10, 20, 50, 100, 200, 500, 1000} {
			step = s
			if n/s <= 10 {
				break
			}
		}
	}
	var ticks plot.ConstantTicks
	for i := range n {
		label := ""
		if step == 1 || i == 0 || (i+1)%step == 0 {
			label = strconv.Itoa(i + 1)
		} else if n > 100 {
			continue
		}
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: label})
	}
	return ticks
}

// NamedTicks returns ticks at data positions 0 … len(names)-1 labelled by
// names, for the rows or columns of a Hinton diagram that stand for named
// things (digit classes 0-9) rather than matrix indices numbered from 1.
func NamedTicks(names ...string) plot.ConstantTicks {
	ticks := make(plot.ConstantTicks, len(names))
	for i, n := range names {
		ticks[i] = plot.Tick{Value: float64(i), Label: n}
	}
	return ticks
}
