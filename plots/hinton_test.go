package plots

import (
	"image/color"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

func TestHintonSquares(t *testing.T) {
	// max |w| = 4, so side = 0.9·√(|w|/4).
	m := mat.NewDense(2, 3, []float64{
		1, -4, 0,
		0.25, math.NaN(), -1,
	})
	h := NewHinton(m)
	m.Set(0, 0, 100) // NewHinton copies: this must not show.

	want := []Square{
		{Row: 0, Col: 0, Value: 1, X: 0, Y: 0, Side: 0.45, Color: HintonPositive},
		{Row: 0, Col: 1, Value: -4, X: 1, Y: 0, Side: 0.9, Color: HintonNegative},
		// (0, 2) is zero: no square.
		{Row: 1, Col: 0, Value: 0.25, X: 0, Y: 1, Side: 0.225, Color: HintonPositive},
		{Row: 1, Col: 1, Value: math.NaN(), X: 1, Y: 1, Side: HintonMaxSide, Color: HintonInvalid},
		{Row: 1, Col: 2, Value: -1, X: 2, Y: 1, Side: 0.45, Color: HintonNegative},
	}
	if got := h.Scale(); got != 4 {
		t.Errorf("Scale = %v, want 4 (NaN ignored)", got)
	}
	checkSquares(t, h.Squares(), want)

	// A shared scale: Max = 16 halves every side of the automatic scale 4;
	// entries beyond Max are drawn at the full side.
	h.Max = 16
	for i := range want {
		if !math.IsNaN(want[i].Value) {
			want[i].Side /= 2
		}
	}
	checkSquares(t, h.Squares(), want)
	h.Max = 0.5
	for _, s := range h.Squares() {
		want := HintonMaxSide
		if s.Value == 0.25 {
			want = HintonMaxSide * math.Sqrt(0.5)
		}
		if math.Abs(s.Side-want) > 1e-15 {
			t.Errorf("Max = 0.5: square (%d, %d) of %v has side %v, want %v", s.Row, s.Col, s.Value, s.Side, want)
		}
	}
}

func checkSquares(t *testing.T, got, want []Square) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d squares, want %d: %+v", len(got), len(want), got)
	}
	for i, g := range got {
		w := want[i]
		if g.Row != w.Row || g.Col != w.Col || g.X != w.X || g.Y != w.Y ||
			math.Abs(g.Side-w.Side) > 1e-15 || g.Color != w.Color ||
			!(g.Value == w.Value || math.IsNaN(g.Value) && math.IsNaN(w.Value)) {
			t.Errorf("square %d = %+v, want %+v", i, g, w)
		}
	}
}

func TestHintonZeroAndRange(t *testing.T) {
	h := NewHinton(mat.NewDense(3, 5, nil))
	if sq := h.Squares(); len(sq) != 0 {
		t.Errorf("zero matrix: %d squares, want none", len(sq))
	}
	xmin, xmax, ymin, ymax := h.DataRange()
	if xmin != -0.5 || xmax != 4.5 || ymin != -0.5 || ymax != 2.5 {
		t.Errorf("DataRange = %v %v %v %v, want -0.5 4.5 -0.5 2.5", xmin, xmax, ymin, ymax)
	}
	if r, c := h.Dims(); r != 3 || c != 5 {
		t.Errorf("Dims = %d, %d", r, c)
	}
}

func TestHintonPlotErrors(t *testing.T) {
	if _, err := HintonPlot("empty", &mat.Dense{}); err == nil {
		t.Error("empty matrix: no error")
	}
	defer func() {
		if recover() == nil {
			t.Error("NewHinton of an empty matrix did not panic")
		}
	}()
	NewHinton(&mat.Dense{})
}

// drawnSquare is a filled axis-aligned rectangle seen on the canvas.
type drawnSquare struct {
	color    color.Color
	min, max vg.Point
}

