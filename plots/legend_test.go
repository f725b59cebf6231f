package plots

import (
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// placed draws p on a panel-sized canvas and returns where its legend went.
func placed(t *testing.T, p *plot.Plot) (top, left bool) {
	t.Helper()
	if _, err := RenderPlot(p, PanelWidth, PanelHeight, "svg"); err != nil {
		t.Fatal(err)
	}
	return p.Legend.Top, p.Legend.Left
}

func line(x0, y0, x1, y1 float64, n int) (xs, ys []float64) {
	for i := range n {
		f := float64(i) / float64(n-1)
		xs, ys = append(xs, x0+f*(x1-x0)), append(ys, y0+f*(y1-y0))
	}
	return xs, ys
}

// TestLinesLegendAvoidsData checks that Lines' legend goes to the corner
// with the fewest marks, whatever gonum's default (top right).
func TestLinesLegendAvoidsData(t *testing.T) {
	for _, c := range []struct {
		name      string
		a, b      [4]float64 // two straight series, x0 y0 x1 y1
		top, left bool
	}{
		// Two rising curves: the top left is empty.
		{"rising", [4]float64{0, 0, 10, 10}, [4]float64{0, 1, 10, 9}, true, true},
		// Two falling curves: the top right is empty (the default).
		{"falling", [4]float64{0, 10, 10, 0}, [4]float64{0, 9, 10, 1}, true, false},
		// Flat curves along the top: the bottom, right first.
		{"flat top", [4]float64{0, 10, 10, 10}, [4]float64{0, 9, 10, 9.5}, false, false},
	} {
		xa, ya := line(c.a[0], c.a[1], c.a[2], c.a[3], 30)
		xb, yb := line(c.b[0], c.b[1], c.b[2], c.b[3], 30)
		// Pin the y range so that "flat top" has room below.
		pin := Series{X: []float64{0, 10}, Y: []float64{0, 0}}
		if c.name != "flat top" {
			pin = Series{X: []float64{0}, Y: []float64{5}}
		}
		p, _, err := Lines(Axes{}, Series{Name: "first series", X: xa, Y: ya, Points: true}, Series{Name: "second", X: xb, Y: yb}, Series{X: pin.X[:1], Y: pin.Y[:1]})
		if err != nil {
			t.Fatal(err)
		}
		if top, left := placed(t, p); top != c.top || left != c.left {
			t.Errorf("%s: legend top=%v left=%v, want top=%v left=%v", c.name, top, left, c.top, c.left)
		}
	}
}

// TestPlaceLegendCountsMarks checks the choice among corners by the number
// of marks covered, and that a later PlaceLegend adds to the marks of an
// earlier one.
func TestPlaceLegendCountsMarks(t *testing.T) {
	p := plot.New()
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	s, _ := plotter.NewScatter(plotter.XYs{{X: 0, Y: 0}})
	p.Legend.Add("a long legend entry", s)
	p.Legend.Add("another", s)
	// Two points at every corner and side of the data area but the
	// bottom left, which holds one.
	var pts plotter.XYs
	for _, x := range []float64{0.02, 0.5, 0.98} {
		for _, y := range []float64{0.02, 0.5, 0.98} {
			pts = append(pts, plotter.XY{X: x, Y: y})
			if x != 0.02 || y != 0.02 {
				pts = append(pts, plotter.XY{X: x, Y: y + 0.01})
			}
		}
	}
	corners := plotter.XYs{{X: 0.98, Y: 0.98}, {X: 0.02, Y: 0.98}, {X: 0.98, Y: 0.02}, {X: 0.02, Y: 0.02}}
	PlaceLegend(p, Marks{Points: []plotter.XYs{pts}})
	if top, left := placed(t, p); top || !left {
		t.Errorf("legend top=%v left=%v, want the bottom left (fewest points)", top, left)
	}
	// Points added in every corner: the middle of the right side, with the
	// grid's two points only, is now the emptiest.
	PlaceLegend(p, Marks{Points: []plotter.XYs{corners, {{X: 0.5, Y: 0.5}}}})
	if _, err := RenderPlot(p, PanelWidth, PanelHeight, "svg"); err != nil {
		t.Fatal(err)
	}
	if p.Legend.Top || p.Legend.Left || !(p.Legend.YOffs > 0) {
		t.Errorf("legend top=%v left=%v yoffs=%v, want the middle of the right side", p.Legend.Top, p.Legend.Left, p.Legend.YOffs)
	}
}

func TestSegmentMeets(t *testing.T) {
	r := vg.Rectangle{Min: vg.Point{X: 0, Y: 0}, Max: vg.Point{X: 1, Y: 1}}
	for _, c := range []struct {
		a, b vg.Point
		want bool
	}{
		{vg.Point{X: -1, Y: 0.5}, vg.Point{X: 2, Y: 0.5}, true},    // crosses without an end inside
		{vg.Point{X: 0.5, Y: 0.5}, vg.Point{X: 0.6, Y: 0.6}, true}, // inside
		{vg.Point{X: -1, Y: 2}, vg.Point{X: 2, Y: 2}, false},       // above
		{vg.Point{X: -1, Y: 0.5}, vg.Point{X: 0.5, Y: 3}, false},   // passes the corner
		{vg.Point{X: 2, Y: -1}, vg.Point{X: -1, Y: 2}, true},       // diagonal through
	} {
		if got := segmentMeets(r, c.a, c.b); got != c.want {
			t.Errorf("segmentMeets(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
