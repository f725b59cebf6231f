package plots

import (
	"bytes"
	"flag"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

var demo = flag.String("demo", "", "also write the sample figure of TestDemoFigure to this file (.png or .svg)")

// demoFigure returns a 2×2 figure mixing a Hinton diagram with log-y line
// plots, the shapes the chapter figures use.
func demoFigure(t *testing.T) Figure {
	t.Helper()
	rnd := rand.New(rand.NewPCG(1, 1))
	w := mat.NewDense(12, 12, nil)
	for i := range 12 {
		for j := range 12 {
			if j >= 9 || rnd.Float64() < 0.15 { // pruned columns and scattered zeros
				continue
			}
			w.Set(i, j, rnd.NormFloat64())
		}
	}
	hint, err := HintonPlot("(a) loadings", w)
	if err != nil {
		t.Fatal(err)
	}

	// Bound increments against iteration, with a zero change (dropped on
	// the log axis) and an IQR band over seeds.
	var traces []Series
	for k, rate := range []float64{0.3, 0.15, 0.05} {
		s := Series{Name: []string{"k = 2", "k = 4", "k = 8"}[k]}
		for it := 1; it <= 60; it++ {
			d := 50 * math.Exp(-rate*float64(it))
			s.X = append(s.X, float64(it))
			s.Y = append(s.Y, d)
			s.Lo = append(s.Lo, d*0.5)
			s.Hi = append(s.Hi, d*1.8)
		}
		s.Y[20] = 0
		traces = append(traces, s)
	}
	tr, dropped, err := Lines(Axes{Title: "(b) ΔF per iteration", XLabel: "iteration", YLabel: "ΔF (nats)", LogY: true}, traces...)
	if err != nil {
		t.Fatal(err)
	}
	if len(dropped) != 3 {
		t.Errorf("dropped = %v, want one record per trace", dropped)
	}

	// A sweep over sizes that double, on log2 x.
	var sweep []Series
	for k, off := range []float64{0, 0.5} {
		s := Series{Name: []string{"VB", "BIC"}[k], Points: true}
		for n := 1; n <= 256; n *= 2 {
			y := 1 / (1 + math.Log2(float64(n))) * (1 + off)
			s.X = append(s.X, float64(n))
			s.Y = append(s.Y, y)
			s.Lo = append(s.Lo, y*0.8)
			s.Hi = append(s.Hi, y*1.25)
		}
		sweep = append(sweep, s)
	}
	sw, _, err := Lines(Axes{Title: "(c) error against n", XLabel: "n", YLabel: "error", Log2X: true, LogY: true}, sweep...)
	if err != nil {
		t.Fatal(err)
	}

	// Free energy against iteration on linear axes, legend bottom right.
	var fs []Series
	for k := range 2 {
		s := Series{Name: []string{"run 1", "run 2"}[k]}
		for it := 0; it <= 40; it++ {
			s.X = append(s.X, float64(it))
			s.Y = append(s.Y, -1200+900*(1-math.Exp(-float64(it)/(6+4*float64(k)))))
		}
		fs = append(fs, s)
	}
	fp, _, err := Lines(Axes{Title: "(d) F", XLabel: "iteration", YLabel: "F (nats)"}, fs...)
	if err != nil {
		t.Fatal(err)
	}
	fp.Legend.Top = false

	return Figure{Rows: 2, Cols: 2, Panels: []*plot.Plot{hint, tr, sw, fp}, Title: "plots demo"}
}

func TestDemoFigure(t *testing.T) {
	f := demoFigure(t)
	for _, format := range []string{"svg", "png"} {
		b, err := Render(f, format)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == 0 {
			t.Errorf("%s: empty output", format)
		}
	}
	if *demo == "" {
		return
	}
	format := strings.ToLower(filepath.Ext(*demo))
	b, err := Render(demoFigure(t), format)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(*demo, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", *demo)
}

func TestRenderSVG(t *testing.T) {
	var outs [][]byte
	for range 2 {
		b, err := Render(demoFigure(t), "svg")
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, b)
	}
	b := outs[0]
	if len(b) == 0 {
		t.Fatal("empty SVG")
	}
	if !bytes.HasPrefix(b, []byte("<?xml")) && !bytes.HasPrefix(b, []byte("<svg")) {
		t.Errorf("SVG starts %q", b[:min(len(b), 20)])
	}
	if !bytes.Contains(b, []byte("</svg>")) {
		t.Error("SVG is not closed")
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("two renders of the same figure differ")
	}
}

func TestRenderPNGSize(t *testing.T) {
	for _, tc := range []struct {
		f          Figure
		wantW, wan int
	}{
		// Default size: 2 × 4in by 1 × 3in at DPI.
		{Figure{Rows: 1, Cols: 2, Panels: []*plot.Plot{mustLines(t), nil}}, 2 * 4 * DPI, 3 * DPI},
		{Figure{Rows: 2, Cols: 1, Panels: []*plot.Plot{mustLines(t)}, Width: 5 * vg.Inch, Height: 4 * vg.Inch}, 5 * DPI, 4 * DPI},
	} {
		b, err := Render(tc.f, "png")
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if got := img.Bounds().Size(); got.X != tc.wantW || got.Y != tc.wan {
			t.Errorf("PNG is %v, want %dx%d", got, tc.wantW, tc.wan)
		}
	}

	b, err := RenderPlot(mustLines(t), 3*vg.Inch, 2*vg.Inch, "PNG")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got.X != 3*DPI || got.Y != 2*DPI {
		t.Errorf("RenderPlot PNG is %v, want %dx%d", got, 3*DPI, 2*DPI)
	}
}

func TestRenderErrors(t *testing.T) {
	p := mustLines(t)
	_, err := Render(Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{p}}, "pdf")
	if err == nil || !strings.Contains(err.Error(), `"pdf"`) {
		t.Errorf("unknown format: err = %v, want one naming \"pdf\"", err)
	}
	if _, err := RenderPlot(p, PanelWidth, PanelHeight, "bmp"); err == nil || !strings.Contains(err.Error(), `"bmp"`) {
		t.Errorf("RenderPlot unknown format: err = %v", err)
	}
	if _, err := Render(Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{p, p}}, "svg"); err == nil {
		t.Error("two panels in a 1×1 grid: no error")
	}
	if _, err := Render(Figure{}, "svg"); err == nil {
		t.Error("0×0 grid: no error")
	}
	if _, err := RenderPlot(nil, PanelWidth, PanelHeight, "svg"); err == nil {
		t.Error("nil plot: no error")
	}
	if _, err := RenderPlot(p, 0, PanelHeight, "svg"); err == nil {
		t.Error("zero width: no error")
	}
}

