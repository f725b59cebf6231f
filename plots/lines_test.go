package plots

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

var (
	nan  = math.NaN()
	pInf = math.Inf(1)
	nInf = math.Inf(-1)
)

func TestClean(t *testing.T) {
	s := Series{
		Name: "dF",
		X:    []float64{1, 2, 3, 4, 5, 6, 7, nan},
		Y:    []float64{1, nan, 0, -2, pInf, 5, nInf, 1},
	}
	for _, tc := range []struct {
		logX, logY bool
		x, y       []float64
		n          int
	}{
		{false, false, []float64{1, 3, 4, 6}, []float64{1, 0, -2, 5}, 4},
		{false, true, []float64{1, 6}, []float64{1, 5}, 6},
		{true, true, []float64{1, 6}, []float64{1, 5}, 6},
	} {
		c, n := Clean(s, tc.logX, tc.logY)
		if n != tc.n || !equal(c.X, tc.x) || !equal(c.Y, tc.y) {
			t.Errorf("Clean(logX=%v, logY=%v) = %v, %v, %d; want %v, %v, %d",
				tc.logX, tc.logY, c.X, c.Y, n, tc.x, tc.y, tc.n)
		}
		if c.Name != s.Name || c.Lo != nil || c.Hi != nil {
			t.Errorf("Clean changed Name or invented a band: %+v", c)
		}
	}
	if math.IsNaN(s.Y[1]) != true || s.Y[2] != 0 || len(s.X) != 8 {
		t.Error("Clean modified its input")
	}

	// log x drops x ≤ 0.
	c, n := Clean(Series{X: []float64{0, -1, 2}, Y: []float64{1, 1, 1}}, true, false)
	if n != 2 || !equal(c.X, []float64{2}) {
		t.Errorf("log x: %v, %d", c.X, n)
	}
}

func TestCleanBand(t *testing.T) {
	s := Series{
		X:  []float64{1, 2, 3, 4, 5},
		Y:  []float64{4, 3, 2, nan, 1},
		Lo: []float64{3, 0, 1, 1, 0.5},
		Hi: []float64{5, 4, pInf, 1, 2},
	}
	c, n := Clean(s, false, true)
	// Point 4 goes entirely; points 2 (Lo = 0) and 3 (Hi = Inf) keep their
	// line vertex and lose their band.
	if n != 3 {
		t.Errorf("n = %d, want 3", n)
	}
	if !equal(c.X, []float64{1, 2, 3, 5}) || !equal(c.Y, []float64{4, 3, 2, 1}) ||
		!equal(c.Lo, []float64{3, nan, nan, 0.5}) || !equal(c.Hi, []float64{5, nan, nan, 2}) {
		t.Errorf("Clean = %+v", c)
	}
	if rings := bandRings(c); len(rings) != 0 {
		t.Errorf("runs of one point make no polygon; got %v", rings)
	}

	c, _ = Clean(Series{
		X: []float64{1, 2, 3, 4, 5, 6}, Y: []float64{1, 1, 1, 1, 1, 1},
		Lo: []float64{0, 0, 0, nan, 0, 0}, Hi: []float64{2, 2, 2, 2, 2, 2},
	}, false, false)
	rings := bandRings(c)
	if len(rings) != 2 || len(rings[0]) != 6 || len(rings[1]) != 4 {
		t.Fatalf("bandRings = %v, want rings of 6 and 4 vertices", rings)
	}
	// Lower edge forward, upper edge back.
	if r := rings[1]; r[0].X != 5 || r[0].Y != 0 || r[1].X != 6 || r[2].X != 6 || r[2].Y != 2 || r[3].X != 5 {
		t.Errorf("ring = %v", r)
	}
}

func TestLinesDropped(t *testing.T) {
	p, dropped, err := Lines(Axes{LogY: true},
		Series{Name: "ok", X: []float64{1, 2}, Y: []float64{1, 2}},
		Series{Name: "zero change", X: []float64{1, 2, 3}, Y: []float64{1, 0, 2}},
		Series{Name: "all NaN", X: []float64{1, 2}, Y: []float64{nan, nan}},
		Series{Name: "empty"},
	)
	if err != nil {
		t.Fatal(err)
	}
	want := []Dropped{{Index: 1, Name: "zero change", N: 1}, {Index: 2, Name: "all NaN", N: 2}}
	if len(dropped) != len(want) || dropped[0] != want[0] || dropped[1] != want[1] {
		t.Errorf("dropped = %v, want %v", dropped, want)
	}
	if s := dropped[0].String(); !strings.Contains(s, `"zero change"`) || !strings.Contains(s, "dropped 1 point ") {
		t.Errorf("warning %q", s)
	}
	if p.Y.Min != 1 || p.Y.Max != 2 {
		t.Errorf("y range [%v, %v], want [1, 2]", p.Y.Min, p.Y.Max)
	}
	mustRender(t, p)
}

