package chapter4

import (
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
)

// TestConfusionPlotDigitLabels checks that Figure 4.10's rows and columns
// are labelled by the digit each stands for, 0-9 at positions 0-9 (row i
// of the matrix is true digit i), not by matrix indices 1-10.
func TestConfusionPlotDigitLabels(t *testing.T) {
	m := mat.NewDense(OptdigitsClasses, OptdigitsClasses, nil)
	for d := range OptdigitsClasses {
		m.Set(d, d, 1)
	}
	p, err := confusionPlot("test", m)
	if err != nil {
		t.Fatal(err)
	}
	for name, ax := range map[string]*plot.Axis{"x": &p.X, "y": &p.Y} {
		ts := ax.Tick.Marker.Ticks(ax.Min, ax.Max)
		if len(ts) != OptdigitsClasses {
			t.Fatalf("%s axis: %d ticks, want %d", name, len(ts), OptdigitsClasses)
		}
		for d, tk := range ts {
			if tk.Value != float64(d) || tk.Label != strconv.Itoa(d) {
				t.Errorf("%s axis tick %d: %q at %v, want %q at %d", name, d, tk.Label, tk.Value, strconv.Itoa(d), d)
			}
		}
	}
	if p.X.Label.Text != "assigned digit" || p.Y.Label.Text != "true digit" {
		t.Errorf("axis labels %q, %q, want assigned digit, true digit", p.X.Label.Text, p.Y.Label.Text)
	}
}
