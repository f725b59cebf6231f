package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Colours of a Network: excitatory (positive) arcs green and solid,
// inhibitory (negative) ones red and dotted, a grey halo behind the arcs
// marked Highlight.
var (
	NetworkPositive color.Color = color.RGBA{0x1B, 0x9E, 0x3A, 0xFF}
	NetworkNegative color.Color = color.RGBA{0xD7, 0x26, 0x1E, 0xFF}
	NetworkHalo     color.Color = color.RGBA{0xBB, 0xBB, 0xBB, 0xFF}
)

// Arc is one directed edge of a Network, from node From to node To
// (indices into its Names; From == To is a self-connection). Sign < 0
// draws it as inhibitory, otherwise as excitatory; Highlight draws a grey
// halo behind it (for example an arc the truth does not have).
type Arc struct {
	From, To  int
	Sign      int
	Highlight bool
}

// Network is a plot.Plotter of a directed graph with its nodes on the unit
// circle, node 0 at the top and the others clockwise, each labelled with
// its name outside the circle: an arc is a straight line with an arrowhead
// at its target, a self-connection a small circle just outside its node.
// Its data range leaves room for the labels; hide the axes of its plot
// (NetworkPlot does).
type Network struct {
	Names []string
	Arcs  []Arc
}

// NewNetwork returns a Network of the named nodes and the arcs between
// them; it is an error if an arc names a node outside 0..len(names)−1.
func NewNetwork(names []string, arcs []Arc) (*Network, error) {
	for i, a := range arcs {
		if a.From < 0 || a.From >= len(names) || a.To < 0 || a.To >= len(names) {
			return nil, fmt.Errorf("plots: network arc %d (%d → %d) names a node outside 0..%d", i, a.From, a.To, len(names)-1)
		}
	}
	return &Network{Names: names, Arcs: arcs}, nil
}

// NetworkPlot returns a panel with the title that shows the network of the
// named nodes and the arcs between them, axes hidden.
func NetworkPlot(title string, names []string, arcs []Arc) (*plot.Plot, error) {
	n, err := NewNetwork(names, arcs)
	if err != nil {
		return nil, err
	}
	p := newPlot(title)
	p.Add(n)
	p.HideAxes()
	return p, nil
}

// position returns the place of node i of N on the unit circle: node 0 at
// the top, the others clockwise.
func position(i, N int) (x, y float64) {
	a := math.Pi/2 - 2*math.Pi*float64(i)/float64(N)
	return math.Cos(a), math.Sin(a)
}

// Plot implements plot.Plotter: the arcs first (each halo under its arc),
// then the nodes and their names.
func (n *Network) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	N := len(n.Names)
	halo := draw.LineStyle{Color: NetworkHalo, Width: vg.Points(3)}
	for _, a := range n.Arcs {
		ls := draw.LineStyle{Color: NetworkPositive, Width: vg.Points(0.8)}
		if a.Sign < 0 {
			ls = draw.LineStyle{Color: NetworkNegative, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(1.5), vg.Points(1.5)}}
		}
		x0, y0 := position(a.From, N)
		x1, y1 := position(a.To, N)
		if a.From == a.To {
			// A self-connection: a small circle just outside the node.
			cx, cy := 1.06*x0, 1.06*y0
			var pts []vg.Point
			for t := 0; t <= 24; t++ {
				th := 2 * math.Pi * float64(t) / 24
				pts = append(pts, vg.Point{X: trX(cx + 0.04*math.Cos(th)), Y: trY(cy + 0.04*math.Sin(th))})
			}
			if a.Highlight {
				c.StrokeLines(halo, pts)
			}
			c.StrokeLines(ls, pts)
			continue
		}
		// Stop short of the target so the arrowhead sits at the node.
		dx, dy := x1-x0, y1-y0
		l := math.Hypot(dx, dy)
		ex, ey := x1-0.03*dx/l, y1-0.03*dy/l
		p0, p1 := vg.Point{X: trX(x0), Y: trY(y0)}, vg.Point{X: trX(ex), Y: trY(ey)}
		if a.Highlight {
			c.StrokeLines(halo, []vg.Point{p0, p1})
		}
		c.StrokeLines(ls, []vg.Point{p0, p1})
		// Arrowhead.
		ux, uy := float64(p1.X-p0.X), float64(p1.Y-p0.Y)
		ul := math.Hypot(ux, uy)
		if ul == 0 {
			continue
		}
		ux, uy = ux/ul, uy/ul
		const h, w = 5.0, 2.2
		var head vg.Path
		head.Move(p1)
		head.Line(vg.Point{X: p1.X - vg.Length(h*ux-w*uy), Y: p1.Y - vg.Length(h*uy+w*ux)})
		head.Line(vg.Point{X: p1.X - vg.Length(h*ux+w*uy), Y: p1.Y - vg.Length(h*uy-w*ux)})
		head.Close()
		c.SetColor(ls.Color)
		c.Fill(head)
	}
	sty := text.Style{Color: color.Black, Font: plot.DefaultFont, Handler: plot.DefaultTextHandler}
	sty.Font.Size = vg.Points(5.5)
	for i, name := range n.Names {
		x, y := position(i, N)
		pt := vg.Point{X: trX(x), Y: trY(y)}
		c.SetColor(color.Black)
		var dot vg.Path
		dot.Arc(pt, vg.Points(1.3), 0, 2*math.Pi)
		c.Fill(dot)
		s := sty
		s.XAlign, s.YAlign = draw.XLeft, draw.YCenter
		if x < -1e-9 {
			s.XAlign = draw.XRight
		}
		lx, ly := 1.13*x, 1.13*y
		c.FillText(s, vg.Point{X: trX(lx), Y: trY(ly)}, name)
	}
}

// DataRange implements plot.DataRanger: the unit circle with room for the
// labels around it.
func (n *Network) DataRange() (xmin, xmax, ymin, ymax float64) { return -1.45, 1.45, -1.3, 1.3 }