func TestLinesDegenerate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ax     Axes
		series []Series
	}{
		{"all NaN, linear", Axes{}, []Series{{X: []float64{1}, Y: []float64{nan}}}},
		{"all NaN, log", Axes{LogX: true, LogY: true}, []Series{{Name: "a", X: []float64{1}, Y: []float64{nan}}, {Name: "b"}}},
		{"all NaN, log2", Axes{Log2X: true, LogY: true}, []Series{{X: []float64{0}, Y: []float64{1}}}},
		{"no series", Axes{LogY: true}, nil},
		{"one point, log", Axes{LogX: true, LogY: true}, []Series{{X: []float64{3}, Y: []float64{5}}}},
		{"constant, log", Axes{LogY: true}, []Series{{X: []float64{1, 2}, Y: []float64{1, 1}}}},
		{"constant, linear", Axes{}, []Series{{X: []float64{1, 1}, Y: []float64{0, 0}}}},
		{"narrow, log", Axes{LogY: true}, []Series{{X: []float64{1, 2}, Y: []float64{0.3, 0.8}}}},
		{"wide, log", Axes{LogY: true}, []Series{{X: []float64{1, 2}, Y: []float64{1e-300, 1e300}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _, err := Lines(tc.ax, tc.series...)
			if err != nil {
				t.Fatal(err)
			}
			if tc.ax.LogY && !(p.Y.Min > 0) {
				t.Errorf("log y axis starts at %v", p.Y.Min)
			}
			if (tc.ax.LogX || tc.ax.Log2X) && !(p.X.Min > 0) {
				t.Errorf("log x axis starts at %v", p.X.Min)
			}
			mustRender(t, p)
		})
	}
}

func TestLinesLengthErrors(t *testing.T) {
	for _, s := range []Series{
		{Name: "xy", X: []float64{1, 2}, Y: []float64{1}},
		{Name: "lo", X: []float64{1, 2}, Y: []float64{1, 2}, Lo: []float64{1}, Hi: []float64{1, 2}},
		{Name: "hi only", X: []float64{1, 2}, Y: []float64{1, 2}, Hi: []float64{1, 2}},
	} {
		_, _, err := Lines(Axes{}, Series{Name: "fine", X: []float64{1}, Y: []float64{1}}, s)
		if err == nil || !strings.Contains(err.Error(), `series 1 ("`+s.Name+`")`) {
			t.Errorf("%s: err = %v, want one naming series 1", s.Name, err)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Clean with mismatched lengths did not panic")
		}
	}()
	Clean(Series{X: []float64{1}}, false, false)
}

