package plots

import (
	"testing"
)

func TestErrorBars(t *testing.T) {
	p, _, err := Lines(Axes{Title: "estimates"}, Series{Name: "IS", X: []float64{0, 1, 2}, Y: []float64{1, 2, 3}, Points: true})
	if err != nil {
		t.Fatal(err)
	}
	x, y, e := []float64{0, 1, 2, 3, 4}, []float64{1, 2, 3, nan, 2}, []float64{0.5, pInf, 4, 1, -1}
	bars, n, err := errorBars(0, x, y, e)
	if err != nil || n != 3 {
		t.Fatalf("errorBars: dropped %d, %v; want 3 dropped (an infinite error, a NaN y, a negative error)", n, err)
	}
	if n, err := ErrorBars(p, 0, x, y, e); err != nil || n != 3 {
		t.Fatalf("ErrorBars: dropped %d, %v", n, err)
	}
	if bars == nil || len(bars.XYs) != 2 || bars.XYs[1].Y != 3 || bars.YErrors[1].Low != 4 || bars.YErrors[1].High != 4 {
		t.Fatalf("error bars not added as given: %+v", bars)
	}
	if bars.LineStyle.Color != LineStyle(0).Color || bars.LineStyle.Dashes != nil {
		t.Error("error bars not drawn solid in the series' colour")
	}
	// The y axis grows to hold the bar 3 ± 4.
	if p.Y.Min > -1 || p.Y.Max < 7 {
		t.Errorf("y axis [%v, %v] does not hold [-1, 7]", p.Y.Min, p.Y.Max)
	}
	if _, err := ErrorBars(p, 0, []float64{0}, []float64{1, 2}, []float64{1}); err == nil {
		t.Error("mismatched lengths accepted")
	}
	if _, err := RenderPlot(p, PanelWidth, PanelHeight, "svg"); err != nil {
		t.Fatal(err)
	}
}
