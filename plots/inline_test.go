package plots

import (
	"image/color"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// TestInlineLabels: each label inside the data area is a white card
// centred on its point, then its text at the same point; a label outside
// is not drawn, and mismatched lengths are an error.
func TestInlineLabels(t *testing.T) {
	l, err := NewInlineLabels(plotter.XYs{{X: 0.5, Y: 0.5}, {X: 5, Y: 5}}, []string{"0.25", "out"}, Colors[0])
	if err != nil {
		t.Fatal(err)
	}
	p := plot.New()
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	rec := &recorder.Canvas{}
	c := draw.NewCanvas(rec, 4*vg.Inch, 4*vg.Inch)
	trX, trY := p.Transforms(&c)
	l.Plot(c, p)
	var fills []*recorder.Fill
	var texts []*recorder.FillString
	var col color.Color
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *recorder.SetColor:
			col = a.Color
		case *recorder.Fill:
			if col != color.White {
				t.Errorf("card colour %v, want white", col)
			}
			fills = append(fills, a)
		case *recorder.FillString:
			texts = append(texts, a)
		}
	}
	if len(fills) != 1 || len(texts) != 1 {
		t.Fatalf("%d cards and %d texts, want 1 of each (the label outside is not drawn)", len(fills), len(texts))
	}
	at := vg.Point{X: trX(0.5), Y: trY(0.5)}
	lo, hi := vg.Point{X: 1e9, Y: 1e9}, vg.Point{X: -1e9, Y: -1e9}
	for _, comp := range fills[0].Path {
		if comp.Type != vg.CloseComp {
			lo.X, lo.Y, hi.X, hi.Y = min(lo.X, comp.Pos.X), min(lo.Y, comp.Pos.Y), max(hi.X, comp.Pos.X), max(hi.Y, comp.Pos.Y)
		}
	}
	if d := (lo.X+hi.X)/2 - at.X; d*d > 1e-6 {
		t.Errorf("card centred at x %v, want %v", (lo.X+hi.X)/2, at.X)
	}
	if d := (lo.Y+hi.Y)/2 - at.Y; d*d > 1e-6 {
		t.Errorf("card centred at y %v, want %v", (lo.Y+hi.Y)/2, at.Y)
	}
	if w := l.TextStyle.Width("0.25"); hi.X-lo.X <= w {
		t.Errorf("card %v wide, narrower than its text (%v)", hi.X-lo.X, w)
	}
	if texts[0].String != "0.25" {
		t.Errorf("text %q", texts[0].String)
	}
	if _, err := NewInlineLabels(plotter.XYs{{X: 0, Y: 0}}, nil, Colors[0]); err == nil {
		t.Error("1 point and 0 labels: no error")
	}
}