func TestLinesAxes(t *testing.T) {
	s := Series{Name: "a", X: []float64{1, 2, 4, 8}, Y: []float64{10, 1, 0.1, 0.01}}
	p, _, err := Lines(Axes{Title: "T", XLabel: "n", YLabel: "err", Log2X: true, LogY: true}, s, s)
	if err != nil {
		t.Fatal(err)
	}
	if p.Title.Text != "T" || p.X.Label.Text != "n" || p.Y.Label.Text != "err" {
		t.Error("titles not set")
	}
	if _, ok := p.X.Scale.(plot.LogScale); !ok {
		t.Errorf("x scale %T", p.X.Scale)
	}
	if _, ok := p.X.Tick.Marker.(Log2Ticks); !ok {
		t.Errorf("x ticks %T", p.X.Tick.Marker)
	}
	if _, ok := p.Y.Tick.Marker.(Log10Ticks); !ok {
		t.Errorf("y ticks %T", p.Y.Tick.Marker)
	}
	if p.X.Min != 1 || p.X.Max != 8 || p.Y.Min != 0.01 || p.Y.Max != 10 {
		t.Errorf("ranges x [%v, %v] y [%v, %v]", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}

	// Legend only with more than one named series.
	one, _, _ := Lines(Axes{}, s, Series{X: []float64{1}, Y: []float64{1}})
	b := s
	b.Name = "b"
	two, _, _ := Lines(Axes{}, s, b)
	if legendRect(one).Size().X != 0 || legendRect(two).Size().X == 0 {
		t.Errorf("legend widths %v (one named), %v (two named)", legendRect(one).Size().X, legendRect(two).Size().X)
	}
	// Series named as an earlier one share its legend entry: a, b, a, a
	// has two entries, as a, b has; a, a alone has no legend.
	shared, _, _ := Lines(Axes{}, s, b, s, s)
	if got, want := legendRect(shared).Size().Y, legendRect(two).Size().Y; got != want {
		t.Errorf("legend height %v for a, b, a, a; want %v (two entries)", got, want)
	}
	if same, _, _ := Lines(Axes{}, s, s); legendRect(same).Size().X != 0 {
		t.Errorf("a, a: legend width %v, want none (one name)", legendRect(same).Size().X)
	}
}

func TestStyleCycle(t *testing.T) {
	// Styles depend only on the index and differ between neighbours.
	for i := range 20 {
		a, b := LineStyle(i), LineStyle(i+1)
		if a.Color == b.Color && len(a.Dashes) == len(b.Dashes) {
			t.Errorf("series %d and %d look alike", i, i+1)
		}
		if LineStyle(i).Color != LineStyle(i).Color {
			t.Error("LineStyle not deterministic")
		}
	}
	if _, _, _, a := BandColor(0).RGBA(); a == 0xffff || a == 0 {
		t.Errorf("band alpha %v: want translucent", a)
	}
}

func TestLogTicks(t *testing.T) {
	labels := func(tk []plot.Tick) []string {
		var l []string
		for _, t := range tk {
			if t.Label != "" {
				l = append(l, t.Label)
			}
		}
		return l
	}
	for _, tc := range []struct {
		name     string
		ticks    []plot.Tick
		want     []string
		min, max float64
	}{
		{"decades", Log10Ticks{}.Ticks(0.05, 200), []string{"0.1", "1", "10", "100"}, 0.05, 200},
		{"exp labels", Log10Ticks{}.Ticks(1e-6, 1e-3), []string{"1e-6", "1e-5", "1e-4", "0.001"}, 1e-6, 1e-3},
		{"thinned", Log10Ticks{}.Ticks(1e-12, 1), []string{"1e-12", "1e-9", "1e-6", "0.001", "1"}, 1e-12, 1},
		{"under a decade", Log10Ticks{}.Ticks(0.3, 0.8), []string{"0.3", "0.4", "0.5", "0.6", "0.7", "0.8"}, 0.3, 0.8},
		{"across one power", Log10Ticks{}.Ticks(2, 30), []string{"2", "3", "5", "10", "20", "30"}, 2, 30},
		{"across one power, wider", Log10Ticks{}.Ticks(2, 60), []string{"2", "5", "10", "20", "50"}, 2, 60},
		{"powers of two", Log2Ticks{}.Ticks(1, 64), []string{"1", "2", "4", "8", "16", "32", "64"}, 1, 64},
		{"powers of two, fractional", Log2Ticks{}.Ticks(0.3, 5), []string{"0.5", "1", "2", "4"}, 0.3, 5},
	} {
		if got := labels(tc.ticks); strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: labels %v, want %v", tc.name, got, tc.want)
		}
		for _, tk := range tc.ticks {
			if tk.Value < tc.min*(1-1e-9) || tk.Value > tc.max*(1+1e-9) {
				t.Errorf("%s: tick %v outside [%v, %v]", tc.name, tk.Value, tc.min, tc.max)
			}
		}
	}
	// Fewer than two powers in range: linear labels, all positive.
	for _, tk := range [][]plot.Tick{Log10Ticks{}.Ticks(0.51, 0.59), Log2Ticks{}.Ticks(5, 7)} {
		if len(labels(tk)) < 2 {
			t.Errorf("narrow range: labels %v", labels(tk))
		}
		for _, x := range tk {
			if x.Value <= 0 {
				t.Errorf("non-positive tick %v on a log axis", x.Value)
			}
		}
	}
	if tk := (Log10Ticks{}).Ticks(0, 1); len(tk) == 0 {
		t.Error("range from 0 gives no ticks at all")
	}
}

// legendRect returns the extent of p's legend on a 4in×3in canvas.
func legendRect(p *plot.Plot) vg.Rectangle {
	return p.Legend.Rectangle(draw.NewCanvas(&recorder.Canvas{}, PanelWidth, PanelHeight))
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

func mustRender(t *testing.T, p *plot.Plot) {
	t.Helper()
	for _, f := range []string{"svg", "png"} {
		b, err := RenderPlot(p, PanelWidth, PanelHeight, f)
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %d bytes, err = %v", f, len(b), err)
		}
	}
}