func TestRenderAllNilPanels(t *testing.T) {
	b, err := Render(Figure{Rows: 2, Cols: 2, Title: "nothing yet"}, "svg")
	if err != nil || len(b) == 0 {
		t.Errorf("empty figure: %d bytes, err = %v", len(b), err)
	}
}

func mustLines(t *testing.T) *plot.Plot {
	t.Helper()
	p, _, err := Lines(Axes{Title: "t", XLabel: "x", YLabel: "y"},
		Series{Name: "a", X: []float64{1, 2, 3}, Y: []float64{3, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGrayImage(t *testing.T) {
	m := mat.NewDense(2, 3, []float64{0, 8, 16, 16, 8, 0})
	p, err := GrayImage("digit", m, 0, 16)
	if err != nil {
		t.Fatal(err)
	}
	b, err := RenderPlot(p, 100, 100, "png")
	if err != nil || len(b) == 0 {
		t.Fatalf("render: %v", err)
	}
	if _, err := GrayImage("bad", mat.NewDense(1, 1, []float64{math.NaN()}), 0, 1); err == nil {
		t.Error("NaN accepted")
	}
	if _, err := GrayImage("bad", m, 1, 1); err == nil {
		t.Error("empty range accepted")
	}
}

func TestScatterEllipses(t *testing.T) {
	e := Ellipse{X: 1, Y: 2, XX: 4, XY: 1, YY: 1, SD: 2}
	pts, err := e.points(8)
	if err != nil {
		t.Fatal(err)
	}
	// Every contour point is at Mahalanobis distance SD from the centre.
	det := e.XX*e.YY - e.XY*e.XY
	for _, q := range pts {
		dx, dy := q.X-e.X, q.Y-e.Y
		m := (e.YY*dx*dx - 2*e.XY*dx*dy + e.XX*dy*dy) / det
		if math.Abs(math.Sqrt(m)-e.SD) > 1e-12 {
			t.Fatalf("point %v at distance %v, want %v", q, math.Sqrt(m), e.SD)
		}
	}
	p, err := ScatterEllipses(Axes{Title: "t"}, []float64{0, 1, 2}, []float64{0, 1, 0}, []Ellipse{e})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := RenderPlot(p, 200, 200, "svg"); err != nil || len(b) == 0 {
		t.Fatal(err)
	}
	if _, err := ScatterEllipses(Axes{}, nil, nil, []Ellipse{{XX: 1, XY: 2, YY: 1, SD: 1}}); err == nil {
		t.Error("an indefinite covariance was drawn")
	}
}

// TestWrapFitsWidth checks that every wrapped line fits the width unless
// it is a single word, and that the words and their order are kept.
func TestWrapFitsWidth(t *testing.T) {
	sty := newPlot("").Title.TextStyle
	s := "Figure 4.9: the analysers' centres (seed 0), one row per assigned digit, labelled digit: active dimensions\nsecond line kept"
	for _, w := range []vg.Length{vg.Inch, 2 * vg.Inch, 5 * vg.Inch, 20 * vg.Inch} {
		got := Wrap(sty, s, w)
		for _, line := range strings.Split(got, "\n") {
			if sty.Width(line) > w && strings.Contains(line, " ") {
				t.Errorf("width %v: line %q is %v wide", w, line, sty.Width(line))
			}
		}
		if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(s), " ") {
			t.Errorf("width %v: words changed: %q", w, got)
		}
		if !strings.Contains(got, "\nsecond line kept") && w == 20*vg.Inch {
			t.Errorf("width %v: own line break lost: %q", w, got)
		}
	}
}

// TestRenderWidensForTitle checks that a one-column figure whose title
// would need more than three lines is widened, and a wide one is not.
func TestRenderWidensForTitle(t *testing.T) {
	panel, _, err := Lines(Axes{Title: "a panel title that is longer than its narrow cell"}, Series{X: []float64{0, 1}, Y: []float64{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	title := "Figure 4.9: the analysers' centres (seed 0), one row per assigned digit, labelled digit: active dimensions"
	for _, c := range []struct {
		width vg.Length
		wider bool
	}{{vg.Inch, true}, {8 * vg.Inch, false}} {
		b, err := Render(Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{panel}, Width: c.width, Height: 2 * vg.Inch, Title: title}, "png")
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		want := int(math.Round(c.width.Dots(DPI)))
		if got := cfg.Width; (got > want) != c.wider {
			t.Errorf("width %v: rendered %d px, asked %d px, want wider=%v", c.width, got, want, c.wider)
		}
	}
	if panel.Title.Text != "a panel title that is longer than its narrow cell" {
		t.Errorf("Render changed the panel's title to %q", panel.Title.Text)
	}
}
