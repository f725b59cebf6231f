package plots

import (
	"bytes"
	"image/color"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// stroke is a stroked path seen on the canvas, with the line style set
// before it.
type stroke struct {
	color  color.Color
	width  vg.Length
	dashed bool
	pts    []vg.Point
}

// recordNetwork draws n on a square recorder canvas and returns its
// strokes, the colours of its filled paths and its text, in order.
func recordNetwork(t *testing.T, n *Network) (strokes []stroke, fills []color.Color, texts []*recorder.FillString) {
	t.Helper()
	p, err := NetworkPlot("", n.Names, n.Arcs)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder.Canvas{}
	c := p.DataCanvas(draw.NewCanvas(rec, 4*vg.Inch, 4*vg.Inch))
	n.Plot(c, p)
	var cur stroke
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *recorder.SetColor:
			cur.color = a.Color
		case *recorder.SetLineWidth:
			cur.width = a.Width
		case *recorder.SetLineDash:
			cur.dashed = len(a.Dashes) > 0
		case *recorder.Stroke:
			s := cur
			for _, comp := range a.Path {
				if comp.Type != vg.CloseComp {
					s.pts = append(s.pts, comp.Pos)
				}
			}
			strokes = append(strokes, s)
		case *recorder.Fill:
			fills = append(fills, cur.color)
		case *recorder.FillString:
			texts = append(texts, a)
		}
	}
	return strokes, fills, texts
}

func TestNetworkDrawn(t *testing.T) {
	// Four nodes: 0 at the top, 1 right, 2 bottom, 3 left. An excitatory
	// arc 0 → 2 (top to bottom), an inhibitory highlighted one 1 → 3
	// (right to left), and a self-connection of node 3.
	n := &Network{Names: []string{"top", "right", "bottom", "left"}, Arcs: []Arc{
		{From: 0, To: 2, Sign: 1},
		{From: 1, To: 3, Sign: -1, Highlight: true},
		{From: 3, To: 3, Sign: 1},
	}}
	strokes, fills, texts := recordNetwork(t, n)
	if len(strokes) != 4 {
		t.Fatalf("%d strokes, want 4 (arc, halo + arc, self-connection)", len(strokes))
	}
	down, halo, across, self := strokes[0], strokes[1], strokes[2], strokes[3]
	if down.color != NetworkPositive || down.dashed {
		t.Errorf("excitatory arc: colour %v, dashed %v; want green, solid", down.color, down.dashed)
	}
	if !(down.pts[0].Y > down.pts[1].Y) || math.Abs(float64(down.pts[0].X-down.pts[1].X)) > 1e-9 {
		t.Errorf("arc 0 → 2 runs from %v to %v, want straight down", down.pts[0], down.pts[1])
	}
	if halo.color != NetworkHalo || !(halo.width > across.width) || !slices.Equal(halo.pts, across.pts) {
		t.Errorf("halo: colour %v width %v under an arc of width %v; want a wider grey stroke on the same path", halo.color, halo.width, across.width)
	}
	if across.color != NetworkNegative || !across.dashed || !(across.pts[0].X > across.pts[1].X) {
		t.Errorf("inhibitory arc: colour %v, dashed %v, from %v to %v; want red, dotted, right to left", across.color, across.dashed, across.pts[0], across.pts[1])
	}
	// The self-connection is a closed loop left of node 3's dot (node 3
	// sits at the left of the circle), and is not a halo.
	if len(self.pts) != 25 || self.pts[0] != self.pts[24] || self.color != NetworkPositive {
		t.Errorf("self-connection: %d points, colour %v", len(self.pts), self.color)
	}
	// Fills: the two arrowheads in their arcs' colours, then the four
	// node dots.
	want := []color.Color{NetworkPositive, NetworkNegative, color.Black, color.Black, color.Black, color.Black}
	if !slices.Equal(fills, want) {
		t.Errorf("fills %v, want %v", fills, want)
	}
	if len(texts) != 4 {
		t.Fatalf("%d labels, want 4", len(texts))
	}
	for i, tx := range texts {
		if tx.String != n.Names[i] {
			t.Errorf("label %d = %q, want %q", i, tx.String, n.Names[i])
		}
	}
	// The left node's label ends left of the circle; the right one's starts
	// right of it.
	if !(texts[3].Point.X < self.pts[0].X) || !(texts[1].Point.X > across.pts[0].X) {
		t.Errorf("labels at %v (left) and %v (right)", texts[3].Point, texts[1].Point)
	}
	if xmin, xmax, ymin, ymax := n.DataRange(); !(xmin < -1.13 && xmax > 1.13 && ymin < -1.13 && ymax > 1.13) {
		t.Errorf("DataRange %v %v %v %v leaves no room for the labels", xmin, xmax, ymin, ymax)
	}
}

func TestNetworkErrorsAndRender(t *testing.T) {
	if _, err := NewNetwork([]string{"a", "b"}, []Arc{{From: 0, To: 2}}); err == nil {
		t.Error("arc to node 2 of 2: no error")
	}
	if _, err := NetworkPlot("x", []string{"a"}, []Arc{{From: -1, To: 0}}); err == nil {
		t.Error("arc from node -1: no error")
	}
	p, err := NetworkPlot("three genes", []string{"a", "b", "c"}, []Arc{{From: 0, To: 1, Sign: 1}, {From: 2, To: 0, Sign: -1}})
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Width != 0 || p.Y.Width != 0 {
		t.Errorf("axes of widths %v, %v: want them hidden", p.X.Width, p.Y.Width)
	}
	svg, err := RenderPlot(p, 4*vg.Inch, 4*vg.Inch, "svg")
	if err != nil || !bytes.Contains(svg, []byte("three genes")) {
		t.Fatalf("render: %d bytes without the title, %v", len(svg), err)
	}
}