// recordFills draws the plot's plotters on a recorder and returns every
// filled path's colour and bounding box, in drawing order.
func recordFills(t *testing.T, h *Hinton, w, hgt vg.Length) []drawnSquare {
	t.Helper()
	p, err := HintonPlot("", h.w)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder.Canvas{}
	c := p.DataCanvas(draw.NewCanvas(rec, w, hgt))
	h.Plot(c, p)

	var out []drawnSquare
	var col color.Color
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *recorder.SetColor:
			col = a.Color
		case *recorder.Fill:
			d := drawnSquare{color: col, min: vg.Point{X: 1e9, Y: 1e9}, max: vg.Point{X: -1e9, Y: -1e9}}
			for _, comp := range a.Path {
				if comp.Type == vg.CloseComp {
					continue
				}
				d.min.X, d.min.Y = min(d.min.X, comp.Pos.X), min(d.min.Y, comp.Pos.Y)
				d.max.X, d.max.Y = max(d.max.X, comp.Pos.X), max(d.max.Y, comp.Pos.Y)
			}
			out = append(out, d)
		}
	}
	return out
}

func TestHintonDrawn(t *testing.T) {
	// One positive entry in row 0 and one negative in row 2 of a 3×2
	// matrix, drawn in a wide canvas whose cells are not square.
	m := mat.NewDense(3, 2, []float64{
		4, 0,
		0, 0,
		0, -1,
	})
	h := NewHinton(m)
	fills := recordFills(t, h, 6*vg.Inch, 2*vg.Inch)
	if len(fills) != 3 {
		t.Fatalf("%d fills, want background + 2 squares", len(fills))
	}
	bg, top, bottom := fills[0], fills[1], fills[2]
	if bg.color != HintonBackground || top.color != HintonPositive || bottom.color != HintonNegative {
		t.Errorf("colours %v %v %v, want grey, white, black", bg.color, top.color, bottom.color)
	}
	if !(top.min.Y > bottom.max.Y) {
		t.Errorf("row 0 (y %v–%v) is not above row 2 (y %v–%v)", top.min.Y, top.max.Y, bottom.min.Y, bottom.max.Y)
	}
	if !(top.max.X < bottom.min.X) {
		t.Errorf("column 0 is not left of column 1")
	}
	cellH := (bg.max.Y - bg.min.Y) / 3
	for i, s := range []drawnSquare{top, bottom} {
		w, hh := s.max.X-s.min.X, s.max.Y-s.min.Y
		if math.Abs(float64(w-hh)) > 1e-9 {
			t.Errorf("square %d is %v × %v, not square", i, w, hh)
		}
		want := [2]float64{0.9, 0.45}[i] * float64(cellH) // the short side of a cell is its height here
		if math.Abs(float64(w)-want) > 1e-9 {
			t.Errorf("square %d side %v, want %v", i, w, want)
		}
		// Inside the background.
		if s.min.X < bg.min.X || s.max.X > bg.max.X || s.min.Y < bg.min.Y || s.max.Y > bg.max.Y {
			t.Errorf("square %d pokes out of the background", i)
		}
	}
}

func TestIndexTicks(t *testing.T) {
	labels := func(n int) (lab []string, minor int) {
		for _, tk := range IndexTicks(n) {
			if tk.Label == "" {
				minor++
			} else {
				lab = append(lab, tk.Label)
			}
		}
		return lab, minor
	}
	if lab, minor := labels(3); len(lab) != 3 || lab[0] != "1" || lab[2] != "3" || minor != 0 {
		t.Errorf("n = 3: labels %v, %d minor", lab, minor)
	}
	if tk := IndexTicks(3); tk[0].Value != 0 || tk[2].Value != 2 {
		t.Errorf("n = 3: tick positions %v, want 0…2", tk)
	}
	if lab, minor := labels(20); len(lab) != 20 || minor != 0 {
		t.Errorf("n = 20: %d labels, %d minor, want 20, 0", len(lab), minor)
	}
	lab, minor := labels(30)
	want := []string{"1", "5", "10", "15", "20", "25", "30"}
	if len(lab) != len(want) || minor != 30-len(want) {
		t.Fatalf("n = 30: labels %v, %d minor", lab, minor)
	}
	for i := range want {
		if lab[i] != want[i] {
			t.Errorf("n = 30: labels %v, want %v", lab, want)
			break
		}
	}
	if lab, minor := labels(500); len(lab) > 11 || minor != 0 {
		t.Errorf("n = 500: %d labels, %d minor", len(lab), minor)
	}
}
