package plots

import (
	"image"
	"image/color"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

func nrgba(c color.Color) color.NRGBA { return color.NRGBAModel.Convert(c).(color.NRGBA) }

func TestLinearMap(t *testing.T) {
	d := DivergingMap(2)
	for _, c := range []struct {
		v    float64
		want color.NRGBA
	}{
		{-2, color.NRGBA{0, 0, 255, 255}},
		{-1, color.NRGBA{128, 128, 255, 255}},
		{0, color.NRGBA{255, 255, 255, 255}},
		{1, color.NRGBA{255, 128, 128, 255}},
		{2, color.NRGBA{255, 0, 0, 255}},
	} {
		got, err := d.At(c.v)
		if err != nil || nrgba(got) != c.want {
			t.Errorf("DivergingMap(2).At(%v) = %v, %v; want %v", c.v, got, err, c.want)
		}
	}
	for _, v := range []float64{-2.5, 2.5, math.NaN()} {
		if _, err := d.At(v); err == nil {
			t.Errorf("At(%v): no error", v)
		}
	}
	g := GrayMap(0, 4)
	if got, _ := g.At(1); nrgba(got) != (color.NRGBA{191, 191, 191, 255}) {
		t.Errorf("GrayMap(0, 4).At(1) = %v, want grey 191", got)
	}
	g.SetMax(2)
	if got, _ := g.At(2); nrgba(got) != (color.NRGBA{0, 0, 0, 255}) || g.Min() != 0 || g.Max() != 2 {
		t.Errorf("after SetMax(2): At(2) = %v, range [%v, %v]", got, g.Min(), g.Max())
	}
	g.SetAlpha(0.5)
	if got, _ := g.At(0); nrgba(got).A != 128 || g.Alpha() != 0.5 {
		t.Errorf("alpha 0.5: At(0) = %v", got)
	}
	if p := d.Palette(3).Colors(); len(p) != 3 || nrgba(p[1]) != (color.NRGBA{255, 255, 255, 255}) {
		t.Errorf("Palette(3) = %v, want blue, white, red", p)
	}
}

func TestBarTicks(t *testing.T) {
	// Ticks of [−2, 2] on a bar 10 wide: each at 10·(v + 2)/4, labelled v.
	ticks := BarTicks(DivergingMap(2), 10)
	if len(ticks) == 0 {
		t.Fatal("no ticks")
	}
	labelled := 0
	for _, tk := range ticks {
		if tk.Value < 0 || tk.Value > 10 {
			t.Errorf("tick %+v outside the bar", tk)
		}
		if tk.Label == "" {
			continue
		}
		labelled++
		if tk.Label == "0" && tk.Value != 5 {
			t.Errorf("the tick of 0 is at %v, want 5 (the middle)", tk.Value)
		}
		if tk.Label == "-2" && tk.Value != 0 {
			t.Errorf("the tick of −2 is at %v, want 0", tk.Value)
		}
	}
	if labelled < 2 {
		t.Errorf("%d labelled ticks, want at least 2: %v", labelled, ticks)
	}
}

func TestHeatMapDrawn(t *testing.T) {
	// A 2×3 matrix: row 0 (top) −2, 0, 2; row 1 NaN, 5 (beyond the
	// range: red), −1.
	m := mat.NewDense(2, 3, []float64{
		-2, 0, 2,
		math.NaN(), 5, -1,
	})
	p, err := HeatMap("D", m, DivergingMap(2), "value")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder.Canvas{}
	p.Draw(draw.NewCanvas(rec, 4*vg.Inch, 3*vg.Inch))
	var imgs []*recorder.DrawImage
	for _, a := range rec.Actions {
		if a, ok := a.(*recorder.DrawImage); ok {
			imgs = append(imgs, a)
		}
	}
	if len(imgs) != 2 {
		t.Fatalf("%d images drawn, want the matrix and the colour bar", len(imgs))
	}
	mi, bar := imgs[0], imgs[1]
	if !(mi.Rectangle.Min.Y > bar.Rectangle.Max.Y) {
		t.Errorf("the matrix (y %v–%v) is not above the bar (y %v–%v)", mi.Rectangle.Min.Y, mi.Rectangle.Max.Y, bar.Rectangle.Min.Y, bar.Rectangle.Max.Y)
	}
	if math.Abs(float64(mi.Rectangle.Min.X-bar.Rectangle.Min.X)) > 1e-9 || math.Abs(float64(mi.Rectangle.Max.X-bar.Rectangle.Max.X)) > 1e-9 {
		t.Errorf("the bar spans x %v–%v, the matrix %v–%v", bar.Rectangle.Min.X, bar.Rectangle.Max.X, mi.Rectangle.Min.X, mi.Rectangle.Max.X)
	}
	// The colour at the centre of each entry's block.
	b := mi.Image.Bounds()
	at := func(img image.Image, x, y int) color.NRGBA { return nrgba(img.At(x, y)) }
	blue, white, red := color.NRGBA{0, 0, 255, 255}, color.NRGBA{255, 255, 255, 255}, color.NRGBA{255, 0, 0, 255}
	want := [2][3]color.NRGBA{{blue, white, red}, {nrgba(NaNColor), red, {128, 128, 255, 255}}}
	for i := 0; i < 2; i++ {
		for j := 0; j < 3; j++ {
			x, y := b.Min.X+(2*j+1)*b.Dx()/6, b.Min.Y+(2*i+1)*b.Dy()/4
			if got := at(mi.Image, x, y); got != want[i][j] {
				t.Errorf("entry (%d, %d): colour %v, want %v", i, j, got, want[i][j])
			}
		}
	}
	bb := bar.Image.Bounds()
	if at(bar.Image, bb.Min.X, bb.Min.Y) != blue || at(bar.Image, bb.Max.X-1, bb.Min.Y) != red {
		t.Errorf("the bar runs from %v to %v, want blue to red", at(bar.Image, bb.Min.X, bb.Min.Y), at(bar.Image, bb.Max.X-1, bb.Min.Y))
	}
	if _, err := RenderPlot(p, 300, 250, "png"); err != nil {
		t.Errorf("render: %v", err)
	}
}

func TestHeatMapErrors(t *testing.T) {
	m := mat.NewDense(1, 1, []float64{1})
	if _, err := HeatMap("t", m, nil, ""); err == nil {
		t.Error("nil map accepted")
	}
	if _, err := HeatMap("t", m, GrayMap(1, 1), ""); err == nil {
		t.Error("empty range accepted")
	}
	if _, err := HeatMap("t", m, GrayMap(0, math.Inf(1)), ""); err == nil {
		t.Error("infinite range accepted")
	}
	if _, err := HeatMap("t", &mat.Dense{}, GrayMap(0, 1), ""); err == nil {
		t.Error("empty matrix accepted")
	}
}

// TestColorBar: the bar spans the map's range on the x axis, which carries
// the label, from the colour of Min at the left to that of Max at the
// right, along the bottom of the data area, with the title written above
// it; a nil map or an empty range is an error.
func TestColorBar(t *testing.T) {
	p, err := ColorBar("scale of row 1", DivergingMap(0.5), "bias (no units)")
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min != -0.5 || p.X.Max != 0.5 || p.X.Label.Text != "bias (no units)" {
		t.Errorf("x axis [%v, %v] %q", p.X.Min, p.X.Max, p.X.Label.Text)
	}
	rec := &recorder.Canvas{}
	c := draw.NewCanvas(rec, 4*vg.Inch, 3*vg.Inch)
	p.Draw(c)
	var bar *recorder.DrawImage
	var title *recorder.FillString
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *recorder.DrawImage:
			bar = a
		case *recorder.FillString:
			if a.String == "scale of row 1" {
				title = a
			}
		}
	}
	if bar == nil || title == nil {
		t.Fatalf("bar %v, title %v: want both drawn", bar, title)
	}
	da := p.DataCanvas(c)
	if d := bar.Rectangle.Min.Y - da.Min.Y; d*d > 1e-6 {
		t.Errorf("the bar starts at y %v, the data area at %v", bar.Rectangle.Min.Y, da.Min.Y)
	}
	if !(title.Point.Y >= bar.Rectangle.Max.Y) {
		t.Errorf("the title (y %v) is not above the bar (top %v)", title.Point.Y, bar.Rectangle.Max.Y)
	}
	bb := bar.Image.Bounds()
	blue, red := color.NRGBA{0, 0, 255, 255}, color.NRGBA{255, 0, 0, 255}
	if nrgba(bar.Image.At(bb.Min.X, bb.Min.Y)) != blue || nrgba(bar.Image.At(bb.Max.X-1, bb.Min.Y)) != red {
		t.Errorf("the bar does not run from blue to red")
	}
	if _, err := ColorBar("", nil, ""); err == nil {
		t.Error("nil map: no error")
	}
	if _, err := ColorBar("", NewLinearMap(1, 1, color.White, color.Black), ""); err == nil {
		t.Error("empty range: no error")
	}
}
